"""What every check sees (a :class:`Turn`) and what it must look like (:class:`Check`)."""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from itertools import starmap
from operator import itemgetter
from typing import Any, ClassVar, Generic, Literal, NamedTuple, Protocol, TypeVar, overload

import regex

from .._locate import GROUPED_CITATION_PATTERN
from ..models import Action, Finding, InstructionResult, Source
from ..text import (
    _LINE,
    _SPEEDUPS,
    MarkerFinder,
    Statement,
    _names_sources,
    non_ascii_chars,
    segment,
    segment_text,
    without_spans,
)

_T = TypeVar("_T")


class once(Generic[_T]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first read, for every
    instance: a microsecond each, a dozen times a check). The value is computed on first read and kept in the
    instance's ``__dict__``, where later reads find it without calling this descriptor. Not for objects shared
    between threads while their values are still being computed (a turn is not)."""

    def __init__(self, func: Callable[[Any], _T]):
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> once[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _T | once[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class Marker(NamedTuple):
    """A citation marker: ``output[start:end]`` cites ``id``.

    ``group_start``/``group_end`` span the marker group it is an item of (``[doc:a, doc:b]``): its own span for a
    group of one ID, and for every marker of a user's pattern. A group of several IDs has one marker per ID, each
    spanning its item (``doc:b`` or ``b``), which ends with the ID.
    """

    start: int
    end: int
    id: str
    group_start: int = -1
    group_end: int = -1

    @property
    def group(self) -> tuple[int, int]:
        """The span of the whole group (the marker's own span when it stands alone)."""
        return (self.group_start, self.group_end) if self.group_start >= 0 else (self.start, self.end)


_FIRST = itemgetter(0)  # a statement's or a marker's start
_GROUP_START, _GROUP_SPAN = itemgetter(3), itemgetter(3, 4)  # a marker's group_start, (group_start, group_end)


def group_sources_py(sources: Iterable[Source], roles: frozenset[str]) -> tuple[dict[str, list[Source]],
                                                                             dict[str, list[Source]], list[Source]]:
    """The sources by ID (``retrieved``), those the caller may see by ID (``visible``), and the others in order
    (``hidden``), for a caller with ``roles``."""
    retrieved: dict[str, list[Source]] = {}
    visible: dict[str, list[Source]] = {}
    hidden: list[Source] = []
    for src in sources:
        retrieved.setdefault(src.id, []).append(src)
        if src.roles is None or not roles.isdisjoint(src.roles):  # (Source.visible_to, inline: a hot loop)
            visible.setdefault(src.id, []).append(src)
        else:
            hidden.append(src)
    return retrieved, visible, hidden


def _group_sources_c(sources: Iterable[Source], roles: frozenset[str]) -> tuple[dict[str, list[Source]],
                                                                            dict[str, list[Source]], list[Source]]:
    grouped = _SPEEDUPS.group_sources(sources, roles)  # type: ignore[union-attr]
    return grouped if grouped is not None else group_sources_py(sources, roles)


group_sources = _group_sources_c if _SPEEDUPS is not None else group_sources_py
""":func:`group_sources_py`, in C for the usual sources (a list of :class:`Source` as ``coerce_sources`` makes
them): every turn, and every response's scrubber, groups its sources so."""


def hidden_ids(retrieved: dict[str, list[Source]], visible: dict[str, list[Source]]) -> list[str]:
    """The IDs retrieved but visible through none of their sources, in order (never an empty one: it is in every
    string, and names nothing)."""
    return [sid for sid in retrieved if sid not in visible and sid]


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
        self.instruction_results: list[InstructionResult] = []
        """What the rules check found: every verifiable instruction's result on this output, in order."""
        self.completed: set[int] = set()
        """The indices of the policy's checks that ran on this output to the end (no error, within the budget)."""
        self.local: frozenset[int] = frozenset()
        """For an edited output: the ``id`` of each check that judged the original in full (and so may look again
        only near the edits)."""
        self.edited_at: list[tuple[int, int]] | None = None
        """For an output this guard edited, checked again: where the edits landed (the spans of their replacement
        texts, empty for removals), so that a check may look again only where an edit can have changed its
        verdict. None: look everywhere."""
        self.around: list[Turn] | None = None
        """The turns of the windows around the edits, once the re-check has made them (see ``engine._targeted``)."""
        self.shared: dict[object, object] = {}
        """Facts of the sources and roles alone, for the checks to keep: the turns of one stream share them."""
        # (a turn of a look or a re-check has none of its own: it takes its context's)
        self.retrieved, self.visible, hidden = group_sources(sources, roles) if sources else ({}, {}, [])
        self._hidden = (self.retrieved, hidden)

    def remaining(self) -> float:
        """Seconds left in the latency budget (at least a millisecond, so a regex can still start)."""
        return max(self.deadline - time.perf_counter(), 0.001)

    @once
    def markers(self) -> list[Marker]:
        """Every citation marker in the output, in order."""
        return find_markers(self.marker_re, self.output, self.remaining())[0]

    @once
    def marker_spans(self) -> list[tuple[int, int]]:
        """The spans of the marker groups, in order (a group of several IDs once): the text that is citations."""
        markers = self.markers
        if not markers:
            return []
        if min(map(_GROUP_START, markers)) >= 0:  # (every reader gives each marker its group)
            return list(dict.fromkeys(map(_GROUP_SPAN, markers)))  # a group of several IDs once, in order
        spans = []
        last = -1
        for mk in markers:
            start = mk.group_start
            if start < 0:
                spans.append((mk.start, mk.end))
            elif start != last:
                spans.append((start, mk.group_end))
                last = start
        return spans

    @once
    def prose(self) -> tuple[str, bytes, set[str]]:
        """The output with its citation marker groups taken out, that in UTF-8 (``surrogatepass``), and its
        distinct non-ASCII characters."""
        text = self.output
        spans = self.marker_spans
        if spans:
            text = without_spans(text, 0, len(text), spans)
        utf8 = text.encode("utf-8", "surrogatepass")
        return text, utf8, non_ascii_chars(text, utf8)

    @once
    def non_ascii(self) -> set[str]:
        """The distinct non-ASCII characters of the output (empty for an ASCII output)."""
        if self.output.isascii():
            return set()
        if _SPEEDUPS is not None:  # (one pass over the output; else the prose's, with what the markers hold)
            return non_ascii_chars(self.output)
        chars = self.prose[2]
        if self.marker_spans:
            inside = "".join(map(self.output.__getitem__, starmap(slice, self.marker_spans)))
            if not inside.isascii():
                chars = chars | non_ascii_chars(inside)
        return chars

    @once
    def hidden_ids(self) -> list[str]:
        """The IDs of the turn that are retrieved but visible through none of their sources (never empty ones)."""
        return hidden_ids(self.retrieved, self.visible)

    @once
    def hidden_sources(self) -> list[Source]:
        """The retrieved sources the caller may not see (also those sharing their ID with a visible one)."""
        retrieved, hidden = self._hidden
        if retrieved is self.retrieved:
            return hidden
        roles = self.roles  # the retrieved set was given after construction (an edited output checked again)
        return [src for group in self.retrieved.values() for src in group if not src.visible_to(roles)]

    @once
    def statements(self) -> list[Statement]:
        """The output's statements, in order (those of :func:`~guardrail.text.segment`, found in one pass)."""
        return segment_text(self.output, self._groups)

    @once
    def _groups(self) -> dict[int, int]:
        """The start of every marker group, to its end (what segmentation needs to know of markers)."""
        return dict(self.marker_spans)

    @once
    def _statement_starts(self) -> list[int]:
        return list(map(_FIRST, self.statements))

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

    @once
    def _marker_starts(self) -> list[int]:
        return list(map(_FIRST, self.markers))

    @once
    def statement_markers(self) -> list[list[Marker]]:
        """For each statement, the markers inside it (those starting in it)."""
        markers, starts = self.markers, self._marker_starts
        if not markers:
            return [[] for _ in self.statements]
        return [markers[bisect_left(starts, st.start):bisect_left(starts, st.end)] for st in self.statements]

    def markers_of(self, i: int) -> list[Marker]:
        """The markers inside statement ``i`` (``statement_markers[i]``, without building them all)."""
        sm = self.__dict__.get("statement_markers")
        if sm is not None:
            return sm[i]
        markers = self.markers
        if not markers:
            return []
        st, starts = self.statements[i], self._marker_starts
        return markers[bisect_left(starts, st.start):bisect_left(starts, st.end)]

    @once
    def cited(self) -> list[bool]:
        """For each statement, whether it cites a visible source."""
        if not self.visible:
            return [False] * len(self.statements)
        return _cited_flags(self.statements, self.markers, self.visible)

    def has_valid_citation(self, i: int, removed_markers: frozenset[int] = frozenset()) -> bool:
        """Whether statement ``i`` cites a visible source (not counting markers starting at ``removed_markers``)."""
        if not removed_markers:
            return self.cited[i]
        return any(mk.id in self.visible and mk.start not in removed_markers for mk in self.markers_of(i))


MarkerPattern = regex.Pattern[str] | re.Pattern[str]
"""The citation pattern: the default reader (:data:`~guardrail._locate.GROUPED_CITATION_PATTERN`) is compiled with
:mod:`re` (it cannot backtrack badly, and ``re`` needs no timeout, which costs ``regex`` more than the search); a
user's pattern with :mod:`regex`, to run with a timeout."""

_GROUP = re.compile(GROUPED_CITATION_PATTERN)
_MORE = re.compile(r"[,;][ \t]*(?P<item>(?>(?:[Dd][Oo][Cc]:[ \t]*)?)(?P<id>[^\][,;\s]+))")
_COMPLETIONS = ("]", "x]", "doc:x]", "oc:x]", "c:x]", ":x]")  # what can finish any beginning of a group
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot loop)


