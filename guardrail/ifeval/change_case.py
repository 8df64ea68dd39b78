"""``change_case:*``: words in capitals; the whole response in English capitals or lowercase."""

from __future__ import annotations

from typing import Any

from . import _text
from ._core import Checker, Param, compare
from .language import NO_FEATURES


class CapitalWordFrequency(Checker):
    """``change_case:capital_word_frequency``: word tokens that are upper case in Python's sense (a cased
    character and no lowercase one: "I", "U.S.", "COVID-19", the "NASA" of "NASA's"), by relation.

    Tokens are ``nltk.word_tokenize``'s when NLTK's Punkt model is installed, otherwise the built-in tokenizer's
    (the result's ``sentence_splitter`` says which).
    """

    id = "change_case:capital_word_frequency"
    params = (Param("capital_frequency", "count"), Param("capital_relation", "relation"))

    def setup(self, kw: dict[str, Any]) -> None:
        self.sentence_splitter = _text.resolve_splitter(self.splitter_choice, self.id)
        self._num, self._relation = kw["capital_frequency"], kw["capital_relation"]

    def check(self, text: str) -> bool:
        return compare(self._relation, _text.count_capital_words(text, self.sentence_splitter), self._num)  # type: ignore[arg-type]


class _EnglishCase(Checker):
    noted = True

    def setup(self, kw: dict[str, Any]) -> None:
        _text.require_langdetect(self.id)

    def _case_ok(self, text: str) -> bool:
        raise NotImplementedError

    def check_noted(self, text: str) -> tuple[bool, str | None]:
        if not self._case_ok(text):
            return False, None
        guess = _text.detect_language(text)
        if guess is None:
            return True, NO_FEATURES
        return guess == "en", None

    def check(self, text: str) -> bool:
        return self.check_noted(text)[0]


class EnglishCapital(_EnglishCase):
    """``change_case:english_capital``: no lowercase character, at least one cased one (``str.isupper``), and
    langdetect guesses English. One lowercase letter anywhere (a URL, "e.g.") fails."""

    id = "change_case:english_capital"

    def _case_ok(self, text: str) -> bool:
        return text.isupper()


class EnglishLowercase(_EnglishCase):
    """``change_case:english_lowercase``: no uppercase character, at least one cased one (``str.islower``), and
    langdetect guesses English."""

    id = "change_case:english_lowercase"

    def _case_ok(self, text: str) -> bool:
        return text.islower()
