"""``pubpoker rules``: the floor helper for minimum raises, pots and showdowns.

Every answer comes from the rules core; this module only reads the TD's
text, and prints the result with the words of the chosen language. Bad input
is refused with a :class:`~rules.errors.RulesError`, so ``pubpoker`` prints
it translated and exits with status 2.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

from kiosk.cli.bounds import check_number
from kiosk.config import SEATS_RANGE
from rules.betting import BettingHand, BettingStructure, Blinds, Street, play
from rules.betting_actions import ActionKind
from rules.betting_errors import BadStack
from rules.cards import Card, parse
from rules.errors import RulesError
from rules.hands import Game
from rules.house import PROFILES, HouseRules, profile
from rules.i18n import format_int
from rules.pots import Awards, Pot, award_pots, side_pots
from rules.showdown import Ranking, first_to_show, rank_showdown, settle
from rules.structure import AnteKind

__all__ = ["WORDS", "BadBlindsText", "BadNumber", "BadSeatList", "MissingOption", "register"]

T = TypeVar("T")

#: The words the floor helper prints, per language (GLOSSARY.md, seeds 000-004).
WORDS: dict[str, dict[str, str]] = {
    "nn": {
        "main_pot": "Hovudpott",
        "side_pot": "Sidepott {n}",
        "seats": "sete {seats}",
        "uncalled": "Ikkje synt: {amount} tilbake til sete {seat}",
        "award": "Fordeling",
        "seat": "Sete {seat}",
        "not_shown": "viste ikkje alle holkorta, kan ikkje vinne",
        "mucked": "kasta korta",
        "winner": "Vinnar",
        "winners": "Vinnarar",
        "high": "Høg",
        "low": "Låg",
        "no_low": "Ingen kvalifisert låg hand: høg hand tek heile potten",
        "split": "Deling",
        "nobody": "ingen",
        "no_raise": "Sete {seat} kan ikkje høgne: {why}",
        "face_up": "All-in og ingen fleire innsatsar: alle hender skal opp no",
        "shows_first": "Viser først: sete {seat}",
        "to_act": "Sete {seat} skal handle",
    },
    "nb": {
        "main_pot": "Hovedpott",
        "side_pot": "Sidepott {n}",
        "seats": "sete {seats}",
        "uncalled": "Ikke synt: {amount} tilbake til sete {seat}",
        "award": "Fordeling",
        "seat": "Sete {seat}",
        "not_shown": "viste ikke alle hullkortene, kan ikke vinne",
        "mucked": "kastet kortene",
        "winner": "Vinner",
        "winners": "Vinnere",
        "high": "Høy",
        "low": "Lav",
        "no_low": "Ingen kvalifisert lav hånd: høy hånd tar hele potten",
        "split": "Deling",
        "nobody": "ingen",
        "no_raise": "Sete {seat} kan ikke høyne: {why}",
        "face_up": "All-in og ingen flere innsatser: alle hender skal opp nå",
        "shows_first": "Viser først: sete {seat}",
        "to_act": "Sete {seat} skal handle",
    },
    "da": {
        "main_pot": "Hovedpot",
        "side_pot": "Sidepot {n}",
        "seats": "sæde {seats}",
        "uncalled": "Ikke callet: {amount} tilbage til sæde {seat}",
        "award": "Fordeling",
        "seat": "Sæde {seat}",
        "not_shown": "viste ikke alle hulkort, kan ikke vinde",
        "mucked": "smed kortene",
        "winner": "Vinder",
        "winners": "Vindere",
        "high": "Høj",
        "low": "Lav",
        "no_low": "Ingen kvalificeret lav hånd: høj hånd tager hele potten",
        "split": "Deling",
        "nobody": "ingen",
        "no_raise": "Sæde {seat} kan ikke forhøje: {why}",
        "face_up": "All-in og ikke flere indsatser: alle hænder vendes nu",
        "shows_first": "Viser først: sæde {seat}",
        "to_act": "Sæde {seat} skal handle",
    },
    "en": {
        "main_pot": "Main pot",
        "side_pot": "Side pot {n}",
        "seats": "seats {seats}",
        "uncalled": "Uncalled: {amount} back to seat {seat}",
        "award": "Award",
        "seat": "Seat {seat}",
        "not_shown": "did not show all hole cards, cannot win",
        "mucked": "mucked",
        "winner": "Winner",
        "winners": "Winners",
        "high": "High",
        "low": "Low",
        "no_low": "No qualifying low: the high hand takes the whole pot",
        "split": "Split",
        "nobody": "nobody",
        "no_raise": "Seat {seat} cannot raise: {why}",
        "face_up": "All-in and no more betting: all hands face up now",
        "shows_first": "Shows first: seat {seat}",
        "to_act": "Seat {seat} to act",
    },
}


class BadSeatList(RulesError, ValueError):
    messages = {
        "nn": "Kan ikkje lese «{text}»: skriv sete:verdi med komma mellom, til dømes {example}",
        "nb": "Kan ikke lese «{text}»: skriv sete:verdi med komma mellom, for eksempel {example}",
        "da": "Kan ikke læse »{text}«: skriv sæde:værdi med komma imellem, for eksempel {example}",
        "en": 'Cannot read "{text}": write seat:value separated by commas, e.g. {example}',
    }


class BadNumber(RulesError, ValueError):
    messages = {
        "nn": "«{text}» er ikkje eit heilt tal",
        "nb": "«{text}» er ikke et helt tall",
        "da": "»{text}« er ikke et helt tal",
        "en": '"{text}" is not a whole number',
    }


class NoSuchSeat(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} finst ikkje: eit bord har sete 1 til {high}",
        "nb": "Sete {seat} finnes ikke: et bord har sete 1 til {high}",
        "da": "Sæde {seat} findes ikke: et bord har sæde 1 til {high}",
        "en": "Seat {seat} does not exist: a table has seats 1 to {high}",
    }


class NumberTooBig(RulesError, ValueError):
    messages = {
        "nn": "«{text}» er for stort; bruk eit tal opp til {high}",
        "nb": "«{text}» er for stort; bruk et tall opp til {high}",
        "da": "»{text}« er for stort; brug et tal op til {high}",
        "en": '"{text}" is too big; use a number up to {high}',
    }


class BadBlindsText(RulesError, ValueError):
    messages = {
        "nn": "Kan ikkje lese blindane «{text}»: skriv til dømes 100/200",
        "nb": "Kan ikke lese blindene «{text}»: skriv for eksempel 100/200",
        "da": "Kan ikke læse blinds »{text}«: skriv for eksempel 100/200",
        "en": 'Cannot read the blinds "{text}": write e.g. 100/200',
    }


class MissingOption(RulesError, ValueError):
    messages = {
        "nn": "{option} manglar, til dømes {option} {example}",
        "nb": "{option} mangler, for eksempel {option} {example}",
        "da": "{option} mangler, for eksempel {option} {example}",
        "en": "{option} is missing, e.g. {option} {example}",
    }


# Reading the TD's text -------------------------------------------------------------

_NUMBER = re.compile(r"-?\d[\d \u2009\u202f_]*")


#: No stack, pot or seat on a pub's felt comes near it; a longer number is a
#: typo, and thousands of digits would not even convert (Python's int limit).
NUMBER_MAX = 10**15


def _number(text: str) -> int:
    """An int written with optional thousands spaces ("10 000"), at most :data:`NUMBER_MAX`."""
    cleaned = text.strip()
    if not _NUMBER.fullmatch(cleaned):
        raise BadNumber(text=cleaned)
    digits = re.sub(r"[ \u2009\u202f_]", "", cleaned)
    if len(digits.lstrip("-0")) > len(str(NUMBER_MAX)) or abs(int(digits)) > NUMBER_MAX:
        raise NumberTooBig(text=cleaned, high=NUMBER_MAX)
    return int(digits)


def _is_digits(text: str) -> bool:
    # str.isdigit() takes "²", which int() refuses.
    return text.isascii() and text.isdigit()


def _seat_map(text: str, value: Callable[[str], T], example: str) -> dict[int, T]:
    """``"1:5000,2:1400"`` as ``{1: 5000, 2: 1400}``; each seat once."""
    result: dict[int, T] = {}
    for part in re.split(r"[,;]\s*(?=[^,;]*:)", text.strip()):
        seat_text, colon, rest = part.partition(":")
        seat_text = seat_text.strip()
        if not colon or not _is_digits(seat_text) or _number(seat_text) in result:
            raise BadSeatList(text=part.strip() or text, example=example)
        result[_seat(seat_text)] = value(rest.strip().rstrip(",;"))
    return result


def _seat(text: str) -> int:
    """A seat at one table: 11 at most (tournament.seats_per_table), so 12 000 seats
    pasted into ``--contributions`` are refused instead of minutes of side pots."""
    seat = _number(text)
    if not 1 <= seat <= SEATS_RANGE[1]:
        raise NoSuchSeat(seat=text.strip(), high=SEATS_RANGE[1])
    return seat


def _seats(text: str) -> frozenset[int]:
    """``"2,5"`` or ``"2 5"`` as a set of seats."""
    parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
    if not all(_is_digits(p) for p in parts):
        raise BadSeatList(text=text, example="2,5")
    return frozenset(_seat(p) for p in parts)


def _blinds(args: argparse.Namespace) -> Blinds:
    """``--blinds SB/BB`` (or ``SB/BB/ante``), ``--ante`` and ``--bb-ante``."""
    text = args.blinds
    if text is None:
        raise MissingOption(option="--blinds", example="100/200")
    parts = [p.replace(" ", "") for p in text.split("/")]
    if len(parts) not in (2, 3) or not all(_is_digits(p) for p in parts):
        raise BadBlindsText(text=text)
    small, big, *rest = (_number(p) for p in parts)
    ante = _number(args.ante) if args.ante is not None else (rest[0] if rest else 0)
    if not 0 <= small <= big or big <= 0 or ante < 0:
        raise BadBlindsText(text=text)
    kind = AnteKind.BIG_BLIND if args.bb_ante else AnteKind.PER_PLAYER
    return Blinds(small, big, ante, kind)


def _stack(text: str) -> int:
    return _number(text)


def _hand(args: argparse.Namespace) -> BettingHand:
    """A hand from ``--stacks`` (or ``--players``/``--stack``), ``--button`` and the blinds,
    with ``--actions`` played in turn."""
    if args.stacks is not None:
        stacks = _seat_map(args.stacks, _stack, "1:5000,2:1400,3:8000")
    else:
        # A table's seats, as the config allows them (tournament.seats_per_table).
        players = int(check_number("--players", _number(args.players), *SEATS_RANGE))
        stacks = dict.fromkeys(range(1, players + 1), _number(args.stack))
    for seat, stack in stacks.items():
        if stack < 0:
            raise BadStack(seat=seat, stack=stack)
    # Without a button, it sits on the highest seat: seat 1 posts the small blind.
    button = _number(args.button) if args.button is not None else max(stacks, default=0)
    hand = BettingHand.start(
        stacks, button, _blinds(args), structure=BettingStructure(args.limit), house=_house(args)
    )
    return play(hand, args.actions or "")


def _house(args: argparse.Namespace) -> HouseRules:
    return profile(args.house)


# Printing ------------------------------------------------------------------------


def _seat_list(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in sorted(seats))


def _pot_line(pot: Pot, number: int, lang: str) -> str:
    w = WORDS[lang]
    if pot.uncalled:
        (seat,) = pot.eligible
        return w["uncalled"].format(amount=format_int(pot.amount, lang), seat=seat)
    name = w["main_pot"] if number == 0 else w["side_pot"].format(n=number)
    seats = w["seats"].format(seats=_seat_list(pot.eligible))
    return f"{name}: {format_int(pot.amount, lang)} – {seats}"


def _print_pots(pots: Iterable[Pot], awards: Awards | None, lang: str) -> None:
    w = WORDS[lang]
    shares = [a.shares for a in awards.pots] if awards else []
    number = 0
    for index, pot in enumerate(pots):
        print(_pot_line(pot, number, lang))
        number += 0 if pot.uncalled else 1
        if shares and not pot.uncalled:
            for seat, chips in shares[index].items():
                print(f"  {w['seat'].format(seat=seat)}: {format_int(chips, lang)}")
    if awards is not None:
        print(f"{w['award']}:")
        for seat, chips in sorted(awards.total.items()):
            print(f"  {w['seat'].format(seat=seat)}: {format_int(chips, lang)}")


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol() for card in cards)


def _print_ranking(ranking: Ranking, lang: str) -> None:
    w = WORDS[lang]
    place = 0
    for hand in ranking.hands:
        seat = w["seat"].format(seat=hand.seat)
        if hand.high is None:
            why = w["not_shown"] if hand.cards else w["mucked"]
            shown = f"{_cards_text(hand.cards)} " if hand.cards else ""
            print(f"   {seat}: {shown}– {why}")
            continue
        place += 1
        line = f"{place:>2}. {seat}: {_cards_text(hand.cards)} – {hand.label(lang)}"
        line += f" ({_cards_text(hand.high.cards)})"
        if ranking.hilo and hand.low is not None:
            line += f"; {w['low']} {hand.low.label(lang)}"
        print(line)


def _winners_line(label: str, seats: tuple[int, ...], lang: str) -> str:
    w = WORDS[lang]
    return f"{label}: {w['seats'].format(seats=_seat_list(seats)) if seats else w['nobody']}"


def _fractions(ranking: Ranking) -> dict[int, Fraction]:
    """Each winner's part of a pot everyone can win (before odd chips)."""
    parts: dict[int, Fraction] = {}
    high_part = Fraction(1, 2) if ranking.low_winners else Fraction(1)
    for seat in ranking.high_winners:
        parts[seat] = parts.get(seat, Fraction(0)) + high_part / len(ranking.high_winners)
    for seat in ranking.low_winners:
        parts[seat] = parts.get(seat, Fraction(0)) + Fraction(1, 2) / len(ranking.low_winners)
    return parts


