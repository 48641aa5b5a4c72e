"""Refusals of the betting engine, one error per reason, in every language.

The table device greys out what a ``can_*`` query refuses; when a player
still tries it, the ``verify_*`` twin raises one of these so the dealer
screen can say *why* in the venue's language (glossary words: syne, høgne,
kaste; da: calle, forhøje, folde).

>>> RaiseTooSmall(minimum=1900).translate("nn")
'Høgninga må vere til minst 1 900 totalt'
>>> isinstance(BettingNotReopened(), ValueError)
True
"""

from __future__ import annotations

from rules.errors import RulesError

__all__ = [
    "BadBlinds",
    "BadStack",
    "BetAlreadyMade",
    "BetTooLarge",
    "BetTooSmall",
    "BettingNotReopened",
    "CannotCheck",
    "HandIsOver",
    "NoActionPending",
    "NoBetToRaise",
    "NobodyCanCall",
    "NobodyToRaise",
    "NotEnoughChips",
    "NotYourTurn",
    "NothingToCall",
    "RaiseCapReached",
    "RaiseTooLarge",
    "RaiseTooSmall",
    "RoundNotComplete",
    "SeatNotInHand",
    "TooFewPlayers",
    "UnknownAction",
]


class NoActionPending(RulesError, ValueError):
    messages = {
        "nn": "Ingen skal handle no: innsatsrunden er ferdig",
        "nb": "Ingen skal handle nå: innsatsrunden er ferdig",
        "da": "Ingen skal handle nu: indsatsrunden er slut",
        "en": "Nobody is to act: the betting round is complete",
    }


class HandIsOver(RulesError, ValueError):
    messages = {
        "nn": "Handa er ferdig",
        "nb": "Hånden er ferdig",
        "da": "Hånden er slut",
        "en": "The hand is over",
    }


class RoundNotComplete(RulesError, ValueError):
    messages = {
        "nn": "Innsatsrunden er ikkje ferdig: sete {actor} skal handle",
        "nb": "Innsatsrunden er ikke ferdig: sete {actor} skal handle",
        "da": "Indsatsrunden er ikke slut: sæde {actor} skal handle",
        "en": "The betting round is not complete: seat {actor} is to act",
    }


class NotYourTurn(RulesError, ValueError):
    messages = {
        "nn": "Det er ikkje tur for sete {seat}: sete {actor} skal handle",
        "nb": "Det er ikke sete {seat} sin tur: sete {actor} skal handle",
        "da": "Det er ikke sæde {seat}s tur: sæde {actor} skal handle",
        "en": "It is not seat {seat}'s turn: seat {actor} is to act",
    }


class CannotCheck(RulesError, ValueError):
    messages = {
        "nn": "Du kan ikkje checke: {amount} å syne",
        "nb": "Du kan ikke checke: {amount} å syne",
        "da": "Du kan ikke checke: {amount} at calle",
        "en": "You cannot check: {amount} to call",
    }


class NothingToCall(RulesError, ValueError):
    messages = {
        "nn": "Det er ingenting å syne: check eller sats",
        "nb": "Det er ingenting å syne: check eller sats",
        "da": "Der er intet at calle: check eller byd",
        "en": "There is nothing to call: check or bet",
    }


class BetAlreadyMade(RulesError, ValueError):
    messages = {
        "nn": "Det er alt satsa i denne runden: høgn i staden",
        "nb": "Det er allerede satset i denne runden: høyn i stedet",
        "da": "Der er allerede budt i denne runde: forhøj i stedet",
        "en": "There is already a bet in this round: raise instead",
    }


class NoBetToRaise(RulesError, ValueError):
    messages = {
        "nn": "Ingen har satsa i denne runden: sats i staden",
        "nb": "Ingen har satset i denne runden: sats i stedet",
        "da": "Ingen har budt i denne runde: byd i stedet",
        "en": "There is no bet to raise in this round: bet instead",
    }


class BetTooSmall(RulesError, ValueError):
    messages = {
        "nn": "Minste innsats er {minimum}",
        "nb": "Minste innsats er {minimum}",
        "da": "Mindste indsats er {minimum}",
        "en": "The minimum bet is {minimum}",
    }


class BetTooLarge(RulesError, ValueError):
    messages = {
        "nn": "Største innsats er {maximum}",
        "nb": "Største innsats er {maximum}",
        "da": "Største indsats er {maximum}",
        "en": "The maximum bet is {maximum}",
    }


class RaiseTooSmall(RulesError, ValueError):
    messages = {
        "nn": "Høgninga må vere til minst {minimum} totalt",
        "nb": "Høyningen må være til minst {minimum} totalt",
        "da": "Forhøjelsen skal være til mindst {minimum} i alt",
        "en": "A raise must be to at least {minimum} in total",
    }


