"""Card readers in the booted appliance: a reader's wire, the kernel, the kiosk (issue 46).

The VM of devices_vm.py, shared with the buttons' tests: the example
``pubpoker.toml`` with its ``[reader]`` lines uncommented, as a venue owner
would (``/dev/serial0``, an RDM6300; then a PN532 on the same port), the guest's
second serial port wired to a socket on the host and named ``/dev/serial0`` as the
header's UART is on a Pi, a USB serial adapter on an xHCI bus, and the kiosk's
status file (the pop-ups said, each reader's counters), read through the guest
agent.

A check-in is read from outside: the store through ``pubpoker tournament
show --json``, the words of the pop-up from the status file, and the pop-up's
yellow box on QMP's screendump. A wait polls the status file (a ``cat``), and
the store is asserted once it says the thing happened: the CLI is a Python
start-up in the guest, seconds of a core under TCG, too dear to poll with.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import statistics
import time
from collections.abc import Callable

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame

from hardware.readers.rdm6300 import encode_frame as rdm_frame
from kiosk.controls.messages import MESSAGES
from kiosk.display.messages import text
from tests.appliance.devices_vm import (
    TV,
    USB_SERIAL,
    USB_SERIAL_NUMBER,
    WEDGE_SERIAL_NUMBER,
    Booted,
    config_text,
    configure,
    status,
)
from tests.appliance.test_vm_boot import MODE, UNIT, journal, main_pid, td
from tests.appliance.vm import Screen, Vm
from tests.hardware.fake_pn532 import FakePn532, card, corrupt

pytestmark = [pytest.mark.slow, pytest.mark.vm, pytest.mark.chroot, pytest.mark.timeout(1800)]

LANG = "nn"  # the example config's language
SEATED = ("Bo", "Cy", "Di")
ADA, EVA, FAY, GRO = "0A00C3F21B", "0A00C3F21C", "0A00C3F21D", "0A00C3F21E"
HAL, INE = "0A00C3F21F", "0A00C3F220"
# NFC tags' NFCIDs (4 or 7 bytes), as the PN532 reads them.
NFC_JON, NFC_LIV, NFC_MIA = "04A1B2C3", "04C1D2E3F4A5B6", "04D1E2F3"
STRANGER = "1F00AB12CD"
# The decimal EM4100 number a keyboard-wedge reader types.
WEDGE_KAI = "0012345678"
TAPS = 20
TIMED = [(f"Spelar {n:02d}", f"2B0000{n:04X}") for n in range(1, TAPS + 1)]
# Gone from the screen after POPUP_SECONDS (5 s), with TCG's frames to spare.
POPUP_GONE = 15.0


@pytest.fixture
def booted(devices_vm: Booted) -> Booted:
    """The shared VM as the TD's device with its RDM6300 on /dev/serial0, connected."""
    if configure(devices_vm, config_text()):
        vm = devices_vm.vm
        vm.wait_for("the RDM6300 connected", lambda: reader(vm).get("connected") is True,
                    60, every=0.5)
    return devices_vm


# --- reading the guest --------------------------------------------------------------


def reader(vm: Vm) -> dict[str, object]:
    readers = status(vm).get("readers") or {}
    assert isinstance(readers, dict)
    found = readers.get("reader") or {}
    assert isinstance(found, dict)
    return found


def said(vm: Vm) -> list[str]:
    """The titles of the pop-ups shown since the kiosk started (the last 30)."""
    return [entry[0] for entry in status(vm).get("said") or []]  # type: ignore[union-attr]


def show(vm: Vm) -> dict[str, object]:
    shown: dict[str, object] = json.loads(td(vm, "tournament", "show", "--json"))
    return shown


def seat_in(shown: dict[str, object], name: str) -> tuple[int, int] | None:
    """``name``'s table and seat in what ``pubpoker tournament show --json`` said."""
    for table in shown["tables"]:  # type: ignore[attr-defined]
        for seat in table["seats"]:
            if seat["name"] == name:
                return table["number"], seat["seat"]
    return None


def entrants(vm: Vm) -> int:
    value = show(vm)["entrants"]
    assert isinstance(value, int)
    return value


def kiosk_entrants(vm: Vm) -> int | None:
    """The entrants as the kiosk's own state has them (its status file)."""
    value = status(vm).get("entrants")
    return value if isinstance(value, int) else None


def wait_entrants(vm: Vm, what: str, count: int, timeout: float = 30) -> dict[str, object]:
    """Until the kiosk counts ``count`` entrants; then the store must say so too. Returns
    what the store said (one guest CLI call: seconds of a core under TCG each)."""
    vm.wait_for(what, lambda: kiosk_entrants(vm) == count, timeout, every=0.5)
    shown = show(vm)
    assert shown["entrants"] == count, f"{what}: the kiosk says {count}, the store does not"
    return shown


