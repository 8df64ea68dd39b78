"""Deciding and editing (CONTRACT section 3): precedence, what a strip removes, blocking, fail modes."""

from __future__ import annotations

import time
from typing import Any

import pytest

from guardrail import Action, Decision, Guard, Label

BLOCKED = "Sorry, I can't share that answer."

SOURCES: list[dict[str, Any]] = [
    {"id": "a", "text": "Employees receive 25 days of paid annual leave per calendar year."},
    # Not visible to the callers here (no roles): the word "b" standing alone would name it (a leak).
    {"id": "b", "text": "Unused leave of up to 5 days may be carried over.", "roles": ["hr"]},
]

CIT = {"citations": {}}  # on_hallucinated: strip, on_unauthorized: block
CIT_STRIP = {"citations": {"on_unauthorized": "strip"}}
TERMS = {"banned_terms": {"terms": ["Falcon", "Project Osprey"]}}  # on_match: redact
TERMS_STRIP = {"banned_terms": {"terms": ["Falcon"], "on_match": "strip"}}
COV_STRIP = {"citations": {"coverage": "strip"}}


def run(policy: dict[str, Any], output: str, sources: Any = SOURCES, roles: Any = ()):
    return Guard.from_dict(policy).check(output, sources, list(roles))


# ------------------------------------------------------------------------------------------------------ the edits

