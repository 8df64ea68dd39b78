"""Instructions: simple verifiable instructions about length, structure and wording."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import regex

from ..models import Action, Finding, Label
from ..text import _SPEEDUPS, Kind, normalize, positions_of
from .base import Turn

# Emoji: what is shown as emoji by default, anything asked to be (VS16), and keycaps; not © or ™ as plain text.
_EMOJI = regex.compile(r"\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|[0-9#*]\uFE0F?\u20E3")
_HEADING_TEXT = regex.compile(r"^[\s#*_]*(.*?)[\s*_:]*$")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


_EMOJI_PART = regex.compile(r"[\p{Emoji_Presentation}\p{Extended_Pictographic}\u20E3]")  # every match holds one
_EMOJI_PARTS: dict[str, bool] = {}  # a non-ASCII character: whether it is one of those


def _may_hold_emoji(chars: set[str]) -> bool:
    """Whether a text whose distinct non-ASCII characters are ``chars`` may hold an emoji (most texts' curly quotes
    and dashes cannot)."""
    known = _EMOJI_PARTS
    for c in chars:
        part = known.get(c)
        if part is None:
            part = _EMOJI_PART.match(c) is not None
            if len(known) < 65536:
                known[c] = part
        if part:
            return True
    return False


def _emoji_runs(text: str, chars: set[str]) -> list[tuple[int, int]]:
    """The spans of the runs of non-ASCII characters of ``text`` (whose distinct non-ASCII characters are
    ``chars``) that hold a character of ``_EMOJI_PART``, in order: found from those characters with ``str.find``
    when they are few (a regex scan for non-ASCII runs steps through every character, ~10 ns each in a text with an
    emoji), else by that scan (one pass, where each character would cost one)."""
    parts = [c for c in chars if _may_hold_emoji({c})]
    if len(parts) > 8:  # (a scan a character: one pass, not one a character)
        return [m.span() for m in _NON_ASCII.finditer(text) if _may_hold_emoji(set(m.group()))]
    runs: list[tuple[int, int]] = []
    n = len(text)
    for i in positions_of(text, parts):
        if runs and i < runs[-1][1]:
            continue
        a, b = i, i + 1
        while a and text[a - 1] > "\x7f":
            a -= 1
        while b < n and text[b] > "\x7f":
            b += 1
        runs.append((a, b))
    return runs


def _count_words_py(text: str, spans: list[tuple[int, int]]) -> int:
    """The whitespace-separated tokens of ``text`` with the marker groups ``spans`` taken out (compiled:
    ``_speedups.count_words``, the same)."""
    pos, parts = 0, []
    for a, b in spans:
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:])
    return len(" ".join(parts).split())


_count_words: Callable[[str, list[tuple[int, int]]], int] = \
    _SPEEDUPS.count_words if _SPEEDUPS is not None else _count_words_py


def window_safe(pattern: str) -> bool:
    """Whether a pattern matches in a stream's window (text after what was released, up to what has come) where it
    matches in the whole output: no anchor (``^ $ \\A \\Z``: the window's ends are not the output's) and no
    lookaround (a lookbehind would read released text the window does not hold, a lookahead the text after the
    part of a window a look checks again once edited). Read with :mod:`re`'s parser; a pattern it cannot read
    (syntax only :mod:`regex` has) is not taken to be safe."""
    import re._constants as c
    import re._parser as parser

    try:
        tree = parser.parse(pattern)
    except Exception:
        return False
    anchors = {c.AT_BEGINNING, c.AT_BEGINNING_STRING, c.AT_END, c.AT_END_STRING, c.AT_BEGINNING_LINE, c.AT_END_LINE}
    todo: list[Any] = [tree]
    while todo:
        for op, av in todo.pop():
            if op is c.AT and av in anchors:
                return False
            if op in (c.ASSERT, c.ASSERT_NOT):
                return False
            if op is c.BRANCH:
                todo.extend(av[1])
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                todo.append(av[2])
            elif op is c.SUBPATTERN:
                todo.append(av[3])
            elif op is c.ATOMIC_GROUP:
                todo.append(av)
            elif op is c.GROUPREF_EXISTS:
                todo.extend(x for x in av[1:] if x is not None)
    return True


class InstructionCheck:
    """``INSTRUCTION_VIOLATED``; the message names the rule. Rules about the whole output (lengths, sections,
    bullets, ``must_match``) cover the whole output; ``no_emoji`` and ``must_not_match`` cover what matched."""

    name: ClassVar[str] = "instructions"

    def __init__(
        self,
        action: Action,
        *,
        max_words: int | None = None,
        min_words: int | None = None,
        max_chars: int | None = None,
        min_bullets: int | None = None,
        max_bullets: int | None = None,
        no_emoji: bool = False,
        required_sections: tuple[str, ...] = (),
        must_match: tuple[tuple[str, regex.Pattern[str]], ...] = (),
        must_not_match: tuple[tuple[str, regex.Pattern[str]], ...] = (),
    ):
        self.action = action
        self.doc_action = Action.BLOCK if action is Action.STRIP else action
        self.actions = (action,)
        self.max_words, self.min_words, self.max_chars = max_words, min_words, max_chars
        self.min_bullets, self.max_bullets = min_bullets, max_bullets
        self.no_emoji = no_emoji
        self.required_sections = tuple((s, normalize(s).strip()) for s in required_sections)
        self.must_match = must_match
        self.must_not_match = must_not_match
        # Only whole-output rules that block need the whole output before anything is released; and patterns that
        # act and that what lies outside a stream's window can decide (see `window_safe`).
        document_rules = (max_words, min_words, max_chars, min_bullets, max_bullets)
        self.whole_output = (self.doc_action is Action.BLOCK and (
            any(r is not None for r in document_rules) or bool(required_sections) or bool(must_match)
        )) or (action is not Action.FLAG and not all(window_safe(source) for source, _ in must_not_match))

    def recheck(self, turn: Turn) -> list[Finding]:
        """All of it: an edit can join a term, break the JSON or take away what a rule needs."""
        return self.run(turn)

    def run(self, turn: Turn) -> list[Finding]:
        out: list[Finding] = []
        text = turn.output
        if self.max_words is not None or self.min_words is not None:
            words = self._count_words(turn)
            if self.max_words is not None and words > self.max_words:
                out.append(self._doc(turn, f"max_words: {words} words, at most {self.max_words} allowed"))
            if self.min_words is not None and words < self.min_words:
                out.append(self._doc(turn, f"min_words: {words} words, at least {self.min_words} required"))
        if self.max_chars is not None and len(text) > self.max_chars:
            out.append(self._doc(turn, f"max_chars: {len(text)} characters, at most {self.max_chars} allowed"))
        if self.min_bullets is not None or self.max_bullets is not None:
            bullets = sum(1 for st in turn.statements if st.kind is Kind.ITEM)
            if self.min_bullets is not None and bullets < self.min_bullets:
                out.append(self._doc(turn, f"min_bullets: {bullets} bullets, at least {self.min_bullets} required"))
            if self.max_bullets is not None and bullets > self.max_bullets:
                out.append(self._doc(turn, f"max_bullets: {bullets} bullets, at most {self.max_bullets} allowed"))
        if self.required_sections:
            present = {
                normalize(_HEADING_TEXT.match(text[st.start:st.end]).group(1))  # type: ignore[union-attr]
                for st in turn.statements
                if st.kind is Kind.HEADING
            }
            if any(st.kind is Kind.SOURCE and st.section < 0 for st in turn.statements):
                present.add("sources")  # an inline "Sources: [doc:a]" line is a Sources section
            for shown, key in self.required_sections:
                if key not in present:
                    out.append(self._doc(turn, f"required_sections: no {shown!r} section"))
        for i, (source, pattern) in enumerate(self.must_match):
            if pattern.search(text, timeout=turn.remaining()) is None:
                out.append(self._doc(turn, f"must_match[{i}]: {source!r} does not match"))
        for i, (_, pattern) in enumerate(self.must_not_match):
            for m in pattern.finditer(text, timeout=turn.remaining()):
                end = max(m.end(), m.start() + 1) if text else 0
                out.append(Finding(self.name, Label.INSTRUCTION_VIOLATED, self.action, m.start(), min(end, len(text)),
                                   f"must_not_match[{i}]: a forbidden pattern matches"))
        if self.no_emoji and not text.isascii() and _may_hold_emoji(turn.non_ascii):
            # Emoji are not ASCII (a keycap starts with the ASCII character before its run): look only in the
            # runs of non-ASCII characters that hold one of the characters every emoji holds one of.
            pos = 0
            for a, b in _emoji_runs(text, turn.non_ascii):
                for m in _EMOJI.finditer(text, max(a - 1, pos), b):
                    out.append(Finding(self.name, Label.INSTRUCTION_VIOLATED, self.action, m.start(), m.end(),
                                       "no_emoji: an emoji occurs"))
                    pos = m.end()
        return out

    @staticmethod
    def _count_words(turn: Turn) -> int:
        """Words are whitespace-separated tokens once citation markers are taken out."""
        return _count_words(turn.output, turn.marker_spans)

    def _doc(self, turn: Turn, message: str) -> Finding:
        return Finding(self.name, Label.INSTRUCTION_VIOLATED, self.doc_action, 0, len(turn.output), message)
