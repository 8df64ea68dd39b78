"""``language:response_language``: langdetect's guess for the whole response is the given language."""

from __future__ import annotations

from typing import Any

from . import _text
from ._core import Checker, Param

NO_FEATURES = "no letters for langdetect to detect: counted as followed, as IFEval does"


class ResponseLanguage(Checker):
    """``language:response_language``: langdetect's single best guess for the whole text equals the code.

    langdetect is seeded, so a text always gets the same answer (IFEval leaves it unseeded). A text without
    letters (digits, punctuation, emoji) cannot be detected; IFEval then counts the instruction as followed, and
    so does this checker, saying so in the result's ``notes``. Without langdetect installed, building the
    checker raises ``MissingDependencyError``.
    """

    id = "language:response_language"
    params = (Param("language", "language"),)
    noted = True

    def setup(self, kw: dict[str, Any]) -> None:
        _text.require_langdetect(self.id)
        self._language = kw["language"]

    def check_noted(self, text: str) -> tuple[bool, str | None]:
        guess = _text.detect_language(text)
        if guess is None:
            return True, NO_FEATURES
        return guess == self._language, None

    def check(self, text: str) -> bool:
        return self.check_noted(text)[0]