EDITS = [
    # (id, policy, output, decision, expected output)
    # -- a hallucinated marker goes with the spaces before it; the statement stays while a valid citation is left
    ("marker-after-valid", CIT, "One [doc:a] [doc:z]. Two [doc:a].", "modified", "One [doc:a]. Two [doc:a]."),
    ("marker-before-valid", CIT, "One [doc:z] [doc:a]. Two [doc:a].", "modified", "One [doc:a]. Two [doc:a]."),
    ("marker-tab-before", CIT, "Two [doc:a]\t[doc:z].", "modified", "Two [doc:a]."),
    ("marker-mid-sentence", CIT, "Two [doc:a] and [doc:z] three.", "modified", "Two [doc:a] and three."),
    ("marker-after-punct", CIT, "Claim. [doc:a] [doc:z]", "modified", "Claim. [doc:a]"),
    ("marker-opening-line", CIT, "[doc:z] Two [doc:a].", "modified", "Two [doc:a]."),
    # -- in a group, just that ID goes; a group left with none goes whole, as a marker does
    ("group-last", CIT, "One [doc:a, doc:z]. Two [doc:a].", "modified", "One [doc:a]. Two [doc:a]."),
    ("group-first", CIT, "One [doc:z; a]. Two [doc:a].", "modified", "One [doc:a]. Two [doc:a]."),
    ("group-spaced-upper", CIT, "One [DOC: z, DOC: a].", "modified", "One [DOC: a]."),
    ("group-all-gone", CIT, "One [doc:a] [doc:z, y].", "modified", "One [doc:a]."),
    ("group-all-gone-opening", CIT, "[doc:z; y] One [doc:a].", "modified", "One [doc:a]."),
    ("group-stmt-gone", CIT, "One [doc:a]. Two [doc:z, doc:y].", "modified", "One [doc:a]."),
    ("group-unauth-strip", CIT_STRIP, "One [doc:a]. Two [doc:a, doc:b].", "modified", "One [doc:a]."),
    # -- the whole statement goes when no valid citation is left
    ("stmt-last-on-line", CIT, "One [doc:a]. Two [doc:z].", "modified", "One [doc:a]."),
    ("stmt-first-on-line", CIT, "Two [doc:z]. One [doc:a].", "modified", "One [doc:a]."),
    ("stmt-middle", CIT, "A [doc:a]. B [doc:z]. C [doc:a].", "modified", "A [doc:a]. C [doc:a]."),
    ("stmt-marker-after-punct", CIT, "One. [doc:z] Two [doc:a].", "modified", "Two [doc:a]."),
    ("stmt-end-of-line", CIT, "One [doc:a]. Two [doc:z].\nThree [doc:a].", "modified",
     "One [doc:a].\nThree [doc:a]."),
    ("stmt-end-of-text-wide-space", CIT, "A [doc:a].   B [doc:z].", "modified", "A [doc:a]."),
    ("stmt-start-wide-space", CIT, "B [doc:z].   A [doc:a].", "modified", "A [doc:a]."),
    ("stmt-indented-line", CIT, "  Indented [doc:a]. B [doc:z].", "modified", "  Indented [doc:a]."),
    ("two-stmts-one-line", CIT, "A [doc:a]. B [doc:z]. C [doc:y].", "modified", "A [doc:a]."),
    # -- whole lines go with their line break
    ("line-last-with-newline", CIT, "A [doc:a].\nB [doc:z].\n", "modified", "A [doc:a].\n"),
    ("line-last-no-newline", CIT, "A [doc:a].\nB [doc:z].", "modified", "A [doc:a]."),
    ("line-first", CIT, "B [doc:z].\nA [doc:a].", "modified", "A [doc:a]."),
    ("line-between-blanks", CIT, "A [doc:a].\n\nB [doc:z].\n\nC [doc:a].", "modified", "A [doc:a].\n\nC [doc:a]."),
    ("line-after-blank-at-end", CIT, "A [doc:a].\n\nB [doc:z].", "modified", "A [doc:a]."),
    ("crlf-line", CIT, "Intro [doc:a].\r\nB [doc:z]. C [doc:a].\r\n", "modified", "Intro [doc:a].\r\nC [doc:a].\r\n"),
    # -- list items take their line break: no dangling "- " markers
    ("item-middle", CIT, "Intro [doc:a]:\n- one [doc:a]\n- two [doc:z]\n- three [doc:a]", "modified",
     "Intro [doc:a]:\n- one [doc:a]\n- three [doc:a]"),
    ("item-last", CIT, "- a [doc:a]\n- y [doc:z]", "modified", "- a [doc:a]"),
    ("item-first", CIT, "- y [doc:z]\n- a [doc:a]", "modified", "- a [doc:a]"),
    ("item-numbered", CIT, "Steps:\n1. First [doc:a]\n2. Second [doc:z]\n3. Third [doc:a]", "modified",
     "Steps:\n1. First [doc:a]\n3. Third [doc:a]"),
    ("item-star-crlf", CIT, "Intro [doc:a].\r\n* y [doc:z]\r\n* c [doc:a]\r\n", "modified",
     "Intro [doc:a].\r\n* c [doc:a]\r\n"),
    ("item-between-blanks", CIT, "Intro [doc:a].\n\n- y [doc:z]\n\nOutro [doc:a].", "modified",
     "Intro [doc:a].\n\nOutro [doc:a]."),
    # -- Sources lines take their line break; a Sources heading whose lines all go, goes too
    ("sources-line", CIT, "Answer [doc:a].\n\nSources:\n- [doc:a] HR\n- [doc:z] FAQ", "modified",
     "Answer [doc:a].\n\nSources:\n- [doc:a] HR"),
    ("sources-line-middle", CIT, "Answer [doc:a].\n\nSources:\n- [doc:a] HR\n- [doc:z] FAQ\n- [doc:a] More",
     "modified", "Answer [doc:a].\n\nSources:\n- [doc:a] HR\n- [doc:a] More"),
    ("sources-all-gone", CIT, "Answer [doc:a].\n\nSources:\n- [doc:z] FAQ", "modified", "Answer [doc:a]."),
    ("sources-all-gone-md", CIT, "Answer [doc:a].\n\n## Sources\n- [doc:z] FAQ\n- [doc:y] FAQ", "modified",
     "Answer [doc:a]."),
    ("sources-all-gone-bold", CIT, "Answer [doc:a].\n\n**Sources**\n- [doc:z] FAQ", "modified", "Answer [doc:a]."),
    ("sources-all-gone-text-after", CIT, "Answer [doc:a].\n\nSources:\n- [doc:z] FAQ\n\nMore [doc:a].", "modified",
     "Answer [doc:a].\n\nMore [doc:a]."),
    ("sources-inline", CIT, "Answer [doc:a].\nSources: [doc:z]", "modified", "Answer [doc:a]."),
    ("sources-inline-all-invalid", CIT, "Answer [doc:a].\nSources: [doc:z], [doc:y]", "modified", "Answer [doc:a]."),
    # -- unauthorized with strip: the whole statement, even with a valid citation in it
    ("unauth-strip", CIT_STRIP, "Two [doc:a]. Three [doc:a] [doc:b].", "modified", "Two [doc:a]."),
    ("unauth-strip-sources-line", CIT_STRIP, "Two [doc:a].\n\nSources:\n- [doc:a]\n- [doc:b]", "modified",
     "Two [doc:a].\n\nSources:\n- [doc:a]"),
    # -- redact replaces only the matched characters
    ("redact", TERMS, "Ask Falcon now.", "modified", "Ask [redacted] now."),
    ("redact-two", TERMS, "Ask Falcon and project  osprey.", "modified", "Ask [redacted] and [redacted]."),
    ("redact-zero-width", TERMS, "Ask Fal\u200bcon now.", "modified", "Ask [redacted] now."),
    ("redact-boundary", TERMS, "Falconry is an art.", "pass", "Falconry is an art."),
    ("redact-custom", {"banned_terms": {"terms": ["Falcon"], "replacement": "***"}}, "Ask Falcon now.", "modified",
     "Ask *** now."),
    ("redact-overlap-union", {"banned_terms": {"terms": ["Project Falcon", "Falcon Nest"]}},
     "See Project Falcon Nest today.", "modified", "See [redacted] today."),
    # -- strip on a banned term or a located instruction removes the statement
    ("term-strip", TERMS_STRIP, "Ask Falcon now. Other thing.", "modified", "Other thing."),
    ("term-strip-only-statement", TERMS_STRIP, "Ask Falcon now.", "blocked", BLOCKED),
    ("term-strip-code-block", TERMS_STRIP, "Intro text.\n```\nFalcon code\n```\nOutro text.", "modified",
     "Intro text.\nOutro text."),
    ("term-strip-code-between-blanks", TERMS_STRIP, "Intro text.\n\n```\nFalcon code\n```\n\nOutro text.",
     "modified", "Intro text.\n\nOutro text."),
    ("term-strip-crlf-line", TERMS_STRIP, "Intro text.\r\nFalcon here.\r\nOutro text.", "modified",
     "Intro text.\r\nOutro text."),
    ("term-strip-crlf-end-of-line", TERMS_STRIP, "Intro text. Falcon here.\r\nOutro text.", "modified",
     "Intro text.\r\nOutro text."),
    ("todo-strip", {"instructions": {"must_not_match": ["TODO"], "on_violation": "strip"}},
     "One thing. TODO fix. Three thing.", "modified", "One thing. Three thing."),
    ("emoji-strip", {"instructions": {"no_emoji": True, "on_violation": "strip"}},
     "One thing \U0001f389. Three thing.", "modified", "Three thing."),
    ("quote-strip", {"quotes": {"on_unverified": "strip"}},
     'It says "twenty-five days guaranteed" [doc:a]. Leave is annual [doc:a].', "modified",
     "Leave is annual [doc:a]."),
    ("coverage-strip", COV_STRIP, "Hi! One [doc:a]. Two. Is it? Thanks!", "modified",
     "Hi! One [doc:a]. Is it? Thanks!"),
    # -- after a strip, nothing but exempt statements left: blocked
    ("left-greeting", CIT, "Hi! Two [doc:z].", "blocked", BLOCKED),
    ("left-heading", CIT, "# Heading\nTwo [doc:z].", "blocked", BLOCKED),
    ("left-question", CIT, "Is that right? Two [doc:z].", "blocked", BLOCKED),
    ("left-sources", CIT, "Two [doc:z].\nSources: [doc:a]", "blocked", BLOCKED),
    ("left-sources-section", CIT, "Two [doc:z].\n\nSources:\n- [doc:a] HR handbook", "blocked", BLOCKED),
    ("left-colon-heading", CIT, "Here it is:\n- Two [doc:z]", "blocked", BLOCKED),
    ("left-nothing", CIT, "Leave is 25 days [doc:z].", "blocked", BLOCKED),
    ("left-only-markers", CIT, "[doc:a]\nTwo [doc:z].", "blocked", BLOCKED),
    # -- precedence: block > strip > redact > flag
    ("block-beats-strip", CIT, "One [doc:a]. Two [doc:z]. Three [doc:b].", "blocked", BLOCKED),
    ("block-beats-redact", {**CIT, **TERMS}, "Ask Falcon now [doc:a]. Three [doc:b].", "blocked", BLOCKED),
    ("strip-beats-redact", {**CIT, **TERMS}, "Ask Falcon [doc:z] now. More [doc:a].", "modified", "More [doc:a]."),
    ("strip-and-redact", {**CIT, **TERMS}, "Ask Falcon now [doc:a]. Three [doc:z].", "modified",
     "Ask [redacted] now [doc:a]."),
    ("redact-beats-flag", {**TERMS, "citations": {"on_hallucinated": "flag"}}, "Ask Falcon now [doc:z].",
     "modified", "Ask [redacted] now [doc:z]."),
    ("flag-only", {"citations": {"on_hallucinated": "flag"}}, "Two [doc:z].", "pass", "Two [doc:z]."),
    ("flag-only-many", {"citations": {"on_hallucinated": "flag", "on_unauthorized": "flag", "coverage": "flag"},
                        "banned_terms": {"terms": ["Falcon"], "on_match": "flag"}},
     "Falcon [doc:z]. Two [doc:b].", "pass", "Falcon [doc:z]. Two [doc:b]."),
    ("nothing-found", CIT, "Leave is 25 days [doc:a].", "pass", "Leave is 25 days [doc:a]."),
    # -- strip on a document-level instruction or a schema means block
    ("max-words-strip", {"instructions": {"max_words": 3, "on_violation": "strip"}}, "one two three four.",
     "blocked", BLOCKED),
    ("min-bullets-strip", {"instructions": {"min_bullets": 2, "on_violation": "strip"}}, "- one", "blocked", BLOCKED),
    ("must-match-strip", {"instructions": {"must_match": ["Sources"], "on_violation": "strip"}}, "No list here.",
     "blocked", BLOCKED),
    ("schema-strip", {"schema": {"json_schema": {"type": "object"}, "on_invalid": "strip"}}, "[1, 2]",
     "blocked", BLOCKED),
    ("max-words-flag", {"instructions": {"max_words": 3}}, "one two three four.", "pass", "one two three four."),
    # -- a custom blocked message
    ("blocked-message", {**CIT, "blocked_message": "Nope."}, "Two [doc:z].", "blocked", "Nope."),
]


