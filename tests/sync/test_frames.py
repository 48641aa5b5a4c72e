"""The frame decoder and a link's checks never crash, whatever arrives."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.sync.auth import frame_mac, new_key
from kiosk.sync.frames import MAX_FRAME, PROTOCOL, Frame, FrameError, decode_frame, encode_frame
from kiosk.sync.link import Identity, Link
from kiosk.sync.stats import SyncStats

KEY = new_key()


def genuine(kind: str = "have", counter: int = 1, session: str = "", **fields: Any) -> str:
    frame: dict[str, Any] = {"v": PROTOCOL, "t": kind, "c": counter,
                             "n": secrets.token_hex(16), "s": session, **fields}
    frame["mac"] = frame_mac(KEY, frame)
    return encode_frame(frame)


def link(stats: SyncStats) -> Link:
    async def nothing(*args: Any) -> None:
        return None

    return Link(None, key=KEY, me=Identity("me", "console"), dialer=True,  # type: ignore[arg-type]
                stats=stats, tournament=lambda: None, on_open=nothing, on_frame=nothing)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=2000) | st.text(max_size=2000))
def test_random_bytes_are_malformed_never_a_crash(data: bytes | str) -> None:
    try:
        frame = decode_frame(data)
    except FrameError as err:
        assert err.reason in {"malformed", "oversize"}
    else:
        assert isinstance(frame, Frame)
    stats = SyncStats()
    if link(stats).check(data) is None:
        assert sum(stats.drops().values()) == 1


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["v", "t", "c", "n", "s", "mac", "vector", "digest",
                                        "events", "more", "t0", "extra"]), json_values))
def test_frame_shaped_junk_is_refused_with_a_reason(obj: dict[str, Any]) -> None:
    stats = SyncStats()
    assert link(stats).check(json.dumps(obj)) is None
    assert sum(stats.drops().values()) == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=200), st.binary(min_size=1, max_size=1))
def test_one_flipped_byte_breaks_the_mac_or_the_shape(where: int, byte: bytes) -> None:
    text = genuine(vector={"d1": 3}, digest="abc")
    i = where % len(text)
    if text[i].encode() == byte:
        return
    mutated = text[:i].encode() + byte + text[i + 1:].encode()
    stats = SyncStats()
    checked = link(stats).check(mutated)
    assert checked is None
    assert sum(stats.drops().values()) == 1


def test_a_genuine_hello_passes_and_its_replay_does_not() -> None:
    stats = SyncStats()
    lk = link(stats)
    hello = genuine("hello", proto=PROTOCOL, device="d2", role="table", table=1, name="t1",
                    tournament=None, challenge=secrets.token_hex(16))
    assert lk.check(hello) is not None
    assert lk.check(hello) is None
    assert stats.drops() == {"replay": 1}


def test_a_frame_before_the_hello_is_unexpected() -> None:
    stats = SyncStats()
    assert link(stats).check(genuine(vector={}, digest="")) is None
    assert stats.drops() == {"unexpected": 1}


def test_an_oversize_frame_is_refused_before_parsing() -> None:
    with pytest.raises(FrameError) as err:
        decode_frame(b" " * (MAX_FRAME + 1))
    assert err.value.reason == "oversize"


def test_nan_is_not_json() -> None:
    with pytest.raises(FrameError):
        decode_frame('{"v":1,"t":"time","c":1,"n":"0","s":"","t0":NaN,"mac":"0"}')
