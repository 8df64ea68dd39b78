"""Citations: every cited ID must be in the retrieved set and visible to the caller; optionally every claim cited;
and, whatever the citation format, nothing of a source the caller may not see reaches the output."""

from __future__ import annotations

import difflib
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache
from itertools import compress
from operator import itemgetter, not_
from typing import ClassVar, cast

from ..models import Action, Finding, Label
from ..text import (
    _ASCII_WORDS,
    _SPEEDUPS,
    INVISIBLE,
    MAYBE_INVISIBLE,
    ZERO_WIDTH,
    is_exempt,
    is_word_char,
    non_ascii_chars,
    normalize_mapped,
    only_separators,
    without_spans,
    word_bytes,
    word_spans,
    word_utf8,
    words,
)
from .base import Marker, Turn, once

_ID = itemgetter(2)  # a marker's ID
_MENTION = "names a source that is not visible to the caller"
_COPY = "text copied from a source that is not visible to the caller"


class CitationCheck:
    """``HALLUCINATED_SOURCE``, ``UNAUTHORIZED_SOURCE`` and (with coverage on) ``UNCITED_CLAIM``.

    ``UNAUTHORIZED_SOURCE`` also covers leaks in any format (CONTRACT section 2, "Invisible-source leaks"), with
    ``on_unauthorized`` as the action, whatever the citation pattern:

    - a mention: the ID of a retrieved source that is visible through none of its copies, anywhere in the output as
      a whole token (the characters around it are neither word characters nor ``-``; case-sensitive, and also
      with zero-width characters taken out). The finding spans the occurrence. An occurrence inside a marker that
      cites that very ID is the marker's finding already and is not reported twice.
    - a copy: at least ``leak_min_words`` consecutive words of an invisible source's text. Words are runs of word
      characters after the quotes rule's normalisation (:func:`~guardrail.text.words`: NFKC, case folded,
      zero-width characters removed), with citation marker groups taken out, so a copy survives case changes,
      punctuation and line breaks (the source's, or those inside a code block). A run of words that also occurs
      in a visible source of the turn is no leak. The finding spans the copied words in the original output.

      Runs reach across statements and line breaks: a copy chopped into short sentences or lines is still one
      run. A stream holds back the words at its end that could still grow into one (see :func:`open_run`).

    Both cost nothing when every retrieved source is visible. A copy is first looked for cheaply in the whole
    output (see :func:`copies`); only an output that shares a run of ``leak_min_words`` words with an invisible
    source has its words compared exactly. What a source takes is cached, as sources repeat across turns.

    Messages never echo an ID the caller may not see, nor copied text.
    """

    name: ClassVar[str] = "citations"
    whole_output = False

    def __init__(self, on_hallucinated: Action, on_unauthorized: Action, coverage: Action | None,
                 leak_min_words: int = 8):
        if leak_min_words < 1:
            raise ValueError("leak_min_words must be at least 1")
        self.on_hallucinated = on_hallucinated
        self.on_unauthorized = on_unauthorized
        self.coverage = coverage
        self.leak_min_words = leak_min_words
        self.actions = (on_hallucinated, on_unauthorized, coverage)

    def run(self, turn: Turn) -> list[Finding]:
        findings = self.recheck(turn)
        if self.coverage is not None and False in turn.cited:
            for st in compress(turn.statements, map(not_, turn.cited)):
                if not is_exempt(turn.output, st, turn.marker_spans):
                    findings.append(
                        Finding(self.name, Label.UNCITED_CLAIM, self.coverage, st.start, st.end,
                                f"{st.kind.value} carries no valid citation")
                    )
        return findings

    def recheck(self, turn: Turn) -> list[Finding]:
        """The markers and the leaks: removing a marker can make a new one of what stood around it (or join an ID,
        or a run of copied words); edits never take a valid citation away from a statement they keep."""
        findings = []
        markers = turn.markers
        if markers and not turn.visible.keys() >= set(map(_ID, markers)):  # (the usual case: all cite visible IDs)
            for mk in markers:
                if mk.id not in turn.retrieved:
                    findings.append(
                        Finding(self.name, Label.HALLUCINATED_SOURCE, self.on_hallucinated, mk.start, mk.end,
                                _hallucinated_message(mk.id, turn))
                    )
                elif mk.id not in turn.visible:
                    # Never name the ID: the caller may not even know the document exists.
                    findings.append(
                        Finding(self.name, Label.UNAUTHORIZED_SOURCE, self.on_unauthorized, mk.start, mk.end,
                                "cited source is not visible to the caller")
                    )
        if turn.hidden_sources:  # else there is nothing to leak: no cost
            findings += [Finding(self.name, Label.UNAUTHORIZED_SOURCE, self.on_unauthorized, a, b, _MENTION)
                         for a, b in mentions(turn)]
            findings += [Finding(self.name, Label.UNAUTHORIZED_SOURCE, self.on_unauthorized, a, b, _COPY)
                         for a, b in copies(turn, self.leak_min_words)]
        return findings