def find_markers(
    marker_re: MarkerPattern, text: str, timeout: float, partial: bool = False
) -> tuple[list[Marker], int]:
    """The citation markers in ``text``, left to right, and where a marker (group) may begin that more text would
    complete (``len(text)`` when none can, or when ``partial`` is false: the text is complete).

    The default reader gives one marker per ID of a group (see :class:`Marker`); a user's pattern one marker per
    match, its group ``id`` the cited ID."""
    if marker_re.pattern == GROUPED_CITATION_PATTERN:
        return _read_groups(text, partial)
    if isinstance(marker_re, re.Pattern):  # a pattern compiled elsewhere: run it with a timeout all the same
        marker_re = regex.compile(marker_re.pattern, marker_re.flags & (re.I | re.M | re.S | re.X))
    out = []
    open_from = len(text)
    for m in marker_re.finditer(text, partial=partial, timeout=timeout):
        start, end = m.span()
        if partial and m.partial:
            open_from = min(open_from, start)
        elif end > start:
            out.append(_new(Marker, (start, end, m.group("id") or "", start, end)))
    out.sort()  # (a pattern may search from the right, "(?r)": every reader of markers takes them in order)
    return out, open_from


def _read_groups(text: str, partial: bool) -> tuple[list[Marker], int]:
    """The default reader: every group, with a marker per ID."""
    return (_group_markers(text) if "[" in text else []), _open_group(text) if partial else len(text)


