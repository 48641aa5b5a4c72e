"""N3: no slip of the TD's loses a night, from a terminal or the box's NEW.

``pubpoker tournament new`` asks twice while a night runs (``--yes``) and says
what it left behind; ``pubpoker tournament switch NAME|ID`` makes another open
tournament tonight's on every device (:func:`choose`, found by :func:`find_night`);
``pubpoker undo`` on a new, empty night switches back to the one it replaced.

Which tournament is tonight's is read from the log (:func:`kiosk.tonight.choose`),
so a switch is a ``TonightChosen`` event in the chosen tournament's log: peers
receive it and follow, as they follow a ``TournamentCreated``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from kiosk.store.errors import UnknownTournament
from rules.errors import RulesError
from rules.i18n import Counted

if TYPE_CHECKING:
    from kiosk.station import Station
    from kiosk.store import Store
    from rules.state import Tournament

__all__ = [
    "NightCheckingIn",
    "NightRunning",
    "NotTonightsToChoose",
    "UnknownTournamentNear",
    "choose",
    "describe",
    "find_night",
    "left_behind",
    "refuse_replacing",
    "replaced_by",
    "undo_new",
]

_YES: Final = {
    "nn": ("Legg til --yes for å starte ei ny turnering likevel (den som er i gang, blir "
           "verande i databasen; «pubpoker tournament switch» hentar ho attende)"),
    "nb": ("Legg til --yes for å starte en ny turnering likevel (den som er i gang, blir "
           "liggende i databasen; «pubpoker tournament switch» henter den tilbake)"),
    "da": ("Tilføj --yes for at starte en ny turnering alligevel (den igangværende bliver "
           "i databasen; «pubpoker tournament switch» henter den tilbage)"),
    "en": ("Add --yes to start a new tournament anyway (the running one stays in the store; "
           "'pubpoker tournament switch' brings it back)"),
}

#: How a night is summed up: while playing, and while checking in.
_RUNNING: Final = {"nn": "{name}: nivå {level}, {players}, framleis i gang",
                   "nb": "{name}: nivå {level}, {players}, fortsatt i gang",
                   "da": "{name}: niveau {level}, {players}, stadig i gang",
                   "en": "{name}: level {level}, {players}, still running"}
_CHECKING_IN: Final = {"nn": "{name}: {players} sjekka inn, klokka er ikkje starta",
                       "nb": "{name}: {players} sjekket inn, klokken er ikke startet",
                       "da": "{name}: {players} tjekket ind, uret er ikke startet",
                       "en": "{name}: {players} checked in, the clock not started"}

WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "nn": {"left": ("Framleis i databasen: {what}. «pubpoker undo» eller "
                    "«pubpoker tournament switch {id}» hentar ho attende"),
           "switched": "Kveldens turnering er no {what}",
           "undone": "Angra: den nye turneringa {new}. Kveldens turnering er att {what}"},
    "nb": {"left": ("Fortsatt i databasen: {what}. «pubpoker undo» eller "
                    "«pubpoker tournament switch {id}» henter den tilbake"),
           "switched": "Kveldens turnering er nå {what}",
           "undone": "Angret: den nye turneringen {new}. Kveldens turnering er igjen {what}"},
    "da": {"left": ("Stadig i databasen: {what}. «pubpoker undo» eller "
                    "«pubpoker tournament switch {id}» henter den tilbage"),
           "switched": "Aftenens turnering er nu {what}",
           "undone": "Fortrudt: den nye turnering {new}. Aftenens turnering er igen {what}"},
    "en": {"left": ("Still in the store: {what}. 'pubpoker undo' or "
                    "'pubpoker tournament switch {id}' brings it back"),
           "switched": "Tonight's tournament is now {what}",
           "undone": "Undone: the new tournament {new}. Tonight's tournament is again {what}"},
}


class NightRunning(RulesError, ValueError):
    """``tournament new`` without ``--yes`` while the clock of tonight's runs."""

    messages = {lang: f"{_RUNNING[lang]}. {_YES[lang]}" for lang in _YES}


