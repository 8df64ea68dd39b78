"""The citations check (CONTRACT sections 1-3): hallucinated and unauthorized IDs, visibility, coverage."""

from __future__ import annotations

from typing import Any

import pytest

from guardrail import Action, Decision, Guard, Label, Source

BLOCKED = "Sorry, I can't share that answer."

# One retrieved set for most tests; the caller's roles decide what is visible.
SOURCES: list[dict[str, Any]] = [
    {"id": "pub", "text": "Laptops are replaced every three years.", "roles": None},
    {"id": "absent", "text": "Roles key left out: visible to everyone."},
    {"id": "hr-12", "text": "Employees receive 25 days of paid annual leave.", "roles": ["employee", "hr"]},
    {"id": "fin-9", "text": "The Berlin office will close in March.", "roles": ["finance-leads"]},
    {"id": "sealed", "text": "Visible to nobody at all.", "roles": []},
    {"id": "Doc-A", "text": "An upper-case ID."},
]


def check(output: str, policy: dict[str, Any] | None = None, sources: Any = SOURCES, roles: Any = ("employee",)):
    return Guard.from_dict({"citations": policy or {}}).check(output, sources, list(roles))


def labelled(verdict, output: str) -> list[tuple[str, str]]:
    return [(f.label.value, output[f.start:f.end]) for f in verdict.findings]


# --------------------------------------------------------------------------------- hallucinated vs unauthorized

H, U = "HALLUCINATED_SOURCE", "UNAUTHORIZED_SOURCE"


@pytest.mark.parametrize(
    ("cited", "roles", "expected"),
    [
        # roles null: visible to every caller, with or without roles
        ("pub", [], []),
        ("pub", ["employee"], []),
        # roles key absent: same as null
        ("absent", [], []),
        ("absent", ["someone"], []),
        # a list: the caller needs at least one of the roles
        ("hr-12", ["employee"], []),
        ("hr-12", ["hr"], []),
        ("hr-12", ["intern", "hr"], []),
        ("hr-12", ["intern"], [U]),
        ("hr-12", [], [U]),
        ("fin-9", ["employee"], [U]),
        ("fin-9", ["finance-leads"], []),
        # an empty list: visible to nobody, whatever the caller holds
        ("sealed", [], [U]),
        ("sealed", ["employee", "hr", "finance-leads", "admin"], [U]),
        # not retrieved at all
        ("nope", ["employee"], [H]),
        ("nope", [], [H]),
        # IDs compare exactly: case-sensitive, no normalisation of separators or whitespace
        ("Doc-A", [], []),
        ("doc-a", [], [H]),
        ("DOC-A", [], [H]),
        ("Doc_A", [], [H]),
        ("PUB", [], [H]),
        ("hr_12", ["employee"], [H]),
    ],
)
def test_cited_id_label(cited: str, roles: list[str], expected: list[str]) -> None:
    output = f"The answer is here [doc:{cited}]. Another claim [doc:pub]."
    # flag both so the labels are visible without the output changing
    verdict = check(output, {"on_hallucinated": "flag", "on_unauthorized": "flag"}, roles=roles)
    assert [f.label.value for f in verdict.findings] == expected
    for f in verdict.findings:
        assert output[f.start:f.end] == f"[doc:{cited}]"
        assert f.check == "citations"


def test_roles_key_absent_and_null_mean_visible_to_everyone() -> None:
    for source in ({"id": "x", "text": "t"}, {"id": "x", "text": "t", "roles": None}):
        verdict = check("Claim [doc:x].", sources=[source], roles=[])
        assert verdict.decision is Decision.PASS
        assert verdict.findings == []


def test_empty_roles_list_is_visible_to_nobody() -> None:
    verdict = check("Claim [doc:x].", sources=[{"id": "x", "text": "t", "roles": []}], roles=["x", "admin", "*"])
    assert [f.label for f in verdict.findings] == [Label.UNAUTHORIZED_SOURCE]
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == BLOCKED


def test_source_objects_are_accepted_like_mappings() -> None:
    sources = [Source("a", "text"), Source("b", "text", frozenset({"hr"}))]
    verdict = check("One [doc:a]. Two [doc:b].", {"on_unauthorized": "flag"}, sources=sources, roles=[])
    assert [(f.label, f.start) for f in verdict.findings] == [(Label.UNAUTHORIZED_SOURCE, 17)]