# Commands ------------------------------------------------------------------------


def _min_raise(args: argparse.Namespace) -> int:
    w = WORDS[args.lang]
    hand = _hand(args)
    if hand.actor is None and hand.can_advance():
        hand = hand.advance()  # a new street: the minimum bet is the big blind (X1)
    minimum = hand.min_raise_to
    if minimum is None:
        # Say why, in the betting engine's own words (X7, X9 cap, all others all-in).
        try:
            if hand.bet_level:
                hand.verify_raise_to(hand.bet_level + hand.last_full_raise)
            else:
                hand.verify_bet(hand.blinds.big_blind)
        except RulesError as err:
            why = err.translate(args.lang)
            print(why if hand.actor is None else w["no_raise"].format(seat=hand.actor, why=why))
            return 0
    print(minimum)
    return 0


def _last_caller_on_river(hand: BettingHand) -> int | None:
    calls = [a.seat for a in hand.history if a.street is Street.RIVER and a.kind is ActionKind.CALL]
    return calls[-1] if calls else None


def _pots(args: argparse.Namespace) -> int:
    lang = args.lang
    w = WORDS[lang]
    notes: list[str] = []
    if args.contributions is not None:
        contributions = _seat_map(args.contributions, _number, "1:5000,2:1400,3:8000")
        folded = _seats(args.folded) if args.folded else frozenset()
        pots = side_pots(contributions, folded)
    else:
        hand = _hand(args)
        contributions, folded = hand.contributions, hand.folded
        pots = hand.pots  # B7: the antes are dead money, apart from the bets
        if hand.all_hands_face_up:
            notes.append(w["face_up"])  # P4
        if hand.is_hand_over and len(hand.live) > 1:
            first = first_to_show(  # P3
                hand.live,
                button=hand.button,
                last_aggressor=hand.last_aggressor_on(Street.RIVER),
                last_caller=_last_caller_on_river(hand),
                order=hand.house.showdown_order,
            )
            notes.append(w["shows_first"].format(seat=first))
        elif hand.actor is not None:
            notes.append(w["to_act"].format(seat=hand.actor))
    awards = None
    if args.hands is not None:
        ranking = _rank(args, seats_in_hand=contributions.keys() - folded)
        awards = settle(pots, ranking, button=_button(args), unit=_chip(args))
    _print_pots(pots, awards, lang)
    for note in notes:
        print(note)
    return 0


