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
- quotations that act: a statement is held while a quotation that more text would close begins in it or before it
  on its line, as the quote check pairs the marks (the segmenter counts straight and curly marks apart);
- copies of invisible sources that act: the last words while they could still grow into a copy, and what follows a
  stripped copy until the next word says whether a copy right after it joins it;
- ``must_not_match`` patterns that act hold back from where a match could still begin or grow (regex partial
  matching); one with an anchor or a lookaround holds everything to the end (its matches depend on where the text
  starts and ends, which a window cannot know);
- checks of the whole output that block (schema, document-level instructions) hold everything to the end.

The checks run again only when a chunk brings what can complete a statement (once: a completion seen by one chunk
does not make the next look again), and only on the window: the text after the last released sentence (or finished
line), whose output before it is final. Before the checks run, the cheap limits (statements complete, banned terms
and copies still open, patterns still matching) tell whether a look could release anything new; when it could not,
the checks are not run (skipping a look only ever holds text longer: each look is sound on its own). Findings
inside the settled part are final, because segmentation is prefix-stable and every located check is local to its
statement; at the end the whole output is checked once more for the verdict, and a release that were not a prefix of
it would block.

A look reads the whole window, so a window that stays long (no statement can be released: a run-on text, a language
without the sentence ends read here, an upstream sending ``a. b. a. b.`` for megabytes) would make each look cost as
much as all the text so far. Past :data:`_LONG` characters the window is therefore looked at again only once it has
grown by a quarter, and its deltas wait unjoined meanwhile: the work per stream stays linear in its length, and such
a window's text is held at most a quarter longer than it would be.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import replace
from operator import itemgetter
from typing import Any

from ._locate import GROUPED_CITATION_PATTERN
from .checks.base import Turn, acts, group_markers, prefix_statements
from .checks.citations import CitationCheck, copies, is_copy, may_join, open_run
from .checks.instructions import InstructionCheck
from .checks.quotes import QuoteCheck, open_quotation, quotations
from .checks.terms import TermCheck
from .compiled import CompiledPolicy
from .engine import apply_edits, edited_offset, evaluate, plan, run_checks
from .models import Action, Decision, Finding, Label, Source, Verdict
from .text import _SPEEDUPS, Kind, normalize, normalize_mapped

# What can complete a statement: the first visible character after final punctuation (and closers) or after a
# citation marker, or a line break. Only a chunk that brings one (a match that ends in it) makes the guard look again.
# Written to begin with one set of characters, which the regex engine looks for quickly before it tries to match;
# it matches where `[.!?…][\"'”’»)\]]*\s+\S|\]\s+\S|\n` does (a test holds it to that).
_COMPLETES = re.compile(r"[.!?…\]\n](?:(?<=[.!?…])[\"'”’»)\]]*\s+\S|(?<=\])\s+\S|(?<=\n))")
_LOOKBACK = 8  # characters before a chunk that a completing pattern may start in
_LONG = 2048  # a window at least this long is looked at again only once it has grown by a quarter (module docstring)
_EDGE = 16  # the characters of a long window kept to tell whether the next delta brings a look
_GROWTH_TESTS = 8  # matches of a pattern a look tests for whether more text could make them longer (the rest: held)
_END = itemgetter(1)  # a marker group's end
_WORD_END = re.compile(r"\w\W")  # a word completed (what words held for a copy wait for)
# Where a statement may end (a superset, see `_may_end`): after final punctuation and closers that no letter or
# digit follows, or after the last character of a line (its trailing whitespace aside).
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’»)\]]*(?![0-9A-Za-z_])")
# A fence line at a line start (an opening one, or one that may close a code block), and one that can close a block.
_FENCE_LINE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)
_CLOSING_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})[ \t]*\r?$")


class _Text:
    """Text appended to piece by piece, kept as a few strings: the pieces are joined a few dozen at a time, and the
    joined blocks merge as they grow (each character is copied a logarithmic number of times; a list of the deltas
    themselves would cost some 60 bytes each)."""

    __slots__ = ("_blocks", "_recent")

    def __init__(self) -> None:
        self._blocks: list[str] = []  # sizes decreasing at least twofold
        self._recent: list[str] = []

    def write(self, piece: str) -> None:
        recent = self._recent
        recent.append(piece)
        if len(recent) >= 16:
            blocks = self._blocks
            blocks.append("".join(recent))
            recent.clear()
            while len(blocks) > 1 and len(blocks[-2]) <= 2 * len(blocks[-1]):
                last = blocks.pop()
                blocks[-1] += last

    def getvalue(self) -> str:
        if len(self._blocks) + len(self._recent) > 1:
            self._blocks = ["".join([*self._blocks, *self._recent])]
            self._recent.clear()
        return self._blocks[0] if self._blocks else "".join(self._recent)