class NightCheckingIn(RulesError, ValueError):
    """``tournament new`` without ``--yes`` while players are checked in to tonight's."""

    messages = {lang: f"{_CHECKING_IN[lang]}. {_YES[lang]}" for lang in _YES}


class NotTonightsToChoose(RulesError, ValueError):
    messages = {
        "nn": "«{name}» er {why}: berre ei open turnering kan vere kveldens",
        "nb": "«{name}» er {why}: bare en åpen turnering kan være kveldens",
        "da": "«{name}» er {why}: kun en åben turnering kan være aftenens",
        "en": "'{name}' is {why}: only an open tournament can be tonight's",
    }
    #: ``why``, by the tournament's state.
    reasons: Final = {
        "closed": {"nn": "avslutta", "nb": "avsluttet", "da": "afsluttet", "en": "closed"},
        "finished": {"nn": "ferdigspela", "nb": "ferdigspilt", "da": "færdigspillet",
                     "en": "over"},
        # Sit & Go's run beside their main event (kiosk.tonight.is_side_game).
        "side-game": {"nn": "ein Sit & Go ved sida av hovudturneringa",
                      "nb": "en Sit & Go ved siden av hovedturneringen",
                      "da": "en Sit & Go ved siden af hovedturneringen",
                      "en": "a Sit & Go beside the main event"},
    }

    def translate(self, lang: str = "en") -> str:
        why = self.reasons[str(self.params["why"])]
        params = {**self.params, "why": why.get(lang) or why["en"]}
        template = self.messages.get(lang) or self.messages["en"]
        return template.format(**{k: self.render_param(k, v, lang) for k, v in params.items()})


class UnknownTournamentNear(RulesError, LookupError):
    messages = {
        "nn": "Ukjend turnering «{name}». Meinte du: {names}?",
        "nb": "Ukjent turnering «{name}». Mente du: {names}?",
        "da": "Ukendt turnering «{name}». Mente du: {names}?",
        "en": "Unknown tournament '{name}'. Did you mean: {names}?",
    }


# --- what a night is ---------------------------------------------------------------------

def _level(state: Tournament, now: float) -> int:
    """The level being played (on a break, the one before it)."""
    from rules import clock as clocks
    from rules.structure import Level

    assert state.config is not None
    periods = state.config.structure.periods
    index = clocks.read(state.config.structure, state.clock, now).period_index
    return max(1, sum(1 for p in periods[:index + 1] if isinstance(p, Level)))


def _running(state: Tournament) -> bool:
    """Open, and started or with players in: a night a slip could lose."""
    return (state.config is not None and not state.closed and not state.finished
            and (state.clock.started or state.entrants > 0))


def _summary(state: Tournament, now: float, lang: str) -> str:
    """"Fredagspoker: level 14, 128 players, still running", in ``lang``."""
    assert state.config is not None
    if state.clock.started:
        error: RulesError = NightRunning(name=state.config.name, level=_level(state, now),
                                         players=Counted(state.remaining, "player"))
        template = _RUNNING
    else:
        error = NightCheckingIn(name=state.config.name,
                                players=Counted(state.entrants, "player"))
        template = _CHECKING_IN
    text = template.get(lang) or template["en"]
    return text.format(**{k: error.render_param(k, v, lang) for k, v in error.params.items()})


def _tonights(store: Store) -> list[str]:
    """Tonight's as the log picks it, then this device's current one."""
    from kiosk.tonight import Tonight

    with Tonight(store) as picker:
        pick = picker.pick()
    current = store.current_tournament()
    return [tid for tid in dict.fromkeys((pick, current)) if tid is not None]


# --- tournament new -------------------------------------------------------------------------

