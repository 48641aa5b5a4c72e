"""The demo's time base: whole steps of shared time, the same however they are grouped."""

from __future__ import annotations

from kiosk.timebase import SimulatedTime, real_time_pacer


def _stamps(sim: SimulatedTime) -> list[tuple[float, float]]:
    seen: list[tuple[float, float]] = []
    clock = sim.clock()
    sim.on_step.append(lambda: seen.append((clock.now(), sim.wall())))
    return seen


def test_steps_are_the_same_in_one_call_or_many() -> None:
    whole, pieces = SimulatedTime(speed=30.0), SimulatedTime(speed=30.0)
    a, b = _stamps(whole), _stamps(pieces)
    whole.advance_shared(100.0)
    for _ in range(300):
        pieces.advance_shared(1 / 3)
    assert len(a) == 100
    assert b == a


def test_shared_time_is_exact_whatever_the_speed() -> None:
    stamps = []
    for speed in (1.0, 30.0, 2000.0, 7.3):
        sim = SimulatedTime(speed=speed, wall_start=1_795_802_400.0)
        seen = _stamps(sim)
        sim.advance(5000.0 / speed)  # monotonic seconds, as a fake clock is moved
        sim.advance_shared(1.0)  # whatever rounding left owing comes out here
        stamps.append(seen[:5000])
    assert all(s == stamps[0] for s in stamps)
    assert stamps[0][-1] == (6000.0, 1_795_802_400.0 + 5000.0)


def test_a_slow_frame_takes_several_steps_each_at_its_own_time() -> None:
    real = [50.0]
    sim = SimulatedTime(speed=30.0)
    seen = _stamps(sim)
    pace = real_time_pacer(sim, monotonic=lambda: real[0])
    pace()  # the first frame starts the count
    real[0] += 0.1  # 3 shared seconds
    pace()
    real[0] += 1.0  # a slow frame: 30 more at once
    pace()
    assert [now for now, _ in seen] == [1000.0 + n for n in range(1, 34)]
    # The loop's timers read the same time slowed down by the speed.
    assert sim() == 1000.0 + 33 / 30