@pytest.mark.parametrize(("policy", "output", "decision", "expected"), [row[1:] for row in EDITS],
                         ids=[row[0] for row in EDITS])
def test_edits(policy: dict[str, Any], output: str, decision: str, expected: str) -> None:
    verdict = run(policy, output)
    assert (verdict.decision.value, verdict.output) == (decision, expected)


@pytest.mark.parametrize(("policy", "output"), [row[1:3] for row in EDITS if row[3] == "modified"],
                         ids=[row[0] for row in EDITS if row[3] == "modified"])
def test_edits_leave_no_double_spaces_or_dangling_list_markers(policy: dict[str, Any], output: str) -> None:
    result = run(policy, output).output
    if "  " not in output:
        assert "  " not in result
    for line in result.splitlines():
        assert line.strip() not in {"-", "*", "+", "•", "1.", "2.", "3."}


@pytest.mark.parametrize("row", [row for row in EDITS if row[3] == "modified"], ids=lambda row: row[0])
def test_modified_output_is_a_fixed_point(row: tuple[Any, ...]) -> None:
    _, policy, output, _, _ = row
    guard = Guard.from_dict(policy)
    first = guard.check(output, SOURCES, [])
    again = guard.check(first.output, SOURCES, [])
    assert again.decision is Decision.PASS
    assert again.output == first.output