# -------------------------------------------------------------------------------------------------------- mentions


def mentions(turn: Turn) -> list[tuple[int, int]]:
    """The spans where an invisible ID occurs as a whole token, in order (not those its own marker covers)."""
    text = turn.output
    found: set[tuple[int, int]] = set()
    for sid in turn.hidden_ids:
        pos = text.find(sid)
        while pos >= 0:
            end = pos + len(sid)
            if _is_token(text, pos, end) and not _cites(turn.markers, pos, end, sid):
                found.add((pos, end))
            pos = text.find(sid, pos + 1)
    if (("\\" in text or "&" in text) or (not text.isascii() and (
            not turn.non_ascii.isdisjoint(INVISIBLE) or not turn.non_ascii.isdisjoint(_HYPHENS)))) \
            and _SHOWN.search(text) is not None:
        # What a reader sees names fin-9 too: "fin\u200b-9", "fin\u20119" (a non-breaking hyphen), Markdown's
        # "fin\\-9", HTML's "fin&#45;9". Look again in the text as shown, mapped back to the characters.
        bare, origin = _as_shown(text)
        for sid in turn.hidden_ids:
            pos = bare.find(sid)
            while pos >= 0:
                end = pos + len(sid)
                start, stop = origin[pos][0], origin[end - 1][1]
                if _is_token(bare, pos, end) and not _cites(turn.markers, start, stop, sid):
                    found.add((start, stop))
                pos = bare.find(sid, pos + 1)
    if not text.isascii():
        found.update((a, b) for a, b in compatible_mentions(text, turn.hidden_ids, turn.non_ascii)
                     if not _cites(turn.markers, a, b, text[a:b]))
    return sorted(found)


def compatible_mentions(text: str, ids: list[str], chars: set[str] | None = None) -> list[tuple[int, int]]:
    """The spans of ``text`` that spell one of ``ids`` as a whole token in a compatibility form a reader takes for
    it (full-width "ｆｉｎ－９", the ligature in "ﬁn-9", "fin-𝟗"): where NFKC (with the rest of
    :func:`~guardrail.text.normalize`, but no case folding) makes the ID of them. Only for text one of whose
    non-ASCII characters (``chars``, when known) NFKC turns into something else that holds a character of an ID:
    not for an ellipsis or a curly quote, say (an ID written with a combining mark is not looked for)."""
    if not ids:
        return []
    spelled = set("".join(ids))
    if all((nf := _compatible(c)) == c or spelled.isdisjoint(nf)
           for c in (non_ascii_chars(text) if chars is None else chars)):
        return []
    mapped = normalize_mapped(text, fold=False)
    shown = mapped.text
    out = []
    for sid in ids:
        pos = shown.find(sid)
        while pos >= 0:
            end = pos + len(sid)
            if _is_token(shown, pos, end):
                out.append(mapped.original_span(pos, end))
            pos = shown.find(sid, pos + 1)
    return out


