"""The screen catalogue: every key in every language, with the same placeholders."""

from __future__ import annotations

import pytest

from kiosk.display.messages import MESSAGES, UnknownMessage, placeholders, text
from rules.i18n import LANGUAGES


def test_every_language_has_every_key() -> None:
    keys = set(MESSAGES["nn"])
    assert set(MESSAGES) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(MESSAGES[lang]) == keys, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_match_nynorsk(lang: str) -> None:
    for key, template in MESSAGES["nn"].items():
        assert placeholders(MESSAGES[lang][key]) == placeholders(template), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_formats_and_is_not_empty(lang: str) -> None:
    for key, template in MESSAGES[lang].items():
        params = dict.fromkeys(placeholders(template), "7")
        assert text(key, lang, **params).strip(), (lang, key)


def test_the_glossary_words_are_used() -> None:
    assert text("paused") == "Klokka er stoppa"
    assert text("power_cut") == "Klokka stoppa etter straumbrot – trykk pause"
    assert text("players_left", "nb") == "Spillere igjen"
    assert text("average_stack", "da") == "Gns. stack"
    assert text("colour_up", "en") == "Colour-up"
    assert [text("winner", lang) for lang in LANGUAGES] == ["Vinnar", "Vinner", "Vinder", "Winner"]
    assert text("level", "nn", number=4) == "Nivå 4"


def test_missing_parameter_or_key_is_an_error() -> None:
    with pytest.raises(KeyError):
        text("level", "nn")
    with pytest.raises(UnknownMessage):
        text("no-such-key", "nn")
    with pytest.raises(UnknownMessage):
        text("paused", "sv")