def test_blocked_output_is_exactly_the_blocked_message() -> None:
    verdict = run({**CIT, "blocked_message": "  custom  "}, "Two [doc:b].")
    assert verdict.output == "  custom  "
    assert verdict.decision is Decision.BLOCKED


def test_findings_refer_to_the_original_text() -> None:
    output = "Ask Falcon now [doc:a]. Three [doc:z]."
    verdict = run({**CIT, **TERMS}, output)
    assert verdict.decision is Decision.MODIFIED
    spans = sorted((output[f.start:f.end], f.label) for f in verdict.findings)
    assert spans == [("Falcon", Label.BANNED_TERM), ("[doc:z]", Label.HALLUCINATED_SOURCE)]


def test_decision_pass_keeps_flags() -> None:
    verdict = run({"citations": {"coverage": "flag"}}, "Leave is 25 days.")
    assert verdict.decision is Decision.PASS
    assert verdict.output == "Leave is 25 days."
    assert [(f.label, f.action) for f in verdict.findings] == [(Label.UNCITED_CLAIM, Action.FLAG)]


@pytest.mark.parametrize(
    ("instructions", "output"),
    [
        ({"required_sections": ["Sources"]}, "Answer [doc:a].\n\nSources:\n- [doc:z] FAQ"),
        ({"min_bullets": 2}, "Facts [doc:a]:\n- one [doc:a]\n- two [doc:z]"),
        ({"must_match": [r"\[doc:"]}, "Leave is annual. Bad claim [doc:z]."),
        ({"min_words": 6}, "Leave is twenty days [doc:a]. Bad claim here [doc:z]."),
    ],
    ids=["required_sections", "min_bullets", "must_match", "min_words"],
)
def test_blocking_document_rules_hold_for_the_edited_output(instructions: dict[str, Any], output: str) -> None:
    # A document-level rule with `block` passes on the original; the strip then removes what satisfied it. The user
    # must not receive an output that a blocking rule of the policy rejects.
    guard = Guard.from_dict({**CIT, "instructions": {**instructions, "on_violation": "block"}})
    first = guard.check(output, SOURCES, [])
    assert first.decision is not Decision.PASS
    again = guard.check(first.output, SOURCES, [])
    assert first.decision is Decision.BLOCKED or again.decision is Decision.PASS, (first.output, again.findings)


