"""``detectable_format:*``: bullets, a constrained answer, highlights, sections, JSON, a title."""

from __future__ import annotations

import json
import re
from typing import Any

from ._core import Checker, Param

_STAR_BULLET = re.compile(r"^\s*\*[^\*].*$", re.MULTILINE)
_DASH_BULLET = re.compile(r"^\s*-.*$", re.MULTILINE)


class NumberBulletLists(Checker):
    """``detectable_format:number_bullet_lists``: exactly N lines starting (after whitespace) with ``*`` and a
    character other than ``*``, or with ``-``. So ``*italic*`` at a line start counts, ``**bold**`` does not,
    ``---`` rules and "-5 degrees" count, ``+``, ``•`` and numbered items never do."""

    id = "detectable_format:number_bullet_lists"
    params = (Param("num_bullets", "count"),)

    def setup(self, kw: dict[str, Any]) -> None:
        self._num = kw["num_bullets"]

    def check(self, text: str) -> bool:
        n = len(_STAR_BULLET.findall(text)) if "*" in text else 0
        if "-" in text:
            n += len(_DASH_BULLET.findall(text))
        return n == self._num


CONSTRAINED_OPTIONS = ("My answer is yes.", "My answer is no.", "My answer is maybe.")


class ConstrainedResponse(Checker):
    """``detectable_format:constrained_response``: one of "My answer is yes.", "My answer is no.",
    "My answer is maybe." occurs (case-sensitive); other text around it is allowed."""

    id = "detectable_format:constrained_response"

    def check(self, text: str) -> bool:
        return "My answer is " in text and any(o in text for o in CONSTRAINED_OPTIONS)


_SINGLE = re.compile(r"\*([^\n*]*)\*")
_DOUBLE = re.compile(r"\*\*([^\n*]*)\*\*")


class NumberHighlightedSections(Checker):
    """``detectable_format:number_highlighted_sections``: at least N highlights, counting non-blank
    ``*...*`` spans and, separately, non-blank ``**...**`` spans, left to right within lines. So ``**bold**``
    counts once, ``***x***`` twice, and "* **Bold**: text" twice (the bullet star pairs with a later star)."""

    id = "detectable_format:number_highlighted_sections"
    params = (Param("num_highlights", "count"),)

    def setup(self, kw: dict[str, Any]) -> None:
        self._num = kw["num_highlights"]

    def check(self, text: str) -> bool:
        if self._num == 0:
            return True
        if "*" not in text:
            return False
        n = sum(1 for inner in _SINGLE.findall(text) if inner.strip())
        if n >= self._num:
            return True
        return n + sum(1 for inner in _DOUBLE.findall(text) if inner.strip()) >= self._num


class MultipleSections(Checker):
    """``detectable_format:multiple_sections``: at least N occurrences of: optional whitespace character, the
    splitter (case-sensitive), optional whitespace character, digits, optional whitespace character. The number
    is required ("Section One" never counts); a mid-sentence "see Section 2" does."""

    id = "detectable_format:multiple_sections"
    params = (Param("section_spliter", "text"), Param("num_sections", "count"))

    def setup(self, kw: dict[str, Any]) -> None:
        self._marker = kw["section_spliter"].strip()
        self._pattern = re.compile(r"\s?" + re.escape(self._marker) + r"\s?\d+\s?")
        self._num = kw["num_sections"]

    def check(self, text: str) -> bool:
        if self._num == 0:
            return True
        if self._marker not in text:
            return False
        return len(self._pattern.findall(text)) >= self._num


class JsonFormat(Checker):
    """``detectable_format:json_format``: after stripping, one leading "```json" ("```Json", "```JSON") or "```"
    and one trailing "```" removed, the text parses as JSON; any JSON value passes, a bare ``42`` included."""

    id = "detectable_format:json_format"

    def check(self, text: str) -> bool:
        value = (
            text.strip()
            .removeprefix("```json")
            .removeprefix("```Json")
            .removeprefix("```JSON")
            .removeprefix("```")
            .removesuffix("```")
            .strip()
        )
        try:
            json.loads(value)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the interpreter allows
            return False
        return True


_TITLE = re.compile(r"<<[^\n]+>>")


class Title(Checker):
    """``detectable_format:title``: some ``<<...>>`` within a line (greedy, so ``<<a>> x <<b>>`` is one) still
    has non-blank text once its leading ``<`` and trailing ``>`` are removed; ``<< >>`` fails."""

    id = "detectable_format:title"

    def check(self, text: str) -> bool:
        if "<<" not in text:
            return False
        return any(t.lstrip("<").rstrip(">").strip() for t in _TITLE.findall(text))
