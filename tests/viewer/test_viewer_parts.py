"""The viewer's parts on real sockets and real pygame surfaces, in one process."""

from __future__ import annotations

import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from string import Formatter

import pytest
from websockets.sync.client import connect

from kiosk.config import ConfigError, parse_config
from kiosk.viewer import server as server_module
from kiosk.viewer.night import night_json
from kiosk.viewer.server import ViewerServer
from kiosk.viewer.words import WORDS
from rules.i18n import LANGUAGES
from tests.bench.realproc import wait
from tests.viewer.realkiosk import free_port

KEY = "ab" * 32


@pytest.fixture
def server() -> Iterator[ViewerServer]:
    made = ViewerServer(host="127.0.0.1", port=0, max_connections=3,
                        document=b'{"v": 1, "n": 0}')
    made.start()
    try:
        yield made
    finally:
        made.stop()


def test_every_language_has_the_same_words_and_placeholders() -> None:
    def fields(value: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(value) if name}

    keys = set(WORDS["nn"])
    for lang in LANGUAGES:
        assert set(WORDS[lang]) == keys, lang
        for key in keys:
            assert fields(WORDS[lang][key]) == fields(WORDS["nn"][key]), (lang, key)


def test_a_night_with_no_tournament_is_a_document_too() -> None:
    from rules.state import Tournament

    doc = night_json(Tournament(), 5.0, lang="da")
    assert doc["lang"] == "da" and not doc["tournament"]
    assert set(doc["words"]) == set(LANGUAGES)


def test_phones_are_pushed_each_new_document_and_the_newest_is_served(
        server: ViewerServer) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with connect(f"ws://127.0.0.1:{server.port}/live", open_timeout=5) as phone:
        assert json.loads(phone.recv(timeout=5)) == {"v": 1, "n": 0}
        end = time.monotonic() + 5
        while server.phones != 1:
            assert time.monotonic() < end
            time.sleep(0.01)
        server.publish(b'{"v": 1, "n": 1}')
        assert json.loads(phone.recv(timeout=5)) == {"v": 1, "n": 1}
    with urllib.request.urlopen(base + "/night.json", timeout=5) as answer:
        assert json.load(answer) == {"v": 1, "n": 1}
        assert answer.headers["Cache-Control"] == "no-store"


def test_past_the_cap_a_phone_is_asked_to_come_back_later(server: ViewerServer) -> None:
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
    try:
        wait(lambda: server.open + server.drops["full"] >= 4, 5, "four sockets taken or refused")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=5)
        assert refused.value.code == 503
        assert server.drops["full"] >= 2 and server.drops["address"] == 0
    finally:
        for sock in held:
            sock.close()
    wait(lambda: server.open == 0, 5, "the held sockets closed")
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=5) as answer:
        assert answer.status == 200


def test_one_address_has_its_share_and_a_phone_elsewhere_still_gets_in() -> None:
    made = ViewerServer(host="127.0.0.1", port=0, max_connections=6, per_address=2)
    made.start()
    held: list[socket.socket] = []
    try:
        for _ in range(4):  # a laptop at 127.0.0.1
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sock.connect(("127.0.0.1", made.port))
            held.append(sock)
        wait(lambda: made.open + made.drops["address"] >= 4, 5, "four sockets taken or refused")
        assert made.open == 2 and made.drops == {"full": 0, "address": 2, "unsent": 0}
        phone = http.client.HTTPConnection("127.0.0.1", made.port, timeout=5,
                                           source_address=("127.0.0.2", 0))
        phone.request("GET", "/night.json")
        assert phone.getresponse().status == 200
        phone.close()
        for sock in held:
            sock.close()
        # Its connections gone, the laptop's address has its share again.
        wait(lambda: made.open == 0 and not made.by_address, 5, "the laptop's sockets closed")
        assert made.open == 0 and not made.by_address
    finally:
        for sock in held:
            sock.close()
        made.stop()


class _Peer:
    def __init__(self, host: str) -> None:
        self.host = host

    def get_extra_info(self, name: str) -> object:
        return (self.host, 1234, 0, 0) if ":" in self.host else (self.host, 1234)