@lru_cache(maxsize=4096)
def _compatible(c: str) -> str:
    """What NFKC makes of one character."""
    return unicodedata.normalize("NFKC", c)


_HYPHENS = frozenset("\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d")
_SHOWN = re.compile(r"&#(\d{1,7});|&#[xX]([0-9a-fA-F]{1,6});|&([A-Za-z][A-Za-z0-9]{1,31});|\\([!-/:-@\[-`{-~])|"
                    "(" + MAYBE_INVISIBLE.pattern + ")|([" + "".join(sorted(_HYPHENS)) + "])")


def _as_shown(text: str) -> tuple[str, _Origins]:
    """``text`` as a Markdown/HTML renderer shows it, for finding IDs: zero-width characters taken out, hyphen
    look-alikes as ``-``, backslash escapes and character references resolved; and the way back from each of its
    characters to the span of the original characters it came from."""
    from html.entities import html5

    out: list[str] = []
    origins = _Origins()
    size = pos = 0
    for m in _SHOWN.finditer(text):
        if m.start() > pos:
            origins.add(size, pos, -1)
            out.append(text[pos:m.start()])
            size += m.start() - pos
        dec, hexa, name, escaped, _zero, hyphen = m.groups()
        shown = ""
        if dec is not None or hexa is not None:
            code = int(dec) if dec is not None else int(hexa, 16)
            shown = chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else m.group()
        elif name is not None:
            shown = html5.get(name + ";", m.group())
        elif escaped is not None:
            shown = escaped
        elif hyphen is not None:
            shown = "-"
        elif _zero not in INVISIBLE:  # (a character beyond the BMP that shows: an emoji)
            shown = _zero
        if not shown.isascii():
            shown = "".join("-" if c in _HYPHENS else c for c in shown)  # "&hyphen;" is U+2010
        if shown:
            origins.add(size, m.start(), m.end())
            out.append(shown)
            size += len(shown)
        pos = m.end()
    if pos < len(text):
        origins.add(size, pos, -1)
        out.append(text[pos:])
    return "".join(out), origins


class _Origins:
    """Where the characters of a text as shown come from: stretches copied one for one, and replacements (each
    character of one comes from the whole reference or escape it resolves)."""

    def __init__(self) -> None:
        self.starts: list[int] = []  # where each stretch starts in the text as shown
        self.spans: list[tuple[int, int]] = []  # its start in the original, and -1 or the replaced span's end

    def add(self, at: int, start: int, end: int) -> None:
        self.starts.append(at)
        self.spans.append((start, end))

    def __getitem__(self, i: int) -> tuple[int, int]:
        """The span of the original characters that character ``i`` of the text as shown came from."""
        k = bisect_right(self.starts, i) - 1
        start, end = self.spans[k]
        if end < 0:
            start += i - self.starts[k]
            return start, start + 1
        return start, end