def _open_group(text: str) -> int:
    """Where a group of the default reader begins that more text would complete (``len(text)`` if none can)."""
    # A group never holds a "[": only one beginning at the last "[" can still be unfinished.
    last = text.rfind("[")
    if last >= 0 and "]" not in text[last:]:
        tail = text[last:]
        if any(_GROUP.fullmatch(tail + c) for c in _COMPLETIONS):
            return last
    return len(text)


def _group_markers_py(text: str) -> list[Marker]:
    """The markers of every group in ``text``, in order (compiled: ``_speedups.read_groups``, the same)."""
    out: list[Marker] = []
    append = out.append
    for m in _GROUP.finditer(text):
        start, end = m.span()
        if m.start(2) == m.end(2):  # one ID (the usual case): the marker is the whole group
            append(_new(Marker, (start, end, m.group(1), start, end)))
            continue
        append(_new(Marker, (start + 1, m.end(1), m.group(1), start, end)))
        for item in _MORE.finditer(text, m.start(2), m.end(2)):
            append(_new(Marker, (item.start(1), item.end(2), item.group(2), start, end)))
    return out


def cited_flags_py(statements: list[Statement], markers: list[Marker], visible: dict[str, list[Source]]) -> list[bool]:
    """For each statement, whether a marker starting inside it cites a ``visible`` ID (compiled:
    ``_speedups.cited_flags``, the same)."""
    out = [False] * len(statements)
    starts = [st.start for st in statements]
    for mk in markers:
        if mk.id in visible:
            i = bisect_right(starts, mk.start) - 1
            if i >= 0 and mk.start < statements[i].end:
                out[i] = True
    return out


_cited_flags: Callable[[list[Statement], list[Marker], dict[str, list[Source]]], list[bool]] = \
    _SPEEDUPS.cited_flags if _SPEEDUPS is not None else cited_flags_py

if _SPEEDUPS is not None:
    _SPEEDUPS.configure_markers(Marker)
_group_markers: Callable[[str], list[Marker]] = _SPEEDUPS.read_groups if _SPEEDUPS is not None else _group_markers_py
group_markers = _group_markers
"""The default reader's markers of a text with a "[" in it (:func:`_group_markers_py`, compiled when it could be)."""


