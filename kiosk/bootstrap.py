"""The one place that wires real or fake parts into a running kiosk.

``bootstrap(options)`` opens the store, builds the shared clock and the
station, opens the display and the mixer, and gives back an
:class:`~kiosk.app.App` whose loop is ready to run. ``fake=True`` swaps in
the parts a test wants: SDL's dummy video and audio drivers, no sound, no
watchdog, and a :class:`~kiosk.app.ManualTime` that moves only when the
test moves it (for both shared time and the loop's own timers).

It takes either :class:`Options` (the demo and tests) or a
:class:`kiosk.config.Config` loaded from ``pubpoker.toml`` (the appliance),
which :func:`options_from_config` turns into options.

The data dir is chosen here, once, by :func:`kiosk.paths.data_dir`'s
precedence (``--data-dir``, the config, ``$PUBPOKER_DATA_DIR``,
``/data/pubpoker``, XDG), and made if missing.

With ``screen=False`` everything but the screen starts: the store, peer
sync, buttons and readers, and a loop that draws off-screen. The appliance
then calls :func:`wait_for_screen` (no TV yet: it keeps the night going and
tells systemd it waits) and :func:`open_screen` once a TV is there. SDL's
video starts only then, because its KMSDRM driver looks for screens once,
when it starts.
"""

from __future__ import annotations

import logging
import os
import random
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk import lean_pygame, paths  # noqa: F401  # lean_pygame first: no pkg_resources
from kiosk.app import App, Core, Flow, FlowParts, ManualTime
from kiosk.display.hooks import Hooks
from kiosk.display.loop import KioskLoop
from kiosk.display.parts import LoopParts
from kiosk.store.looks import LookSchedule
from kiosk.store.schema import Synchronous
from kiosk.timebase import SharedClock, SimulatedTime, time_of_day

if TYPE_CHECKING:
    import pygame

    from kiosk.station import Station
    from kiosk.sync.replicate import Replicator
    from kiosk.wiring import SyncSettings

