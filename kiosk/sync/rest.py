"""How often sync's timers wake on a device with nobody to talk to (pure; time passed in).

A table box switched on before the others, or a display whose Wi-Fi is
gone, has no peer: its time sync, anti-entropy and network checks have
nothing to do, yet they woke a dozen times a second. They keep their own
periods for :attr:`Rest.after` seconds after the last thing that happened
(start-up, a peer linked or lost, the network changed) so a power-on join
or a heal is as quick as ever, then each sleep doubles up to :attr:`Rest.cap`.
Whatever happens next puts them back on their own periods at once
(:meth:`Rest.stir`, and the service wakes the sleepers). A local write is
not such a thing: it goes to the links there are, and a device alone has
nobody to tell until a link opens, which sends ``have`` as it opens.

Finding peers does not wait on these timers: mDNS announcements are heard
when they come (zeroconf browses on events), a peer that dials in is
accepted at once, and a network change is read from netlink when it comes.

>>> rest = Rest(after=15.0, cap=8.0, since=0.0)
>>> [rest.next(1.0, d, now=20.0) for d in (1.0, 2.0, 4.0, 8.0)]
[2.0, 4.0, 8.0, 8.0]
>>> rest.next(1.0, 8.0, now=10.0)  # not a while yet
1.0
>>> rest.stir(30.0); rest.next(1.0, 8.0, now=31.0)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["REST_AFTER", "REST_CAP", "Rest"]

#: Seconds of nothing happening before the timers back off: longer than the
#: TD's box waits for its peers at power-on (kiosk.night.JOIN_WAIT, 10 s).
REST_AFTER = 15.0
#: The longest sleep of a resting timer (seconds). Long: whatever a timer
#: would find to do (a peer linked, the network changed) wakes it at once, so
#: a resting timer only wakes for nothing; at 8 s the three of them cost a
#: lone device a third of its running clock's CPU.
REST_CAP = 60.0


@dataclass
class Rest:
    after: float = REST_AFTER
    cap: float = REST_CAP
    #: When the last thing happened (the service's monotonic seconds).
    since: float = 0.0

    def stir(self, now: float) -> None:
        """Something happened: every timer back to its own period."""
        self.since = max(self.since, now)

    def resting(self, now: float) -> bool:
        return now - self.since >= self.after

    def next(self, period: float, last: float, *, now: float) -> float:
        """The next sleep of a timer with its own ``period`` whose last sleep was ``last``."""
        if not self.resting(now):
            return period
        return min(max(self.cap, period), max(period, last * 2))