def marker_finder(markers: list[Marker], open_from: int | None = None) -> MarkerFinder:
    """A :data:`~guardrail.text.MarkerFinder` that knows the markers found by :func:`find_markers`, so that
    segmentation sees exactly those (a prefix of a stream and the whole text agree on them). It finds whole groups:
    citations after a sentence's final punctuation belong to the sentence, ``Claim. [doc:a, doc:b]``."""
    ends = {}
    for mk in markers:
        ends[mk.group_start if mk.group_start >= 0 else mk.start] = mk.group_end if mk.group_start >= 0 else mk.end

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
    turn: Turn | None = None,
) -> list[Statement]:
    """The statements of ``text`` that are complete whatever text follows it (for streams). A ``turn`` of ``text``
    lends its markers, where the partial reading finds the same ones (the default reader's); a stream's usual window
    is then read by :func:`_simple_prefix`."""
    if turn is not None and marker_re.pattern == GROUPED_CITATION_PATTERN:
        open_from = _open_group(text)
        found = _simple_prefix(text, turn, open_from, plain_lines, continued)
        if found is not None:
            return found
        markers = turn.markers
    else:
        markers, open_from = find_markers(marker_re, text, timeout, partial=True)
    return segment(text, marker_finder(markers, open_from), final=False, plain_lines=plain_lines,
                   continued=continued)


def _simple_prefix_py(text: str, turn: Turn, open_from: int, plain_lines: set[int] | None,
                      continued: bool) -> list[Statement] | None:
    """:func:`prefix_statements` of a stream's usual window, from the segmentation of the text as if it were
    complete (compiled, when it could be); None for any other text. The usual window is lines that open no code
    block, the first one beginning with a letter when it is ``continued`` (so it is read the same either way).

    Complete lines are read the same either way (the state that carries from line to line, a Sources section, is
    followed here as the segmenter follows it). A last line not complete yet holds no complete statement unless it
    is an ordinary line. Of an ordinary one, the two readings decide every sentence end the same way until one
    looks at a position that the prefix reading cannot judge: the end of the text, or an unfinished marker group
    (``open_from`` on). Each sentence end is judged by what follows it up to its first visible character, and
    those positions only grow along the line; so its complete statements are the leading ones whose next visible
    character lies before both."""
    n = len(text)
    pos = 0
    sources = 0  # as the segmenter's state: 1 after a Sources heading, 2 once the section has a line
    plain: list[int] = []
    while True:  # `pos` ends at the start of the last line (n: there is none)
        if not sources and pos < n and (pos or not continued):
            plain.append(pos)
        nl = text.find("\n", pos)
        le = n if nl < 0 else (nl - 1 if nl > pos and text[nl - 1] == "\r" else nl)
        cs = pos
        while cs < le and text[cs] in " \t":
            cs += 1
        kind = None
        if cs == le:
            if sources == 2 and nl >= 0:
                sources = 0
        elif not text[cs].isalpha() or _names_sources(text, cs):
            if continued and not pos:
                return None
            m = _LINE.match(text, pos, le)
            kind = m.lastgroup if m is not None else None
            if kind == "fence" or (nl < 0 and kind in ("sources_heading", "bold")):
                return None
        if nl < 0:
            break
        if cs < le:  # a complete line
            if kind == "sources_heading":
                sources = 1
            elif kind == "heading" or kind == "bold":
                sources = 0
            elif sources:
                sources = 2
        pos = nl + 1
    ordinary = kind is None and not sources  # (the last line's)
    out = segment_text(text, turn._groups)
    if plain_lines is not None:
        plain_lines.update(plain)
    stop = min(n, open_from)
    for k in range(len(out) - 1, -1, -1):  # (the last line's statements come last)
        st = out[k]
        if st.start < pos:
            break
        if ordinary:
            p = st.end
            while p < n and text[p].isspace():
                p += 1
            if p < stop:
                break
        del out[k]
    return out


def _simple_prefix_c(text: str, turn: Turn, open_from: int, plain_lines: set[int] | None,
                     continued: bool) -> list[Statement] | None:
    found, plain = _SPEEDUPS.simple_prefix(text, turn._groups, open_from, continued)  # type: ignore[union-attr]
    if found is not None and plain_lines is not None:
        plain_lines.update(plain)
    return found  # type: ignore[no-any-return]


_simple_prefix = _simple_prefix_c if _SPEEDUPS is not None else _simple_prefix_py
""":func:`_simple_prefix_py`, compiled when it could be (a stream's looks read their windows so)."""


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