# ------------------------------------------------------------------------------------------------------ fail modes

REDOS = "(a|aa)+$"
EVIL = "a" * 40 + "b"


@pytest.mark.parametrize(
    ("fail_mode", "decision", "action"),
    [("closed", Decision.BLOCKED, Action.BLOCK), ("open", Decision.PASS, Action.FLAG)],
)
@pytest.mark.parametrize("rule", ["must_not_match", "must_match"])
def test_catastrophic_user_regex_is_a_guard_error(fail_mode: str, decision: Decision, action: Action,
                                                  rule: str) -> None:
    guard = Guard.from_dict({"instructions": {rule: [REDOS]}, "fail_mode": fail_mode, "budget_ms": 20})
    started = time.perf_counter()
    verdict = guard.check(EVIL)
    assert time.perf_counter() - started < 2.0
    assert verdict.decision is decision
    assert verdict.output == (BLOCKED if fail_mode == "closed" else EVIL)
    [finding] = verdict.findings
    assert (finding.check, finding.label, finding.action) == ("guard", Label.GUARD_ERROR, action)
    assert (finding.start, finding.end) == (0, len(EVIL))
    assert "timed out" in finding.message


@pytest.mark.parametrize(
    ("fail_mode", "decision"), [("closed", Decision.BLOCKED), ("open", Decision.PASS)],
)
def test_catastrophic_citation_pattern_is_a_guard_error(fail_mode: str, decision: Decision) -> None:
    guard = Guard.from_dict({"citations": {"pattern": r"\[(?P<id>(a|aa)+)\]$"}, "fail_mode": fail_mode,
                             "budget_ms": 20})
    verdict = guard.check("[" + EVIL)
    assert verdict.decision is decision
    assert [f.label for f in verdict.findings] == [Label.GUARD_ERROR]


