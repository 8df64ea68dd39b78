"""What every check sees (a :class:`Turn`) and what it must look like (:class:`Check`)."""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Iterable
from functools import cached_property
from typing import ClassVar, Literal, NamedTuple, Protocol

import regex

from ..models import Action, Finding, Source
from ..text import MarkerFinder, Statement, segment


class Marker(NamedTuple):
    """A citation marker: ``output[start:end]`` cites ``id``."""

    start: int
    end: int
    id: str


class Turn:
    """One output with its context. Derived facts (markers, statements) are computed once, on first use."""

    def __init__(
        self,
        output: str,
        sources: Iterable[Source],
        roles: frozenset[str],
        marker_re: MarkerPattern,
        deadline: float,
    ):
        self.output = output
        self.roles = roles
        self.marker_re = marker_re
        self.deadline = deadline
        self.after_text = False  # the output continues text before it (a stream's window): its start is no blank
        self.continued = False  # ... and starts inside a line, after a kept sentence
        self.retrieved: dict[str, list[Source]] = {}
        self.visible: dict[str, list[Source]] = {}
        for src in sources:
            self.retrieved.setdefault(src.id, []).append(src)
            if src.visible_to(roles):
                self.visible.setdefault(src.id, []).append(src)

    def remaining(self) -> float:
        """Seconds left in the latency budget (at least a millisecond, so a regex can still start)."""
        return max(self.deadline - time.perf_counter(), 0.001)

    @cached_property
    def markers(self) -> list[Marker]:
        """Every citation marker in the output, in order."""
        return find_markers(self.marker_re, self.output, self.remaining())[0]

    @cached_property
    def marker_spans(self) -> list[tuple[int, int]]:
        return [(mk.start, mk.end) for mk in self.markers]

    @cached_property
    def statements(self) -> list[Statement]:
        """The output's statements, in order."""
        return segment(self.output, marker_finder(self.markers))

    @cached_property
    def _statement_starts(self) -> list[int]:
        return [st.start for st in self.statements]

    def statement_at(self, pos: int) -> int | None:
        """The index of the statement containing offset ``pos``, if any."""
        i = bisect_right(self._statement_starts, pos) - 1
        if i >= 0 and pos < max(self.statements[i].end, self.statements[i].start + 1):
            return i
        return None

    def statements_overlapping(self, start: int, end: int) -> list[int]:
        """Indices of the statements that share at least one character with ``[start, end)``."""
        out = []
        i = max(bisect_right(self._statement_starts, start) - 1, 0)
        sts = self.statements
        while i < len(sts) and sts[i].start < max(end, start + 1):
            if sts[i].end > start:
                out.append(i)
            i += 1
        return out

    @cached_property
    def statement_markers(self) -> list[list[Marker]]:
        """For each statement, the markers inside it."""
        statements = self.statements
        out: list[list[Marker]] = [[] for _ in statements]
        i, n = 0, len(statements)
        for mk in self.markers:  # both are in order: one walk
            while i < n and statements[i].end <= mk.start:  # statements are never empty
                i += 1
            if i < n and statements[i].start <= mk.start:
                out[i].append(mk)
        return out

    @cached_property
    def cited(self) -> list[bool]:
        """For each statement, whether it cites a visible source."""
        visible = self.visible
        return [any(mk.id in visible for mk in markers) for markers in self.statement_markers]

    def has_valid_citation(self, i: int, removed_markers: frozenset[int] = frozenset()) -> bool:
        """Whether statement ``i`` cites a visible source (not counting markers starting at ``removed_markers``)."""
        if not removed_markers:
            return self.cited[i]
        return any(mk.id in self.visible and mk.start not in removed_markers for mk in self.statement_markers[i])


MarkerPattern = regex.Pattern[str] | re.Pattern[str]
"""The citation pattern: the default one is compiled with :mod:`re` (it cannot backtrack badly, and ``re`` needs no
timeout, which costs ``regex`` more than the search); a user's pattern with :mod:`regex`, to run with a timeout."""


def find_markers(
    marker_re: MarkerPattern, text: str, timeout: float, partial: bool = False
) -> tuple[list[Marker], int]:
    """The citation markers in ``text``, left to right, and where a marker may begin that more text would complete
    (``len(text)`` when none can, or when ``partial`` is false: the text is complete)."""
    out = []
    open_from = len(text)
    if isinstance(marker_re, re.Pattern):
        if partial:
            marker_re = regex.compile(marker_re.pattern)
        else:  # the default pattern: every marker starts with its literal "[doc:", which str.find finds fastest
            match = marker_re.match
            pos = text.find("[doc:")
            while pos >= 0:
                found = match(text, pos)
                if found is not None:
                    out.append(Marker(pos, found.end(), found.group(1)))
                    pos = text.find("[doc:", found.end())
                else:
                    pos = text.find("[doc:", pos + 1)
            return out, open_from
    for m in marker_re.finditer(text, partial=partial, timeout=timeout):
        start, end = m.span()
        if partial and m.partial:
            open_from = start
        elif end > start:
            out.append(Marker(start, end, m.group("id") or ""))
    return out, open_from


def marker_finder(markers: list[Marker], open_from: int | None = None) -> MarkerFinder:
    """A :data:`~guardrail.text.MarkerFinder` that knows the markers found by :func:`find_markers`, so that
    segmentation sees exactly those (a prefix of a stream and the whole text agree on them)."""
    ends = {mk.start: mk.end for mk in markers}

    def find(text: str, pos: int, endpos: int, partial: bool) -> tuple[int, int] | Literal[True] | None:
        end = ends.get(pos)
        if end is not None and end <= endpos:
            return pos, end
        if partial and open_from is not None and pos >= open_from:
            return True
        return None

    return find


def prefix_statements(
    marker_re: MarkerPattern,
    text: str,
    timeout: float = 1.0,
    plain_lines: set[int] | None = None,
    continued: bool = False,
) -> list[Statement]:
    """The statements of ``text`` that are complete whatever text follows it (for streams)."""
    markers, open_from = find_markers(marker_re, text, timeout, partial=True)
    return segment(text, marker_finder(markers, open_from), final=False, plain_lines=plain_lines,
                   continued=continued)


class Check(Protocol):
    """A compiled check: a pure function of the turn that returns findings."""

    name: ClassVar[str]
    whole_output: bool
    """True when the check can only judge the complete output (streams then hold everything back)."""

    def run(self, turn: Turn) -> list[Finding]:
        """The findings on the turn's output."""
        ...

    def recheck(self, turn: Turn) -> list[Finding]:
        """The findings that edits by this guard can have caused, on an edited output (at most :meth:`run`'s)."""
        ...


def acts(check: Check) -> bool:
    """Whether a check can ever change what the user receives (some finding of it is not just flagged)."""
    actions = getattr(check, "actions", None)
    if actions is None:
        actions = (getattr(check, "action", Action.FLAG),)
    return any(a is not None and a is not Action.FLAG for a in actions)