def _is_token(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands alone: the characters around it are neither word characters nor ``-``."""
    if start > 0:
        c = text[start - 1]
        if c == "-" or is_word_char(c):
            return False
    if end < len(text):
        c = text[end]
        if c == "-" or is_word_char(c):
            return False
    return True


def _cites(markers: list[Marker], start: int, end: int, sid: str) -> bool:
    """Whether a marker citing ``sid`` covers ``[start, end)`` (the ID as written in its own marker)."""
    k = bisect_right(markers, (start, 1 << 62)) - 1  # the last marker starting at or before `start`
    return k >= 0 and markers[k].id == sid and markers[k].end >= end  # (markers do not overlap)


# ---------------------------------------------------------------------------------------------------------- copies


def _sampling(n: int) -> tuple[int, int]:
    """``(step, k)``: runs of ``k`` words (3, or ``n`` if fewer) starting at every ``step``-th word of a text,
    ``step = n - k + 1``, include one lying wholly inside any run of ``n`` consecutive words of it (the run has
    ``n - k + 1`` starts for it, and so many consecutive starts hold a multiple of ``step``). For ``n = 8``: runs
    of 3 words at every 6th word."""
    k = min(3, n)
    return n - k + 1, k


class _Runs:
    """What finding copies of one source text takes, built on first use: its words (as :func:`word_bytes` gives
    them), every run of ``k`` of them (to meet the sampled runs of an output) and where each starts, and every run
    of ``n`` of its words (to confirm, exactly)."""

    def __init__(self, text: str, n: int):
        self.text = text = _plain(text)
        self.words = word_bytes(text)
        self.n = n
        self.step, self.k = _sampling(n)

    @once
    def kgrams(self) -> frozenset[tuple[bytes, ...]]:
        w = self.words
        return frozenset(zip(*(w[i:] for i in range(self.k)), strict=False))

    @once
    def run_set(self) -> bytes:
        """The hashes of its runs of ``n`` words, as a table for :func:`_may_share`."""
        return _SPEEDUPS.run_set(b" ".join(self.words), self.n)  # type: ignore[union-attr,no-any-return]

    @once
    def starts(self) -> dict[tuple[bytes, ...], list[int]]:
        out: dict[tuple[bytes, ...], list[int]] = {}
        w, k = self.words, self.k
        for i in range(len(w) - k + 1):
            out.setdefault(tuple(w[i:i + k]), []).append(i)
        return out

    @once
    def strs(self) -> list[str]:
        """Its words as :func:`words` gives them (those of :func:`word_spans`)."""
        return words(self.text)

    @once
    def ngrams(self) -> frozenset[tuple[str, ...]]:
        w = self.strs
        return frozenset(zip(*(w[i:] for i in range(self.n)), strict=False))

    @once
    def positions(self) -> dict[bytes, list[int]]:
        """Where each of its words stands."""
        out: dict[bytes, list[int]] = {}
        for i, w in enumerate(self.words):
            out.setdefault(w, []).append(i)
        return out

    def longest_tail(self, ws: list[bytes]) -> int:
        """The most words at the end of ``ws`` (as :func:`word_bytes` gives them) that the source holds
        consecutively."""
        if not ws:
            return 0
        if len(ws) == 1 or ws[-1] not in self.positions:
            return int(ws[-1] in self.positions)
        src = self.words
        best = 1
        for q in self.pairs.get((ws[-2], ws[-1]), ()):  # where the last two words stand together
            m = 2
            while m < len(ws) and m <= q and src[q - m] == ws[-1 - m]:
                m += 1
            if m > best:
                best = m
                if best == len(ws):
                    break
        return best

    @once
    def pairs(self) -> dict[tuple[bytes, bytes], list[int]]:
        """Where each pair of consecutive words stands (the position of its second word)."""
        out: dict[tuple[bytes, bytes], list[int]] = {}
        w = self.words
        for i in range(1, len(w)):
            out.setdefault((w[i - 1], w[i]), []).append(i)
        return out

    def shares_a_run(self, ws: list[bytes], samples: list[tuple[bytes, ...]], sampled: set[tuple[bytes, ...]]) -> bool:
        """Whether the words ``ws`` (whose sampled runs are ``samples``, see :func:`_samples`, and ``sampled``
        their set) hold ``n`` consecutive words of the source: a sampled run the source has too (any run of ``n``
        holds one), extended both ways word by word."""
        kgrams = self.kgrams
        if kgrams.isdisjoint(sampled):
            return False
        step, k, src, n = self.step, self.k, self.words, self.n
        for gram in kgrams.intersection(sampled):
            j = samples.index(gram)
            while True:
                p = j * step
                for q in self.starts[gram]:
                    left = 0
                    while left < p and left < q and ws[p - left - 1] == src[q - left - 1]:
                        left += 1
                    right = 0
                    while p + k + right < len(ws) and q + k + right < len(src) \
                            and ws[p + k + right] == src[q + k + right]:
                        right += 1
                    if left + k + right >= n:
                        return True
                try:
                    j = samples.index(gram, j + 1)
                except ValueError:
                    break
        return False


@lru_cache(maxsize=256)
def _runs(text: str, n: int) -> _Runs:
    """Cached: retrieved passages repeat across turns (like :func:`~guardrail.text.normalize_source`). A source
    takes some 40 KB here (its words and their runs of ``k``), more once a copy of it was looked at closely."""
    return _Runs(text, n)


def _samples(ws: list[bytes], n: int) -> list[tuple[bytes, ...]]:
    """The runs of ``k`` words of ``ws`` starting at every ``step``-th word, in order (built in C: a few dozen
    tuples; the ``j``-th starts at word ``j * step``)."""
    step, k = _sampling(n)
    return list(zip(*(ws[i::step] for i in range(k)), strict=False))


def copies(turn: Turn, n: int) -> list[tuple[int, int]]:
    """The spans of the runs of at least ``n`` consecutive words of the output (its marker groups taken out) copied
    from an invisible source of the turn and found in none of its visible sources; in order. Runs reach across
    statements and line breaks.

    First the whole output against each invisible source, cheaply: compiled, every run of ``n`` words hashed
    against a table of the source's (:func:`_may_share`; read from the output itself when its words are its ASCII
    ones, the usual case); else its runs of ``k`` words at every ``step``-th word (a
    few dozen tuples) against the source's set of all its runs of ``k`` words, a run in common extended word by
    word. Only an output that shares ``n`` consecutive words with an invisible source has its words compared
    exactly, with their offsets."""
    hidden = _hidden_runs(turn, n)
    if not hidden:
        return []
    hashed = _SPEEDUPS is not None and (turn.output.isascii() or only_separators(turn.non_ascii))
    if hashed and not _SPEEDUPS.text_shares_run(  # type: ignore[union-attr]
            turn.output, turn.marker_spans, n, [r.run_set for r in hidden]):
        return []  # the usual case, seen from hashes alone, read from the output itself (its words: its ASCII ones)
    prose, utf8, chars = turn.prose
    text = _plain(prose)
    raw = word_utf8(text, chars, utf8 if text is prose else None)
    if not hashed and raw is not None and _SPEEDUPS is not None and not _may_share(raw, hidden, n):
        return []  # the usual case, seen from hashes alone
    ws = raw.split() if raw is not None else word_bytes(text)
    hidden = _sharing(ws, hidden, n)
    if not hidden:
        return []  # the usual case
    return _copied_spans(turn.output, turn.marker_spans, hidden, _visible_runs(turn, n), n)


def _may_share(raw: bytes, hidden: list[_Runs], n: int) -> bool:
    """Whether the words of ``raw`` (:func:`~guardrail.text.word_utf8`) may share a run of ``n`` with one of the
    ``hidden`` sources: every run of ``n`` words hashed and looked up in each source's table of its own (compiled,
    no object a word). Equal runs hash equally, so a no is certain; a yes (a copy, or two runs whose hashes
    collide) is then looked at exactly."""
    return bool(_SPEEDUPS.shares_run(raw, n, [r.run_set for r in hidden]))  # type: ignore[union-attr]


def is_copy(finding: Finding) -> bool:
    """Whether ``finding`` is one of :func:`copies`' (as :class:`CitationCheck` reports them)."""
    return finding.message == _COPY and finding.label is Label.UNAUTHORIZED_SOURCE