class StreamGuard:
    """The guard of one streamed output. Not shared between streams; cheap to create.

    The checks look only at a window. The window moves past a sentence once it is released (edits never reach back
    across a kept sentence), and past a line once the line is complete, holds a kept statement and the next line
    starts outside any code block or Sources section (its line break is held until something after it is released).
    So the work per completed statement does not grow with the length of the output.
    """

    __slots__ = ("_ahead", "_all", "_base", "_by_statement", "_closed", "_compiled", "_continued", "_copy_hold",
                 "_decided", "_due", "_edge", "_fed", "_fence", "_free", "_grouped", "_held", "_hidden", "_hidden_ids",
                 "_hold_all", "_joins", "_later", "_leak_n", "_line", "_next", "_on_finish", "_out", "_patterns",
                 "_pending", "_quotes", "_retrieved", "_roles", "_sent", "_shared", "_sources", "_tail", "_terms",
                 "_unedited", "_unsent", "_usual", "_usual_now", "_visible", "_waiting", "_window", "blocked",
                 "chunks", "findings", "first_release", "gated", "started")

    def __init__(self, compiled: CompiledPolicy, sources: Iterable[Source] = (), roles: frozenset[str] = frozenset(),
                 on_finish: Callable[[StreamGuard, str, Verdict], Any] | None = None):
        self._compiled = compiled
        self._on_finish = on_finish
        self.gated = True
        """Whether a look stops as soon as it is clear that it can release nothing new (the property tests turn this
        off to compare: the same text is released, and never later)."""
        self.chunks = 0  # deltas fed
        self._closed = False  # finish() was called
        self._held = 0  # the most characters held back after a look (see `held_max`)
        self.started: float | None = None  # perf_counter at the first delta
        self.first_release: float | None = None  # perf_counter at the first text released
        self._fed = self._out = 0
        self._sources = list(sources)
        self._roles = roles
        # What the sources give every look, taken once: the turns of the window are built without the sources.
        context = Turn("", self._sources, roles, compiled.marker_re, 0.0)
        self._retrieved, self._visible = context.retrieved, context.visible
        self._hidden, self._hidden_ids = context.hidden_sources, context.hidden_ids
        self._shared = context.shared  # what the checks keep of the sources, for every look
        self._all = _Text()  # the output before the window (all of it, when there is no window), for the verdict
        self._window = ""  # the window: the output from `_base` on
        self._waiting: list[str] = []  # deltas not yet joined to the window (inside a code block)
        # A long window (see _LONG): the deltas since its last look, how long it must be for the next look, the last
        # characters of the text so far, and whether a delta has brought what can complete a statement since.
        self._later: _Text | None = None
        self._next = 0
        self._edge = ""
        self._due = False
        self._base = 0
        self._continued = False  # the window starts inside a line, after a released sentence
        self._decided = 0  # how far in the window the checks last decided (statements up to it are settled)
        # What was sent is always a prefix of the final output. It is kept appended to (never copied whole, so a
        # long stream stays linear), with just enough around the window to check and extend it:
        self._sent = _Text()
        self._unsent = ""  # final output before the window (its last line break excepted) not sent yet
        self._pending = ""  # that line break: sent with the first text sent after it
        self._ahead = ""  # what was sent beyond the final output before the window: a prefix of pending + window
        self.blocked = False
        self.findings: tuple[Finding, ...] = ()
        acting = [check for check in compiled.checks if acts(check)]
        self._terms = next((c for c in compiled.checks if isinstance(c, TermCheck) and c.action is not Action.FLAG),
                           None)
        self._hold_all = compiled.whole_output
        self._quotes = any(isinstance(c, QuoteCheck) for c in acting)  # (a quotation still open is held)
        self._by_statement = any(not (isinstance(c, TermCheck) and c.action is Action.REDACT) for c in acting)
        self._patterns = [
            p for c in acting if isinstance(c, InstructionCheck) and c.action is not Action.FLAG
            for _, p in c.must_not_match
        ]
        self._free = not acting  # nothing can change the text: release as it comes
        self._usual = not self._free and not self._hold_all and self._by_statement  # (see `feed`)
        self._usual_now = False  # the next chunk takes the usual way (from the second on: the first sets `started`)
        # Copies of invisible text that act: words that could still grow into a run are held back, and once an edit
        # has joined text, what was sent before the window is looked at with it (`_tail`: its last characters).
        self._leak_n = next((c.leak_min_words for c in acting
                             if isinstance(c, CitationCheck) and c.on_unauthorized is not Action.FLAG), 0)
        # Copies stripped: text after one is held until the next word says whether it joins the next (`may_join`).
        self._joins = bool(self._leak_n and self._hidden) and any(
            isinstance(c, CitationCheck) and c.on_unauthorized not in (Action.FLAG, Action.BLOCK) for c in acting)
        self._tail = ""
        self._unedited = 0  # how many characters at the end of `_tail` are the output as generated (no edit there)
        self._copy_hold = False
        # While the window ends inside an open code block, nothing can be released before a line closes it: the
        # guard then only looks at each completed line (cost linear in the block) instead of the whole window.
        self._grouped = compiled.marker_re.pattern == GROUPED_CITATION_PATTERN
        self._fence: tuple[str, int] | None = None
        self._line: list[str] = []  # the incomplete last line, while in a code block

    @property
    def text(self) -> str:
        """Everything fed so far: the output as generated."""
        if self._free or self._hold_all:
            return self._all.getvalue()
        later = self._later.getvalue() if self._later is not None else ""
        return self._all.getvalue() + self._window + "".join(self._waiting) + later

    @property
    def held_max(self) -> int:
        """The most characters held back at once. Between two looks nothing is released while text comes, so the
        most is held just before a look, or now."""
        return max(self._held, self._fed - self._out)

    def _note_held(self, coming: int) -> None:
        """Before a look (``coming``: the characters of the delta that brought it) or after one."""
        held = self._fed - coming - self._out
        if held > self._held:
            self._held = held

    @property
    def released(self) -> str:
        """Everything released so far."""
        return self._sent.getvalue()

    def _send(self, text: str) -> str:
        if text:
            self._sent.write(text)
            self._out += len(text)
            if self.first_release is None:
                self.first_release = time.perf_counter()
        return text

    def feed(self, delta: str) -> str:
        """Take the next piece of the output; return the text that may be sent now (possibly empty)."""
        if self._usual_now and delta and not self.blocked:
            # The usual chunk: joined to the window, looked at only if it brings what can complete a statement.
            self.chunks += 1
            self._fed += len(delta)
            before = len(self._window)
            window = self._window = self._window + delta
            if not _completes(window, before, self._copy_hold):
                return ""
            return self._look(len(delta))
        if self._closed:
            raise RuntimeError("the stream is finished: nothing more can be fed")
        if self.blocked or not delta:
            return ""
        if self.started is None:
            self.started = time.perf_counter()
        self.chunks += 1
        self._fed += len(delta)
        if self._next:
            out = self._feed_long(delta)
        elif self._usual and self._fence is None:
            before = len(self._window)
            window = self._window = self._window + delta
            out = self._look(len(delta)) if _completes(window, before, self._copy_hold) else ""
        elif self._free or self._hold_all:  # (else the window keeps what is not written there yet)
            self._all.write(delta)
            return self._send(delta) if self._free else ""
        else:
            out = self._feed(delta)
            self._note_held(0)
        self._usual_now = not self._next and self._usual and self._fence is None
        return out

    def _look(self, coming: int) -> str:
        """A look at the usual window, brought by a chunk of ``coming`` characters (see :meth:`feed`)."""
        self._note_held(coming)
        out = self._advance()
        if not self.blocked:
            self._note_fence(self._window)
            if len(self._window) >= _LONG:
                self._note_long()
        self._note_held(0)
        self._usual_now = not self._next and self._fence is None
        return out

    def _feed(self, delta: str) -> str:
        """:meth:`feed` inside a code block, or releasing terms only."""
        if self._fence is not None:
            self._waiting.append(delta)
            if not self._may_close_fence(delta):
                return ""
            pieces, self._waiting = self._waiting, []
            before = len(self._window) + sum(map(len, pieces)) - len(delta)
            self._window = window = self._window + "".join(pieces)
        else:
            before = len(self._window)
            self._window = window = self._window + delta
        self._note_held(len(delta))
        if not self._by_statement:
            out = self._advance()
        elif not _completes(window, before, self._copy_hold):
            return ""
        else:
            out = self._advance()
            if not self.blocked:
                self._note_fence(self._window)
        if not self.blocked and len(self._window) >= _LONG:
            self._note_long()
        return out

    def _note_long(self) -> None:
        """After a look that left the window long: wait for a quarter more before the next (see _LONG)."""
        if self._fence is not None:
            return  # (inside a code block, looks come only at lines that may close it)
        window = self._window
        self._next = len(window) + len(window) // 4
        self._edge = window[-_EDGE:]
        self._due = False
        self._later = _Text()

    def _feed_long(self, delta: str) -> str:
        """:meth:`feed` while the window is long: the delta waits, and a look comes once the window has grown by a
        quarter and something since can complete a statement (any delta, releasing terms only)."""
        later = self._later
        assert later is not None
        later.write(delta)
        edge = self._edge + delta
        if not self._due:
            self._due = not self._by_statement or _completes(edge, len(self._edge), self._copy_hold)
        self._edge = edge[-_EDGE:]
        if not self._due or self._fed - self._base < self._next:  # (the window and what waits: all since _base)
            return ""
        self._next = 0
        self._later = None
        self._window += later.getvalue()
        self._note_held(len(delta))
        out = self._advance()
        if not self.blocked:
            self._note_fence(self._window)
            if len(self._window) >= _LONG:
                self._note_long()
        self._note_held(0)
        return out

    def _note_fence(self, window: str) -> None:
        """Remember whether the window ends inside an open code block (and its last, incomplete line)."""
        self._fence = None
        if "```" not in window and "~~~" not in window:
            return
        fence: tuple[str, int] | None = None
        for m in _FENCE_LINE.finditer(window):
            if m.start() == 0 and self._continued:
                continue  # the window starts inside a line: not a line start
            run = m.group(1)
            if fence is None:
                fence = (run[0], len(run))
            elif run[0] == fence[0] and len(run) >= fence[1] and not m.group(2).strip() and m.end() < len(window):
                fence = None
        if fence is not None:
            self._fence = fence
            self._line = [window[window.rfind("\n") + 1:]]

    def _may_close_fence(self, delta: str) -> bool:
        """Whether ``delta`` completes a line that could close the open code block."""
        nl = delta.find("\n")
        if nl < 0:
            self._line.append(delta)
            return False
        self._line.append(delta[:nl])
        lines = ["".join(self._line), *delta[nl + 1:].split("\n")]
        self._line = [lines.pop()]
        char, length = self._fence  # type: ignore[misc]
        for line in lines:
            m = _CLOSING_FENCE.match(line)
            if m is not None and m.group(1)[0] == char and len(m.group(1)) >= length:
                self._fence = None
                return True
        return False

    def finish(self) -> tuple[str, Verdict]:
        """The output is complete: the rest to send and the verdict on the whole output. After a block (here or
        earlier) the rest is empty and :attr:`blocked` is true: end the stream with ``content_filter``."""
        if self._closed:
            raise RuntimeError("the stream is finished already")
        self._note_held(0)
        text = self.text
        self._closed = True
        self._usual_now = False
        verdict = evaluate(self._compiled, text, self._sources, self._roles)
        rest, verdict = self._finished(text, verdict)
        if self._on_finish is not None:
            self._on_finish(self, text, verdict)
        return rest, verdict

    def _finished(self, text: str, verdict: Verdict) -> tuple[str, Verdict]:
        if verdict.decision is Decision.BLOCKED:
            self.blocked = True
            return "", verdict
        if self.blocked:  # a look blocked what the whole output's check would not: the verdict says what happened
            findings = [*self.findings, *(f for f in verdict.findings if f not in self.findings)]
            return "", Verdict(Decision.BLOCKED, self._compiled.policy.blocked_message, findings,
                               verdict.elapsed_us, verdict.instructions)
        released = self.released
        if not verdict.output.startswith(released):
            # The promise that release is a prefix of the decision broke: never send a mismatched answer.
            self.blocked = True
            error = Finding("guard", Label.GUARD_ERROR, Action.BLOCK, 0, len(text),
                            "streamed text diverged from the checked output")
            return "", Verdict(Decision.BLOCKED, self._compiled.policy.blocked_message,
                               [*verdict.findings, error], verdict.elapsed_us, verdict.instructions)
        return self._send(verdict.output[len(released):]), verdict

    def _turn(self, text: str, deadline: float) -> Turn:
        """A turn of ``text`` with this stream's sources and roles (sorted out once, in ``__init__``)."""
        turn = Turn(text, (), self._roles, self._compiled.marker_re, deadline)
        turn.retrieved, turn.visible = self._retrieved, self._visible
        facts = turn.__dict__
        facts["hidden_sources"], facts["hidden_ids"] = self._hidden, self._hidden_ids
        if self._grouped:  # the default reader's markers, read at once: cheaper than on first use (every look asks)
            facts["markers"] = group_markers(text) if "[" in text else []
        turn.shared = self._shared
        return turn

    def _advance(self) -> str:
        text = self._window
        policy = self._compiled.policy
        turn = self._turn(text, time.perf_counter() + policy.budget_ms / 1000)
        turn.after_text = self._base > 0
        turn.continued = self._continued
        plain: set[int] = set()
        by_statement = self._by_statement
        copies_open = bool(self._leak_n and self._hidden)
        whole = len(text)
        start = whole  # where the words start that may still grow into a copy
        gated = self.gated and not self._unsent
        if gated and by_statement and copies_open:
            # Words held for a copy are what holds a complete statement most often. Where they start bounds what
            # any look can release (`open_run` holds the more, the later its `after`): when no statement can end
            # between what was decided and there, nothing can go, and the rest of the look (segmenting too) is
            # saved.
            start = min(whole, open_run(turn, self._leak_n, whole))
            decided = self._decided
            if start <= decided or not _may_end(text, turn, decided, start):
                # Look again once a word is complete only if a statement after those words may be complete.
                self._copy_hold = start < whole and _may_end(text, turn, max(start, decided), whole)
                return ""
        if by_statement:
            # Only complete statements matter here; the guard's own statements are those (prefix-stable).
            complete = prefix_statements(self._compiled.marker_re, text, turn.remaining(), plain, self._continued,
                                         turn)
            turn.__dict__["statements"] = complete
            limit = complete[-1].end if complete else 0
            if gated and limit <= self._decided:
                # No complete statement that a look has not decided on yet (what completes one brings a look).
                self._copy_hold = False
                return ""
        else:
            limit = whole
        if self._terms is not None:
            limit = min(limit, self._term_safe(text))
        if self._quotes:
            # (the segmenter reads a line's marks of one kind as the quote check pairs them: only a mix of straight
            # and curly ones before the point can hide a quotation still open from it)
            line = text.rfind("\n") + 1
            if line < limit and text.find('"', line, limit) >= 0 and text.find("\u201c", line, limit) >= 0:
                limit = min(limit, open_quotation(text))
        held = limit
        if copies_open and (start < limit or not gated):
            # (else `open_run` holds nothing before `limit` either: it holds no more for an earlier `after`)
            held = min(limit, open_run(turn, self._leak_n, limit))
        copy_hold = held < limit
        limit = held
        try:
            bound = self._pattern_bound(text, limit, turn) if self._patterns else limit  # what patterns leave of it
        except TimeoutError:
            error = Finding("guard", Label.GUARD_ERROR, Action.BLOCK, 0, len(text),
                            "a regular expression timed out in the instructions check")
            if policy.fail_mode == "closed":
                return self._block([error])
            bound = self._decided  # (open: nothing more goes before the whole output's check)
        # Would the checks let anything new go? Only if a statement not yet decided on is complete within the bound
        # (or, releasing terms only, the bound moved on). Else looking again is left to a later chunk.
        if gated and (not any(self._decided < st.end <= bound for st in turn.statements) if by_statement
                      else bound <= self._decided):
            self._copy_hold = copy_hold
            return ""
        findings = run_checks(self._compiled, turn, acting=True)
        if any(f.label is Label.GUARD_ERROR and f.action is Action.BLOCK for f in findings):
            return self._block(findings)
        self._copy_hold = copy_hold
        # A term or a copy reaching past the point (across a line break, or past a pattern's hold): hold it all.
        limit = min(limit, bound)
        for f in sorted((f for f in findings if f.action is not Action.FLAG), key=lambda f: -f.end):
            if f.start < limit < f.end:
                limit = f.start
        if self._joins and findings:
            # What follows the last copy stripped joins it if the next word is copied too: hold it until that is
            # known.
            end = max((f.end for f in findings if f.end <= limit and is_copy(f)), default=-1)
            if end >= self._decided and may_join(turn, end, held):
                limit = end
        settled = [f for f in findings if f.end <= limit and f.label is not Label.GUARD_ERROR]
        if any(f.action is Action.BLOCK for f in settled):
            return self._block(settled)
        replacement = policy.banned_terms.replacement if policy.banned_terms else ""
        edit_plan = plan(turn, settled, replacement)
        if edit_plan.blocked:
            return self._block(settled)
        upto = limit
        if by_statement:
            upto = 0
            # Where no release may end: inside an edit (a term redacted across a line break into a statement
            # stripped: the statement that ends inside goes with the one after the edit), and inside a quotation as
            # the quote check pairs the marks (the window would start inside it, and pair them otherwise; the
            # segmenter ends a sentence there only where a line mixes straight and curly marks).
            inside = [(a, b) for a, b, _ in edit_plan.edits]
            if self._quotes and '"' in text and "\u201c" in text:
                inside += [(a, b) for a, b, _, _ in quotations(text)]
            for i, st in enumerate(turn.statements):
                if st.end > limit:
                    break
                # A Sources heading goes with its lines: it is released with the first of them that is kept.
                if i not in edit_plan.removed and not (st.kind is Kind.HEADING and st.section == st.start) \
                        and not (inside and any(a < st.end < b for a, b in inside)):
                    upto = st.end
        edited = apply_edits(text, edit_plan.edits)
        window = edited[:edited_offset(edit_plan.edits, upto)]
        if window and edit_plan.edits:
            # As for a whole output: what the edits made must pass too (they can join a term or a marker).
            again_turn = self._turn(window, turn.deadline)
            again = [f for f in run_checks(self._compiled, again_turn, again=True) if f.action is not Action.FLAG]
            if again:
                return self._block(settled + again)
        # Before anything is sent: the text sent before the window and the window together hold no copy, once an
        # edit may have joined words there. (Else they are the output as generated, in which the hold saw to it
        # that no run reaches from the window back into what was sent.)
        if window and self._leak_n and self._tail and self._hidden \
                and (self._unedited < len(self._tail) or any(a < upto for a, _, _ in edit_plan.edits)) \
                and self._leaks_across(window, turn):
            return self._block([*settled, Finding("citations", Label.UNAUTHORIZED_SOURCE, Action.BLOCK, 0,
                                                  len(text), "text copied from a source that is not visible to the "
                                                             "caller")])
        out = ""
        if window:
            beyond = self._pending + window
            if not beyond.startswith(self._ahead):
                if self._ahead.startswith(beyond):
                    # A hold that reaches back into what was sent (a term's raw match beside one still open, seen
                    # only by a look that gating would have skipped): nothing new goes; the end checks the rest.
                    out, self._unsent = self._unsent, ""
                    return self._send(out)
                return self._block([Finding("guard", Label.GUARD_ERROR, Action.BLOCK, 0, len(text),
                                            "streamed text diverged from the checked output")])
            out = self._unsent + beyond[len(self._ahead):]
            self._unsent, self._ahead = "", beyond
        elif self._unsent:
            out, self._unsent = self._unsent, ""
        self._decided = limit
        self._commit(text, upto, limit, edited, edit_plan.edits, plain, turn,
                     [f for f in settled if f.action is not Action.FLAG])
        return self._send(out)

    def _commit(self, text: str, upto: int, limit: int, edited: str, edits: list[tuple[int, int, str]],
                plain: set[int], turn: Turn, reach: list[Finding]) -> None:
        """Move the window past what is final: to the next line once a line is done, else to the end of the last
        sentence released (edits never reach back across a kept sentence, except for the whitespace after it)."""
        continued = False
        if self._by_statement:
            if not upto:
                return
            nl = text.find("\n", upto)
            last_on_line = max((st.end for st in turn.statements if st.start < (nl if nl >= 0 else len(text))),
                               default=0)
            if nl >= 0 and nl + 1 in plain and last_on_line <= limit:
                content_end = nl - 1 if text[nl - 1] == "\r" else nl
                cut, pending = content_end, text[content_end:nl + 1]
            else:
                kept = next((st for st in turn.statements if st.end == upto), None)
                if kept is None or kept.kind is not Kind.SENTENCE:
                    return
                cut, pending, nl, continued = upto, "", upto - 1, True
        else:
            nl = text.rfind("\n", 0, upto)
            if nl < 0:
                return
            cut, pending = nl + 1, ""
        if any(a < nl + 1 and b > cut for a, b, _ in edits) or any(f.start < nl + 1 < f.end for f in reach):
            return  # an edit (a term across the line break) or what it acts on (a copy across lines) spans the cut
        final = self._pending + edited[:edited_offset(edits, cut)]
        if not final.startswith(self._ahead):
            return  # cannot happen while release is a prefix of the decision; finish() would then block
        self._unsent += final[len(self._ahead):]
        if self._leak_n:
            self._unedited = 0 if any(a < cut for a, _, _ in edits) else self._unedited + len(final)
            tail = self._tail + final
            cut = max(0, len(tail) - 64 * self._leak_n)
            if cut:  # (the last 64 characters a word, cut at a space, but never fewer than leak_n + 1 words)
                space = tail.find(" ", cut)
                cut = space + 1 if space >= 0 else cut
                if tail.count(" ", cut) <= self._leak_n:  # (a word of over 64 characters, say: count words)
                    cut = min(cut, _words_start(tail, self._leak_n + 1))
            self._tail = tail[cut:]
        self._ahead = ""
        self._pending = pending
        self._all.write(text[:nl + 1])
        self._window = text[nl + 1:]
        self._base += nl + 1
        self._decided = max(self._decided - nl - 1, 0)
        self._continued = continued

    def _pattern_bound(self, text: str, limit: int, turn: Turn) -> int:
        """``limit``, or the start of the first match of an acting ``must_not_match`` pattern before it that more
        text could still change: one still open, one that touches the end, or one that more text could make longer
        (from its start the pattern can read all the text there is: "office.*March" once another March comes). Of
        the matches not decided yet, the first few are tested for that; from the next one on, all is held."""
        bound = limit
        for pattern in self._patterns:
            tested = 0
            for m in pattern.finditer(text, partial=True, timeout=turn.remaining()):
                if m.start() >= bound:
                    break  # (a later match cannot hold back more)
                if m.partial or m.end() == len(text) or (m.end() > self._decided and (
                        tested == _GROWTH_TESTS or pattern.fullmatch(
                            text, m.start(), partial=True, timeout=turn.remaining()) is not None)):
                    bound = m.start()
                    break
                tested += m.end() > self._decided
        return bound

    def _leaks_across(self, window: str, turn: Turn) -> bool:
        """Whether the text before the window and ``window`` (edited) together hold a copy: once an edit took text
        away, words on either side of it meet (the buffered check looks at the edited output again, too)."""
        return bool(copies(self._turn(self._tail + self._pending + window, turn.deadline), self._leak_n))

    def _block(self, findings: list[Finding]) -> str:
        self.blocked = True
        base = self._base
        self.findings = tuple(replace(f, start=f.start + base, end=f.end + base) for f in findings)
        return ""

    def _term_safe(self, text: str) -> int:
        """The original offset before which no banned-term match can still change as more text arrives."""
        terms = self._terms
        assert terms is not None
        longest = terms.longest_key
        # Only the end of the text can hold a match still open: look at a suffix that starts after a space.
        cut = max(0, len(text) - 4 * longest - 16)
        if cut:
            cut = text.rfind(" ", 0, cut) + 1
        piece = text[cut:] if cut else text
        norm = normalize(piece, terms.fold)
        if cut and len(norm) < longest:
            cut, piece = 0, text
            norm = normalize(text, terms.fold)
        n = len(norm)
        start = terms.open_suffix(norm)  # a term could begin here and end in text not yet seen (or need its boundary)
        if not terms.ascii_keys and n and not text[-1].isspace():
            # The last character may yet change: a combining mark or a conjoining jamo that comes next composes
            # with it ("Zoe" and U+0308 are "Zoë"), into a character no ASCII term holds. Held, with what before it
            # begins a term.
            start = min(start, terms.open_suffix(norm[:-1]))
        if start == n:
            return len(text)
        # A match touching the open tail may still merge with what comes: hold it back too.
        for hit_start, hit_end, _ in sorted(terms.raw_hits(norm), key=lambda h: -h[1]):
            if hit_end >= start - 1:
                start = min(start, hit_start)
        return cut + _original_start(piece, norm, start, terms.fold)