@pytest.mark.parametrize(("host", "share"), [
    ("192.168.1.20", "192.168.1.20"),
    ("::ffff:192.168.1.20", "192.168.1.20"),  # a dual-stack socket's IPv4 peer
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),  # one device may have its /64 whole
    ("fe80::1%wlan0", "fe80::/64")])
def test_an_address_share_is_counted_by_the_address_or_its_slash_64(
        host: str, share: str) -> None:
    assert server_module._address(_Peer(host)) == share  # type: ignore[arg-type]


def test_a_port_taken_is_an_oserror_in_the_caller() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        viewer = ViewerServer(host="127.0.0.1", port=taken.getsockname()[1])
        with pytest.raises(OSError):
            viewer.start()
        viewer.stop()


def test_the_viewer_is_on_by_default_on_a_display_only() -> None:
    display = parse_config(f'[venue]\nkey = "{KEY}"\n', hostname="pi")
    assert display.viewer.enabled and display.viewer.port == 8080 and display.viewer.qr
    table = parse_config(f'[device]\nrole = "table"\ntable = 1\n[venue]\nkey = "{KEY}"\n',
                         hostname="pi")
    assert not table.viewer.enabled
    told = parse_config(f'[venue]\nkey = "{KEY}"\n[viewer]\nport = 8081\nqr = false\n',
                        hostname="pi")
    assert told.viewer.port == 8081 and not told.viewer.qr


