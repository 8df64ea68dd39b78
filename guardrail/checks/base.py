"""What every check sees (a :class:`Turn`) and what it must look like (:class:`Check`)."""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterable
from functools import cached_property
from typing import Any, ClassVar, NamedTuple, Protocol

import regex

from ..models import Finding, Source
from ..text import Statement, segment


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
        marker_re: regex.Pattern[str],
        deadline: float,
    ):
        self.output = output
        self.roles = roles
        self.marker_re = marker_re
        self.deadline = deadline
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
        out = []
        for m in self.marker_re.finditer(self.output, timeout=self.remaining()):
            start, end = m.span()
            if end > start:
                out.append(Marker(start, end, m.group("id") or ""))
        return out

    @cached_property
    def marker_spans(self) -> list[tuple[int, int]]:
        return [(mk.start, mk.end) for mk in self.markers]

    def _find_marker(self, text: str, pos: int, endpos: int, partial: bool) -> Any:
        """A :data:`~guardrail.text.MarkerFinder` for any text (a prefix of a stream, say)."""
        m = self.marker_re.match(text, pos, endpos, partial=partial, timeout=self.remaining())
        if m is None or m.end() == m.start():
            return None
        return True if m.partial else m.span()

    @cached_property
    def statements(self) -> list[Statement]:
        """The output's statements, in order."""
        ends = {mk.start: mk.end for mk in self.markers}

        def known_marker(text: str, pos: int, endpos: int, partial: bool) -> tuple[int, int] | None:
            end = ends.get(pos)
            return None if end is None or end > endpos else (pos, end)

        return segment(self.output, known_marker)

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
        out: list[list[Marker]] = [[] for _ in self.statements]
        for mk in self.markers:
            i = self.statement_at(mk.start)
            if i is not None:
                out[i].append(mk)
        return out

    def has_valid_citation(self, i: int, removed_markers: frozenset[int] = frozenset()) -> bool:
        """Whether statement ``i`` cites a visible source (not counting markers starting at ``removed_markers``)."""
        return any(mk.id in self.visible and mk.start not in removed_markers for mk in self.statement_markers[i])


class Check(Protocol):
    """A compiled check: a pure function of the turn that returns findings."""

    name: ClassVar[str]
    whole_output: bool
    """True when the check can only judge the complete output (streams then hold everything back)."""

    def run(self, turn: Turn) -> list[Finding]: ...