class RaiseTooLarge(RulesError, ValueError):
    messages = {
        "nn": "Du kan høgne til høgst {maximum} totalt",
        "nb": "Du kan høyne til høyst {maximum} totalt",
        "da": "Du kan højst forhøje til {maximum} i alt",
        "en": "You may raise to at most {maximum} in total",
    }


class NotEnoughChips(RulesError, ValueError):
    messages = {
        "nn": "Du har berre {stack} att, ikkje {amount}",
        "nb": "Du har bare {stack} igjen, ikke {amount}",
        "da": "Du har kun {stack} tilbage, ikke {amount}",
        "en": "You have only {stack} left, not {amount}",
    }


class BettingNotReopened(RulesError, ValueError):
    messages = {
        "nn": "Ei kort all-in-høgning opnar ikkje innsatsen på nytt: "
        "du kan berre syne eller kaste",
        "nb": "En kort all-in-høyning åpner ikke innsatsen på nytt: "
        "du kan bare syne eller kaste",
        "da": "En kort all-in-forhøjelse genåbner ikke indsatsen: du kan kun calle eller folde",
        "en": "A short all-in does not reopen the betting: you may only call or fold",
    }


class RaiseCapReached(RulesError, ValueError):
    messages = {
        "nn": "Taket på {cap} innsatsar i runden er nådd: du kan berre syne eller kaste",
        "nb": "Taket på {cap} innsatser i runden er nådd: du kan bare syne eller kaste",
        "da": "Loftet på {cap} indsatser i runden er nået: du kan kun calle eller folde",
        "en": "The cap of {cap} bets in this round is reached: you may only call or fold",
    }


class NobodyToRaise(RulesError, ValueError):
    messages = {
        "nn": "Alle andre er all-in: du kan berre syne eller kaste",
        "nb": "Alle andre er all-in: du kan bare syne eller kaste",
        "da": "Alle andre er all-in: du kan kun calle eller folde",
        "en": "Everyone else is all-in: you may only call or fold",
    }


class NobodyCanCall(RulesError, ValueError):
    messages = {
        "nn": "Ingen andre i handa har sjetongar til å syne ei høgning: "
        "du kan berre syne eller kaste",
        "nb": "Ingen andre i hånden har sjetonger til å syne en høyning: "
        "du kan bare syne eller kaste",
        "da": "Ingen andre i hånden har jetoner til at calle en forhøjelse: "
        "du kan kun calle eller folde",
        "en": "Nobody else in the hand has the chips to call a raise: "
        "you may only call or fold",
    }


class SeatNotInHand(RulesError, LookupError):
    messages = {
        "nn": "Sete {seat} er ikkje med i handa",
        "nb": "Sete {seat} er ikke med i hånden",
        "da": "Sæde {seat} er ikke med i hånden",
        "en": "Seat {seat} is not in the hand",
    }


class TooFewPlayers(RulesError, ValueError):
    messages = {
        "nn": "Ei hand treng minst to spelarar med sjetongar, ikkje {count}",
        "nb": "En hånd trenger minst to spillere med sjetonger, ikke {count}",
        "da": "En hånd kræver mindst to spillere med jetoner, ikke {count}",
        "en": "A hand needs at least two players with chips, not {count}",
    }


class BadBlinds(RulesError, ValueError):
    messages = {
        "nn": "Ugyldige blindar {small_blind}/{big_blind} (ante {ante})",
        "nb": "Ugyldige blinds {small_blind}/{big_blind} (ante {ante})",
        "da": "Ugyldige blinds {small_blind}/{big_blind} (ante {ante})",
        "en": "Invalid blinds {small_blind}/{big_blind} (ante {ante})",
    }


class BadStack(RulesError, ValueError):
    messages = {
        "nn": "Sete {seat} kan ikkje ha {stack} i sjetongar",
        "nb": "Sete {seat} kan ikke ha {stack} i sjetonger",
        "da": "Sæde {seat} kan ikke have {stack} i jetoner",
        "en": "Seat {seat} cannot have {stack} in chips",
    }


class UnknownAction(RulesError, ValueError):
    messages = {
        "nn": "Ukjend handling «{text}»: bruk fold, check, call, bet N, raise N eller all-in",
        "nb": "Ukjent handling «{text}»: bruk fold, check, call, bet N, raise N eller all-in",
        "da": "Ukendt handling «{text}»: brug fold, check, call, bet N, raise N eller all-in",
        "en": "Unknown action '{text}': use fold, check, call, bet N, raise N or all-in",
    }
