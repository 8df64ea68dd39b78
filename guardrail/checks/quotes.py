"""Quotes: every quoted span must occur verbatim, after normalisation, in a source the statement may quote."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from typing import ClassVar, cast

import regex

from ..models import Action, Finding, Label
from ..text import Kind, normalize, normalize_source
from .base import Turn

# An empty "" is a quotation too (never long enough to check): its second mark closes it, as the segmenter reads it,
# and opens nothing (else it would pair with a mark further on, in a later sentence that a stream may not have yet).
_QUOTE = regex.compile(r'"([^"\n]*)"|“([^“”\n]+)”')


class QuoteCheck:
    """``UNVERIFIED_QUOTE``: a quotation of at least ``min_chars`` characters not found in an allowed source.

    An ellipsis inside a quotation is a gap: the pieces must occur in order in one source. So is the banned-term
    replacement text, so that a quotation redacted by this guard still verifies when checked again.
    """

    name: ClassVar[str] = "quotes"
    whole_output = False

    def __init__(self, min_chars: int, action: Action, gaps: tuple[str, ...] = ()):
        self.min_chars = min_chars
        self.action = action
        gap_words = ["...", *(normalize(g) for g in gaps if normalize(g))]
        self._gap_words = tuple(gap_words)
        self._gaps = regex.compile("|".join(regex.escape(g) for g in gap_words))
        self._replacements = tuple(g for g in gaps if g)

    def recheck(self, turn: Turn) -> list[Finding]:
        """Nothing: redaction text inside a quotation is a gap, and removed markers are not part of it."""
        return []

    def _redacted_length(self, quoted: str) -> int:
        """How much of a quotation is this guard's own redaction text: it does not count towards ``min_chars``."""
        length = 0
        for r in self._replacements:
            if r in quoted:  # (rarely: the count only then)
                length += quoted.count(r) * len(r)
        return length

    def run(self, turn: Turn) -> list[Finding]:
        findings: list[Finding] = []
        output = turn.output
        first = min((i for i in (output.find('"'), output.find("“")) if i >= 0), default=-1)
        if first < 0:
            return findings
        for start, end, inner_start, inner_end in quotations(output, first):
            if inner_end - inner_start < self.min_chars or (
                    self._replacements
                    and inner_end - inner_start - self._redacted_length(output[inner_start:inner_end])
                    < self.min_chars):
                continue
            i = turn.statement_at(start)
            if i is not None and turn.statements[i].kind in (Kind.CODE, Kind.SOURCE):
                continue  # code is not prose, and a Sources line names documents (a title is not a quotation)
            pieces = self._pieces(turn, inner_start, inner_end)
            if not pieces:
                continue
            allowed = _allowed(turn, i)
            if len(pieces) == 1:
                piece = pieces[0]
                found = any(piece in haystack for haystack in allowed)
            else:
                found = any(_occurs_in_order(pieces, haystack) for haystack in allowed)
            if not found:
                why = "no source may be quoted here" if not allowed else "not found in the cited source(s)"
                findings.append(Finding(self.name, Label.UNVERIFIED_QUOTE, self.action, start, end,
                                        f"quotation {why}"))
        return findings

    def _pieces(self, turn: Turn, start: int, end: int) -> list[str]:
        """The normalised text of a quotation, citation marker groups removed (whole), split at its gaps."""
        parts, pos = [], start
        spans = turn.marker_spans
        for k in range(bisect_left(spans, (start,)), len(spans)):
            a, b = spans[k]
            if b > end:
                break
            parts.append(turn.output[pos:a])
            pos = b
        text = normalize(" ".join(parts) + " " + turn.output[pos:end] if parts else turn.output[pos:end])
        for gap in self._gap_words:
            if gap in text:
                return [p.strip() for p in self._gaps.split(text) if p.strip()]
        return [text] if text else []  # the usual quotation: one piece


