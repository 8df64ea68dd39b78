"""``keywords:*``: words that must occur, occur a number of times, must not occur; a letter's frequency."""

from __future__ import annotations

import re
from typing import Any

from ._core import Checker, Param, compare


class Existence(Checker):
    """``keywords:existence``: every keyword occurs, as a case-insensitive substring ("mom" is in "moment")."""

    id = "keywords:existence"
    params = (Param("keywords", "word_list"),)

    def setup(self, kw: dict[str, Any]) -> None:
        # IFEval searches each keyword as a regular expression; the keywords are taken literally here, which is
        # the same for every keyword made of letters, digits and spaces (all of IFEval's).
        words = sorted(kw["keywords"])
        self._patterns = tuple(re.compile(re.escape(k), re.IGNORECASE) for k in words)
        self._ascii = tuple(k.lower() for k in words) if all(k.isascii() for k in words) else None

    def check(self, text: str) -> bool:
        if self._ascii is not None and text.isascii():
            # On ASCII text a case-insensitive literal search is a search in the lowercased text.
            low = text.lower()
            return all(k in low for k in self._ascii)
        return all(p.search(text) for p in self._patterns)


class Frequency(Checker):
    """``keywords:frequency``: non-overlapping case-insensitive substring matches of the keyword, by relation."""

    id = "keywords:frequency"
    params = (Param("keyword", "text"), Param("frequency", "count"), Param("relation", "relation"))

    def setup(self, kw: dict[str, Any]) -> None:
        keyword = kw["keyword"].strip()
        self._pattern = re.compile(re.escape(keyword), re.IGNORECASE)
        self._ascii = keyword.lower() if keyword.isascii() else None
        self._frequency, self._relation = kw["frequency"], kw["relation"]

    def check(self, text: str) -> bool:
        if self._ascii is not None and text.isascii():
            n = text.lower().count(self._ascii)  # non-overlapping, left to right, like re.findall
        else:
            n = len(self._pattern.findall(text))
        return compare(self._relation, n, self._frequency)


# The non-ASCII characters that a case-insensitive pattern of ASCII letters matches but that str.lower() does not
# turn into them (long s, Kelvin sign, dotted and dotless i): without them, a word absent from the lowered text
# cannot match.
_FOLDS_TO_ASCII = ("\u017f", "\u212a", "\u0130", "\u0131")


class ForbiddenWords(Checker):
    """``keywords:forbidden_words``: none of the words occurs between ``\\b`` word boundaries, any case
    ("rock" is caught in "Rock." and "rock-solid", not in "rocks")."""

    id = "keywords:forbidden_words"
    params = (Param("forbidden_words", "word_list"),)

    def setup(self, kw: dict[str, Any]) -> None:
        words = sorted(set(kw["forbidden_words"]), key=lambda w: (-len(w), w))
        self._pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
        self._ascii = tuple(w.lower().encode() for w in words) if all(w.isascii() for w in words) else None

    def check(self, text: str) -> bool:
        if self._ascii is not None and (text.isascii() or not any(c in text for c in _FOLDS_TO_ASCII)):
            low = text.encode("utf-8", "surrogatepass").lower()  # ASCII letters lowered: all an ASCII word can be
            if not any(w in low for w in self._ascii):
                return True  # not even as a substring
        return self._pattern.search(text) is None


class LetterFrequency(Checker):
    """``keywords:letter_frequency``: occurrences of the character in the lowercased text, by relation.

    IFEval replaces a letter that is not one ASCII letter by a random one (keys 1122 ``#`` and 1129 ``!``); here
    the given character itself is counted, deterministically, as in IFEval's current code.
    """

    id = "keywords:letter_frequency"
    params = (Param("letter", "char"), Param("let_frequency", "count"), Param("let_relation", "relation"))

    def setup(self, kw: dict[str, Any]) -> None:
        self._letter = kw["letter"].lower()
        self._frequency, self._relation = kw["let_frequency"], kw["let_relation"]
        self.random_in_ifeval = not ("a" <= self._letter <= "z")

    def check(self, text: str) -> bool:
        return compare(self._relation, text.lower().count(self._letter), self._frequency)
