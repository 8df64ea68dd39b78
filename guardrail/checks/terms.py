"""Banned terms: one Aho-Corasick pass over the normalised output, whatever the number of terms (and none for the
usual output, ASCII text with no term in it, which a compiled filter tells first)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import ClassVar

from ahocorasick_rs import BytesAhoCorasick, Implementation

from ..exceptions import PolicyError
from ..models import Action, Finding, Label
from ..text import _SPEEDUPS, is_word_char, normalize, normalize_mapped
from .base import Turn

_DFA_TERMS = 10_000


class TermCheck:
    """``BANNED_TERM``: a term occurs at term boundaries, after normalisation (NFKC, zero-width characters removed,
    whitespace runs as one space, case folded unless ``case_sensitive``). Overlapping matches merge into one finding."""

    name: ClassVar[str] = "banned_terms"
    whole_output = False

    def __init__(self, terms: Iterable[tuple[str, str]], action: Action, case_sensitive: bool = False):
        """``terms`` yields ``(term, where)`` pairs; ``where`` names the term's origin in messages (never the term)."""
        self.action = action
        self.fold = not case_sensitive
        self.origins: list[str] = []
        self.longest = 0
        index: dict[str, int] = {}
        for term, where in terms:
            key = normalize(term, self.fold).strip()
            if not key:
                raise PolicyError("a banned term is empty after normalisation", key=where)
            if key in index:
                continue
            index[key] = len(self.origins)
            self.origins.append(where)
            self.longest = max(self.longest, len(term))
        keys = list(index)
        self.longest_key = max(map(len, keys), default=0)
        """The longest normalised term: how far back a match still open at the end of a stream can begin."""
        self._sorted = sorted(keys)  # for is_prefix: a bisection finds the keys a text begins
        # A DFA reads ~3x faster than the NFA but takes ~3 KB a term to build: the NFA for long lists.
        # It reads UTF-8 (with lone surrogates encoded too, as the text may hold them): a match of a term's bytes
        # begins and ends at character boundaries, as UTF-8 is self-synchronising.
        kind = Implementation.DFA if len(keys) <= _DFA_TERMS else Implementation.ContiguousNFA
        self._matcher = BytesAhoCorasick([k.encode("utf-8", "surrogatepass") for k in keys],
                                         implementation=kind) if keys else None
        # Most outputs hold no term: for ASCII text (the usual output) that is told without the automaton, whose
        # 100,000-term form reads 2 KB in ~14 µs against ~3 µs for this (see `bounded_match_py`).
        self._filter = _SPEEDUPS.term_filter([k.encode("ascii") for k in keys if k.isascii()]) \
            if _SPEEDUPS is not None and keys else None
        self.ascii_keys = all(k.isascii() for k in keys)
        """Whether every normalised term is ASCII (then no character that a mark composes into is part of one)."""

    def __len__(self) -> int:
        return len(self.origins)

    def recheck(self, turn: Turn) -> list[Finding]:
        """All of it: an edit can join a term, break the JSON or take away what a rule needs."""
        return self.run(turn)

    def run(self, turn: Turn) -> list[Finding]:
        if not self.origins:
            return []
        text = normalize(turn.output, self.fold)
        if self._filter is not None:
            # The filter reads ASCII. Other text it reads with every other character a space, when every term is
            # ASCII: a match lies in ASCII characters, and only gains boundaries (an emoji, or "é", beside it).
            probe = text if text.isascii() else _as_ascii(text) if self.ascii_keys else None
            if probe is not None and not _SPEEDUPS.may_match(self._filter, probe):  # type: ignore[union-attr]
                return []  # (no term at term boundaries: nothing the automaton could find would count)
        spans = self._matches(text)
        if not spans:
            return []
        # Most outputs hold no banned term: the offset map back to the original is built only when one does.
        mapped = normalize_mapped(turn.output, self.fold)
        findings = []
        cur_start, cur_end, cur_index = spans[0]
        for start, end, index in spans[1:]:
            if start < cur_end:
                cur_end = max(cur_end, end)
                continue
            findings.append(self._finding(mapped.original_span(cur_start, cur_end), cur_index))
            cur_start, cur_end, cur_index = start, end, index
        findings.append(self._finding(mapped.original_span(cur_start, cur_end), cur_index))
        return findings

    def is_prefix(self, norm: str) -> bool:
        """Whether normalised text is the beginning of some term (or a whole one)."""
        keys = self._sorted
        i = bisect_left(keys, norm)
        return i < len(keys) and keys[i].startswith(norm)

    def open_suffix(self, norm: str) -> int:
        """Where the longest suffix of normalised text that is the beginning of some term (or a whole one) starts:
        the first ``i`` with :meth:`is_prefix` of ``norm[i:]``, ``len(norm)`` when there is none.

        Over the last :attr:`longest_key` characters: only where the next three characters begin some term is
        :meth:`is_prefix` asked, and at the last two. For ASCII text (the usual tail) that is one compiled pass
        (``_speedups.open_prefix``, with a bitmap of the terms' beginnings), else the beginnings are found by an
        automaton of them, or for other text through a set of them (each built on first use)."""
        n = len(norm)
        if not self.origins:
            return n
        lo = max(0, n - self.longest_key)
        tail = norm[lo:] if lo else norm
        if _SPEEDUPS is not None and tail.isascii():
            return lo + int(_SPEEDUPS.open_prefix(tail, self._heads(), self._sorted))
        return lo + self._open_prefix(tail)

    def _open_prefix(self, tail: str) -> int:
        """:meth:`open_suffix` of the tail it reads, in Python: the first ``j`` with :meth:`is_prefix` of
        ``tail[j:]`` (``len(tail)``: none)."""
        m = len(tail)
        is_prefix = self.is_prefix
        if m >= 3 and tail.isascii():  # where a term's first three characters are: one pass of an automaton
            matcher = self._start_matcher()
            found = matcher.find_matches_as_indexes(tail.encode("ascii"), overlapping=True) if matcher else ()
            for _, j, _ in found:
                if is_prefix(tail[j:]):
                    return j
        elif m >= 3:
            starts: frozenset[tuple[str, ...]] | None = getattr(self, "_starts", None)
            if starts is None:
                starts = frozenset(tuple(key[:3]) for key in self._sorted if len(key) >= 3)
                self._starts: frozenset[tuple[str, ...]] = starts
            begins = list(map(starts.__contains__, zip(tail, tail[1:], tail[2:], strict=False)))
            j = 0
            while True:
                try:
                    j = begins.index(True, j)
                except ValueError:
                    break
                if is_prefix(tail[j:]):
                    return j
                j += 1
        short = self._short_prefixes()
        for j in range(max(m - 2, 0), m):  # the suffixes shorter than three characters
            if tail[j:] in short:
                return j
        return m

    def _short_prefixes(self) -> frozenset[str]:
        """Every beginning of one or two characters of a term: :meth:`is_prefix` of a text that short, as a set
        (built on first use)."""
        short: frozenset[str] | None = getattr(self, "_short", None)
        if short is None:
            short = self._short = frozenset(key[:k] for key in self._sorted for k in (1, 2) if len(key) >= k)
        return short

    def _heads(self) -> bytes:
        """A bitmap of the terms' first three characters where those are ASCII, a bit for each three 7-bit
        characters (``_speedups.open_prefix`` reads it; built on first use: 256 KB)."""
        heads: bytes | None = getattr(self, "_heads_bits", None)
        if heads is None:
            bits = bytearray(1 << 18)
            for key in self._sorted:
                if len(key) >= 3 and key[:3].isascii():
                    c = ord(key[0]) << 14 | ord(key[1]) << 7 | ord(key[2])
                    bits[c >> 3] |= 1 << (c & 7)
            heads = self._heads_bits = bytes(bits)
        return heads

    def _start_matcher(self) -> BytesAhoCorasick | None:
        """An automaton of the terms' first three characters where those are ASCII, None when no term has such a
        beginning (built on first use: a stream's term hold asks where they occur in ASCII text, in which no other
        beginning can)."""
        if not hasattr(self, "_starts_ac"):
            heads = sorted({key[:3].encode("ascii") for key in self._sorted if len(key) >= 3 and key[:3].isascii()})
            self._starts_ac = BytesAhoCorasick(heads, implementation=Implementation.DFA) if heads else None
        return self._starts_ac

    def raw_hits(self, norm: str) -> list[tuple[int, int, int]]:
        """Every occurrence of a term in normalised text, boundaries not considered."""
        if self._matcher is None:
            return []
        data = norm.encode("utf-8", "surrogatepass")
        found = self._matcher.find_matches_as_indexes(data, overlapping=True)
        if not found or len(data) == len(norm):  # ASCII: a byte is a character
            return [(start, end, index) for index, start, end in found]
        at = _char_offsets(data, {offset for _, start, end in found for offset in (start, end)})
        return [(at[start], at[end], index) for index, start, end in found]

    def _matches(self, text: str) -> list[tuple[int, int, int]]:
        """``(start, end, term index)`` of every match in normalised ``text``, sorted.

        A match counts at term boundaries. A match that touches another counting match also counts: once that one
        is redacted, nothing would separate it from the replacement any more ("BLUEJAY.NET" with ".NET" banned).
        """
        n = len(text)
        hits = sorted(self.raw_hits(text))
        if not hits:
            return hits
        counted: list[tuple[int, int, int]] = []
        pending: list[tuple[int, int, int, bool, bool]] = []
        for start, end, index in hits:
            left = start == 0 or not is_word_char(text[start - 1])
            right = end == n or not is_word_char(text[end])
            if left and right:
                counted.append((start, end, index))
            else:
                pending.append((start, end, index, left, right))
        grew = bool(counted)
        while pending and grew:
            covered = {pos for start, end, _ in counted for pos in range(start, end)}
            grew = False
            still = []
            for start, end, index, left, right in pending:
                if (left or start - 1 in covered) and (right or end in covered):
                    counted.append((start, end, index))
                    grew = True
                else:
                    still.append((start, end, index, left, right))
            pending = still
        counted.sort()
        return counted

    def _finding(self, span: tuple[int, int], index: int) -> Finding:
        return Finding(self.name, Label.BANNED_TERM, self.action, span[0], span[1],
                       f"banned term ({self.origins[index]})")