def test_duplicate_id_visible_through_any_copy() -> None:
    sources = [{"id": "x", "text": "secret copy", "roles": ["board"]}, {"id": "x", "text": "public copy"}]
    verdict = check("Claim [doc:x].", sources=sources, roles=[])
    assert verdict.decision is Decision.PASS
    assert verdict.findings == []


# --------------------------------------------------------------------------------------------- no sources at all


@pytest.mark.parametrize("sources", [None, [], ()], ids=["None", "empty-list", "empty-tuple"])
@pytest.mark.parametrize("cited", ["pub", "hr-12", "anything"])
def test_no_sources_every_citation_is_invalid(sources: Any, cited: str) -> None:
    output = f"Claim one [doc:{cited}]. Claim two [doc:{cited}]."
    verdict = check(output, {"on_hallucinated": "flag"}, sources=sources)
    assert [f.label for f in verdict.findings] == [Label.HALLUCINATED_SOURCE] * 2
    assert all("no sources were attached" in f.message for f in verdict.findings)


def test_no_sources_fails_closed_with_default_actions() -> None:
    verdict = check("You get 25 days of leave [doc:hr-12].", sources=None)
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == BLOCKED


def test_no_sources_and_no_roles_argument() -> None:
    verdict = Guard.from_dict({"citations": {"on_hallucinated": "flag"}}).check("Claim [doc:a].")
    assert [f.label for f in verdict.findings] == [Label.HALLUCINATED_SOURCE]


# ------------------------------------------------------------------------------------------- near-miss messages


@pytest.mark.parametrize(
    ("sources", "roles", "cited", "suggested", "never"),
    [
        # a visible near miss may be suggested
        ([{"id": "doc_12", "text": "t"}], [], "doc-12", "doc_12", []),
        ([{"id": "doc_12", "text": "t", "roles": ["fin"]}], ["fin"], "doc-12", "doc_12", []),
        ([{"id": "Report-2024", "text": "t"}], [], "report_2024", "Report-2024", []),
        # an invisible near miss is never named
        ([{"id": "doc_12", "text": "t", "roles": ["fin"]}], [], "doc-12", None, ["doc_12"]),
        ([{"id": "doc_12", "text": "t", "roles": []}], ["fin"], "doc-12", None, ["doc_12"]),
        ([{"id": "Report-2024", "text": "t", "roles": ["board"]}], ["staff"], "report-2024", None, ["Report-2024"]),
        # an invisible near miss next to an unrelated visible ID: neither the invisible one nor a bogus hint
        (
            [{"id": "merger-plan_7", "text": "t", "roles": ["board"]}, {"id": "zzz", "text": "t"}],
            ["staff"], "merger-plan-7", None, ["merger-plan_7", "merger"],
        ),
    ],
)
def test_near_miss_hint_names_only_visible_ids(
    sources: list[dict[str, Any]], roles: list[str], cited: str, suggested: str | None, never: list[str]
) -> None:
    verdict = check(f"Claim [doc:{cited}].", {"on_hallucinated": "flag"}, sources=sources, roles=roles)
    [finding] = verdict.findings
    assert finding.label is Label.HALLUCINATED_SOURCE
    if suggested is None:
        assert "did you mean" not in finding.message
    else:
        assert repr(suggested) in finding.message
    for hidden in never:
        assert hidden not in finding.message


def test_near_miss_is_still_invalid() -> None:
    verdict = check("Lost devices are reported within a day [doc:doc-12].", sources=[{"id": "doc_12", "text": "t"}])
    assert [f.label for f in verdict.findings] == [Label.HALLUCINATED_SOURCE]
    assert verdict.decision is Decision.BLOCKED


@pytest.mark.parametrize("secret", ["fin-9", "sealed", "board-merger-2024"])
def test_unauthorized_message_never_contains_the_id(secret: str) -> None:
    sources = [*SOURCES, {"id": "board-merger-2024", "text": "t", "roles": ["board"]}]
    verdict = check(f"Claim [doc:{secret}].", {"on_unauthorized": "flag"}, sources=sources)
    [finding] = verdict.findings
    assert finding.label is Label.UNAUTHORIZED_SOURCE
    assert secret not in finding.message
    assert "board" not in finding.message


def test_hallucinated_message_does_not_echo_the_cited_id() -> None:
    verdict = check("Claim [doc:totally-made-up].", {"on_hallucinated": "flag"})
    assert "totally-made-up" not in verdict.findings[0].message


