"""``startend:*``: the response ends with a phrase; the response is wrapped in double quotes."""

from __future__ import annotations

from typing import Any

from ._core import Checker, Param


class EndChecker(Checker):
    """``startend:end_checker``: the response, stripped, with leading and trailing ASCII ``"`` removed and
    lowercased, ends with the stripped, lowercased phrase. A period after a closing quote, a trailing ``**`` or
    curly quotes fail in strict mode."""

    id = "startend:end_checker"
    params = (Param("end_phrase", "text"),)

    def setup(self, kw: dict[str, Any]) -> None:
        self._end = kw["end_phrase"].strip().lower()

    def check(self, text: str) -> bool:
        return text.strip().strip('"').lower().endswith(self._end)


class Quotation(Checker):
    """``startend:quotation``: the stripped response is longer than one character and starts and ends with the
    ASCII double quote; curly quotes fail."""

    id = "startend:quotation"

    def check(self, text: str) -> bool:
        value = text.strip()
        return len(value) > 1 and value[0] == '"' and value[-1] == '"'
