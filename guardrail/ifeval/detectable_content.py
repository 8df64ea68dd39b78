"""``detectable_content:*``: placeholders in square brackets and a postscript."""

from __future__ import annotations

import re
from typing import Any

from ._core import Checker, Param

_PLACEHOLDER = re.compile(r"\[.*?\]")


class NumberPlaceholders(Checker):
    """``detectable_content:number_placeholders``: at least N shortest ``[...]`` spans within a line; anything
    bracketed counts, ``[]``, citation marks ``[1]`` and markdown link text included."""

    id = "detectable_content:number_placeholders"
    params = (Param("num_placeholders", "count"),)

    def setup(self, kw: dict[str, Any]) -> None:
        self._num = kw["num_placeholders"]

    def check(self, text: str) -> bool:
        if self._num == 0:
            return True
        if "[" not in text:
            return False
        return len(_PLACEHOLDER.findall(text)) >= self._num


_PS = re.compile(r"p\.\s?s\.")
_PPS = re.compile(r"p\.\s?p\.\s?s")


class Postscript(Checker):
    """``detectable_content:postscript``: the marker occurs anywhere in the lowercased text.

    ``P.S.`` matches "p." optional whitespace "s."; ``P.P.S`` matches "p." ws? "p." ws? "s"; any other marker is
    looked for literally (IFEval uses it as a regular expression). "PS:" and "PPS" do not count.
    """

    id = "detectable_content:postscript"
    params = (Param("postscript_marker", "text"),)

    def setup(self, kw: dict[str, Any]) -> None:
        marker = kw["postscript_marker"].strip()
        if marker == "P.P.S":
            self._pattern = _PPS
        elif marker == "P.S.":
            self._pattern = _PS
        else:
            self._pattern = re.compile(re.escape(marker.lower()))

    def check(self, text: str) -> bool:
        return self._pattern.search(text.lower()) is not None