def _words_start(text: str, n: int) -> int:
    """Where the last ``n`` runs of non-whitespace of ``text`` begin (0 if it has fewer)."""
    i = len(text)
    for _ in range(n):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        while i > 0 and not text[i - 1].isspace():
            i -= 1
    return i


def _completes_py(window: str, before: int, words: bool = False) -> bool:
    """Whether the text after ``window[:before]`` brings what can complete a statement (see ``_COMPLETES``): a
    match ending in it; one ending before it was there for the chunk before (whose look has been). With ``words``
    (while words are held for a copy), also whether it completes a word."""
    m = _COMPLETES.search(window, max(before - _LOOKBACK, 0))
    while m is not None and m.end() <= before:
        m = _COMPLETES.search(window, m.start() + 1)
    return m is not None or (words and _WORD_END.search(window, max(before - 1, 0)) is not None)


_completes: Callable[[str, int, bool], bool] = _SPEEDUPS.completes if _SPEEDUPS is not None else _completes_py
""":func:`_completes_py`, compiled when it could be (asked at every chunk: a regex search costs ~0.3 µs there,
most of it to start the search)."""


def _may_end_py(text: str, turn: Turn, lo: int, hi: int) -> bool:
    """Whether a statement of ``text`` may end at an offset in ``(lo, hi]``: a sentence after its final punctuation
    (and closers), any statement after a citation marker or at the end of a line. (Only said wrongly yes: no
    quotation, abbreviation or lower-case start is looked at.)"""
    m = _SENTENCE_END.search(text, max(lo - _LOOKBACK, 0), hi + 1)
    while m is not None and m.end() <= lo:
        m = _SENTENCE_END.search(text, m.start() + 1, hi + 1)
    if m is not None and m.end() <= hi:
        return True
    if _line_ends(text, lo, hi):
        return True
    spans = turn.marker_spans  # disjoint and in order: their ends are sorted too
    k = bisect_right(spans, lo, key=_END)
    return k < len(spans) and spans[k][1] <= hi


