"""``punctuation:no_comma``: no ASCII comma anywhere."""

from __future__ import annotations

from ._core import Checker


class NoComma(Checker):
    """``punctuation:no_comma``: the ASCII comma U+002C does not occur; "，", "、" and "،" are not commas here."""

    id = "punctuation:no_comma"

    def check(self, text: str) -> bool:
        return "," not in text