def _rank(args: argparse.Namespace, seats_in_hand: Iterable[int] | None = None) -> Ranking:
    hands: Mapping[int, tuple[Card, ...]] = _seat_map(args.hands, parse, "1:AhKd,3:QsQc")
    if seats_in_hand is not None:
        # A live seat the TD left out did not show its cards.
        hands = {seat: hands.get(seat, ()) for seat in {*hands, *seats_in_hand}}
    return rank_showdown(
        parse(args.board or ""),
        hands,
        game=args.game,
        hilo=args.hilo,
        button=_optional_number(args.button),
    )


def _optional_number(text: str | None) -> int | None:
    return None if text is None else _number(text)


def _button(args: argparse.Namespace) -> int:
    # Without a button, seat 0 stands in for it: odd chips go to the lowest seat.
    return _optional_number(args.button) or 0


def _chip(args: argparse.Namespace) -> int:
    return _number(args.chip)


def _showdown(args: argparse.Namespace) -> int:
    lang = args.lang
    w = WORDS[lang]
    ranking = _rank(args)
    _print_ranking(ranking, lang)
    if ranking.hilo:
        print(_winners_line(w["high"], ranking.high_winners, lang))
        if ranking.low_winners:
            print(_winners_line(w["low"], ranking.low_winners, lang))
        else:
            print(w["no_low"])
    else:
        label = w["winners"] if len(ranking.high_winners) > 1 else w["winner"]
        print(_winners_line(label, ranking.high_winners, lang))
    if args.pot is not None:
        pot = Pot(_number(args.pot), frozenset(hand.seat for hand in ranking.hands))
        awards = award_pots([pot], ranking.highs, lows=ranking.lows,
                            button=_button(args), unit=_chip(args))
        parts = ", ".join(
            f"{w['seat'].format(seat=seat)}: {format_int(chips, lang)}"
            for seat, chips in awards.total.items()
        )
    else:
        parts = ", ".join(
            f"{w['seat'].format(seat=seat)}: {part}" for seat, part in _fractions(ranking).items()
        )
    if len(ranking.high_winners) > 1 or ranking.low_winners or args.pot is not None:
        print(f"{w['split']}: {parts}")
    return 0