# ------------------------------------------------------------------------------------------------ default actions


def test_default_actions() -> None:
    output = "One [doc:pub]. Two [doc:nope]. Three [doc:fin-9]."
    verdict = check(output)
    actions = {f.label: f.action for f in verdict.findings}
    assert actions == {Label.HALLUCINATED_SOURCE: Action.STRIP, Label.UNAUTHORIZED_SOURCE: Action.BLOCK}
    assert verdict.decision is Decision.BLOCKED


def test_coverage_is_off_by_default() -> None:
    verdict = check("An uncited claim. Another uncited claim.")
    assert verdict.findings == []
    assert verdict.decision is Decision.PASS


@pytest.mark.parametrize(
    ("policy", "output", "decision", "expected"),
    [
        ({}, "One [doc:pub]. Two [doc:nope].", "modified", "One [doc:pub]."),
        ({"on_hallucinated": "flag"}, "One [doc:pub]. Two [doc:nope].", "pass", "One [doc:pub]. Two [doc:nope]."),
        ({"on_hallucinated": "block"}, "One [doc:pub]. Two [doc:nope].", "blocked", BLOCKED),
        ({}, "One [doc:pub]. Two [doc:fin-9].", "blocked", BLOCKED),
        ({"on_unauthorized": "strip"}, "One [doc:pub]. Two [doc:fin-9].", "modified", "One [doc:pub]."),
        ({"on_unauthorized": "flag"}, "One [doc:pub]. Two [doc:fin-9].", "pass", "One [doc:pub]. Two [doc:fin-9]."),
        # unauthorized strip removes the whole statement even when it also cites a valid source
        ({"on_unauthorized": "strip"}, "One [doc:pub]. Two [doc:pub] [doc:fin-9].", "modified", "One [doc:pub]."),
    ],
)
def test_actions(policy: dict[str, Any], output: str, decision: str, expected: str) -> None:
    verdict = check(output, policy)
    assert verdict.decision.value == decision
    assert verdict.output == expected
    assert "fin-9" not in verdict.output or decision == "pass"


# ------------------------------------------------------------------------------------------------------- coverage

COVERAGE_SOURCES = [{"id": "a", "text": "Alpha."}, {"id": "b", "text": "Beta.", "roles": ["hr"]}]


@pytest.mark.parametrize(
    ("output", "uncited"),
    [
        ("Leave is 25 days [doc:a].", []),
        ("Leave is 25 days.", ["Leave is 25 days."]),
        # a marker after the final punctuation counts for the sentence
        ("Leave is 25 days. [doc:a]", []),
        ("Leave is 25 days. [doc:a] Carry-over is 5 days. [doc:a]", []),
        ("Leave is 25 days. [doc:a] [doc:a] Carry-over is 5 days.", ["Carry-over is 5 days."]),
        # a statement whose only citation is invalid is uncited
        ("Leave is 25 days [doc:nope].", ["Leave is 25 days [doc:nope]."]),
        ("Leave is 25 days [doc:b].", ["Leave is 25 days [doc:b]."]),
        ("Leave is 25 days [doc:A].", ["Leave is 25 days [doc:A]."]),
        ("Leave is 25 days [doc:nope] [doc:a].", []),
        # exempt: greetings and sign-offs of at most four words
        ("Hi! Leave is 25 days [doc:a].", []),
        ("Thanks!", []),
        ("Sure, here you go.", []),
        ("Hello there, my friend!", []),
        ("Hope this helps!", []),
        ("Hope this helps you a lot!", ["Hope this helps you a lot!"]),
        ("Thanks, the leave is 25 days.", ["Thanks, the leave is 25 days."]),
        ("Hi! Leave is 25 days.", ["Leave is 25 days."]),
        # exempt: questions
        ("Is that what you needed?", []),
        ("Do you want the details? Leave is 25 days [doc:a].", []),
        ("- Is it transferable?", []),
        # exempt: headings (Markdown, bold line, a short line ending in a colon)
        ("# Annual leave\nLeave is 25 days [doc:a].", []),
        ("### Annual leave", []),
        ("**Summary**\nLeave is 25 days [doc:a].", []),
        ("Title:", []),
        ("Here is what the handbook says about leave:", []),
        ("Here is what the handbook says about annual leave:", ["Here is what the handbook says about annual leave:"]),
        # exempt: Sources lines, inline or under a Sources heading
        ("Leave is 25 days [doc:a].\nSources: HR handbook", []),
        ("Leave is 25 days [doc:a].\n\nSources:\n- HR handbook\n- Leave FAQ", []),
        ("Leave is 25 days [doc:a].\n\n## References\n- HR handbook", []),
        # list items are statements of their own
        ("Facts:\n- Leave is 25 days [doc:a]\n- Carry-over is 5 days", ["- Carry-over is 5 days"]),
        # abbreviations and decimals do not end a sentence
        ("Dr. Smith approved version 2.5 of it [doc:a].", []),
        # a statement never spans a line break (text.py)
        ("Leave is 25 days\nas the handbook says [doc:a].", ["Leave is 25 days"]),
    ],
)
def test_coverage_statements(output: str, uncited: list[str]) -> None:
    verdict = check(output, {"coverage": "flag", "on_hallucinated": "flag", "on_unauthorized": "flag"},
                    sources=COVERAGE_SOURCES, roles=[])
    found = [output[f.start:f.end] for f in verdict.findings if f.label is Label.UNCITED_CLAIM]
    assert found == uncited
    assert all(f.action is Action.FLAG for f in verdict.findings)
    assert verdict.decision is Decision.PASS
    assert verdict.output == output


