"""Canonical JSON for events and state.

Every device must produce byte-identical JSON for equal values, because MACs
and state digests are computed over it. Dataclasses become objects whose keys
are sorted; tuples and lists become arrays; enums become their values;
frozensets become sorted arrays. Decoding uses the dataclass type hints, so
``dict[int, ...]`` keys and nested records come back with their real types.

Encoding uses the same hints. A field declared ``float`` may hold an ``int``
(``sum([])`` is ``0``, not ``0.0``), and JSON spells the two apart: ``0``
would decode as ``0.0``, which encodes as ``0.0``, so a decoded copy would
hash differently from the value it came from. A number in a ``float`` slot is
therefore always spelt as a float, and ``decode(encode(x))`` encodes exactly
as ``x`` does, for every field of every record, new ones included.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

__all__ = ["CodecError", "canonical_json", "from_jsonable", "to_jsonable"]

T = TypeVar("T")


class CodecError(ValueError):
    """Data that does not fit the type it is decoded into."""


def to_jsonable(value: Any) -> Any:
    """Turn records, enums and collections into plain JSON values.

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class P:
    ...     b: tuple[int, ...]
    ...     a: frozenset[str]
    >>> to_jsonable(P((1, 2), frozenset({"y", "x"})))
    {'b': [1, 2], 'a': ['x', 'y']}

    A number where a float is declared is spelt as the float it decodes to:

    >>> @dataclasses.dataclass(frozen=True)
    ... class C:
    ...     position: float
    ...     since: float | None = None
    ...     holds: tuple[float, ...] = ()
    >>> to_jsonable(C(0, 5, (1, 2.5)))
    {'position': 0.0, 'since': 5.0, 'holds': [1.0, 2.5]}
    >>> canonical_json(C(0)) == canonical_json(from_jsonable(C, to_jsonable(C(0))))
    True
    """
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _record_encoder(type(value))(value)
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(to_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {_key(k): to_jsonable(v) for k, v in value.items()}
    raise CodecError(f"cannot encode {type(value).__name__}")


_Encode = Callable[[Any], Any]


@cache
def _record_encoder(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A record's fields, each spelt by its declared type (see :func:`_encoder`)."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        # Hints that cannot be resolved (a class local to a function): such a
        # record cannot be decoded either, so spell it by its values alone.
        hints = {}
    # A nested record is spelt by its own class's encoder when it is met, so
    # building these never recurses and self-referencing records work.
    encoders = tuple((f.name, _encoder(hints[f.name]) if f.name in hints else to_jsonable)
                     for f in _fields(cls))

    def enc(value: Any) -> dict[str, Any]:
        return {name: e(getattr(value, name)) for name, e in encoders}
    return enc


def _to_float(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise CodecError(f"{value} is too large for a float") from None
    return to_jsonable(value)


def _holds_float(tp: Any) -> bool:
    """Does a value of type ``tp`` hold a float of its own (not in a nested record)?"""
    return tp is float or any(_holds_float(a) for a in typing.get_args(tp)
                              if a is not Ellipsis)


@cache
def _encoder(tp: Any) -> _Encode:
    """How a value declared as ``tp`` is spelt: as :func:`to_jsonable` does, except
    that an ``int`` where a ``float`` is declared becomes that float."""
    if tp is float:
        return _to_float
    if not _holds_float(tp):
        # Strings, ints, enums, records (spelt by their own class), Any, literals.
        return to_jsonable
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return _union_encoder(args)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        item_encs = [_encoder(a) for a in args]

        def enc_fixed(v: Any) -> Any:
            if not isinstance(v, tuple | list) or len(v) != len(item_encs):
                return to_jsonable(v)
            return [e(x) for e, x in zip(item_encs, v, strict=True)]
        return enc_fixed
    if origin in (tuple, list, frozenset, set):
        item = _encoder(args[0])
        unordered = origin in (frozenset, set)

        def enc_seq(v: Any) -> Any:
            if isinstance(v, frozenset | set) and unordered:
                return sorted(item(x) for x in v)
            if isinstance(v, tuple | list) and not unordered:
                return [item(x) for x in v]
            return to_jsonable(v)
        return enc_seq
    if origin is dict and len(args) == 2:
        val = _encoder(args[1])

        def enc_dict(v: Any) -> Any:
            if not isinstance(v, dict):
                return to_jsonable(v)
            return {_key(k): val(x) for k, x in v.items()}
        return enc_dict
    return to_jsonable


def _union_encoder(args: tuple[Any, ...]) -> _Encode:
    """Spell a value by the member of the union its own type belongs to."""
    members: list[tuple[type, _Encode]] = []
    for arg in args:
        base = typing.get_origin(arg) or arg
        if isinstance(base, type) and arg is not Any and base is not type(None):
            members.append((base, _encoder(arg)))
    floats = float in args and int not in args

    def enc_union(v: Any) -> Any:
        if v is None:
            return None
        for base, enc in members:
            if isinstance(v, base):
                return enc(v)
        return _to_float(v) if floats else to_jsonable(v)
    return enc_union


def _key(key: Any) -> str:
    if isinstance(key, enum.Enum):
        return str(key.value)
    if isinstance(key, str | int) and not isinstance(key, bool):
        return str(key)
    raise CodecError(f"cannot use {type(key).__name__} as a key")


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8 text.

    >>> canonical_json({"b": 1, "a": [1.5, "ø"]})
    '{"a":[1.5,"ø"],"b":1}'
    """
    return json.dumps(
        to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
        allow_nan=False,
    )