def _game_arg(text: str) -> str:
    return text.lower()


def _add_showdown_options(parser: argparse.ArgumentParser, *, hands_required: bool) -> None:
    parser.add_argument("--board", required=hands_required,
                        help='board cards, e.g. "Ah Kh 7c 2d 2s"')
    parser.add_argument("--hands", required=hands_required,
                        help='hole cards shown per seat, e.g. "1:AsAd,2:KcKd" ("3:" = mucked)')
    parser.add_argument("--game", type=_game_arg, default=Game.HOLDEM.value,
                        choices=[g.value for g in Game], help="holdem (default) or omaha")
    parser.add_argument("--hilo", action="store_true", help="Hi/Lo 8-or-better")
    parser.add_argument("--chip", default="1",
                        help="smallest chip in play, for odd chips (default 1)")


def _add_hand_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--blinds", help='small/big blind, e.g. "100/200" (or "800/1600/100")')
    parser.add_argument("--ante", help="ante per player (or the big-blind ante with --bb-ante)")
    parser.add_argument("--bb-ante", action="store_true", help="the big blind pays the ante")
    parser.add_argument("--actions", default="",
                        help='the actions in turn, e.g. "raise 500, raise 1200, call"')
    parser.add_argument("--limit", default=BettingStructure.NO_LIMIT.value,
                        choices=[s.value for s in BettingStructure],
                        help="betting structure (default no-limit)")
    parser.add_argument("--house", default="pubpoker", choices=PROFILES,
                        help="house-rule profile (default pubpoker)")