YELLOW = (255, 214, 0)  # kiosk/display/layout.py's: the pop-up's frame and its line


def popup_box(screen: Screen) -> pygame.Rect | None:
    """The pop-up's yellow frame on the screen: one yellow outline, over half the
    screen wide and over 8 % of it high: the box in the middle of the clock, or the
    ticker's band over the seating (issue 49). Nothing else is: the paused banner and
    the colour-up box are 7 %."""
    if screen.size != MODE:
        return None
    mask = pygame.mask.from_threshold(screen.surface, YELLOW, (40, 40, 60, 255))
    width, height = MODE
    return next((r for r in mask.get_bounding_rects()
                 if r.width > width // 2 and r.height > height * 0.08), None)


def popup_on(screen: Screen) -> bool:
    return popup_box(screen) is not None


def popup_pixels(screen: Screen) -> bytes | None:
    """What the pop-up shows, pixel for pixel (None: no pop-up)."""
    box = popup_box(screen)
    if box is None:
        return None
    return bytes(pygame.image.tostring(screen.surface.subsurface(box), "RGB"))


def quiet_screen(vm: Vm, timeout: float = POPUP_GONE) -> None:
    """Wait until no pop-up shows, on the screen and in the kiosk's own words."""
    deadline = time.monotonic() + timeout
    while popup_on(vm.screendump()) or any(status(vm).get("popups") or []):
        assert time.monotonic() < deadline, "a pop-up stayed on the screen"
        time.sleep(0.5)


def wait_popup(vm: Vm, timeout: float = 30, unlike: bytes | None = None,
               ) -> tuple[float, Screen]:
    """The time until a pop-up shows; with ``unlike``, a pop-up other than that one
    (a check-in's pop-up takes the place of the one before at once)."""
    start = time.monotonic()
    while True:
        screen = vm.screendump()
        pixels = popup_pixels(screen)
        if pixels is not None and pixels != unlike:
            return time.monotonic() - start, screen
        if time.monotonic() - start > timeout:
            screen.save(vm.work / "no-popup.png")
            raise AssertionError(
                f"no new pop-up on the screen within {timeout} s; said {said(vm)}\n"
                f"{journal(vm, UNIT)[-3000:]}")
        time.sleep(0.02)


def wait_said(vm: Vm, what: str, check: Callable[[str], bool], timeout: float = 30) -> str:
    found: list[str] = []

    def done() -> bool:
        found[:] = [title for title in said(vm) if check(title)]
        return bool(found)

    vm.wait_for(what, done, timeout, every=0.5)
    return found[-1]


def tap(booted: Booted, uid: str) -> None:
    booted.serial.send(rdm_frame(uid))


# --- the RDM6300 on /dev/serial0 ------------------------------------------------------


def test_the_reader_is_on_serial0_and_connected(booted: Booted) -> None:
    vm = booted.vm
    assert vm.out("readlink", "-f", "/dev/serial0").strip() == "/dev/ttyS1"
    vm.wait_for("the kiosk's reader connected", lambda: reader(vm).get("connected") is True,
                60, every=1)
    kiosk_log = journal(vm, UNIT)
    assert "Traceback" not in kiosk_log, kiosk_log[-3000:]
    assert "card reader" not in kiosk_log, kiosk_log[-3000:]  # no reconnects


def test_a_known_card_checks_in_and_its_seat_shows(booted: Booted) -> None:
    vm = booted.vm
    td(vm, "tournament", "new", "--yes")  # after the buttons' night
    rows = [("Ada", ADA), ("Eva", EVA), ("Fay", FAY), ("Gro", GRO), ("Hal", HAL),
            ("Ine", INE), ("Jon", NFC_JON), ("Kai", WEDGE_KAI),
            ("Liv", NFC_LIV), ("Mia", NFC_MIA), *TIMED,
            *((name, "") for name in SEATED)]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([("name", "card"), *rows])
    vm.run("tee", "/run/pubpoker-players.csv", stdin=out.getvalue())
    td(vm, "players", "import", "/run/pubpoker-players.csv")
    for name in SEATED:
        td(vm, "checkin", name)
    td(vm, "seat", "draw")
    # Started and paused, as for late registration: the clock is on the TV under the
    # pop-ups. Running, its frame each second is a full-screen draw through llvmpipe
    # under TCG, half a host core for as long as it runs; the buttons' tests run it.
    td(vm, "clock", "start")
    td(vm, "clock", "pause")
    quiet_screen(vm, 60)

    tap(booted, ADA)
    seconds, screen = wait_popup(vm)
    screen.save(booted.work / "ada-checked-in.png")
    shown = wait_entrants(vm, "Ada checked in", len(SEATED) + 1)
    seat = seat_in(shown, "Ada")
    assert seat is not None
    # One pop-up for the check-in, the room's: her name, and her seat on its line.
    expected = ["Ada", text("checked_in_seat", LANG, table=seat[0], seat=seat[1]), "check-in"]
    vm.wait_for("Ada's check-in said", lambda: expected in status(vm).get("said", []), 30,
                every=0.5)
    print(f"\nVM: Ada's card to her seat on the TV: {seconds:.2f} s ({expected})")


def test_an_unknown_card_gets_the_prompt_then_becomes_a_guest(booted: Booted) -> None:
    """The TD's desk asks for a name; with nobody typing (no keyboard) the card becomes
    "Gjest 1" after GUEST_AFTER seconds (kiosk/night.py), checked in with that card."""
    from kiosk.night import GUEST_AFTER

    vm = booted.vm
    before = entrants(vm)
    assert kiosk_entrants(vm) == before
    quiet_screen(vm)
    tap(booted, STRANGER)
    opened = time.monotonic()
    wait_popup(vm)
    prompt = MESSAGES["new-card"][LANG]
    wait_said(vm, "the new card's prompt", lambda title: title == prompt)
    assert entrants(vm) == before, "the unknown card checked someone in at once"
    tap(booted, STRANGER)  # tapped again while asked: still the one prompt
    shown = wait_entrants(vm, "the card made a guest", before + 1, GUEST_AFTER + 30)
    assert time.monotonic() - opened > GUEST_AFTER - 2
    guest = "Gjest 1"
    assert seat_in(shown, guest) is not None
    players = json.loads(td(vm, "players", "list", "--format", "json"))
    assert [p["name"] for p in players if STRANGER in p["cards"]] == [guest], players


def test_a_corrupt_frame_is_counted_and_ignored(booted: Booted) -> None:
    vm = booted.vm
    quiet_screen(vm, 60)
    before, counted = entrants(vm), reader(vm)
    assert kiosk_entrants(vm) == before
    good = rdm_frame(EVA)
    booted.serial.send(good[:11] + b"00" + good[13:])  # a wrong checksum
    booted.serial.send(good[:7] + b"\x02")  # cut short by the next start byte
    vm.wait_for("two corrupt frames counted",
                lambda: reader(vm).get("rejected") == int(counted["rejected"]) + 2,  # type: ignore[call-overload]
                30, every=0.5)
    time.sleep(2)
    shown = show(vm)
    assert shown["entrants"] == before, "a corrupt frame checked someone in"
    assert seat_in(shown, "Eva") is None
    assert reader(vm)["reads"] == counted["reads"]
    # The reader reads on: Eva's good frame checks her in.
    tap(booted, EVA)
    shown = wait_entrants(vm, "Eva in after the corrupt frames", before + 1)
    assert seat_in(shown, "Eva") is not None


def test_line_noise_does_not_stop_the_next_good_card(booted: Booted) -> None:
    vm = booted.vm
    quiet_screen(vm)
    pid, before, counted = main_pid(vm), entrants(vm), reader(vm)
    assert kiosk_entrants(vm) == before
    noise = random.Random(46)
    for _ in range(8):  # a motor starting by the bar: 8 KiB of garbage, in bursts
        booted.serial.send(bytes(noise.randrange(256) for _ in range(1024)))
        time.sleep(0.05)
    tap(booted, FAY)
    shown = wait_entrants(vm, "Fay in after the noise", before + 1)
    assert seat_in(shown, "Fay") is not None
    after = reader(vm)
    assert int(after["rejected"]) > int(counted["rejected"]), after  # type: ignore[call-overload]
    assert after["connected"] is True and after["failures"] == counted["failures"], after
    assert main_pid(vm) == pid, "the kiosk restarted"


def test_tap_to_screen_timing(booted: Booted) -> None:
    """From the frame's last byte on the host's socket to the pop-up on the screendump.

    The figure holds QMP's screendump (the host polls it as fast as it
    answers) and TCG makes all of it slower than on a Pi.
    """
    vm = booted.vm
    seconds = []
    quiet_screen(vm)
    showing: bytes | None = None
    for name, uid in TIMED:
        # No wait for the last pop-up to go: the next check-in's takes its place.
        started = time.monotonic()
        tap(booted, uid)
        took, screen = wait_popup(vm, unlike=showing)
        seconds.append(took)
        showing = popup_pixels(screen)
        assert time.monotonic() - started < 30, name
        # The pop-up seen is this tap's: the kiosk said this name.
        wait_said(vm, name, lambda title, name=name: title == name, timeout=10)
    p50, worst = statistics.median(seconds), max(seconds)
    dumps = []
    for _ in range(5):
        started = time.monotonic()
        vm.screendump()
        dumps.append(time.monotonic() - started)
    names = [name for name, _ in TIMED]
    sitting = {seat["name"] for table in show(vm)["tables"]  # type: ignore[attr-defined]
               for seat in table["seats"]}
    seated = [name for name in names if name in sitting]
    print(f"\nVM: RDM6300 frame to the check-in on the TV, p50 {p50:.2f} s, max {worst:.2f} s "
          f"over {TAPS} taps; one screendump alone takes {statistics.median(dumps):.2f} s "
          f"(median of 5)")
    with open(booted.work / "figures.txt", "a") as fh:
        fh.write(f"tap to screen p50\t{p50:.2f}\ntap to screen max\t{worst:.2f}\n")
    assert len(seated) == TAPS, f"not seated: {set(names) - set(seated)}"
    assert worst < 10, seconds


def reader_configured(booted: Booted, url: str, kind: str) -> None:
    """The kiosk restarted with this reader in its config, connected. The next test
    that wants the RDM6300 restarts it with that (the ``booted`` fixture)."""
    vm = booted.vm
    configure(booted, config_text().replace('url = "/dev/serial0"\nkind = "rdm6300"',
                                            f'url = "{url}"\nkind = "{kind}"'))
    vm.wait_for(f"the {kind} reader connected",
                lambda: reader(vm).get("connected") is True, 60, every=0.5)


# --- a PN532 (HSU) on the header's UART ------------------------------------------------


def test_a_pn532_on_serial0_checks_in_and_a_corrupt_response_is_counted(
        devices_vm: Booted) -> None:
    """The other serial reader a pub wires to the header: kind pn532 on /dev/serial0. Its
    first answer to a poll is corrupted on the wire and refused (counted); the chip's
    next copy checks Mia in, once."""
    booted = devices_vm  # its reader is configured below, not by the fixture
    vm = booted.vm
    chip = FakePn532(booted.serial, [])
    chip.start()
    try:
        reader_configured(booted, "/dev/serial0", "pn532")
        quiet_screen(vm, 60)
        before, counted = entrants(vm), reader(vm)
        chip.replies.append([corrupt(card(NFC_MIA)), card(NFC_MIA)])
        shown = wait_entrants(vm, "Mia in by her NFC tag", before + 1)
        assert seat_in(shown, "Mia") is not None
        now = reader(vm)
        assert int(now["rejected"]) > int(counted["rejected"]), (counted, now)  # type: ignore[call-overload]
        name = wait_said(vm, "Mia's check-in on the wall", lambda title: "Mia" in title)
        assert "Mia" in name
    finally:
        chip.stop()


# --- a PN532 behind a USB serial adapter, unplugged and plugged back ------------------


def by_id(vm: Vm, directory: str, serial: str, suffix: str = "") -> str:
    """A USB device's ``by-id`` name (its serial number in it): what a pub's config says."""
    found: list[str] = []

    def named() -> bool:
        listing = vm.out("sh", "-c", f"ls {directory} 2>/dev/null").split()
        found[:] = [n for n in listing if serial in n and n.endswith(suffix)]
        return bool(found)

    vm.wait_for(f"a by-id name with {serial}", named, 60, every=1)
    return f"{directory}/{found[0]}"


def test_a_pn532_on_usb_serial_reads_again_after_an_unplug_without_a_restart(
        devices_vm: Booted) -> None:
    """The config names the adapter by id, kind pn532. A tap checks Jon in; pulled out,
    the wall says the reader is gone and the kiosk carries on; plugged back in, the
    next tap checks Liv in, and the kiosk never restarted."""
    booted = devices_vm  # its reader is configured below, not by the fixture
    vm = booted.vm
    chip = FakePn532(booted.usb, [])
    chip.start()
    url = by_id(vm, "/dev/serial/by-id", USB_SERIAL_NUMBER)
    try:
        reader_configured(booted, url, "pn532")
        pid, before = main_pid(vm), entrants(vm)
        quiet_screen(vm, 60)
        chip.replies.append([card(NFC_JON)])
        shown = wait_entrants(vm, "Jon in by his NFC tag", before + 1)
        assert seat_in(shown, "Jon") is not None

        vm.qmp("device_del", id="usbserial")
        lost = MESSAGES["reader-lost"][LANG]
        wait_said(vm, "the wall saying the reader is gone", lambda title: title == lost)
        assert reader(vm).get("connected") is False
        time.sleep(3)  # gone a while, as a barman's knee would leave it
        assert main_pid(vm) == pid, "the kiosk restarted when the reader went"

        driver, _, rest = USB_SERIAL.partition(",")
        options = dict(part.split("=", 1) for part in rest.split(","))
        plugged = time.monotonic()
        vm.wait_for("the adapter plugged back in",
                    lambda: _device_add(vm, driver=driver, **options), 30, every=0.5)
        try:
            vm.wait_for("the PN532 connected again",
                        lambda: reader(vm).get("connected") is True, 30, every=0.2)
        except TimeoutError as err:
            raise AssertionError(
                f"{err}\nby-id: {vm.out('ls', '-l', '/dev/serial/by-id/')}\n"
                f"reader: {reader(vm)}\n{journal(vm, UNIT)[-3000:]}") from None
        connected = time.monotonic() - plugged
        chip.replies.append([card(NFC_LIV)])
        vm.wait_for("Liv in after the replug", lambda: kiosk_entrants(vm) == before + 2, 30,
                    every=0.2)
        read = time.monotonic() - plugged
        shown = show(vm)
        assert shown["entrants"] == before + 2
        assert seat_in(shown, "Liv") is not None
        assert main_pid(vm) == pid, "the kiosk restarted for the replug"
        print(f"\nVM: PN532 on USB serial plugged back in: connected after {connected:.2f} s, "
              f"a tap checked in after {read:.2f} s (TCG, the agent's polls included)")
        with open(booted.work / "figures.txt", "a") as fh:
            fh.write(f"usb replug to connected\t{connected:.2f}\n"
                     f"usb replug to check-in\t{read:.2f}\n")
        assert read < 15, read
    finally:
        chip.stop()


def _device_add(vm: Vm, **options: str) -> bool:
    """QMP's device_add; False while the unplugged device's id is still taken."""
    try:
        vm.qmp("device_add", **options)
    except RuntimeError as err:  # QMP said no: the deletion is still under way
        if "Duplicate" in str(err) or "already" in str(err):
            return False
        raise
    return True


# --- a keyboard-wedge reader, and a person typing on another keyboard -------------------


def key(vm: Vm, char: str, device: str | None = None) -> None:
    """One key pressed and let go: on the wedge (``device=TV``) or the person's keyboard."""
    qcode = "ret" if char == "\n" else char
    events = [{"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": qcode}}}
              for down in (True, False)]
    if device is None:
        vm.qmp("input-send-event", events=events)
    else:
        vm.qmp("input-send-event", device=device, events=events)