@pytest.mark.parametrize(("line", "nn"), [
    ("port = 0", "viewer.port = 0 er utanfor grensene; bruk eit tal frå 1 til 65 535"),
    ('port = "80"', "viewer.port må vere"),
    ("enabled = 1", "viewer.enabled må vere"),
    ("prot = 8080", "viewer.prot er ukjend i pubpoker.toml; meinte du viewer.port?"),
])
def test_a_bad_viewer_setting_says_which_and_why(line: str, nn: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(f'[venue]\nkey = "{KEY}"\n[viewer]\n{line}\n', hostname="pi")
    assert err.value.translate("nn").startswith(nn)
    assert err.value.translate("en") != err.value.translate("nn")


def test_a_big_blind_ante_reads_as_the_glossary_says() -> None:
    from kiosk.viewer.night import _bb_ante
    from rules.structure import AnteKind, Level

    level = Level(400, 800, ante=800, ante_kind=AnteKind.BIG_BLIND)
    assert (_bb_ante("Blindar 400 / 800 – Ante 800", level, "nn")
            == "Blindar 400 / 800 – BB-ante 800")
    assert _bb_ante("Blinds 400 / 800 – Ante 800", level, "en") == "Blinds 400 / 800 – BB ante 800"
    per_player = Level(400, 800, ante=100)
    assert _bb_ante("Blindar 400 / 800 – Ante 100", per_player, "nn").endswith("– Ante 100")


def test_the_document_names_no_player_id_and_no_card(tmp_path: Path) -> None:
    from kiosk.store import open_store
    from rules.commands import BustPlayers
    from tests.kiosk.store.helpers import Night, players

    store = open_store(data_dir=tmp_path)
    try:
        night = Night(store).started(players(6, prefix="pid-"))
        night.do(BustPlayers(("pid-3",), by="pid-1"))
        doc = night_json(night.state, night.now + 30, lang="nn")
        text = json.dumps(doc)
        assert "pid-" not in text and store.device_id not in text
        assert doc["remaining"] == 5 and doc["clock"]["running"]
        assert [r["name"] for r in doc["words"]["nn"]["placed"]] == ["Player 3"]
        assert doc["words"]["en"]["players_label"] == "Players left"
        assert {s["name"] for s in doc["seats"]} == {f"Player {i}" for i in range(1, 7)}
    finally:
        store.close()


def test_the_qr_code_sits_in_its_corner_and_never_over_the_clock(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from kiosk.display import qr
    from kiosk.display.layout import draw_digits
    from kiosk.display.screens import clock_digits_box, paused_banner_box, render_clock
    from kiosk.display.viewmodels import clock_view
    from kiosk.store import open_store
    from tests.kiosk.store.helpers import Night, players

    pygame.font.init()
    qr.install("http://192.0.2.7:8080/", ("Følg med på mobilen", "pubpoker-display.local:8080"))
    try:
        for size in ((800, 480), (1024, 768), (1280, 720), (1920, 1080), (3840, 2160)):
            surface = pygame.Surface(size)
            box = qr.qr_box(surface)
            assert box is not None
            assert box.height <= size[1] * qr.MAX_HEIGHT + 1
            assert box.top >= paused_banner_box(surface).bottom
            for digits in ("59:59", "1:59:59"):
                ink = draw_digits(pygame.Surface(size), digits, clock_digits_box(surface))
                assert not box.colliderect(ink)
            assert box.right <= size[0]
        surface = pygame.Surface((1280, 720))
        store = open_store(data_dir=tmp_path)
        state = Night(store).started(players(4)).state
        store.close()
        render_clock(surface, clock_view(state, 10.0, "nn"))
        box = qr.qr_box(surface)
        assert box is not None
        whites = sum(1 for x in range(box.left, box.right) for y in range(box.top, box.bottom)
                     if surface.get_at((x, y))[:3] == (255, 255, 255))
        assert whites > box.width * box.height // 6  # the code's light modules
        qr.uninstall()
        render_clock(surface, clock_view(state, 10.0, "nn"))
        assert all(surface.get_at((x, y))[:3] != (255, 255, 255)
                   for x in range(box.left, box.right, 3) for y in range(box.top, box.bottom, 3))
    finally:
        qr.uninstall()


def test_the_port_flag_is_refused_in_the_users_language() -> None:
    import subprocess
    import sys

    from tests.kiosk.store.helpers import ROOT, child_env

    done = subprocess.run([sys.executable, "-m", "kiosk.cli", "kiosk", "--viewer-port", "http",
                           "--data-dir", "/nonexistent-never-made"], cwd=ROOT, env=child_env(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--viewer-port må vere ein port frå 1 til 65535, eller 0 for ingen" in done.stderr
    assert free_port() > 0


def test_a_peers_bust_reaches_the_phones_in_the_loops_next_turn(tmp_path: Path) -> None:
    """A peer's records, stored and folded by the station as sync's replicator does,
    are on the phones after one turn of the loop, with no wait for the next second."""
    from kiosk.bootstrap import Options, bootstrap
    from kiosk.store import open_store
    from rules.commands import BustPlayers
    from tests.kiosk.store.helpers import Night, players

    peer = open_store(data_dir=tmp_path / "peer")
    night = Night(peer, "t1").started(players(4))
    port = free_port()
    app = bootstrap(Options(data_dir=str(tmp_path / "wall"), viewer_port=port,
                            viewer_qr=False, sound=False), fake=True)
    try:
        app.station.accept(peer.missing_since({}))
        app.loop.step(block=False)
        with connect(f"ws://127.0.0.1:{port}/live", open_timeout=5) as phone:
            assert json.loads(phone.recv(timeout=5))["remaining"] == 4
            app.station.accept(night.do(BustPlayers(("p1",), by="p2")))
            sent = time.monotonic()
            app.loop.step(block=False)
            doc = json.loads(phone.recv(timeout=5))
            assert doc["remaining"] == 3 and time.monotonic() - sent < 1.0
            assert [r["name"] for r in doc["words"]["nn"]["placed"]] == ["Player 1"]
    finally:
        app.close()
        peer.close()


def test_a_phone_that_stops_reading_is_let_go_not_buffered_for(server: ViewerServer) -> None:
    with socket.socket() as stuck:
        # A small window before connecting: the kernel holds little for it.
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", server.port))
        stuck.sendall(b"GET /live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                      b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      b"Sec-WebSocket-Version: 13\r\n\r\n")
        assert stuck.recv(12) == b"HTTP/1.1 101"
        end = time.monotonic() + 5
        while server.phones != 1:
            assert time.monotonic() < end
            time.sleep(0.01)
        big = json.dumps({"v": 1, "pad": "x" * 50000}).encode()
        end = time.monotonic() + 20
        while server.phones != 0:  # documents the phone never reads
            assert time.monotonic() < end, "the stuck phone was kept"
            server.publish(big)
            time.sleep(0.01)
        assert server.sent < 400
        assert server.drops["unsent"] == 1