def register(sub: Any, lang: str = "nn") -> None:
    parser = sub.add_parser("rules", help="floor helper: minimum raise, pots, showdown")
    commands = parser.add_subparsers(dest="rules_command", required=True, metavar="COMMAND")

    min_raise = commands.add_parser("min-raise", help="the smallest raise-to for the next player")
    min_raise.add_argument("--players", default="9", help="players dealt in (default 9)")
    min_raise.add_argument("--stack", default="1000000000",
                           help="every player's stack with --players (default: deep)")
    min_raise.add_argument("--stacks", help='stacks per seat instead, e.g. "1:5000,2:1400"')
    min_raise.add_argument("--button", help="the button seat (default: the highest seat)")
    _add_hand_options(min_raise)
    min_raise.set_defaults(func=_min_raise)

    pots = commands.add_parser("pots", help="main and side pots, and who wins them")
    source = pots.add_mutually_exclusive_group(required=True)
    source.add_argument("--contributions",
                        help='chips each seat put in, e.g. "1:5000,2:1400,3:8000"')
    source.add_argument("--stacks", help='stacks at the start of the hand, with --actions')
    pots.add_argument("--folded", help='folded seats with --contributions, e.g. "2" or "2,5"')
    pots.add_argument("--button", help="the button seat (blinds, odd chips)")
    _add_hand_options(pots)
    _add_showdown_options(pots, hands_required=False)
    pots.set_defaults(func=_pots)

    showdown = commands.add_parser("showdown", help="rank the hands shown and name the winners")
    showdown.add_argument("--button", help="the button seat (order of ties, odd chips)")
    showdown.add_argument("--pot", help="the pot to split, in chips")
    _add_showdown_options(showdown, hands_required=True)
    showdown.set_defaults(func=_showdown)