_HIGH_AS_SPACE = bytes(range(128)) + b" " * 128


def _as_ascii(text: str) -> str:
    """``text`` with each character beyond ASCII a space (or a few: one a byte of its UTF-8)."""
    return text.encode("utf-8", "surrogatepass").translate(_HIGH_AS_SPACE).decode("ascii")


def bounded_match_py(keys: Iterable[str], text: str) -> bool:
    """Whether some key occurs in ``text`` at term boundaries (no word character on either side): whether
    :meth:`TermCheck._matches` finds anything, as a match that counts either has both boundaries or touches one that
    counts. The reference of the compiled ``may_match``, which answers it for ASCII text."""
    n = len(text)
    for key in keys:
        i = text.find(key)
        while i >= 0:
            end = i + len(key)
            if (i == 0 or not is_word_char(text[i - 1])) and (end == n or not is_word_char(text[end])):
                return True
            i = text.find(key, i + 1)
    return False


def _char_offsets(data: bytes, offsets: set[int]) -> dict[int, int]:
    """For byte offsets of UTF-8 text at character boundaries, the character offsets."""
    at: dict[int, int] = {}
    pos = chars = 0
    for offset in sorted(offsets):
        chars += len(data[pos:offset].decode("utf-8", "surrogatepass"))
        at[offset], pos = chars, offset
    return at
