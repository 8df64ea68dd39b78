"""Run the compiled checks inside the latency budget, decide, and apply the edits. Pure: no I/O.

Deciding follows CONTRACT section 3: ``block`` beats ``strip``, which beats ``redact``, which beats ``flag``. Every
edit is computed on the original text and applied at once. A removed statement takes the whitespace after it (at
the end of a line, the whitespace before it); a statement that was alone on its line takes the line with its line
break, and one blank line with it when it stood between blank lines, so no gap is left behind; a Sources heading
whose lines are all removed goes too. If, after a strip, nothing of substance is left, the output is blocked.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from ._locate import GROUPED_CITATION_PATTERN
from .adherence import BudgetSpent
from .checks.base import _GROUP_SPAN, Check, Marker, Turn, find_markers
from .checks.citations import CitationCheck
from .checks.terms import TermCheck
from .compiled import CompiledPolicy
from .models import Action, Decision, Finding, Label, Source, Verdict
from .text import Kind, Statement, _collapse, drop_invisible, has_substance, normalize, without_spans, word_bytes

if TYPE_CHECKING:
    from .policy import Policy

Edit = tuple[int, int, str]
_GROUPED = re.compile(GROUPED_CITATION_PATTERN)
_LINE_START = itemgetter(3)  # a statement's line_start


def evaluate(compiled: CompiledPolicy, output: str, sources: list[Source], roles: frozenset[str]) -> Verdict:
    """Check ``output`` against ``compiled`` and decide what the user receives."""
    started = time.perf_counter()
    if not compiled.checks:  # nothing to check: nothing to build
        return Verdict(Decision.PASS, output, [], (time.perf_counter() - started) * 1e6, [])
    policy = compiled.policy
    turn = Turn(output, sources, roles, compiled.marker_re, started + policy.budget_ms / 1000)
    findings = run_checks(compiled, turn)
    try:
        decision, text, edits = _decide(turn, findings, policy)
        if decision is Decision.MODIFIED:
            decision, text = _recheck(compiled, text, turn, findings, edits)
    except Exception as exc:
        findings.append(_guard_error(compiled, output, f"applying the edits failed ({exc.__class__.__name__})"))
        decision, text = (Decision.PASS, output) if policy.fail_mode == "open" else \
            (Decision.BLOCKED, policy.blocked_message)
    elapsed = (time.perf_counter() - started) * 1e6
    return Verdict(decision, text, findings, elapsed, turn.instruction_results)


def run_checks(compiled: CompiledPolicy, turn: Turn, again: bool = False, acting: bool = False) -> list[Finding]:
    """Every check's findings (``again``: what edits may have caused, by the checks that act; ``acting``: the
    findings of the checks that act, flagged ones left out where that saves work, for a stream's look); a check
    that raises, times out or finds the budget spent yields ``GUARD_ERROR``."""
    findings: list[Finding] = []
    for k, check in enumerate(compiled.checks):
        if (again or acting) and k not in compiled.acting_at:
            continue
        if k and time.perf_counter() > turn.deadline:
            findings.append(_guard_error(
                compiled, turn.output,
                f"latency budget of {compiled.policy.budget_ms:g} ms ran out before the {check.name} check"))
            break
        try:
            if again:
                findings.extend(_targeted(compiled, check, turn))
            elif acting:
                findings.extend(compiled.acting_runs[k](turn))
            else:
                findings.extend(check.run(turn))
                turn.completed.add(k)
        except TimeoutError:
            findings.append(_guard_error(compiled, turn.output,
                                         f"a regular expression timed out in the {check.name} check"))
        except BudgetSpent:
            findings.append(_guard_error(
                compiled, turn.output,
                f"latency budget of {compiled.policy.budget_ms:g} ms ran out in the {check.name} check"))
        except Exception as exc:  # a check that crashes is reported, never raised (the flake8 way)
            findings.append(_guard_error(compiled, turn.output,
                                         f"the {check.name} check failed ({exc.__class__.__name__})"))
    return findings


def _recheck(compiled: CompiledPolicy, edited: str, original: Turn, findings: list[Finding],
             edits: list[Edit] | None = None) -> tuple[Decision, str]:
    """Never send an edited output the policy would not pass: edits can take away what a rule needed (the Sources
    section a rule requires, the JSON a schema wants) or join what they separated (a term around a removed marker).
    What the edited output fails blocks the answer; such a finding covers the whole original output. The checks
    learn where the edits landed (``Turn.edited_at``), for what only text around an edit can newly fail."""
    turn = Turn(edited, (), original.roles, compiled.marker_re, original.deadline)
    turn.retrieved, turn.visible = original.retrieved, original.visible
    turn._hidden, turn.shared = original._hidden, original.shared
    if edits is not None:
        turn.edited_at = landed(merge_edits(edits))
        turn.local = frozenset(id(compiled.checks[k]) for k in original.completed)
    for f in run_checks(compiled, turn, again=True):
        if f.action is not Action.FLAG:
            findings.append(Finding(f.check, f.label, Action.BLOCK, 0, len(original.output),
                                    f.message + " (in the edited output)"))
            return Decision.BLOCKED, compiled.policy.blocked_message
    return Decision.MODIFIED, edited


def _targeted(compiled: CompiledPolicy, check: Check, turn: Turn) -> list[Finding]:
    """``check.recheck(turn)``; for an output this guard edited, whose original this check judged in full, the
    citations and banned-term checks look first only in windows around the edits. They cannot find anything that
    acts far from an edit: all they found in the original was acted on, and there the edited text is the original
    (with the characters around it: a window is cut at whitespace outside marker brackets, and reaches the longest
    term, invisible ID or copied run of words away). When a window holds a finding that acts, the whole output is
    checked again, so what acts is exactly what the whole re-check finds (flagged findings far from the edits are
    left out: nothing reads them). The windows, and what is derived from their text, serve both checks: each reaches
    as far as the farther of the two needs (a window wider than a check needs is still one it can look in)."""
    if turn.edited_at is None or id(check) not in turn.local or not isinstance(check, _NEAR):
        return check.recheck(turn)
    subs = turn.around
    if subs is None:
        subs = turn.around = _around_edits(compiled, turn)
    if not subs:  # one window, the whole output
        return check.recheck(turn)
    for sub in subs:
        if any(f.action is not Action.FLAG for f in check.recheck(sub)):
            return check.recheck(turn)
    return []


_NEAR = (TermCheck, CitationCheck)  # the checks that look again only near the edits (see _reach)


def _reach(check: Check, turn: Turn) -> tuple[int, int] | None:
    """How far on either side of an edit ``check`` must look (characters, words), None if it looks everywhere."""
    if isinstance(check, TermCheck):
        return check.longest_key + 2, 0
    if isinstance(check, CitationCheck):
        if turn.hidden_sources:
            return max(map(len, turn.hidden_ids), default=0) + 2, check.leak_min_words + 1
        return 2, 0
    return None


def _around_edits(compiled: CompiledPolicy, turn: Turn) -> list[Turn]:
    """The turns of the windows around the edits of ``turn`` (see :func:`_targeted`) for every check that looks
    near them; none when a window is the whole output."""
    reaches = [r for check in compiled.checks if id(check) in turn.local and (r := _reach(check, turn)) is not None]
    need_chars, need_words = max(r[0] for r in reaches), max(r[1] for r in reaches)
    text = turn.output
    windows: list[tuple[int, int]] = []
    for a, b in turn.edited_at or ():
        lo, hi = _window(text, a, b, need_chars, need_words)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
        else:
            windows.append((lo, hi))
    if windows == [(0, len(text))]:
        return []
    subs = []
    for lo, hi in windows:
        sub = Turn(text[lo:hi], (), turn.roles, turn.marker_re, turn.deadline)
        sub.retrieved, sub.visible, sub._hidden, sub.shared = turn.retrieved, turn.visible, turn._hidden, turn.shared
        subs.append(sub)
    return subs


def _window(text: str, a: int, b: int, need_chars: int, need_words: int) -> tuple[int, int]:
    """A stretch of ``text`` around ``[a, b)``, cut just inside whitespace (or at the text's ends) and outside any
    bracket of its line that may open or close a marker group, with at least ``need_chars`` characters (normalised,
    and not zero-width) and ``need_words`` words (marker groups taken out) on either side of ``[a, b)``."""
    n = len(text)
    step = max(need_chars, 16 * need_words, 16)
    lo = a
    while lo > 0:
        lo = max(0, lo - step)
        while lo > 0 and not text[lo - 1].isspace():
            lo -= 1
        ls = text.rfind("\n", 0, lo) + 1
        opening = text.rfind("[", ls, lo)
        if opening > text.rfind("]", ls, lo):  # perhaps inside a group: start before it
            lo = opening
            continue
        if _enough(text[lo:a], need_chars, need_words):
            break
        step *= 2
    step = max(need_chars, 16 * need_words, 16)
    hi = b
    while hi < n:
        hi = min(n, hi + step)
        while hi < n and not text[hi].isspace():
            hi += 1
        le = text.find("\n", hi)
        le = n if le < 0 else le
        closing = text.find("]", hi, le)
        if closing >= 0 and not 0 <= text.find("[", hi, le) < closing:  # perhaps inside a group: end after it
            hi = closing + 1
            continue
        if _enough(text[b:hi], need_chars, need_words):
            break
        step *= 2
    return lo, hi


def _enough(margin: str, need_chars: int, need_words: int) -> bool:
    """Whether a margin of a window holds enough (see :func:`_window`)."""
    ascii_margin = margin.isascii()
    # (ASCII text normalises to its whitespace runs collapsed, lower case: as long as the collapsed text)
    if len(_collapse(margin) if ascii_margin else normalize(margin)) < need_chars:
        return False
    if not ascii_margin and len(drop_invisible(margin)) < need_chars:
        return False
    if need_words:
        if "[" in margin:  # (every marker group of the default reader opens with one)
            spans = sorted(set(map(_GROUP_SPAN, find_markers(_GROUPED, margin, 1.0)[0])))  # (it gives groups)
            margin = without_spans(margin, 0, len(margin), spans)
        return len(word_bytes(margin)) >= need_words
    return True


def _guard_error(compiled: CompiledPolicy, output: str, message: str) -> Finding:
    action = Action.BLOCK if compiled.policy.fail_mode == "closed" else Action.FLAG
    return Finding("guard", Label.GUARD_ERROR, action, 0, len(output), message)


class Plan(NamedTuple):
    """What the acting findings do to the text: statements to remove and the edits, on the original offsets.
    ``blocked`` when a strip has no statement to act on (fail safe)."""

    blocked: bool
    removed: frozenset[int]
    edits: list[Edit]


def plan(turn: Turn, findings: list[Finding], replacement: str) -> Plan:
    """The edits the ``redact`` and ``strip`` findings ask for (``block`` and ``flag`` ones are not looked at)."""
    removed: set[int] = set()
    removed_markers: set[int] = set()
    redactions: list[tuple[int, int]] = []
    for f in findings:
        if f.action is Action.REDACT:
            redactions.append((f.start, f.end))
        elif f.action is not Action.STRIP:
            continue
        elif f.label is Label.HALLUCINATED_SOURCE:
            removed_markers.add(f.start)
        else:
            covered = turn.statements_overlapping(f.start, f.end)
            if not covered:
                return Plan(True, frozenset(), [])
            removed.update(covered)
    edits = [(a, b, replacement) for a, b in redactions]
    if removed_markers:
        gone = frozenset(removed_markers)
        holding = _holding(turn, gone)
        for i in holding:
            if i not in removed and not turn.has_valid_citation(i, gone):
                removed.add(i)
        edits += _marker_edits(turn, removed_markers, removed, holding)
    if removed:
        _remove_orphan_sources_headings(turn.statements, removed)
        edits += _statement_edits(turn.output, turn.statements, removed, turn.after_text, turn.continued)
    return Plan(False, frozenset(removed), merge_edits(edits))


def decide(turn: Turn, findings: list[Finding], policy: Policy) -> tuple[Decision, str]:
    """The decision and the text the user receives."""
    decision, text, _ = _decide(turn, findings, policy)
    return decision, text


def _decide(turn: Turn, findings: list[Finding], policy: Policy) -> tuple[Decision, str, list[Edit]]:
    """:func:`decide`, with the edits applied (on the original offsets)."""
    if not any(f.action is not Action.FLAG for f in findings):
        return Decision.PASS, turn.output, []
    if any(f.action is Action.BLOCK for f in findings):
        return Decision.BLOCKED, policy.blocked_message, []
    edit_plan = plan(turn, findings, policy.banned_terms.replacement if policy.banned_terms else "")
    if edit_plan.blocked:
        return Decision.BLOCKED, policy.blocked_message, []
    if edit_plan.removed and not any(has_substance(turn.output, st, turn.marker_spans)
                                     for i, st in enumerate(turn.statements) if i not in edit_plan.removed):
        return Decision.BLOCKED, policy.blocked_message, []
    text = apply_edits(turn.output, edit_plan.edits)
    return (Decision.MODIFIED if text != turn.output else Decision.PASS), text, edit_plan.edits


def _remove_orphan_sources_headings(statements: list[Statement], removed: set[int]) -> None:
    if not any(statements[i].kind is Kind.SOURCE and statements[i].section >= 0 for i in removed):
        return  # no Sources section lost a line
    sections: dict[int, bool] = {}
    for i, st in enumerate(statements):
        if st.kind is Kind.SOURCE and st.section >= 0:
            sections[st.section] = sections.get(st.section, True) and i in removed
    for i, st in enumerate(statements):
        if st.kind is Kind.HEADING and sections.get(st.start):
            removed.add(i)


def _holding(turn: Turn, starts: frozenset[int]) -> list[int]:
    """The indices of the statements that hold a marker starting at one of ``starts``, in order (a marker belongs
    to the statement it starts in, as in ``Turn.statement_markers``)."""
    out = set()
    for pos in starts:
        i = turn.statement_at(pos)
        if i is not None and any(mk.start == pos for mk in turn.markers_of(i)):
            out.add(i)
    return sorted(out)


def _marker_edits(turn: Turn, removed_markers: set[int], removed: set[int], holding: list[int]) -> list[Edit]:
    """Edits removing markers (by start) from the statements that stay. A group whose every ID goes, goes whole, as
    a single marker does: with the spaces before it (or, opening its statement, after it). A group that keeps some
    of its IDs is rebuilt from its own pieces: its opening up to the first kept ID (``[doc:`` or ``[DOC: ``), then
    each kept ID after the first with the separator and prefix written before it, then its closing ``]``; so
    ``[doc:zz, doc:a]`` becomes ``[doc:a]`` and reads again as exactly the kept markers."""
    if not removed_markers:
        return []
    text = turn.output
    edits = []
    for i in holding:  # (the statements holding a marker to remove: `_holding`)
        if i in removed:
            continue
        markers = turn.markers_of(i)
        st = turn.statements[i]
        k = 0
        while k < len(markers):
            group = markers[k].group
            j = k + 1
            while j < len(markers) and markers[j].group == group:
                j += 1
            items, k = markers[k:j], j
            kept = [mk for mk in items if mk.start not in removed_markers]
            if len(kept) == len(items):
                continue
            if kept:
                edits.append((group[0], group[1], _rebuilt_group(text, group, items, kept)))
                continue
            a, b = group
            while a > st.start and text[a - 1] in " \t":
                a -= 1
            if a == st.start:  # a marker opening the statement takes the spaces after it instead
                a = group[0]
                while b < st.end and text[b] in " \t":
                    b += 1
            edits.append((a, b, ""))
    return edits


def _rebuilt_group(text: str, group: tuple[int, int], items: list[Marker], kept: list[Marker]) -> str:
    """The text of a marker group with only its ``kept`` items (each item ends with its ID)."""
    id_end = {mk.start: mk.end for mk in items}
    previous = {mk.start: (items[n - 1].end if n else -1) for n, mk in enumerate(items)}
    opening = text[group[0]:items[0].end - len(items[0].id)]  # "[doc:", as the group wrote it
    pieces = [opening, kept[0].id]
    for mk in kept[1:]:
        pieces.append(text[previous[mk.start]:id_end[mk.start]])  # its separator, prefix and ID, as written
    pieces.append(text[items[-1].end:group[1]])
    return "".join(pieces)


def _statement_edits(
    text: str, statements: list[Statement], removed: set[int], after_text: bool, continued: bool = False
) -> list[Edit]:
    """Edits removing statements. ``continued``: the first line goes on from a kept sentence before the text."""
    if not removed:
        return []
    edits: list[Edit] = []
    removed_lines: set[int] = set()  # line starts
    line_starts = list(map(_LINE_START, statements))  # (in order: the statements of a line are consecutive)
    for line_start in sorted({line_starts[i] for i in removed}):  # the lines that lose a statement
        members = range(bisect_left(line_starts, line_start), bisect_right(line_starts, line_start))
        if all(i in removed for i in members) and not (continued and line_start == 0):
            removed_lines.add(line_start)
            if statements[members[0]].kind is Kind.CODE:  # a code block spans lines: take them all
                removed_lines.update(_line_starts(text, line_start, statements[members[0]].end))
            continue
        run: list[int] = []
        for pos, i in enumerate([*members, -1]):
            if i in removed:
                run.append(i)
                continue
            if run:
                first, last = statements[run[0]], statements[run[-1]]
                if i >= 0:  # a kept statement follows on the line: take the whitespace after the run
                    edits.append((first.start, statements[i].start, ""))
                else:  # the run ends the line: take the whitespace before it
                    before = pos - len(run) - 1
                    edits.append((statements[members[before]].end if before >= 0 else 0, last.end, ""))
                run = []
    if removed_lines:
        edits += _line_edits(text, removed_lines, after_text, continued)
    return edits


def _line_starts(text: str, start: int, end: int) -> list[int]:
    out = []
    pos = text.find("\n", start, end)
    while pos >= 0:
        out.append(pos + 1)
        pos = text.find("\n", pos + 1, end)
    return out


def _line_edits(text: str, removed_starts: set[int], after_text: bool = False, continued: bool = False) -> list[Edit]:
    """Edits removing whole lines, with one neighbouring blank line when the removed lines stood between blanks.
    ``after_text``: the text continues other text (a stream's window), so its start is not a blank."""
    lines: list[tuple[int, int, int]] = []  # (start, content end, next start)
    pos, n = 0, len(text)
    while pos < n:
        nl = text.find("\n", pos)
        nxt = n if nl < 0 else nl + 1
        lines.append((pos, n if nl < 0 else nl, nxt))
        pos = nxt
    gone = [ls in removed_starts for ls, _, _ in lines]

    def blank(k: int) -> bool:
        if k < 0:
            return not after_text
        if k == 0 and continued:
            return False  # the first line goes on from text before it
        if k >= len(lines):
            return True
        start, end = lines[k][0], lines[k][1]
        if end > start and text[end - 1] == "\r":
            end -= 1
        return not text[start:end].strip(" \t")  # blank as the segmenter sees it (not "\x1f", a statement)

    k = 0
    while k < len(lines):
        if not gone[k]:
            k += 1
            continue
        j = k
        while j + 1 < len(lines) and gone[j + 1]:
            j += 1
        if blank(k - 1) and blank(j + 1):
            if j + 1 < len(lines):
                gone[j + 1] = True
            elif k > 0:
                gone[k - 1] = True
        k = j + 1
    edits: list[Edit] = []
    k = 0
    while k < len(lines):
        if not gone[k]:
            k += 1
            continue
        j = k
        while j + 1 < len(lines) and gone[j + 1]:
            j += 1
        start, end = lines[k][0], lines[j][2]
        if end == n and not text.endswith("\n") and k > 0:
            # The last line has no line break of its own: take the one before it.
            start = lines[k - 1][1] - (1 if lines[k - 1][1] > 0 and text[lines[k - 1][1] - 1] == "\r" else 0)
        edits.append((start, end, ""))
        k = j + 1
    return edits


def merge_edits(edits: list[Edit]) -> list[Edit]:
    """Sort edits and merge the overlapping ones (a removal swallows what it contains; a partial overlap becomes
    their union, keeping a replacement text if either had one)."""
    edits = sorted(edits, key=lambda e: (e[0], -e[1]))
    merged: list[Edit] = []
    for a, b, rep in edits:
        if merged and a < merged[-1][1]:
            pa, pb, prep = merged[-1]
            if b <= pb:
                continue
            merged[-1] = (pa, b, prep or rep)
        else:
            merged.append((a, b, rep))
    return merged


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply edits made on ``text`` (merged first if they overlap)."""
    if not edits:
        return text
    pieces, pos = [], 0
    for a, b, rep in merge_edits(edits):
        pieces.append(text[pos:a])
        pieces.append(rep)
        pos = b
    pieces.append(text[pos:])
    return "".join(pieces)


def landed(merged: list[Edit]) -> list[tuple[int, int]]:
    """Where merged edits land in the edited text: for each, the span of its replacement text (empty for a
    removal), in order."""
    out = []
    shift = 0
    for a, b, rep in merged:
        out.append((a + shift, a + shift + len(rep)))
        shift += len(rep) - (b - a)
    return out


def edited_offset(merged: list[Edit], pos: int) -> int:
    """Where original offset ``pos`` (not inside an edit) lands in the edited text."""
    shift = 0
    for a, b, rep in merged:
        if b > pos:
            break
        shift += len(rep) - (b - a)
    return pos + shift