__all__ = [
    "Options",
    "bootstrap",
    "open_screen",
    "options_from_config",
    "resolve_options",
    "wait_for_screen",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Options:
    """How to build a kiosk; every field has the laptop default."""

    #: None: the demo's fresh temporary directory (``temp_data``) or the default data dir.
    data_dir: str | None = None
    #: A fresh temporary data dir, removed on close (the demo never touches real data).
    temp_data: bool = False
    #: ``display``, ``console``, ``table`` or several joined with ``+``.
    role: str = "display"
    #: The table a ``table`` device sits at.
    table: int | None = None
    lang: str = "nn"
    size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    headless: bool = False
    speed: float = 1.0
    sound: bool = True
    seed: int | None = None
    #: Real seconds between automatic screen changes (None: only Tab changes screen).
    rotate_seconds: float | None = None
    #: The loop wakes at least this often (ms), to feed the watchdog and the hooks.
    max_wait_ms: int = 1000
    min_wait_ms: int = 10
    shift: bool = True
    watchdog: bool = False
    #: SQLite's synchronous mode: FULL on the appliance (a bust the TD saw must
    #: survive a power cut); the demo's throwaway store can use OFF.
    synchronous: Synchronous = "FULL"
    #: The id a fresh store gives this device; None draws a random one. The
    #: demo's comes from its seed, so the same seed writes the same log.
    device_id: str | None = None
    #: The players' phone page (:mod:`kiosk.viewer`) on this port; None or 0: not served.
    viewer_port: int | None = None
    #: Its QR code on the wall's clock screen.
    viewer_qr: bool = True


def options_from_config(config: Any, **overrides: Any) -> Options:
    """Options for the appliance from a :class:`kiosk.config.Config`."""
    device = config.device
    roles = getattr(device, "roles", None) or (getattr(device, "role", "display"),)
    display = getattr(config, "display", None)
    data_dir = getattr(device, "data_dir", None)
    viewer = getattr(config, "viewer", None)
    options = Options(
        viewer_port=viewer.port if viewer is not None and viewer.enabled else None,
        viewer_qr=viewer is not None and viewer.qr,
        data_dir=None if data_dir is None else str(data_dir),
        role="+".join(str(r) for r in roles),
        table=getattr(device, "table", None),
        lang=getattr(device, "language", "nn"),
        fullscreen=getattr(display, "fullscreen", True),
        sound=getattr(display, "sound", True),
        watchdog=True,
    )
    return replace(options, **overrides)


def resolve_options(config_or_options: Any,
                    overrides: Mapping[str, Any] | None = None) -> Options:
    """The options :func:`bootstrap` builds from: a config's or the given ones, overridden."""
    options = (config_or_options if isinstance(config_or_options, Options)
               else options_from_config(config_or_options))
    return replace(options, **overrides) if overrides else options


def _watchdog() -> Callable[[], None]:
    """Ping systemd's watchdog from the loop, if the appliance module is there."""
    try:
        from kiosk.sdnotify import Watchdog
    except ImportError:  # a checkout without the appliance parts
        return lambda: None
    dog = Watchdog.from_env()

    def ping() -> None:
        dog.tick(time.monotonic())

    return ping


def _ready(status: str) -> Callable[[], None]:
    try:
        from kiosk.sdnotify import ready
    except ImportError:
        return lambda: None

    def say_ready() -> None:
        ready(status)

    return say_ready


def _open_display(options: Options, *, fake: bool, index: int = 0) -> pygame.Surface:
    import pygame

    pygame.display.init()
    if pygame.display.get_driver().lower() == "kmsdrm":
        # SDL 2.26 (Debian bookworm) gives KMSDRM's window surface the desktop
        # "opengl" renderer on the GLES context KMSDRM makes: Mesa refuses its
        # textures and the TV stays black however often we flip. GLES 2 is
        # what KMSDRM has (vc4/v3d on a Pi, llvmpipe in a VM). Read at set_mode.
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "opengles2")
    if options.fullscreen and not fake:
        if not 0 <= index < pygame.display.get_num_displays():
            index = 0
        display = pygame.display.set_mode((0, 0), pygame.FULLSCREEN, display=index)
        pygame.mouse.set_visible(False)
    else:
        display = pygame.display.set_mode(options.size)
    pygame.display.set_caption("pubpoker-kiosk")
    return display


def _health(every: float = 30.0) -> Callable[[str], Sequence[str]]:
    """The Pi's under-voltage and SD-card errors for the status line, read every 30 s."""
    from kiosk.health import Health, check

    last: list[Any] = [-every, Health()]

    def messages(lang: str) -> Sequence[str]:
        now = time.monotonic()
        if now - last[0] >= every:
            last[:] = [now, check()]
        health: Health = last[1]
        return health.messages(lang)

    return messages


def _disk(store: Any) -> Callable[[str], Sequence[str]]:
    """The store's disk for the status line: full since a refused write, or low.

    Read at every draw (one statvfs); a refused press shows at once, and the
    warning goes as soon as space is freed.
    """

    def messages(lang: str) -> Sequence[str]:
        notice = store.disk_notice()
        return () if notice is None else (notice.translate(lang),)

    return messages


def _restarted(store: Any, *, fake: bool, monotonic: Callable[[], float]
               ) -> list[Callable[[str], Sequence[str]]]:
    """Why the last kiosk process on this store died, on the status line for a while."""
    if fake:
        return []
    from kiosk.last_exit import restarted_source, take

    reason = take(store.path.parent)
    return [] if reason is None else [restarted_source(reason, monotonic)]