@pytest.mark.parametrize(
    ("coverage", "decision", "expected"),
    [
        ("off", "pass", "Hi! One [doc:a]. Two. Is it? Thanks!"),
        (False, "pass", "Hi! One [doc:a]. Two. Is it? Thanks!"),  # YAML reads a bare `off` as false
        ("flag", "pass", "Hi! One [doc:a]. Two. Is it? Thanks!"),
        ("strip", "modified", "Hi! One [doc:a]. Is it? Thanks!"),
        ("block", "blocked", BLOCKED),
    ],
)
def test_coverage_modes(coverage: Any, decision: str, expected: str) -> None:
    output = "Hi! One [doc:a]. Two. Is it? Thanks!"
    verdict = check(output, {"coverage": coverage}, sources=COVERAGE_SOURCES, roles=[])
    assert verdict.decision.value == decision
    assert verdict.output == expected
    uncited = [(output[f.start:f.end], f.action.value) for f in verdict.findings]
    assert uncited == ([] if coverage in ("off", False) else [("Two.", coverage)])


def test_coverage_strip_of_everything_blocks() -> None:
    verdict = check("Hi! Leave is 25 days. Carry-over is 5 days.", {"coverage": "strip"}, sources=COVERAGE_SOURCES)
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == BLOCKED


def test_coverage_finding_message_and_span() -> None:
    output = "Leave is 25 days [doc:a]. Carry-over is 5 days."
    [finding] = check(output, {"coverage": "flag"}, sources=COVERAGE_SOURCES).findings
    assert (finding.check, finding.label, finding.start, finding.end) == ("citations", Label.UNCITED_CLAIM, 26, 47)
    assert "citation" in finding.message


def test_invalid_citation_reports_both_the_marker_and_the_uncited_claim() -> None:
    output = "Leave is 25 days [doc:nope]."
    verdict = check(output, {"coverage": "flag", "on_hallucinated": "flag"}, sources=COVERAGE_SOURCES)
    assert labelled(verdict, output) == [(H, "[doc:nope]"), ("UNCITED_CLAIM", output)]


# ------------------------------------------------------------------------------------------------- custom pattern


@pytest.mark.parametrize(
    ("pattern", "output", "expected_findings", "expected_output"),
    [
        (r"\[(?P<id>\d+)\]", "One [1]. Two [2].", [(H, "[2]")], "One [1]."),
        (r"\[(?P<id>\d+)\]", "One [1]. Two [3].", [(U, "[3]")], "One [1]. Two [3]."),
        (r"\[(?P<id>\d+)\]", "One [1]. Two [doc:2].", [], "One [1]. Two [doc:2]."),
        (r"\^(?P<id>[a-z]+)", "One ^one. Two ^nope. Three ^one.", [(H, "^nope")], "One ^one. Three ^one."),
        (r"【(?P<id>[^】]+)】", "One【1】. Two【9】.", [(H, "【9】")], "One【1】."),
    ],
)
def test_custom_pattern(pattern: str, output: str, expected_findings: list[tuple[str, str]],
                        expected_output: str) -> None:
    sources = [{"id": "1", "text": "t"}, {"id": "one", "text": "t"}, {"id": "3", "text": "t", "roles": ["x"]}]
    verdict = check(output, {"pattern": pattern, "on_unauthorized": "flag"}, sources=sources, roles=[])
    assert labelled(verdict, output) == expected_findings
    assert verdict.output == expected_output