def refuse_replacing(station: Station, yes: bool) -> tuple[str, Tournament] | None:
    """The running night ``tournament new`` would leave behind (id, state), if any.

    Without ``yes`` it is refused (N3: asked twice), saying what it would leave.
    """
    for tid in _tonights(station.store):
        folded = station.store.fold(tid)
        try:
            state = folded.state
        finally:
            folded.close()
        if not _running(state):
            continue
        if not yes:
            assert state.config is not None
            if state.clock.started:
                raise NightRunning(name=state.config.name, level=_level(state, station.now()),
                                   players=Counted(state.remaining, "player"))
            raise NightCheckingIn(name=state.config.name,
                                  players=Counted(state.entrants, "player"))
        return tid, state
    return None


def left_behind(tid: str, state: Tournament, now: float, lang: str) -> str:
    """What ``tournament new --yes`` left behind, and how to bring it back."""
    words = WORDS.get(lang) or WORDS["en"]
    return words["left"].format(what=_summary(state, now, lang), id=tid)


# --- tournament switch ----------------------------------------------------------------------

def find_night(store: Store, name_or_id: str) -> str:
    try:
        return store.tournament(name_or_id).id
    except UnknownTournament:
        rows = store.tournaments()
        labels = {r.name: r.name for r in rows} | {r.id: r.id for r in rows}
        near = difflib.get_close_matches(name_or_id, list(labels), n=3, cutoff=0.6)
        if not near:
            lowered = {k.lower(): k for k in labels}
            near = [lowered[k] for k in difflib.get_close_matches(
                name_or_id.lower(), list(lowered), n=3, cutoff=0.6)]
        if near:
            raise UnknownTournamentNear(name=name_or_id,
                                        names=", ".join(f"{n}" for n in near)) from None
        raise


def choose(station: Station, tid: str) -> None:
    """Make ``tid`` tonight's on this device and, through the log, on every peer."""
    from rules.commands import ChooseTonight

    folded = station.store.fold(tid)
    try:
        state = folded.state
    finally:
        folded.close()
    assert state.config is not None
    if state.closed or station.store.tournament(tid).status == "closed":
        raise NotTonightsToChoose(name=state.config.name, why="closed")
    if state.finished:
        raise NotTonightsToChoose(name=state.config.name, why="finished")
    from kiosk.tonight import is_side_game

    if is_side_game(tid, {row.id for row in station.store.tournaments()}):
        raise NotTonightsToChoose(name=state.config.name, why="side-game")
    station.switch(tid)
    outcome = station.submit(ChooseTonight())
    if outcome.refusal is not None:
        raise outcome.refusal


def describe(state: Tournament, now: float, lang: str) -> str:
    """The night as a TD would name it: its summary once it has players or a clock."""
    assert state.config is not None
    if state.clock.started or state.entrants:
        return _summary(state, now, lang)
    return state.config.name


# --- undo of a NEW --------------------------------------------------------------------------

def replaced_by(station: Station) -> str | None:
    """The open night this device's current one replaced when the TD made it, if any.

    Only for one the TD made (not a box at power-on) and never chosen since:
    the one the log would pick without it.
    """
    from kiosk.tonight import Tonight
    from kiosk.tonight import choose as pick

    current = station.tournament_id
    if current is None:
        return None
    with Tonight(station.store) as picker:
        candidates = picker.candidates()
    mine = next((c for c in candidates if c.id == current), None)
    if mine is None or mine.auto or mine.chosen is not None:
        return None
    with Tonight(station.store) as picker:
        return pick(picker.candidates(before=mine.created))


def undo_new(station: Station, lang: str) -> str | None:
    """Undo on a new, empty night: switch back to the one it replaced; None if none."""
    replaced = replaced_by(station)
    if replaced is None:
        return None
    new = station.state.config.name if station.state.config is not None else ""
    choose(station, replaced)
    what = describe(station.state, station.now(), lang)
    return (WORDS.get(lang) or WORDS["en"])["undone"].format(new=new, what=what)