def _controls(station: Station, roles: str, table: int | None,
              monotonic: Callable[[], float], buttons: tuple[str, ...] = (),
              flow: FlowParts | None = None) -> Any:
    """The role's controls for every button, key and card (:mod:`kiosk.controls`);
    None for a role without any, or a table device not told its table. ``buttons``
    are the configured ones, in the panel's order: the help screen names these;
    a flow's (the night's) rows go before the table's, and its buttons are named."""
    from kiosk.controls import Controller
    from kiosk.controls.dispatch import Rows
    from kiosk.role import Role

    if "table" in roles.split("+") and table is None:
        return None
    wanted = frozenset(Role(r) for r in roles.split("+") if r in {x.value for x in Role})
    if not wanted:
        return None
    if flow is None:
        return Controller(station, wanted, table, monotonic=monotonic, buttons=buttons,
                          rows=Rows())
    return Controller(station, wanted, table, monotonic=monotonic, buttons=flow.buttons,
                      rows=flow.rows)


def _pins(config: Any) -> dict[str, int]:
    """The configured buttons (action: BCM pin), in the panel's order; none for
    :class:`Options` or a config without ``[buttons]``."""
    buttons = getattr(config, "buttons", None)
    return dict(buttons.as_dict()) if buttons else {}


def _shows_its_table(options: Options) -> bool:
    """A table device (not also the wall) shows its own table instead of the wall's screens."""
    roles = options.role.split("+")
    return "table" in roles and "display" not in roles and options.table is not None


def _loop_parts(core: Core, options: Options, controls: Any,
               flow: FlowParts | None) -> LoopParts:
    """What the loop shows besides the wall's screens: the flow's (the night's), or a
    table device's own screen (:mod:`kiosk.table_device`) on a table device."""
    parts = flow.loop if flow is not None else LoopParts()
    if not _shows_its_table(options):
        return parts
    from kiosk.table_device.live import TableDevice

    assert options.table is not None
    return replace(parts, table_screen=TableDevice(core, options.table, controls).view)