def test_custom_pattern_is_used_for_coverage() -> None:
    sources = [{"id": "1", "text": "t"}]
    verdict = check("One [1]. Two [doc:1].", {"pattern": r"\[(?P<id>\d+)\]", "coverage": "flag"}, sources=sources)
    assert [(f.label, f.start) for f in verdict.findings] == [(Label.UNCITED_CLAIM, 9)]


def test_finding_offsets_are_code_points() -> None:
    output = "Ünïcödé 🎉 claim [doc:nope]."
    [finding] = check(output, {"on_hallucinated": "flag"}).findings
    assert output[finding.start:finding.end] == "[doc:nope]"
    assert finding.start == output.index("[doc:")


# ------------------------------------------------------------------------------------------------ grouped citations


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("A [doc:pub, doc:nope].", [(H, "doc:nope")]),
        ("A [doc:pub; nope].", [(H, "nope")]),
        ("A [doc:nope, doc:pub].", [(H, "doc:nope")]),
        ("A [doc: nope].", [(H, "[doc: nope]")]),
        ("A [DOC:nope].", [(H, "[DOC:nope]")]),
        ("A [doc:pub, doc:fin-9].", [(U, "doc:fin-9")]),
        ("A [doc:hr-12; fin-9, sealed].", [(U, "fin-9"), (U, "sealed")]),
        ("A [DOC: fin-9].", [(U, "[DOC: fin-9]")]),
        # IDs still compare exactly: the prefix is read in any case, an ID is not
        ("A [DOC:PUB].", [(H, "[DOC:PUB]")]),
    ],
)
def test_grouped_spaced_and_upper_case_citations(output: str, expected: list[tuple[str, str]]) -> None:
    verdict = check(output, {"on_hallucinated": "flag", "on_unauthorized": "flag"})
    assert labelled(verdict, output) == expected


def test_every_id_of_a_group_counts_for_coverage() -> None:
    output = "One [doc:nope, doc:a]. Two [doc:b; nope]. Three [DOC: a]."
    verdict = check(output, {"coverage": "flag", "on_hallucinated": "flag", "on_unauthorized": "flag"},
                    sources=COVERAGE_SOURCES, roles=[])
    assert [output[f.start:f.end] for f in verdict.findings if f.label is Label.UNCITED_CLAIM] == [
        "Two [doc:b; nope]."]


def test_near_miss_in_a_group_names_only_visible_ids() -> None:
    sources = [{"id": "doc_12", "text": "t", "roles": ["fin"]}, {"id": "memo_7", "text": "t"}]
    verdict = check("A [doc:memo-7, doc:doc-12].", {"on_hallucinated": "flag"}, sources=sources, roles=[])
    messages = [f.message for f in verdict.findings]
    assert len(messages) == 2
    assert "'memo_7'" in messages[0]
    assert "doc_12" not in messages[1] and "did you mean" not in messages[1]


def test_a_pattern_that_searches_from_the_right_reads_markers_in_order() -> None:
    """A policy's own pattern may search right to left ("(?r)"): the markers are still read in order, so the look for
    copies (which skips marker groups in order) finds the copy instead of failing (and, failing open, passing it)."""
    guard = Guard.from_dict({"fail_mode": "open", "citations": {"pattern": r"(?r)\[doc:(?P<id>\S+?)\]"}})
    sources = [{"id": "fin-9", "text": "one two three four five six seven eight", "roles": ["finance"]},
               {"id": "hr-1", "text": "ok", "roles": ["employee"]}]
    verdict = guard.check("[doc:hr-1] [doc:hr-1] one two three four five six seven eight", sources, ["employee"])
    assert verdict.decision is Decision.BLOCKED
    assert [f.label for f in verdict.findings] == [Label.UNAUTHORIZED_SOURCE]


def test_words_are_counted_without_the_markers_of_a_pattern_that_searches_from_the_right() -> None:
    guard = Guard.from_dict({"citations": {"pattern": r"(?r)\[doc:(?P<id>\S+?)\]"}, "instructions": {"max_words": 3}})
    verdict = guard.check("[doc:a] one two [doc:a] three", [{"id": "a", "text": "one two three"}], [])
    assert verdict.decision is Decision.PASS and verdict.findings == []