def may_join(turn: Turn, end: int, held: int) -> bool:
    """For a stream: whether what follows a copy that ends at ``end`` may still become part of it. Copies that
    touch word to word are one span, with what stands between them (punctuation, a statement without words), so that
    text is undecided until the next word is: known not to be copied when it starts before ``held`` (where the words
    that may still grow into a copy start, :func:`open_run`), else not known yet."""
    return not word_spans(_plain(turn.output), end, held, turn.marker_spans)


def _plain(text: str) -> str:
    """``text`` with ``_`` as a space, for copies only: Markdown's ``_emphasis_`` and ``__strong__`` show the words
    without them (one character for one, so offsets stay)."""
    return text.replace("_", " ") if "_" in text else text


class CopyFinder:
    """:func:`copies` for any string (an error message, a field beside the text): the spans of its runs of ``n``
    words copied from one of the ``hidden`` texts and held by none of the ``visible`` ones. Built once a turn;
    what a source takes is looked up on first use."""

    def __init__(self, hidden: Iterable[str], visible: Iterable[str], n: int):
        self._hidden, self._visible, self.n = list(dict.fromkeys(hidden)), list(dict.fromkeys(visible)), n
        self._runs: list[_Runs] | None = None

    def may_hold(self, text: str) -> bool:
        """Whether ``text`` has words enough for a copy (else :meth:`spans` finds none in it, whatever the turn)."""
        return len(word_bytes(_plain(text))) >= self.n

    def spans(self, text: str) -> list[tuple[int, int]]:
        n = self.n
        ws = word_bytes(_plain(text))
        if len(ws) < n:
            return []
        if self._runs is None:
            self._runs = [r for r in (_runs(t, n) for t in self._hidden) if len(r.words) >= n]
        runs = _sharing(ws, self._runs, n) if self._runs else []
        return _copied_spans(text, [], runs, [_runs(t, n) for t in self._visible], n) if runs else []