def bootstrap(config_or_options: Any, *, fake: bool = False,
              overrides: Mapping[str, Any] | None = None, screen: bool = True,
              time_base: SimulatedTime | None = None,
              flow: Callable[[Core], Flow] | None = None,
              sync: SyncSettings | None = None) -> App:
    """Build a kiosk from :class:`Options` or a loaded config; ``fake`` for tests.

    ``overrides`` replace fields of the options (the command line's ``--role``
    or ``--data-dir`` over the config's); a config's devices are still attached.
    With ``screen=False`` the display stays closed until :func:`open_screen`.
    ``time_base`` (the demo's) gives shared time and the store's wall clock,
    and with ``fake`` the loop's timers too (``app.time``); without ``fake``
    the loop's timers stay on the real clock.
    ``flow`` (the night, :func:`kiosk.night.night_for`) is made from the
    :class:`~kiosk.app.Core` before the loop, and its parts are handed to the
    loop and the controls as they are built; its tick hook runs after every other.
    ``sync`` starts peer sync (a config's venue gives it on the appliance) and
    hands the loop its receivers and peer count as it is built.
    A data dir that cannot be used raises :class:`kiosk.paths.DataDirUnusable`.
    """
    options = resolve_options(config_or_options, overrides)
    if fake or options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"

    import pygame

    from kiosk.display.loop import InputQueue
    from kiosk.display.sound import Chimes
    from kiosk.station import Station
    from kiosk.store import open_store

    temp = None
    if options.temp_data and options.data_dir is None:
        temp = tempfile.TemporaryDirectory(prefix="pubpoker-demo-")
        data_dir = Path(temp.name)
    else:
        # open_store makes it if missing, or says in one sentence why it cannot.
        data_dir = paths.data_dir(options.data_dir)
    # On a full disk the kiosk still shows the night it has, refusing presses
    # until there is room; the CLI says the disk is full instead.
    store = open_store(data_dir=data_dir, synchronous=options.synchronous,
                       device_id=options.device_id,
                       wall=time.time if time_base is None else time_base.wall,
                       as_is_when_full=True)
    # The disk's state at the open is shown live by the status line (_disk), not twice.
    store.warnings[:] = [n for n in store.warnings if n.key not in ("disk-low", "disk-full")]
    manual: ManualTime | SimulatedTime | None = None
    if fake:
        manual = ManualTime() if time_base is None else time_base
    source = manual if manual is not None else time.monotonic
    clock = (SharedClock(speed=options.speed, source=source) if time_base is None
             else time_base.clock())
    station = Station(store, clock, random.Random(options.seed), role=options.role,
                      table=options.table)
    # What the flow reads of the loop and of peer sync, both made after it, it reads
    # when asked: the app's by then.
    core = Core(store, station, clock, store.path.parent, source,
                lang=lambda: app.loop.lang, sync=lambda: app.sync)
    made = flow(core) if flow is not None else None
    parts = made.parts() if made is not None else None

    pygame.font.init()
    # Until the screen opens the loop holds a token surface; open_screen swaps it.
    display = _open_display(options, fake=fake) if screen else pygame.Surface((16, 9))
    chimes = Chimes(enabled=options.sound and not fake)
    painter = None
    if _shows_its_table(options):
        from kiosk.table_device.render import table_painter

        painter = table_painter(display, shift=options.shift)
    controls = _controls(station, options.role, options.table, source,
                         tuple(_pins(config_or_options)), parts)
    follow_looks = LookSchedule(every=2.0)
    # Before sync: its replicator leaves the store's watch to the loop's when there is one.
    changed = None if fake else _store_changed(station, follow_looks)
    settings = sync if sync is not None else _sync_settings(config_or_options, fake=fake)
    inputs = InputQueue()
    replicator = None
    if settings is not None:
        from kiosk.wiring import start_sync

        replicator = start_sync(station, clock, inputs, settings, role=options.role,
                                table=options.table)
    loop = KioskLoop(
        station, display, lang=options.lang, role=options.role, inputs=inputs,
        chimes=chimes, watchdog=_watchdog() if options.watchdog and not fake else lambda: None,
        monotonic=source, min_wait_ms=options.min_wait_ms, max_wait_ms=options.max_wait_ms,
        rotate_seconds=options.rotate_seconds, shift=options.shift,
        hooks=Hooks(status_sources=[*([_health()] if options.watchdog and not fake else []),
                                    _disk(store),
                                    *_restarted(store, fake=fake, monotonic=source)]),
        painter=painter, controls=controls,
        # Fake time has no wall clock: screenshots must not change by the minute.
        time_of_day=(lambda: "20:00") if fake else time_of_day,
        parts=_loop_parts(core, options, controls, parts),
        **({} if replicator is None else _synced(replicator)),
        wake_sources=() if changed is None else (changed,))
    app = App(store=store, station=station, clock=clock, loop=loop, chimes=chimes,
              data_dir=store.path.parent, time=manual,
              sync=None if replicator is None else replicator.service,
              core=core, flow=made, _temp=temp, follow_looks=follow_looks)
    if replicator is not None:
        app.on_close.insert(0, replicator.service.stop)
    app.hooks.on_tick.append(app.follow_store)
    if store.refusal is not None:
        app.hooks.on_tick.append(app.recover_store)
    if changed is not None:
        app.on_close.append(changed.watcher.close)
    from kiosk.display.framelog import from_env as frame_log

    frames = frame_log(station)  # PUBPOKER_FRAME_LOG: a test outside sees each frame
    if frames is not None:
        loop.painter.on_shown.append(frames.shown)
        app.on_close.append(frames.close)
    if options.watchdog and not fake and screen:
        app.on_ready.append(_ready("Showing the kiosk"))
    from kiosk.status_file import from_env as status_file

    status_file(app)  # PUBPOKER_STATUS_FILE: a scenario test watches this kiosk
    if replicator is not None:
        app.hooks.on_tick.append(replicator.tick)
    if not isinstance(config_or_options, Options):
        _attach_devices(app, config_or_options, options, fake=fake)
    if options.viewer_port:
        from kiosk.viewer.attach import attach_viewer

        # Last: its hook folds and reads the night after every other hook's turn.
        attach_viewer(app, options.viewer_port, qr=options.viewer_qr)
    if app.sync is not None or app.viewer is not None:
        from kiosk.pause_ledger import attach as keep_pauses

        keep_pauses(app)  # for `pubpoker doctor`: was the box at its descriptor limit?
    if parts is not None:
        # After every other part's hook, as when the night was attached to a built kiosk.
        app.hooks.on_tick.append(parts.tick)
        app.on_close.append(parts.close)
    return app