def test_fail_mode_defaults_to_closed() -> None:
    verdict = Guard.from_dict({"instructions": {"must_not_match": [REDOS]}, "budget_ms": 20}).check(EVIL)
    assert verdict.decision is Decision.BLOCKED
    assert verdict.findings[-1].action is Action.BLOCK


@pytest.mark.parametrize(
    ("fail_mode", "decision", "action"),
    [("closed", Decision.BLOCKED, Action.BLOCK), ("open", Decision.PASS, Action.FLAG)],
)
def test_latency_budget_running_out_is_a_guard_error(fail_mode: str, decision: Decision, action: Action) -> None:
    policy = {
        "banned_terms": {"terms": ["zzz"], "on_match": "flag"},
        "instructions": {"max_words": 1000, "must_not_match": ["x+y+z+"]},
        "fail_mode": fail_mode,
        "budget_ms": 1e-6,
    }
    output = "Plain words only. " * 200
    verdict = Guard.from_dict(policy).check(output)
    errors = [f for f in verdict.findings if f.label is Label.GUARD_ERROR]
    assert errors, verdict.findings
    assert all(f.action is action and (f.start, f.end) == (0, len(output)) for f in errors)
    assert verdict.decision is decision
    assert verdict.output == (BLOCKED if fail_mode == "closed" else output)


def test_guard_error_open_still_applies_other_findings() -> None:
    guard = Guard.from_dict({**TERMS, "instructions": {"must_not_match": [REDOS]}, "fail_mode": "open",
                             "budget_ms": 20})
    output = "Ask Falcon now. " + EVIL
    verdict = guard.check(output)
    assert Label.GUARD_ERROR in [f.label for f in verdict.findings]
    assert "Falcon" not in verdict.output
    assert verdict.decision is Decision.MODIFIED


def test_guard_error_message_does_not_echo_the_output() -> None:
    guard = Guard.from_dict({"instructions": {"must_not_match": [REDOS]}, "budget_ms": 20})
    verdict = guard.check(EVIL)
    assert "aaaa" not in verdict.findings[0].message


def test_elapsed_is_recorded_and_not_compared() -> None:
    guard = Guard.from_dict(CIT)
    first, second = guard.check("One [doc:a].", SOURCES), guard.check("One [doc:a].", SOURCES)
    assert first.elapsed_us > 0
    assert first == second


def test_the_recheck_sees_where_the_edits_landed() -> None:
    from guardrail.checks.base import Turn
    from guardrail.engine import landed, merge_edits

    assert landed(merge_edits([(10, 12, ""), (2, 4, "[x]"), (20, 21, "")])) == [(2, 5), (11, 11), (19, 19)]
    seen: list[Any] = []
    guard = Guard.from_dict(CIT)
    check = guard.compiled.checks[0]
    original = check.recheck

    def spy(turn: Turn) -> Any:
        seen.append((turn.output, turn.edited_at))
        return original(turn)

    check.recheck = spy  # type: ignore[method-assign]
    assert guard.check("One [doc:a]. Two [doc:z]. Three [doc:a].", SOURCES).output == "One [doc:a]. Three [doc:a]."
    assert seen[-1] == ("One [doc:a]. Three [doc:a].", [(13, 13)])  # (run() went through recheck too)
    assert seen[0][1] is None


def test_a_join_made_by_an_edit_is_checked_again() -> None:
    # Removing the hallucinated marker (with the space before it) joins "fin" and "-9": the invisible ID appears.
    sources = [*SOURCES, {"id": "fin-9", "text": "Closure plans.", "roles": ["board"]}]
    verdict = run({"citations": {}}, "See fin [doc:z]-9 now [doc:a].", sources)
    assert verdict.decision is Decision.BLOCKED
    assert [f.message for f in verdict.findings][-1].endswith("(in the edited output)")
