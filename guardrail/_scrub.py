"""What must never reach a caller outside the checked text: banned terms and the IDs of sources the caller may not see.

The checks guard the text of a choice. Other things travel beside it and can spell the same secrets: the
``top_logprobs`` alternatives a model considered, the message of an upstream's error event. A :class:`Scrubber`
answers for one turn whether such a string carries a banned term (of a term check that acts), an invisible
source's ID (as a whole token) or a copy of its text (``leak_min_words`` words, CONTRACT section 2), and removes
them. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .checks.base import group_sources, hidden_ids
from .checks.citations import _SHOWN, CopyFinder, _as_shown, compatible_mentions
from .checks.terms import TermCheck
from .compiled import CompiledPolicy
from .models import Source


class _Text:
    """The one attribute of a turn that the term check reads."""

    __slots__ = ("output",)

    def __init__(self, output: str):
        self.output = output


@lru_cache(maxsize=256)
def _id_pattern(hidden: tuple[str, ...]) -> re.Pattern[str]:
    """The invisible IDs as whole tokens (the characters around are neither word characters nor "-")."""
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, hidden)) + r")(?![\w-])")


_MEMOS: dict[tuple[int, tuple[str, ...], int], tuple[object, dict[str, str]]] = {}
_UNCHANGED = "\x00unchanged"  # a memo's value for a string that carries nothing (compared by identity)


def _shared_memo(terms: TermCheck | None, hidden: tuple[str, ...], n: int) -> dict[str, str]:
    """The memo of short strings for these acting terms, these invisible IDs and copies of ``n`` words (which
    strings count as short depends on it): a few hundred sets at most."""
    key = (id(terms), hidden, n)
    entry = _MEMOS.get(key)
    if entry is None or entry[0] is not terms:  # (an id can be reused once a policy is gone)
        if len(_MEMOS) >= 256:
            _MEMOS.clear()
        entry = _MEMOS[key] = (terms, {})
    return entry[1]


class Scrubber:
    """Banned terms, invisible IDs and copies of invisible text for one turn (``compiled``, the turn's sources,
    the caller's roles)."""

    __slots__ = ("_finder", "_hidden", "_ids", "_n", "_seen", "_shared", "_short", "_texts", "active", "context",
                 "memos", "replacement", "terms")

    def __init__(self, compiled: CompiledPolicy, sources: Iterable[Source], roles: frozenset[str]):
        self.terms = compiled.acting_terms
        banned = compiled.policy.banned_terms
        self.replacement = banned.replacement if banned is not None else "[redacted]"
        sources = sources if isinstance(sources, list | tuple) else list(sources)
        retrieved, visible, _ = group_sources(sources, roles)
        hidden = sorted(hidden_ids(retrieved, visible), key=len, reverse=True)
        self._hidden = hidden
        self._ids = _id_pattern(tuple(hidden)) if hidden else None
        self.active = self.terms is not None or self._ids is not None
        """Whether anything can be found at all (else every string is clean)."""
        self._n = compiled.copy_words if hidden else 0  # how many words make a copy (0: nothing to copy from)
        # What finding copies takes is made on first use: most responses bring no string beside the text that is
        # long enough to hold one (ids, the model's name, roles, finish reasons).
        self._texts = (sources, roles)
        self._finder: CopyFinder | None = None
        # Short strings are remembered (a stream repeats its id, model and role in every chunk). Those too short to
        # hold a copy depend only on the acting terms and the invisible IDs: their memo is shared by the turns
        # that have the same ones (a completion's "chat.completion", "assistant", "stop" and model name).
        self._seen: dict[str, str] = {}
        self._short = self._n * 2 - 1 if self._n else 1 << 30
        self._shared = _shared_memo(self.terms, tuple(hidden), self._n)
        self.memos = (self._shared, self._seen, _UNCHANGED)
        """What :meth:`scrub` remembers, for a caller that reads it first (``_chat._walk``): a string found in either
        memo is scrubbed as its value says (``_UNCHANGED``: it is its own)."""
        longest_id = len(hidden[0]) if hidden else 0
        self.context = max(self.terms.longest_key if self.terms else 0, longest_id) + 8
        """How many characters before a token can take part in a match that reaches into it."""

    def _copies(self) -> CopyFinder:
        if self._finder is None:
            sources, roles = self._texts
            shown: list[str] = []
            unseen: list[str] = []
            for src in sources:
                (shown if src.visible_to(roles) else unseen).append(src.text)
            self._finder = CopyFinder(unseen, shown, self._n)
        return self._finder

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The spans of ``text`` that carry a banned term or an invisible ID, in order (they may overlap)."""
        out: list[tuple[int, int]] = []
        if not text:
            return out
        if self.terms is not None:
            out.extend((f.start, f.end) for f in self.terms.run(_Text(text)))  # type: ignore[arg-type]
        if self._ids is not None:
            out.extend(m.span() for m in self._ids.finditer(text))
            out.extend(self._shown_ids(text))
            # ASCII text needs 2n - 1 characters for n words; one other character can be several ("⒈", "ﷺ")
            if self._n and (len(text) >= self._short or not text.isascii()):
                out.extend(self._copies().spans(text))
        out.sort()
        return out

    def _shown_ids(self, text: str) -> list[tuple[int, int]]:
        """The invisible IDs that ``text`` spells as a renderer shows it (a look-alike hyphen, a zero-width
        character, a Markdown escape, an HTML character reference: as the citations check reads them), mapped back
        to the characters written."""
        found = []
        if not text.isascii():
            found = compatible_mentions(text, self._hidden)
        if not (("\\" in text or "&" in text) or not text.isascii()) or _SHOWN.search(text) is None:
            return found
        bare, origin = _as_shown(text)
        assert self._ids is not None
        return found + [(origin[m.start()][0], origin[m.end() - 1][1]) for m in self._ids.finditer(bare)]

    def carries(self, text: str, after: int = 0) -> bool:
        """Whether ``text`` carries a banned term or an invisible ID that reaches past offset ``after``."""
        if not after and len(text) <= 256:  # (a header value, a token: remembered as scrub() remembers them)
            return self.scrub(text) is not text
        return any(end > after for _, end in self.spans(text))

    def scrub(self, text: str) -> str:
        """``text`` with every banned term and invisible ID replaced by the policy's replacement text (``text``
        itself when it carries none). Short strings are remembered: a stream repeats its id, model and role in every
        chunk; those with too few words to hold a copy are remembered for every turn with the same terms and IDs."""
        if len(text) <= 256:
            seen = self._shared.get(text)
            if seen is None:
                seen = self._seen.get(text)
            if seen is not None:
                return text if seen is _UNCHANGED else seen  # (the object given, as _scrub gives it)
            out = self._scrub(text)
            few = not self._n or (len(text) < self._short and text.isascii()) \
                or not self._copies().may_hold(text)  # (made already by _scrub, for such a string)
            memo = self._shared if few else self._seen
            if len(memo) < 1024:
                memo[text] = _UNCHANGED if out is text else out
            return out
        return self._scrub(text)

    def _scrub(self, text: str) -> str:
        spans = self.spans(text)
        if not spans:
            return text
        pieces, pos = [], 0
        for start, end in spans:
            if end <= pos:
                continue
            if start >= pos:
                pieces.append(text[pos:start])
                pieces.append(self.replacement)
            pos = end
        pieces.append(text[pos:])
        return "".join(pieces)