def test_a_wedge_reader_checks_in_and_a_person_typing_at_once_cannot_spoil_it(
        devices_vm: Booted) -> None:
    """The config names the wedge by its USB name. Kai's card typed on it checks him in
    while a person types digits and Enter on the other keyboard between its keys: the
    card is Kai's and nothing else, and no key of it reached the clock."""
    booted = devices_vm  # its reader is configured below, not by the fixture
    vm = booted.vm
    url = by_id(vm, "/dev/input/by-id", WEDGE_SERIAL_NUMBER, "event-kbd")
    reader_configured(booted, url, "wedge")
    quiet_screen(vm, 60)
    before, clock = entrants(vm), show(vm)["clock"]
    titles = len(said(vm))
    person = iter("99\n")
    for n, char in enumerate(WEDGE_KAI + "\n"):
        key(vm, char, device=TV)
        if n % 4 == 1:
            key(vm, next(person))
        # QEMU's HID keyboard queues 16 events and drops the rest until the guest
        # polls; a real reader sends one report per poll.
        time.sleep(0.1)
    try:
        vm.wait_for("Kai in by the wedge", lambda: kiosk_entrants(vm) == before + 1, 30,
                    every=0.5)
    except TimeoutError as err:
        raise AssertionError(f"{err}\nreader: {reader(vm)}\nsaid: {said(vm)[titles:]}\n"
                             f"{journal(vm, UNIT)[-3000:]}") from None
    time.sleep(3)
    assert kiosk_entrants(vm) == before + 1
    shown = show(vm)
    assert shown["entrants"] == before + 1
    assert seat_in(shown, "Kai") is not None
    # Kai's check-in and nothing else: no unknown card's prompt from a digit of
    # the person's mixed in.
    new = said(vm)[titles:]
    assert new and all(title.startswith("Kai") for title in new), new
    assert reader(vm)["rejected"] == 0, reader(vm)
    assert show(vm)["clock"]["level"] == clock["level"]  # type: ignore[index]