def open_quotation(text: str) -> int:
    """For a stream: where a quotation may begin that more text would close, as this check reads quotations
    (``len(text)`` when none can): the first mark of the last line (only there can one be open) that :func:`_pairs`
    finds no closing mark for, yet.

    The segmenter does not end a sentence inside a quotation, but it counts straight and curly marks apart, where
    ``_QUOTE`` pairs them in turn: in ``“"” "Leave. Then`` the second straight mark opens a quotation across two of
    its sentences."""
    return next((i for i, end in _pairs(text, text.rfind("\n") + 1) if end < 0), len(text))


def _allowed(turn: Turn, i: int | None) -> list[str]:
    """The normalised texts statement ``i`` may quote: its cited visible sources', or every visible source's when
    it cites none."""
    cited = turn.markers_of(i) if i is not None else []
    if not cited:
        return _every(turn)
    if len(cited) == 1:
        return _texts(turn, cited[0].id)
    return [text for sid in dict.fromkeys(mk.id for mk in cited) for text in _texts(turn, sid)]


def _texts(turn: Turn, sid: str) -> list[str]:
    """The normalised texts of the visible sources with ID ``sid`` (none for an ID not visible), looked up on first
    use and kept in ``turn.shared``: a turn's quotations cite a few of its sources, and a stream's looks share them."""
    by_id = cast("dict[str, list[str]] | None", turn.shared.get("quote haystacks"))
    if by_id is None:
        by_id = turn.shared["quote haystacks"] = {}
    texts = by_id.get(sid)
    if texts is None:
        group = turn.visible.get(sid)
        texts = by_id[sid] = [normalize_source(src.text) for src in group] if group else []
    return texts


def _every(turn: Turn) -> list[str]:
    """The normalised texts of every visible source (see :func:`_texts`)."""
    every = cast("list[str] | None", turn.shared.get("quote haystacks, all"))
    if every is None:
        every = turn.shared["quote haystacks, all"] = [text for sid in turn.visible for text in _texts(turn, sid)]
    return every


def quotations(text: str, pos: int = 0) -> Iterator[tuple[int, int, int, int]]:
    """``(start, end, inner start, inner end)`` of each quotation in ``text`` from ``pos`` on: what ``_QUOTE``'s
    ``finditer`` finds (``"..."`` or ``“...”`` within a line; an empty ``""`` too)."""
    return ((i, end, i + 1, end - 1) for i, end in _pairs(text, pos) if end >= 0)


def _pairs(text: str, pos: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each quotation from ``pos`` on, as ``_QUOTE``'s ``finditer`` reads them, and ``(start,
    -1)`` for a mark on the last line that more text could still close (the reading goes on after it, as the
    pattern's does). Found with ``str.find`` (a few calls per quotation mark, not a step per character): where the
    next of each mark and of a line break is, is kept, and looked for again only once passed, so the whole text is
    read once for each."""
    find = text.find
    nxt = {mark: find(mark, pos) for mark in ('"', "“", "”", "\n")}

    def after(mark: str, at: int) -> int:  # the first `mark` at or after `at`, or -1
        k = nxt[mark]
        if 0 <= k < at:
            k = nxt[mark] = find(mark, at)
        return k

    while True:
        straight, curly = after('"', pos), after("“", pos)
        if straight < 0 and curly < 0:
            return
        i = straight if curly < 0 or 0 <= straight < curly else curly
        line_end = after("\n", i + 1)
        if i == straight:
            close = after('"', i + 1)
            if close > i and (line_end < 0 or close < line_end):
                yield i, close + 1
                pos = close + 1
                continue
            if close < 0 and line_end < 0:
                yield i, -1
        else:
            close = after("”", i + 1)
            reopen = after("“", i + 1)
            if close > i + 1 and (line_end < 0 or close < line_end) and (reopen < 0 or close < reopen):
                yield i, close + 1
                pos = close + 1
                continue
            if close < 0 and reopen < 0 and line_end < 0:
                yield i, -1
        pos = i + 1


def _occurs_in_order(pieces: list[str], haystack: str) -> bool:
    pos = 0
    for piece in pieces:
        found = haystack.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    return True