def _may_end_c(text: str, turn: Turn, lo: int, hi: int) -> bool:
    return bool(_SPEEDUPS.may_end(text, lo, hi, turn.marker_spans))  # type: ignore[union-attr]


_may_end: Callable[[str, Turn, int, int], bool] = _may_end_c if _SPEEDUPS is not None else _may_end_py
""":func:`_may_end_py`, compiled when it could be (asked by every look that words held for a copy may stop)."""


def _line_ends(text: str, lo: int, hi: int) -> bool:
    """Whether a line's last character, or a whitespace character after it, ends at an offset in ``(lo, hi]`` of
    the text read up to ``hi`` (what ``_may_end`` asks; a line of a form feed alone is a statement, too): a line
    break at some ``j`` in ``(lo, hi]`` after a character that is not one."""
    j = text.find("\n", lo + 1, hi + 1)
    while j >= 0:
        if text[j - 1] != "\n":
            return True
        j = text.find("\n", j + 1, hi + 1)
    return False


def _original_start(text: str, norm: str, pos: int, fold: bool) -> int:
    """Where the character at ``pos`` of ``norm`` (``normalize(text, fold)``, not a space) starts in ``text``. ASCII
    text normalises token for token (its whitespace runs one space each), character for character in a token."""
    if text.isascii():
        if len(text.strip()) == len(norm):
            return len(text) - len(text.lstrip()) + pos
        # Whitespace runs are one space each, and tokens keep their length: split the text at the token ``pos`` is
        # in, counted by the spaces of ``norm`` on the side nearer it (a term still open: the end, usually).
        later = norm.count(" ", pos)
        token = norm.count(" ", 0, pos)
        if later <= token:
            end = norm.find(" ", pos)
            return len(text.rsplit(None, later)[0]) - ((len(norm) if end < 0 else end) - pos)
        return len(text) - len(text.split(None, token)[-1]) + pos - (norm.rfind(" ", 0, pos) + 1)
    return normalize_mapped(text, fold).original_span(pos, pos + 1)[0]