class _StoreChanged:
    """The store's change signal as a wake source of the loop (:mod:`kiosk.store.watch`)."""

    def __init__(self, station: Station, looks: Sequence[LookSchedule]) -> None:
        from kiosk.store.watch import StoreWatcher

        self.station = station
        self.watcher = StoreWatcher(station.store.path)
        station.store.others_committed()  # from now on
        self.looks = looks
        for schedule in looks:
            schedule.signalled = True

    def fileno(self) -> int:
        return self.watcher.fileno()

    def drain(self) -> bool:
        """Whether another process committed: the loop's next turn folds it. The
        kiosk's own commits (a clock checkpoint every 5 s) let the loop sleep on."""
        if not (self.watcher.changed() and self.station.store.others_committed()):
            return False
        for schedule in self.looks:
            schedule.changed()
        for hook in self.station.on_store_changed:
            hook()
        return True


def _store_changed(station: Station, follow_looks: LookSchedule) -> _StoreChanged | None:
    """What wakes the sleeping loop when another process (``pubpoker bust …``) commits,
    so the screen shows the TD's terminal at once, not at the next second; and
    look for such rows only then, not at every turn of the loop."""
    try:
        return _StoreChanged(station, [station.looks, follow_looks])
    except OSError as err:  # no inotify, no descriptor: the loop looks at every turn
        log.warning("store changes will be noticed within a second only: %s", err)
        return None


def _sync_settings(config: Any, *, fake: bool) -> SyncSettings | None:
    """The appliance's peer sync from its config (the venue's key, this device's name
    and addresses); none for :class:`Options` or a fake kiosk."""
    if fake or isinstance(config, Options):
        return None
    from kiosk.wiring import SyncSettings

    interface = getattr(config.network, "interface", None)
    return SyncSettings(config.venue.key, name=config.device.name,
                        addresses=_addresses(interface))


def _synced(replicator: Replicator) -> dict[str, Any]:
    """What the loop is built with for peer sync: its receivers and its peer count."""
    from kiosk.wiring import sync_receivers

    return {"receivers": sync_receivers(replicator), "peers": replicator.service.peer_count}


class _Stopped(Exception):
    """The loop was told to stop while the kiosk waited for a screen."""


def _pump(app: App, seconds: float) -> None:
    """Run the loop's work that needs no screen for ``seconds``.

    Turns of the loop without the events and the drawing, which need SDL's
    video (:meth:`~kiosk.display.loop.KioskLoop.act`): inputs acted on as
    they come, the hooks, the clock's checkpoint and systemd's watchdog.
    """
    loop = app.loop
    end = loop.monotonic() + seconds
    while loop.running:
        now = loop.monotonic()
        timeout = end - now
        for source in app.hooks.deadlines:
            deadline = source()
            if deadline is not None:
                timeout = min(timeout, deadline - now)
        # The loop's own sleep: woken by inputs and by the store's change signal
        # too, so the TD's commands are followed while the TV is away.
        loop.sleep(max(0.0, timeout))
        loop.act()
        if loop.monotonic() >= end:
            return
    raise _Stopped


def wait_for_screen(app: App, root: str | os.PathLike[str], *, connector: str | None = None,
                    notify: bool = True, poll: float = 0.5) -> str | None:
    """Keep the night going until a screen is ready under ``root``; return its connector.

    Tells systemd the kiosk is up (``READY=1``: the store and peer sync run)
    with a ``STATUS=`` that says it waits and what it sees, and keeps the
    watchdog fed, however long that takes: a TV that is off is no reason to
    exit and be restarted. None if the loop was stopped meanwhile.
    """
    from kiosk import hdmi, sdnotify

    pinned = f" {connector}" if connector else ""

    def waiting(seen: str) -> None:
        if notify:
            sdnotify.ready(f"Waiting for a display{pinned} (store and peer sync running): "
                           f"{seen}")

    try:
        return hdmi.wait_for_display(root, connector=connector, poll=poll,
                                     idle=lambda seconds: _pump(app, seconds),
                                     on_change=waiting)
    except _Stopped:
        return None