def from_jsonable(tp: type[T] | Any, data: Any) -> T:
    """Decode plain JSON ``data`` into ``tp``, checking as it goes.

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Q:
    ...     seats: dict[int, str]
    ...     note: str | None = None
    >>> from_jsonable(Q, {"seats": {"3": "kari"}})
    Q(seats={3: 'kari'}, note=None)
    >>> from_jsonable(Q, {"seats": []})
    Traceback (most recent call last):
    ...
    rules.codec.CodecError: expected an object for dict[int, str], got list
    """
    decode: Callable[[Any], T] = _decoder(typing.cast(Any, tp))
    return decode(data)


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _decoder(tp: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return lambda v: v
    if origin is typing.Literal:
        return _expect(lambda v: v in args, f"one of {args}")
    if tp is type(None):
        return _expect(lambda v: v is None, "null")
    if tp is bool:
        return _expect(lambda v: isinstance(v, bool), "a boolean")
    if tp is int:
        return _expect(lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer")
    if tp is float:
        def dec_float(v: Any) -> float:
            if isinstance(v, int | float) and not isinstance(v, bool):
                return float(v)
            raise CodecError(f"expected a number, got {type(v).__name__}")
        return dec_float
    if tp is str:
        return _expect(lambda v: isinstance(v, str), "a string")
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        def dec_enum(v: Any) -> Any:
            try:
                return tp(v)
            except ValueError:
                raise CodecError(f"{v!r} is not a {tp.__name__}") from None
        return dec_enum
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if origin in (typing.Union, types.UnionType):
        decoders = [_decoder(a) for a in args]
        def dec_union(v: Any) -> Any:
            if v is None and type(None) in args:
                return None
            for dec in decoders:
                try:
                    return dec(v)
                except CodecError:
                    continue
            raise CodecError(f"{v!r} fits none of {tp}")
        return dec_union
    if origin in (tuple, list, frozenset, set):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            item_decs = [_decoder(a) for a in args]
            def dec_fixed(v: Any) -> Any:
                if not isinstance(v, list) or len(v) != len(item_decs):
                    raise CodecError(f"expected {len(item_decs)} items for {tp}")
                return tuple(d(x) for d, x in zip(item_decs, v, strict=True))
            return dec_fixed
        item = _decoder(args[0])
        build: Callable[[Any], Any] = origin
        def dec_seq(v: Any) -> Any:
            if not isinstance(v, list):
                raise CodecError(f"expected an array for {tp}, got {type(v).__name__}")
            return build(item(x) for x in v)
        return dec_seq
    if origin is dict:
        key_dec = _key_decoder(args[0])
        val_dec = _decoder(args[1])
        def dec_dict(v: Any) -> Any:
            if not isinstance(v, dict):
                raise CodecError(f"expected an object for {_name(tp)}, got {type(v).__name__}")
            return {key_dec(k): val_dec(x) for k, x in v.items()}
        return dec_dict
    raise CodecError(f"no decoder for {tp}")


def _name(tp: Any) -> str:
    return str(tp).replace("typing.", "")


def _key_decoder(tp: Any) -> Callable[[str], Any]:
    if tp is int:
        def dec_int_key(k: str) -> int:
            try:
                return int(k)
            except ValueError:
                raise CodecError(f"{k!r} is not an integer key") from None
        return dec_int_key
    if tp is str:
        return lambda k: k
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _decoder(tp)
    raise CodecError(f"no key decoder for {tp}")


def _expect(check: Callable[[Any], bool], what: str) -> Callable[[Any], Any]:
    def dec(v: Any) -> Any:
        if not check(v):
            raise CodecError(f"expected {what}, got {type(v).__name__}")
        return v
    return dec


def _dataclass_decoder(cls: type) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(cls)
    fields = _fields(cls)
    required = {f.name for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    # Decoders are built lazily so that self-referencing records work.
    decoders: dict[str, Callable[[Any], Any]] = {}

    def dec(v: Any) -> Any:
        if not isinstance(v, dict):
            raise CodecError(f"expected an object for {cls.__name__}, got {type(v).__name__}")
        missing = required - v.keys()
        if missing:
            raise CodecError(f"{cls.__name__} lacks {', '.join(sorted(missing))}")
        kwargs = {}
        for f in fields:
            if f.name in v:
                d = decoders.get(f.name)
                if d is None:
                    d = decoders[f.name] = _decoder(hints[f.name])
                kwargs[f.name] = d(v[f.name])
        return cls(**kwargs)
    return dec
