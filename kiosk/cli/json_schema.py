"""The JSON Schemas of the ``--json`` documents, and a small validator for them.

One schema per command (:data:`SCHEMAS`), in JSON Schema's own vocabulary
(draft 2020-12's ``type``, ``properties``, ``required``, ``items``, ``enum``,
``const``, ``minimum``, ``additionalProperties``), so any JSON Schema tool
reads them; ``docs/cli-json.md`` says what each field means. The schemas are
exact for :data:`~kiosk.cli.report.SCHEMA_VERSION`: a field is added without a
new version (readers ignore fields they do not know), removing one or
changing its meaning raises the version.

:func:`problems` checks a document against a schema with just that
vocabulary, so the tests need no extra dependency.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kiosk.cli.report import SCHEMA_VERSION, STATUSES

__all__ = ["SCHEMAS", "problems"]

JSON = dict[str, Any]


def _object(properties: Mapping[str, JSON]) -> JSON:
    return {"type": "object", "properties": dict(properties),
            "required": list(properties), "additionalProperties": False}


def _document(properties: Mapping[str, JSON]) -> JSON:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            **_object({"schema_version": {"const": SCHEMA_VERSION}, **properties})}


_TEXT: Final[JSON] = {"type": "string"}
_COUNT: Final[JSON] = {"type": "integer", "minimum": 0}
_PLACE: Final[JSON] = {"type": "integer", "minimum": 1}
_SECONDS: Final[JSON] = {"type": ["number", "null"], "minimum": 0}
_STATUS: Final[JSON] = {"enum": list(STATUSES)}
_BLINDS: Final = {"small_blind": _COUNT, "big_blind": _COUNT, "ante": _COUNT,
                  "ante_kind": {"enum": ["per-player", "big-blind"]}}
_SEAT: Final[JSON] = _object({"table": _PLACE, "seat": _PLACE})

SCHEMAS: Final[Mapping[str, JSON]] = {
    "tournament show": _document({
        "id": {"type": ["string", "null"]},
        "name": _TEXT,
        "date": {"type": ["string", "null"]},
        "status": _STATUS,
        "entrants": _COUNT,
        "players_left": _COUNT,
        "clock": _object({
            "started": {"type": "boolean"},
            "running": {"type": "boolean"},
            "waiting": {"type": "boolean"},
            "on_break": {"type": "boolean"},
            "level": {"type": ["integer", "null"], "minimum": 1},
            "blinds": {"oneOf": [{"type": "null"}, _object(_BLINDS)]},
            "seconds_left": _SECONDS,
            "next_level": {"oneOf": [{"type": "null"}, _object(
                {"level": {"type": ["integer", "null"], "minimum": 1}, **_BLINDS})]},
            "seconds_to_break": _SECONDS,
        }),
        "hand_for_hand": {"type": "boolean"},
        "tables": {"type": "array", "items": _object({
            "number": _PLACE,
            "seats": {"type": "array", "items": _object(
                {"seat": _PLACE, "player_id": _TEXT, "name": _TEXT})},
        })},
        "moves": {"type": "array", "items": _object({
            "player_id": _TEXT, "name": _TEXT, "from": _SEAT, "to": _SEAT,
            "reason": {"enum": ["balance", "break"]},
        })},
        "results": {"type": "array", "items": _object(
            {"place": _PLACE, "player_id": _TEXT, "name": _TEXT})},
        "capacity": {"type": ["integer", "null"], "minimum": 1},
        "waiting": {"type": "array", "items": _object(
            {"place": _PLACE, "player_id": _TEXT, "name": _TEXT})},
    }),
    "tournament list": _document({
        "tournaments": {"type": "array", "items": _object({
            "id": _TEXT, "name": _TEXT, "date": _TEXT, "preset": {"type": ["string", "null"]},
            "season": _TEXT, "status": _STATUS, "current": {"type": "boolean"},
            "tonight": {"type": "boolean"},
        })},
    }),
    "players list": _document({
        "players": {"type": "array", "items": _object({
            "id": _TEXT, "name": _TEXT, "cards": {"type": "array", "items": _TEXT},
            "created": _TEXT,
        })},
    }),
    "standings": _document({
        "season": _TEXT,
        "standings": {"type": "array", "items": _object({
            "rank": _PLACE, "player_id": _TEXT, "name": _TEXT, "points": _COUNT,
            "tournaments": _COUNT, "placings": {"type": "array", "items": _PLACE},
        })},
    }),
    "results show": _document({
        "tournament": _object({"id": _TEXT, "name": _TEXT, "date": _TEXT, "season": _TEXT,
                               "status": _STATUS}),
        "entrants": _COUNT,
        "results": {"type": "array", "items": _object({
            "place": {"type": ["integer", "null"], "minimum": 1}, "player_id": _TEXT,
            "name": _TEXT, "points": _COUNT, "knockouts": _COUNT,
        })},
    }),
}

_TYPES: Final[Mapping[str, tuple[type, ...]]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "integer": (int,), "number": (int, float), "null": (type(None),),
}


def _is(value: object, name: str) -> bool:
    # bool is an int to Python, but not an integer or a number to JSON.
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    return isinstance(value, _TYPES[name])


def problems(value: object, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Where ``value`` breaks ``schema``: one line per problem, empty when it fits.

    >>> s = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}},
    ...      "required": ["n"], "additionalProperties": False}
    >>> problems({"n": 3}, s), problems({"n": -1, "x": True}, s), problems({}, s)
    ([], ['$.n: -1 is below 0', '$: x is not in the schema'], ['$: n is missing'])
    >>> problems(True, {"type": "integer"}), problems(None, {"type": ["string", "null"]})
    (['$: True is not integer'], [])
    """
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not problems(value, s, path)]
        if len(fits) == 1:
            return []
        best = min((problems(value, s, path) for s in schema["oneOf"]), key=len)
        return best or [f"{path}: fits {len(fits)} of oneOf"]
    found: list[str] = []
    if "const" in schema and value != schema["const"]:
        found.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, n) for n in names):
            return [*found, f"{path}: {value!r} is not {'/'.join(names)}"]
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        found.append(f"{path}: {value!r} is below {schema['minimum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        found += [f"{path}: {key} is missing" for key in schema.get("required", ())
                  if key not in value]
        for key, item in value.items():
            if key in properties:
                found += problems(item, properties[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{path}: {key} is not in the schema")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += problems(item, schema["items"], f"{path}[{i}]")
    return found