def open_screen(app: App, options: Options, *, root: str | os.PathLike[str] | None = None,
                connector: str | None = None) -> None:
    """Start SDL's video on ``connector`` and give the loop its screen.

    After :func:`bootstrap` with ``screen=False``. ``READY=1`` with a new
    ``STATUS=`` follows the first frame on the screen.
    """
    index = 0
    if root is not None and connector is not None:
        from kiosk.hdmi import card_number, display_index

        index = display_index(root, connector)
        card = card_number(connector)
        if card is not None:
            # SDL's KMSDRM opens one card, and its own guess can be a render-only
            # card or another card's screen rather than the connector the wait
            # chose. An operator's own setting in the unit stays.
            os.environ.setdefault("SDL_KMSDRM_DEVICE_INDEX", str(card))
    display = _open_display(options, index=index, fake=False)
    app.loop.use_display(display)
    if options.watchdog:
        shown = f"Showing the kiosk on {connector}" if connector else "Showing the kiosk"
        app.on_ready.append(_ready(shown))


def _buttons_not_started(app: App, err: Exception, lang: str) -> None:
    """Log why the buttons are off; one of ours (no GPIO chip: ``hardware.errors.NoGpio``,
    a pin given twice) also stays on the status line, in the kiosk's language."""
    from rules.errors import RulesError

    if not isinstance(err, RulesError):
        log.error("buttons not started: %s", err)
        return
    log.error("buttons not started: %s", err.translate(lang))
    message = err

    def status(lang: str) -> Sequence[str]:
        return (message.translate(lang),)

    app.hooks.status_sources.append(status)


def _attach_devices(app: App, config: Any, options: Options, *, fake: bool) -> None:
    """The config's buttons and card reader, each closed with the app, and (peer sync
    started with the loop) tonight's tournament followed.

    A part that cannot start (no GPIO on a laptop, a reader not plugged in) is
    logged and left out; the clock on the wall matters more than any one part.
    """
    from kiosk.wiring import attach_buttons, attach_reader

    pins = _pins(config)
    if pins:
        try:
            from kiosk.fake_pins import from_env

            fake_pins = from_env()  # a scenario test's mock pins (PUBPOKER_FAKE_PINS)
            if fake_pins is not None:
                app.on_close.append(fake_pins.close)
            attach_buttons(app, pins,
                           pin_factory=None if fake_pins is None else fake_pins.factory)
        except Exception as err:  # gpiozero raises its own family for a missing chip
            _buttons_not_started(app, err, options.lang)
    reader = getattr(config, "reader", None)
    if reader is not None:
        attach_reader(app, reader.url, reader.kind)
    if fake:
        return
    from kiosk.tonight import follow_tonight

    # Peers' tournaments arrive now: every device shows the one the log makes tonight's.
    follow_tonight(app)


def _addresses(interface: str | None) -> tuple[str, ...]:
    """The IPv4 addresses of the configured interface, or of every interface."""
    import socket

    if interface is None:
        import ifaddr  # zeroconf's own dependency

        found = tuple(ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
                      if isinstance(ip.ip, str) and not ip.ip.startswith("127."))
        return found or ("127.0.0.1",)
    import struct
    from fcntl import ioctl

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            packed = ioctl(sock.fileno(), 0x8915,  # SIOCGIFADDR
                           struct.pack("256s", interface.encode()[:15]))
        except OSError:
            log.error("interface %s has no IPv4 address yet; trying every interface",
                      interface)
            return _addresses(None)
    return (socket.inet_ntoa(packed[20:24]),)
