"""The quotes section (CONTRACT sections 1-3, "Quotes")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guardrail import Guard
from guardrail.models import Action, Decision, Label
from guardrail.text import normalize

LEAVE = "Staff receive an annual leave allowance of twenty-five days per calendar year."
REMOTE = "Remote work requires written approval from the employee's line manager."
SECRET = "The merger with Acme Corporation closes on the first of June."
SOURCES: list[dict[str, Any]] = [
    {"id": "leave", "text": LEAVE},
    {"id": "remote", "text": REMOTE, "roles": ["employee"]},
    {"id": "secret", "text": SECRET, "roles": ["exec"]},
    {"id": "sealed", "text": "Nobody may read the sealed board minutes.", "roles": []},
]
EMPLOYEE = ["employee"]
BLOCKED = "Sorry, I can't share that answer."


def make_guard(**quotes: Any) -> Guard:
    return Guard.from_dict({"quotes": quotes})


def unverified(output: str, sources: list[dict[str, Any]] | None = None, roles: list[str] | None = None,
               **quotes: Any) -> list[str]:
    """The text each UNVERIFIED_QUOTE finding covers."""
    verdict = make_guard(**quotes).check(output, SOURCES if sources is None else sources, EMPLOYEE
                                         if roles is None else roles)
    assert all(f.label is Label.UNVERIFIED_QUOTE for f in verdict.findings)
    return [output[f.start:f.end] for f in verdict.findings]


# --------------------------------------------------------------------------------------------------- what a quote is


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        pytest.param('HR says "annual leave allowance of twenty-five days".', [], id="straight, verified"),
        pytest.param("HR says “annual leave allowance of twenty-five days”.", [], id="curly, verified"),
        pytest.param('HR says "annual leave allowance of thirty days".', ['"annual leave allowance of thirty days"'],
                     id="straight, unverified"),
        pytest.param("HR says “annual leave allowance of thirty days”.", ["“annual leave allowance of thirty days”"],
                     id="curly, unverified"),
        pytest.param("HR says 'annual leave allowance of thirty days'.", [], id="single quotes are not quotations"),
        pytest.param("HR says ‘annual leave allowance of thirty days’.", [],
                     id="curly single quotes are not quotations"),
        pytest.param('A "made up" B "annual leave allowance of thirty days" C "twenty-five days".',
                     ['"annual leave allowance of thirty days"'], id="only the failing quotation of several"),
        pytest.param('One "annual leave allowance of thirty days". Two “written approval from the CEO”.',
                     ['"annual leave allowance of thirty days"', "“written approval from the CEO”"],
                     id="one finding per quotation"),
    ],
)
def test_quotations(output: str, expected: list[str]) -> None:
    assert unverified(output) == expected


@pytest.mark.parametrize(
    ("quoted", "checked"),
    [
        pytest.param("invented te", False, id="11 characters"),
        pytest.param("invented tex", True, id="12 characters"),
        pytest.param("invented text of some length", True, id="longer"),
        pytest.param("in  ve  nt  ed", True, id="14 as written, 10 once normalised"),
        pytest.param("\ufb01ctional xy", False, id="11 as written, 12 once normalised"),
        pytest.param("ＦＩＣＴＩＯＮＡＬ ｘｙ", True, id="full-width, 12 as written"),
    ],
)
def test_min_chars_counts_the_text_as_written(quoted: str, checked: bool) -> None:
    output = f'HR says "{quoted}" today.'
    assert unverified(output) == ([f'"{quoted}"'] if checked else [])


@pytest.mark.parametrize(
    ("min_chars", "quoted", "checked"),
    [(5, "four", False), (5, "fives", True), (5, "made up", True), (40, "this made-up quotation is short", False)],
)
def test_min_chars_option(min_chars: int, quoted: str, checked: bool) -> None:
    output = f'HR says "{quoted}" today.'
    assert unverified(output, min_chars=min_chars) == ([f'"{quoted}"'] if checked else [])


# --------------------------------------------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    ("source", "quoted"),
    [
        pytest.param(LEAVE, "ANNUAL LEAVE ALLOWANCE OF TWENTY-FIVE DAYS", id="case"),
        pytest.param(LEAVE, "Annual Leave Allowance", id="title case"),
        pytest.param(REMOTE, "the employee’s line manager", id="curly apostrophe in the quote"),
        pytest.param("It is the employee’s duty to ask.", "the employee's duty to ask", id="curly in the source"),
        pytest.param(LEAVE, "allowance of twenty–five days", id="en dash"),
        pytest.param(LEAVE, "allowance of twenty—five days", id="em dash"),
        pytest.param("Leave of twenty–five days.", "leave of twenty-five days", id="dash in the source"),
        pytest.param(LEAVE, "annual   leave\tallowance", id="whitespace runs in the quote"),
        pytest.param("An annual\n  leave\r\nallowance applies.", "annual leave allowance",
                     id="whitespace in the source"),
        pytest.param(LEAVE, "ＡＮＮＵＡＬ leave allowance", id="full-width in the quote"),
        pytest.param("The \ufb01nal decision rests with HR.", "final decision rests", id="ligature in the source"),
        pytest.param(LEAVE, "annual leave allow\u200bance", id="zero-width character in the quote"),
        pytest.param("Die Straße ist gesperrt worden.", "STRASSE IST GESPERRT", id="case folding"),
    ],
)
def test_normalisation_verifies(source: str, quoted: str) -> None:
    output = f'HR says "{quoted}".'
    assert unverified(output, [{"id": "s", "text": source}]) == []


@pytest.mark.parametrize(
    "quoted",
    [
        pytest.param("annual leave allowance of twenty five days", id="a dash is not a space"),
        pytest.param("annual leave allowances of twenty-five", id="an extra letter"),
        pytest.param("annual holiday allowance", id="another word"),
        pytest.param("leave annual allowance", id="word order"),
    ],
)
def test_near_misses_are_unverified(quoted: str) -> None:
    output = f'HR says "{quoted}".'
    assert unverified(output, [{"id": "leave", "text": LEAVE}]) == [f'"{quoted}"']


# --------------------------------------------------------------------------------------------------- ellipsis gaps


@pytest.mark.parametrize(
    ("quoted", "verified"),
    [
        pytest.param("annual leave allowance ... per calendar year", True, id="three dots"),
        pytest.param("annual leave allowance … per calendar year", True, id="ellipsis character"),
        pytest.param("annual leave allowance…per calendar year", True, id="no spaces around"),
        pytest.param("Staff receive ... annual leave ... calendar year", True, id="two gaps"),
        pytest.param("... leave allowance of twenty-five days", True, id="leading"),
        pytest.param("leave allowance of twenty-five days ...", True, id="trailing"),
        pytest.param("per calendar year ... annual leave allowance", False, id="out of order"),
        pytest.param("annual leave allowance ... per fiscal year", False, id="a piece not found"),
        pytest.param("annual leave allowance ... line manager", False, id="pieces from two sources"),
        pytest.param("Remote work requires … twenty-five days", False, id="pieces from two sources, ellipsis"),
    ],
)
def test_ellipsis_gaps(quoted: str, verified: bool) -> None:
    output = f'HR says "{quoted}".'
    assert unverified(output) == ([] if verified else [f'"{quoted}"'])


def test_ellipsis_pieces_from_two_cited_sources_fail() -> None:
    output = 'HR says "annual leave allowance ... line manager" [doc:leave][doc:remote].'
    assert unverified(output) == ['"annual leave allowance ... line manager"']


# --------------------------------------------------------------------------------------------------- allowed sources


@pytest.mark.parametrize(
    ("output", "roles", "verified"),
    [
        # the statement cites valid, visible sources: only those
        pytest.param('HR says "annual leave allowance" [doc:leave].', EMPLOYEE, True, id="cited source"),
        pytest.param('HR says "annual leave allowance" [doc:remote].', EMPLOYEE, False, id="another cited source"),
        pytest.param('HR says "annual leave allowance" [doc:remote][doc:leave].', EMPLOYEE, True,
                     id="one of two cited sources"),
        pytest.param('HR says [doc:leave] "annual leave allowance".', EMPLOYEE, True, id="citation before the quote"),
        pytest.param('HR says "annual leave allowance". [doc:leave]', EMPLOYEE, True,
                     id="citation after the final punctuation"),
        pytest.param('HR says "annual leave allowance" [doc:leave][doc:nope].', EMPLOYEE, True,
                     id="valid and hallucinated: the valid one"),
        pytest.param('HR says "annual leave allowance" [doc:remote][doc:nope].', EMPLOYEE, False,
                     id="valid and hallucinated: only the valid one"),
        pytest.param('HR says "merger with Acme Corporation" [doc:leave][doc:secret].', EMPLOYEE, False,
                     id="valid and invisible: not the invisible one"),
        # the statement cites nothing: every visible source
        pytest.param('HR says "annual leave allowance".', EMPLOYEE, True, id="uncited, public source"),
        pytest.param('HR says "written approval from the".', EMPLOYEE, True, id="uncited, visible by role"),
        pytest.param('HR says "written approval from the".', [], False, id="uncited, not visible without the role"),
        pytest.param('HR says "annual leave allowance". Other claim [doc:remote].', EMPLOYEE, True,
                     id="a citation in another statement does not restrict"),
        pytest.param('HR says "annual leave allowance".\n- item [doc:remote]', EMPLOYEE, True,
                     id="a citation on another line does not restrict"),
        # the statement cites only invalid IDs: none
        pytest.param('HR says "annual leave allowance" [doc:nope].', EMPLOYEE, False, id="only a hallucinated ID"),
        pytest.param('HR says "annual leave allowance" [doc:Leave].', EMPLOYEE, False,
                     id="IDs are case-sensitive"),
        pytest.param('HR says "annual leave allowance" [doc:secret].', EMPLOYEE, False, id="only an invisible ID"),
        pytest.param('HR says "annual leave allowance" [doc:sealed].', ["exec", "employee"], False,
                     id="only a source visible to nobody"),
        # never an invisible source
        pytest.param('HR says "merger with Acme Corporation".', EMPLOYEE, False, id="uncited, invisible source"),
        pytest.param('HR says "merger with Acme Corporation".', [], False, id="uncited, no roles"),
        pytest.param('HR says "merger with Acme Corporation".', ["exec"], True, id="uncited, the caller may see it"),
        pytest.param('HR says "merger with Acme Corporation" [doc:secret].', EMPLOYEE, False,
                     id="cited invisible source"),
        pytest.param('HR says "merger with Acme Corporation" [doc:secret].', ["exec"], True,
                     id="cited, the caller may see it"),
        pytest.param('HR says "the sealed board minutes".', ["exec", "employee"], False,
                     id="a source with no roles is visible to nobody"),
    ],
)
def test_allowed_sources(output: str, roles: list[str], verified: bool) -> None:
    quotation = output[output.index('"'):output.index('"', output.index('"') + 1) + 1]
    assert unverified(output, roles=roles) == ([] if verified else [quotation])


def test_no_sources_at_all_means_unverified() -> None:
    output = 'HR says "annual leave allowance of twenty-five days".'
    for sources in (None, []):
        verdict = make_guard().check(output, sources, EMPLOYEE)
        assert [f.label for f in verdict.findings] == [Label.UNVERIFIED_QUOTE]


def test_an_invisible_passage_sharing_a_visible_id_is_not_quotable() -> None:
    sources = [{"id": "hr", "text": LEAVE}, {"id": "hr", "text": SECRET, "roles": ["exec"]}]
    for output in ('HR says "merger with Acme Corporation" [doc:hr].', 'HR says "merger with Acme Corporation".'):
        assert unverified(output, sources, EMPLOYEE) == ['"merger with Acme Corporation"']
        assert unverified(output, sources, ["exec"]) == []
    assert unverified('HR says "annual leave allowance" [doc:hr].', sources, EMPLOYEE) == []


def test_the_citation_pattern_of_the_policy_finds_the_markers() -> None:
    citations = {"pattern": r"\[\[(?P<id>[\w-]+)\]\]", "on_hallucinated": "flag"}
    guard = Guard.from_dict({"quotes": {}, "citations": citations})
    good = guard.check('HR says "annual leave allowance" [[leave]].', SOURCES, EMPLOYEE)
    bad = guard.check('HR says "annual leave allowance" [[remote]].', SOURCES, EMPLOYEE)
    assert good.findings == []
    assert [f.label for f in bad.findings] == [Label.UNVERIFIED_QUOTE]


def test_a_citation_marker_inside_the_quotation_is_not_quoted_text() -> None:
    output = 'HR says "annual leave [doc:leave] allowance of twenty-five days".'
    assert unverified(output) == []


@pytest.mark.parametrize("group", ["[doc:leave, doc:remote]", "[DOC: leave; remote]", "[doc:leave,remote]",
                                   "[Doc: remote, DOC: leave]"])
def test_a_whole_marker_group_inside_the_quotation_is_not_quoted_text(group: str) -> None:
    assert unverified(f'HR says "annual leave {group} allowance of twenty-five days".') == []


@pytest.mark.parametrize(("cited", "verified"), [
    ("[doc:remote, doc:leave]", True),
    ("[DOC: remote; leave]", True),
    ("[doc: remote]", False),
    ("[doc:remote, doc:nope]", False),
    ("[doc:nope, doc:secret]", False),
])
def test_grouped_citations_choose_the_allowed_sources(cited: str, verified: bool) -> None:
    output = f'HR says "annual leave allowance" {cited}.'
    assert (unverified(output) == []) is verified


# --------------------------------------------------------------------------------------------------- findings, actions


def test_finding_covers_the_quotation_with_its_marks() -> None:
    output = "😀 e\u0301 HR says “annual leave allowance of thirty days” [doc:leave]."
    verdict = make_guard().check(output, SOURCES, EMPLOYEE)
    (finding,) = verdict.findings
    start = output.index("“")
    assert (finding.start, finding.end) == (start, output.index("”") + 1)
    assert (finding.check, finding.label, finding.action) == ("quotes", Label.UNVERIFIED_QUOTE, Action.BLOCK)


INVISIBLE_QUOTE = (
    'Leave is generous [doc:leave]. The memo says "merger with Acme Corporation closes". Ask HR [doc:leave].'
)


@pytest.mark.parametrize(
    ("action", "decision", "expected"),
    [
        ("flag", Decision.PASS, INVISIBLE_QUOTE),
        ("strip", Decision.MODIFIED, "Leave is generous [doc:leave]. Ask HR [doc:leave]."),
        ("block", Decision.BLOCKED, BLOCKED),
    ],
)
def test_actions(action: str, decision: Decision, expected: str) -> None:
    verdict = make_guard(on_unverified=action).check(INVISIBLE_QUOTE, SOURCES, EMPLOYEE)
    assert (verdict.decision, verdict.output) == (decision, expected)
    assert [(f.label, f.action) for f in verdict.findings] == [(Label.UNVERIFIED_QUOTE, Action(action))]


@pytest.mark.parametrize("action", ["strip", "block"])
@pytest.mark.parametrize(
    "output",
    [
        'The memo says "merger with Acme Corporation closes".',
        'Leave is generous. The memo says "merger with Acme Corporation closes" [doc:secret]. Done.',
        "Leave is generous.\n- “The merger with Acme Corporation” [doc:leave]\n- Ask HR.",
        'Leave is generous. The memo says "merger ... first of June". Done.',
    ],
)
def test_text_of_an_invisible_source_never_reaches_the_user(output: str, action: str) -> None:
    verdict = make_guard(on_unverified=action).check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is not Decision.PASS
    assert "acme" not in verdict.output.lower() and "june" not in verdict.output.lower()
    assert verdict.findings and all(f.message.lower().count("acme") == 0 for f in verdict.findings)


def test_default_action_is_block() -> None:
    verdict = make_guard().check('The memo says "merger with Acme Corporation closes".', SOURCES, EMPLOYEE)
    assert (verdict.decision, verdict.output) == (Decision.BLOCKED, BLOCKED)


def test_quote_inside_a_code_block_is_not_checked() -> None:
    output = 'Run this:\n```\nprint("a made-up quotation here")\n```'
    assert make_guard().check(output, SOURCES, EMPLOYEE).decision is Decision.PASS


# --------------------------------------------------------------------------------------------------- redacted quotes


@pytest.mark.parametrize("replacement", ["[redacted]", "█", "***"])
@pytest.mark.parametrize(
    "output",
    [
        'The memo says "the Project Falcon budget is approved for next year" [doc:memo].',
        "The memo says “the Project Falcon budget is approved for next year”.",
        'The memo says "the Project Falcon budget ... for next year" [doc:memo].',
        'The memo says "Project Falcon budget is approved" [doc:memo].',
        'The memo says "approved for next year, says Project Falcon" [doc:memo].',
    ],
)
def test_a_redacted_quote_verifies_when_checked_again(output: str, replacement: str) -> None:
    memo = "Finance: the Project Falcon budget is approved for next year, says Project Falcon."
    sources = [{"id": "memo", "text": memo}]
    guard = Guard.from_dict({"quotes": {}, "banned_terms": {"terms": ["Project Falcon"], "replacement": replacement}})
    first = guard.check(output, sources, [])
    assert first.decision is Decision.MODIFIED
    assert [f.label for f in first.findings] == [Label.BANNED_TERM]
    assert replacement in first.output and "Falcon" not in first.output
    second = guard.check(first.output, sources, [])
    assert (second.decision, second.output, second.findings) == (Decision.PASS, first.output, [])


def test_a_replacement_gap_does_not_excuse_a_wrong_quote() -> None:
    sources = [{"id": "memo", "text": "Finance: the Project Falcon budget is approved for next year."}]
    guard = Guard.from_dict({"quotes": {}, "banned_terms": {"terms": ["Project Falcon"]}})
    verdict = guard.check('The memo says "the [redacted] budget is rejected for next year" [doc:memo].', sources, [])
    assert [f.label for f in verdict.findings] == [Label.UNVERIFIED_QUOTE]
    assert verdict.decision is Decision.BLOCKED


# --------------------------------------------------------------------------------------------------- properties

WORDS = LEAVE.rstrip(".").split()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(WORDS) - 1), st.integers(1, len(WORDS)), st.sampled_from(['"{}"', "“{}”"]),
       st.sampled_from([str, str.upper, str.lower, str.title]), st.sampled_from([" ", "  ", "\u00a0", " \u200b"]))
def test_any_span_of_a_visible_source_verifies(start: int, length: int, marks: str, case: Any, space: str) -> None:
    quoted = case(space.join(WORDS[start:start + length]))
    output = "HR says " + marks.format(quoted) + " [doc:leave]."
    assert unverified(output) == []


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SECRET.split()) - 3), st.integers(3, 8), st.sampled_from(["", " [doc:secret]",
                                                                                   " [doc:leave]"]))
def test_no_span_of_an_invisible_source_verifies(start: int, length: int, marker: str) -> None:
    quoted = " ".join(SECRET.rstrip(".").split()[start:start + length])
    if len(quoted) < 12 or normalize(quoted) in normalize(LEAVE + " " + REMOTE):
        return
    output = f'Fine. The memo says "{quoted}"{marker}. Ask HR.'
    verdict = make_guard().check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED and quoted not in verdict.output
