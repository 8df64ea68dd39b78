"""Guarding a streamed output: text is held back only until the checks that cover it have passed.

A :class:`StreamGuard` takes the deltas of one output as they arrive and returns, each time, the text that may be
released. What it releases is always a prefix of what :meth:`Guard.check` decides for the whole output, so for any
chunking the concatenated released text equals ``guard.check(text).output`` when that decision is ``pass`` or
``modified``; when it is ``blocked``, nothing an acting finding (anything but ``flag``) covers has been released.

How far it can release (the *settled* point):

- statement-level checks (citations, quotes, terms that strip or block, located instructions that act) need the
  statement to be complete: release runs to the end of the last complete statement that is kept. The whitespace
  after it waits for the next kept statement, because removing a later statement may take it;
- banned terms need the longest possible match: text from which a term could still begin is held back (only this,
  where terms that redact or flag are the only acting check);
- ``must_not_match`` patterns that act hold back from where a match could still begin (regex partial matching);
- checks of the whole output that block (schema, document-level instructions) hold everything to the end.

Each time the settled point may have moved, the checks run on the text so far; findings inside the settled part
are final, because segmentation is prefix-stable and every located check is local to its statement.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import regex

from .checks.base import Turn, acts, prefix_statements
from .checks.instructions import InstructionCheck
from .checks.terms import TermCheck
from .compiled import CompiledPolicy
from .engine import _run_checks, apply_edits, edited_offset, evaluate, plan
from .models import Action, Decision, Finding, Label, Source, Verdict
from .text import Kind, normalize, normalize_mapped

# A chunk with one of these may complete a statement (final punctuation or a line break).
_BOUNDARY = regex.compile(r"[.!?…\n]")


class StreamGuard:
    """The guard of one streamed output. Not shared between streams; cheap to create."""

    def __init__(self, compiled: CompiledPolicy, sources: Iterable[Source] = (), roles: frozenset[str] = frozenset()):
        self._compiled = compiled
        self._sources = list(sources)
        self._roles = roles
        self._parts: list[str] = []
        self._released = ""  # the edited text released so far: a prefix of the final output
        self._armed = False  # a statement may have completed since the last look
        self.blocked = False
        self.findings: tuple[Finding, ...] = ()
        acting = [check for check in compiled.checks if acts(check)]
        self._terms = next((c for c in compiled.checks if isinstance(c, TermCheck) and c.action is not Action.FLAG),
                           None)
        self._hold_all = compiled.whole_output
        self._by_statement = any(not (isinstance(c, TermCheck) and c.action is Action.REDACT) for c in acting)
        self._patterns = [
            p for c in acting if isinstance(c, InstructionCheck) and c.action is not Action.FLAG
            for _, p in c.must_not_match
        ]
        self._free = not acting  # nothing can change the text: release as it comes

    @property
    def released(self) -> str:
        """Everything released so far."""
        return self._released

    def feed(self, delta: str) -> str:
        """Take the next piece of the output; return the text that may be sent now (possibly empty)."""
        if self.blocked or not delta:
            return ""
        self._parts.append(delta)
        if self._free:
            self._released += delta
            return delta
        if self._hold_all:
            return ""
        if self._by_statement:
            if _BOUNDARY.search(delta):
                self._armed = True
            if not self._armed or delta.isspace():
                return ""
        return self._advance()

    def finish(self) -> tuple[str, Verdict]:
        """The output is complete: the rest to send and the verdict on the whole output. After a block (here or
        earlier) the rest is empty and :attr:`blocked` is true: end the stream with ``content_filter``."""
        text = "".join(self._parts)
        verdict = evaluate(self._compiled, text, self._sources, self._roles)
        if self.blocked or verdict.decision is Decision.BLOCKED:
            self.blocked = True
            return "", verdict
        if not verdict.output.startswith(self._released):
            # The promise that release is a prefix of the decision broke: never send a mismatched answer.
            self.blocked = True
            error = Finding("guard", Label.GUARD_ERROR, Action.BLOCK, 0, len(text),
                            "streamed text diverged from the checked output")
            return "", Verdict(Decision.BLOCKED, self._compiled.policy.blocked_message,
                               (*verdict.findings, error), verdict.elapsed_us)
        rest = verdict.output[len(self._released):]
        self._released = verdict.output
        return rest, verdict

    def _advance(self) -> str:
        text = "".join(self._parts)
        self._parts = [text]
        policy = self._compiled.policy
        turn = Turn(text, self._sources, self._roles, self._compiled.marker_re,
                    time.perf_counter() + policy.budget_ms / 1000)
        findings = _run_checks(self._compiled, turn)
        if any(f.label is Label.GUARD_ERROR and f.action is Action.BLOCK for f in findings):
            return self._block(findings)
        limit = len(text)
        if self._by_statement:
            complete = prefix_statements(self._compiled.marker_re, text, turn.remaining())
            limit = complete[-1].end if complete else 0
            self._armed = _BOUNDARY.search(text, limit) is not None
        if self._terms is not None:
            limit = min(limit, self._term_safe(text))
        for pattern in self._patterns:
            for m in pattern.finditer(text, partial=True, timeout=turn.remaining()):
                if m.partial or m.end() == len(text):
                    limit = min(limit, m.start())
        settled = [f for f in findings if f.end <= limit and f.label is not Label.GUARD_ERROR]
        if any(f.action is Action.BLOCK for f in settled):
            return self._block(settled)
        replacement = policy.banned_terms.replacement if policy.banned_terms else ""
        edit_plan = plan(turn, settled, replacement)
        if edit_plan.blocked:
            return self._block(settled)
        if self._by_statement:
            upto = 0
            for i, st in enumerate(turn.statements):
                if st.end > limit:
                    break
                # A Sources heading goes with its lines: it is released with the first of them that is kept.
                if i not in edit_plan.removed and not (st.kind is Kind.HEADING and st.section == st.start):
                    upto = st.end
        else:
            upto = limit
        target = apply_edits(text, edit_plan.edits)[:edited_offset(edit_plan.edits, upto)]
        if len(target) <= len(self._released):
            return ""
        if edit_plan.edits:
            # As for a whole output: what the edits made must pass too (they can join a term or a marker).
            edited = Turn(target, (), self._roles, self._compiled.marker_re, turn.deadline)
            edited.retrieved, edited.visible = turn.retrieved, turn.visible
            again = [f for f in _run_checks(self._compiled, edited, again=True) if f.action is not Action.FLAG]
            if again:
                return self._block(settled + again)
        if not target.startswith(self._released):
            return self._block([Finding("guard", Label.GUARD_ERROR, Action.BLOCK, 0, len(text),
                                        "streamed text diverged from the checked output")])
        out = target[len(self._released):]
        self._released = target
        return out

    def _block(self, findings: list[Finding]) -> str:
        self.blocked = True
        self.findings = tuple(findings)
        return ""

    def _term_safe(self, text: str) -> int:
        """The original offset before which no banned-term match can still change as more text arrives."""
        terms = self._terms
        assert terms is not None
        norm = normalize(text, terms.fold)
        n = len(norm)
        start = n
        for i in range(max(0, n - terms.longest_key), n):
            if terms.is_prefix(norm[i:]):
                start = i  # a term could begin here and end in text not yet seen (or need its boundary)
                break
        if start == n:
            return len(text)
        # A match touching the open tail may still merge with what comes: hold it back too.
        for hit_start, hit_end, _ in sorted(terms.raw_hits(norm), key=lambda h: -h[1]):
            if hit_end >= start - 1:
                start = min(start, hit_start)
        return normalize_mapped(text, terms.fold).original_span(start, start + 1)[0]