def _sharing(ws: list[bytes], hidden: list[_Runs], n: int) -> list[_Runs]:
    """The sources of ``hidden`` with which the words ``ws`` share a run of ``n``."""
    if len(ws) < n:
        return []
    samples = _samples(ws, n)
    sampled = set(samples)
    return [r for r in hidden if r.shares_a_run(ws, samples, sampled)]


def _copied_spans(text: str, spans: list[tuple[int, int]], hidden: list[_Runs], visible: list[_Runs],
                  n: int) -> list[tuple[int, int]]:
    """The spans of ``text`` (``spans`` taken out) where runs of ``n`` words of a ``hidden`` source that no
    ``visible`` one holds lie, merged where they overlap or touch word to word."""
    found = word_spans(_plain(text), 0, len(text), spans)
    exact = [w for w, _, _ in found]
    covered = [False] * len(exact)
    for i, gram in enumerate(zip(*(exact[j:] for j in range(n)), strict=False)):
        if any(gram in r.ngrams for r in hidden) and not any(gram in r.ngrams for r in visible):
            covered[i:i + n] = [True] * n
    out = []
    i = 0
    while i < len(exact):
        if not covered[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(exact) and covered[j + 1]:
            j += 1
        out.append((found[i][1], found[j][2]))
        i = j + 1
    return out


def _hidden_runs(turn: Turn, n: int) -> list[_Runs]:
    """What finding copies of the turn's invisible sources takes (kept in ``turn.shared``: a stream's looks share
    their sources)."""
    key = ("hidden runs", n)
    runs = cast("list[_Runs] | None", turn.shared.get(key))
    if runs is None:
        texts = dict.fromkeys(src.text for src in turn.hidden_sources)
        runs = turn.shared[key] = [r for r in (_runs(text, n) for text in texts) if len(r.words) >= n]
    return runs


def _visible_runs(turn: Turn, n: int) -> list[_Runs]:
    return [_runs(t, n) for t in dict.fromkeys(s.text for group in turn.visible.values() for s in group)]


def open_run(turn: Turn, n: int, after: int = 0) -> int:
    """For a stream: the offset of ``turn.output`` (text still arriving) before which no copy can change any more,
    if it lies before ``after`` (else ``len(output)``: the caller holds back from ``after`` on anyway).

    A run of ``n`` words that more text completes holds at most ``n - 1`` words already here, and they are the
    last complete ones, consecutive in an invisible source: the start of the longest such tail. The last word
    counts only when something follows it; a bracket not yet closed after the last marker may open a marker, whose
    words will not be words of the text: the tail before it counts too.

    :func:`open_run_py`; the compiled twin of its steps, when there is one, for text whose words are its ASCII ones
    (ASCII text, a stream's usual window, or text whose other characters all separate words: quotation marks,
    dashes, emoji) and runs of up to 65 words. A look of a stream asks this once or twice."""
    if _SPEEDUPS is None or not 2 <= n <= 65 or not (turn.output.isascii() or only_separators(turn.non_ascii)):
        return open_run_py(turn, n, after)
    hidden = _hidden_runs(turn, n)
    if not hidden:
        return len(turn.output)
    key = ("hidden tails", n)
    tails = turn.shared.get(key)
    if tails is None:
        tails = turn.shared[key] = [(r.words, r.positions, r.pairs) for r in hidden]
    return int(_SPEEDUPS.ascii_open_run(_plain(turn.output), turn.marker_spans, n, after, tails))


def open_run_py(turn: Turn, n: int, after: int = 0) -> int:
    """:func:`open_run`, in Python: the reference."""
    text = _plain(turn.output)
    hidden = _hidden_runs(turn, n) if n > 1 else []
    if not hidden:
        return len(text)
    spans = turn.marker_spans
    ascii_text = text.isascii()
    cut = _tail_cut(text, spans, len(text), n, ascii_text)
    ends = [len(text)]
    last_marker = spans[-1][1] if spans else 0
    bracket = max(text.rfind("[", last_marker), text.rfind("(", last_marker))
    if bracket >= cut and "]" not in text[bracket:] and ")" not in text[bracket:]:
        ends.append(bracket)
        cut = min(cut, _tail_cut(text, spans, bracket, n, ascii_text))  # (the words before it: those of its tail)
    start = len(text)
    for end in ends:
        # the last word may still be being written
        # (a zero-width character or a soft hyphen right after it ends no word: "O\u00ad" may become "On"; after a
        # space or a line break it belongs to no word)
        partial = end == len(text) and last_marker < end and is_word_char(text.rstrip(ZERO_WIDTH)[-1:] or " ")
        if ascii_text:  # the words and, should they be held, where they start: from one joined text
            joined, origins, starts = _joined(text, cut, end, spans)
            raw = joined.encode("ascii").translate(_ASCII_WORDS)
            tail = raw.split()
        else:
            tail = _tail_words(text, cut, end, spans, ascii_text)
        if partial:
            del tail[-1:]
        last = tail[-n + 1:]
        longest = max([r.longest_tail(last) for r in hidden])
        if not longest:
            continue
        # Only a tail reaching back before `after` matters: count the complete words from there on.
        if after > cut:
            later = len(_tail_words(text, after, end, spans, ascii_text)) - partial if after < end else 0
        else:
            later = len(tail)
        if later >= longest:
            continue
        if ascii_text:
            at = _ascii_start(raw, origins, starts, longest + partial)
        else:
            at = _word_start(text, cut, end, spans, partial, longest, turn.non_ascii)
        start = min(start, at)
    return start


def _tail_cut(text: str, spans: list[tuple[int, int]], end: int, n: int, ascii_text: bool) -> int:
    """Where the tail of ``text[:end]`` that holds its last ``n`` words starts (16 characters a word are usually
    plenty, else 64), cut at a space outside the marker groups."""
    cut = max(0, end - 16 * n)
    if cut:
        cut = _outside(spans, text.rfind(" ", 0, cut) + 1)
        if len(_tail_words(text, cut, end, spans, ascii_text)) <= n:
            cut = max(0, end - 64 * n)
            cut = _outside(spans, text.rfind(" ", 0, cut) + 1) if cut else 0
    return cut


def _outside(spans: list[tuple[int, int]], pos: int) -> int:
    """``pos``, or the start of the marker group it falls inside (a space after a comma in "[doc:a, doc:b]"): a
    tail never starts inside a group, whose words would count then."""
    k = bisect_right(spans, (pos, 1 << 62)) - 1
    return spans[k][0] if k >= 0 and spans[k][0] < pos < spans[k][1] else pos


def _tail_words(text: str, start: int, end: int, spans: list[tuple[int, int]], ascii_text: bool) -> list[bytes]:
    """The words of ``text[start:end]`` without its marker groups (:func:`word_bytes`; ASCII text directly)."""
    piece = without_spans(text, start, end, spans)
    return piece.encode("ascii").translate(_ASCII_WORDS).split() if ascii_text else word_bytes(piece)


def _ascii_start(raw: bytes, origins: list[int], starts: list[int], k: int) -> int:
    """Where the ``k``-th last word of ASCII text joined by :func:`_joined` starts in the original, found from the
    end (what :func:`_word_start` finds by listing every word): ``raw`` is the joined text's bytes with every
    character of no word a space, ``origins`` and ``starts`` its way back."""
    at = len(raw)
    for _ in range(k):
        while raw[at - 1] == 32:
            at -= 1
        at = raw.rfind(b" ", 0, at) + 1
    j = bisect_right(starts, at) - 1
    return origins[j] + at - starts[j]


_ASCII_WORD = re.compile(r"[A-Za-z0-9_]+")


def _word_start(text: str, cut: int, end: int, spans: list[tuple[int, int]], partial: bool, k: int,
                chars: set[str] | None = None) -> int:
    """Where the ``k``-th last word of ``text[cut:end]`` (marker groups taken out; the last word left out when it
    is ``partial``) starts: for ASCII text straight from the characters, and so for text whose non-ASCII
    characters (``chars`` if given, a superset of them) all separate words (quotation marks, dashes, emoji: its
    words are its ASCII ones); else through :func:`word_spans`."""
    if not text.isascii() and not only_separators(non_ascii_chars(text) if chars is None else chars):
        return word_spans(text, cut, end, spans)[:-1 if partial else None][-k][1]
    joined, origins, starts = _joined(text, cut, end, spans)
    at = [m.start() for m in _ASCII_WORD.finditer(joined)][:-1 if partial else None][-k]
    j = bisect_right(starts, at) - 1
    return origins[j] + at - starts[j]


def _joined(text: str, cut: int, end: int, spans: list[tuple[int, int]]) -> tuple[str, list[int], list[int]]:
    """``text[cut:end]`` with the marker groups ``spans`` taken out, and the way back: where each piece of it
    starts in ``text`` (``origins``) and in the joined text (``starts``)."""
    if not spans or spans[-1][1] <= cut or spans[0][0] >= end:
        return text[cut:end], [cut], [0]
    origins, starts, pieces, pos, size = [], [], [], cut, 0
    for a, b in spans:
        if b <= pos or a >= end:
            continue
        if a > pos:
            origins.append(pos)
            starts.append(size)
            pieces.append(text[pos:a])
            size += a - pos
        pos = max(pos, b)
    if pos < end:
        origins.append(pos)
        starts.append(size)
        pieces.append(text[pos:end])
    return "".join(pieces), origins, starts


# ------------------------------------------------------------------------------------------------------- messages


def _hallucinated_message(cited: str, turn: Turn) -> str:
    message = "cited ID was not retrieved for this turn"
    if not turn.retrieved:
        return message + " (no sources were attached)"
    close = _closest(cited, list(turn.visible))
    return message + (f"; did you mean {close!r}?" if close else "")


def _closest(cited: str, visible: list[str]) -> str | None:
    """The visible ID the cited one most resembles (a near miss such as ``doc-12`` for ``doc_12``), if any."""
    if not visible:
        return None
    key = _fold(cited)
    for vid in visible:
        if _fold(vid) == key:
            return vid
    match = difflib.get_close_matches(cited, visible, n=1, cutoff=0.8)
    return match[0] if match else None


def _fold(identifier: str) -> str:
    return "".join(filter(str.isalnum, identifier.casefold()))
