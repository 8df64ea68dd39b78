"""Closing the leaks (CONTRACT section 2): grouped, spaced and upper-case citations, and an invisible source's ID
or text in the output in any format ("Invisible-source leaks").

The regression tests at the top each pass through the guard as it was before (``git show HEAD~:guardrail/``): the
old default pattern read neither groups nor spaces nor an upper-case prefix, and nothing looked at IDs outside
markers or at copied text. Module-level imports are the public API and names that existed then, so that this file
can be run against the old code to see them fail.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import Action, Decision, Guard, Label, Source
from guardrail.checks.base import Turn

BLOCKED = "Sorry, I can't share that answer."
BERLIN = "The Berlin office will close in March and one hundred and twenty roles are affected by the move."
SOURCES: list[dict[str, Any]] = [
    {"id": "hr-12", "text": "Employees receive 25 days of paid annual leave per calendar year.", "roles": ["employee"]},
    {"id": "pub", "text": "Laptops are replaced every three years. Lost devices must be reported within one day."},
    {"id": "fin-9", "text": BERLIN, "roles": ["finance"]},
]
EMPLOYEE = ["employee"]  # sees hr-12 and pub, never fin-9
DEFAULT = Guard.from_dict({"citations": {}})  # on_hallucinated: strip, on_unauthorized: block
FLAG = Guard.from_dict({"citations": {"on_hallucinated": "flag", "on_unauthorized": "flag"}})
U, H = Label.UNAUTHORIZED_SOURCE, Label.HALLUCINATED_SOURCE


def spans(verdict: Any, output: str, label: Label = U) -> list[str]:
    return [output[f.start:f.end] for f in verdict.findings if f.label is label]


# ------------------------------------------------------------------------------------------- the bypasses (issue)


@pytest.mark.parametrize(
    ("output", "covered"),
    [
        pytest.param("Leave is 25 days [doc:hr-12, doc:fin-9].", "doc:fin-9", id="comma group"),
        pytest.param("Leave is 25 days [doc:hr-12; doc:fin-9].", "doc:fin-9", id="semicolon group"),
        pytest.param("Leave is 25 days [doc:hr-12; fin-9].", "fin-9", id="group without the second prefix"),
        pytest.param("The office closes [doc: fin-9].", "[doc: fin-9]", id="space after the prefix"),
        pytest.param("The office closes [DOC:fin-9].", "[DOC:fin-9]", id="upper-case prefix"),
        pytest.param("The office closes [Doc: fin-9].", "[Doc: fin-9]", id="mixed case and a space"),
        pytest.param("The office closes (doc:fin-9).", "fin-9", id="parentheses"),
        pytest.param("The office closes, see fin-9 for details.", "fin-9", id="bare ID in prose"),
        pytest.param("- Berlin: fin-9", "fin-9", id="bare ID in a list item"),
    ],
)
def test_each_bypass_is_caught_and_blocked(output: str, covered: str) -> None:
    verdict = DEFAULT.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == BLOCKED
    assert covered in spans(verdict, output)
    assert all(f.action is Action.BLOCK for f in verdict.findings if f.label is U)
    assert all("fin-9" not in f.message for f in verdict.findings)


def test_a_paragraph_copied_from_an_invisible_source_without_citing_it_is_caught() -> None:
    output = f"Here is the news. {BERLIN} Ask HR for details [doc:hr-12]."
    verdict = DEFAULT.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED
    assert spans(verdict, output) == [BERLIN[:-1]]  # the words, not the final period
    [finding] = verdict.findings
    assert finding.message == "text copied from a source that is not visible to the caller"


def test_the_same_outputs_pass_for_a_caller_who_may_see_the_source() -> None:
    for output in ("A [doc:hr-12, doc:fin-9].", "A [DOC: fin-9].", "A (doc:fin-9).", f"A fin-9. {BERLIN}"):
        verdict = DEFAULT.check(output, SOURCES, ["employee", "finance"])
        assert verdict.decision is Decision.PASS, (output, verdict.findings)


# --------------------------------------------------------------------------------------------- grouped citations


def markers(output: str, guard: Guard = DEFAULT) -> list[tuple[str, str, tuple[int, int]]]:
    """The markers the guard reads: (the text of the marker, its ID, the span of its group)."""
    turn = Turn(output, [], frozenset(), guard.compiled.marker_re, time.perf_counter() + 10)
    return [(output[mk.start:mk.end], mk.id, mk.group) for mk in turn.markers]


def group(output: str, text: str) -> tuple[int, int]:
    start = output.index(text)
    return start, start + len(text)


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("A [doc:a].", [("[doc:a]", "a", "[doc:a]")]),
        ("A [doc: a].", [("[doc: a]", "a", "[doc: a]")]),
        ("A [DOC:a].", [("[DOC:a]", "a", "[DOC:a]")]),
        ("A [dOc:\ta].", [("[dOc:\ta]", "a", "[dOc:\ta]")]),
        ("A [doc:a, doc:b].", [("doc:a", "a", "[doc:a, doc:b]"), ("doc:b", "b", "[doc:a, doc:b]")]),
        ("A [doc:a; b].", [("doc:a", "a", "[doc:a; b]"), ("b", "b", "[doc:a; b]")]),
        ("A [doc:a,b;c].", [("doc:a", "a", "[doc:a,b;c]"), ("b", "b", "[doc:a,b;c]"), ("c", "c", "[doc:a,b;c]")]),
        ("A [DOC: a,  Doc:  b].", [("DOC: a", "a", "[DOC: a,  Doc:  b]"), ("Doc:  b", "b", "[DOC: a,  Doc:  b]")]),
        ("A [doc:hr-12, doc:fin-9] [doc:x].",
         [("doc:hr-12", "hr-12", "[doc:hr-12, doc:fin-9]"), ("doc:fin-9", "fin-9", "[doc:hr-12, doc:fin-9]"),
          ("[doc:x]", "x", "[doc:x]")]),
        # IDs hold no comma, semicolon, bracket or whitespace; no space before a separator or the closing bracket
        ("A [doc:a ].", []),
        ("A [doc:a , b].", []),
        ("A [doc:a,].", []),
        ("A [ doc:a].", []),
        ("A [doc:].", []),
        ("A [doc:a\nb].", []),
        ("A [doc: [doc:b]c].", [("[doc:b]", "b", "[doc:b]")]),
        # after a separator, "doc:" is the prefix; the first ID may hold it
        ("A [doc:doc:x].", [("[doc:doc:x]", "doc:x", "[doc:doc:x]")]),
        ("A [doc:x, doc:doc:y].", [("doc:x", "x", "[doc:x, doc:doc:y]"), ("doc:doc:y", "doc:y", "[doc:x, doc:doc:y]")]),
        ("A [doc:x, doc:].", []),
        ("Ünïcödé 🎉 [doc:é, 東京].", [("doc:é", "é", "[doc:é, 東京]"), ("東京", "東京", "[doc:é, 東京]")]),
    ],
)
def test_the_default_reader(output: str, expected: list[tuple[str, str, str]]) -> None:
    assert markers(output) == [(text, mid, group(output, g)) for text, mid, g in expected]


def test_offsets_of_each_marker_in_a_group() -> None:
    output = "Ünïcödé: leave [doc:hr-12, DOC: zz; yy] and [doc: fin-9]."
    verdict = FLAG.check(output, SOURCES, EMPLOYEE)
    assert [(f.label, output[f.start:f.end]) for f in verdict.findings] == [
        (H, "DOC: zz"), (H, "yy"), (U, "[doc: fin-9]")]
    assert [(f.start, f.end) for f in verdict.findings] == [(27, 34), (36, 38), (44, 56)]


@pytest.mark.parametrize(
    "pattern", [r"\[doc:(?P<id>[^\]\s]+)\]", None], ids=["the old default spelled out", "no pattern"])
def test_the_old_default_pattern_gets_the_new_reader(pattern: str | None) -> None:
    citations = {"on_unauthorized": "flag"} | ({"pattern": pattern} if pattern else {})
    guard = Guard.from_dict({"citations": citations})
    output = "A [doc:hr-12, DOC: fin-9]."
    assert markers(output, guard) == [("doc:hr-12", "hr-12", group(output, "[doc:hr-12, DOC: fin-9]")),
                                      ("DOC: fin-9", "fin-9", group(output, "[doc:hr-12, DOC: fin-9]"))]
    assert spans(guard.check(output, SOURCES, EMPLOYEE), output) == ["DOC: fin-9"]


def test_a_users_own_pattern_gives_one_marker_per_match() -> None:
    guard = Guard.from_dict({"citations": {"pattern": r"\[(?P<id>[^\]]+)\]", "on_hallucinated": "flag"}})
    output = "A [1, 2] and [doc:hr-12]."
    assert markers(output, guard) == [("[1, 2]", "1, 2", group(output, "[1, 2]")),
                                      ("[doc:hr-12]", "doc:hr-12", group(output, "[doc:hr-12]"))]


def test_a_whole_group_after_the_final_punctuation_belongs_to_the_sentence() -> None:
    guard = Guard.from_dict({"citations": {"coverage": "flag"}})
    output = "Leave is 25 days. [doc:hr-12, doc:pub] Laptops last three years. [DOC: pub; hr-12] Next one."
    verdict = guard.check(output, SOURCES, EMPLOYEE)
    assert spans(verdict, output, Label.UNCITED_CLAIM) == ["Next one."]


def test_a_group_alone_is_no_claim_and_its_words_are_not_counted() -> None:
    guard = Guard.from_dict({"citations": {"coverage": "flag"}, "instructions": {"max_words": 3,
                                                                                 "on_violation": "block"}})
    output = "One two three. [doc:hr-12, doc:pub; DOC: hr-12]\n[doc:pub, hr-12]"
    verdict = guard.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.PASS, verdict.findings


# ------------------------------------------------------------------------------------- strip one ID of a group

STRIP_SOURCES = [{"id": "a", "text": "Alpha."}, {"id": "b", "text": "Beta."}]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Claim [doc:a, doc:zz].", "Claim [doc:a]."),
        ("Claim [doc:zz, doc:a].", "Claim [doc:a]."),
        ("Claim [doc:a; zz].", "Claim [doc:a]."),
        ("Claim [doc:zz; a].", "Claim [doc:a]."),
        ("Claim [doc:a,zz].", "Claim [doc:a]."),
        ("Claim [doc:zz;doc:a].", "Claim [doc:a]."),
        ("Claim [doc: a,  doc: zz].", "Claim [doc: a]."),
        ("Claim [DOC: zz, DOC: a].", "Claim [DOC: a]."),
        ("Claim [Doc:zz; a].", "Claim [Doc:a]."),
        ("Claim [doc:a, zz, doc:b].", "Claim [doc:a, doc:b]."),
        ("Claim [doc:zz, a; b].", "Claim [doc:a; b]."),
        ("Claim [doc:a, zz; b, yy].", "Claim [doc:a; b]."),
        ("Claim [doc:zz, yy, a].", "Claim [doc:a]."),
        # every ID of the group goes: the group goes whole, with the spaces before it
        ("Claim [doc:a] [doc:zz, yy].", "Claim [doc:a]."),
        ("Claim [doc:zz; yy] [doc:a].", "Claim [doc:a]."),
        ("[doc:zz, yy] Claim [doc:a].", "Claim [doc:a]."),
        # a statement left without a valid citation goes
        ("One [doc:a]. Two [doc:zz, doc:yy].", "One [doc:a]."),
        ("One [doc:a]. Two [doc:zz; doc:doc:a].", "One [doc:a]."),
        # after the final punctuation, and in a Sources line
        ("Claim. [doc:a, doc:zz] Next [doc:b].", "Claim. [doc:a] Next [doc:b]."),
        ("Claim [doc:a].\nSources: [doc:zz, doc:b]", "Claim [doc:a].\nSources: [doc:b]"),
    ],
)
def test_strip_removes_just_that_id(output: str, expected: str) -> None:
    verdict = DEFAULT.check(output, STRIP_SOURCES, [])
    assert (verdict.decision, verdict.output) == (Decision.MODIFIED, expected)
    again = DEFAULT.check(verdict.output, STRIP_SOURCES, [])
    assert (again.decision, again.findings) == (Decision.PASS, [])


@settings(max_examples=300, deadline=None)
@given(items=st.lists(st.tuples(st.sampled_from(["a", "b", "zz", "yy", "a-1", "b.2"]),
                                st.sampled_from(["", "doc:", "DOC: ", "Doc:\t"]),
                                st.sampled_from([",", ";", ", ", ";  "])), min_size=1, max_size=5),
       opening=st.sampled_from(["[doc:", "[DOC: ", "[Doc:", "[doc:  "]))
def test_a_partly_stripped_group_reads_again_as_exactly_the_kept_markers(items: list[tuple[str, str, str]],
                                                                          opening: str) -> None:
    body = items[0][0] + "".join(sep + prefix + mid for mid, prefix, sep in items[1:])
    output = f"Claim {opening}{body}]. Other claim [doc:b]."
    verdict = DEFAULT.check(output, [*STRIP_SOURCES, {"id": "a-1", "text": "t"}, {"id": "b.2", "text": "t"}], [])
    kept = [mid for mid, _, _ in items if mid not in ("zz", "yy")]
    assert verdict.decision is (Decision.PASS if len(kept) == len(items) else Decision.MODIFIED)
    assert [mid for _, mid, _ in markers(verdict.output)] == [*kept, "b"]
    if kept:
        assert verdict.output.startswith(f"Claim {opening}{kept[0]}")


# ---------------------------------------------------------------------------------------------- mentions of IDs


@pytest.mark.parametrize(
    ("output", "mentioned"),
    [
        ("See fin-9.", ["fin-9"]),
        ("See (fin-9) and 'fin-9' and fin-9's memo.", ["fin-9", "fin-9", "fin-9"]),
        ("fin-9", ["fin-9"]),
        ("See fin-9/2 or fin-9:3 or #fin-9", ["fin-9", "fin-9", "fin-9"]),
        # not a whole token: a word character or "-" touches it
        ("See fin-90 or xfin-9 or fin-9-b or a-fin-9 or fin-9_x or fin-9é or 1fin-9.", []),
        # compared case-sensitively
        ("See FIN-9 or Fin-9.", []),
        # zero-width characters do not hide it
        ("See fin\u200b-9 or f\u00adin-9.", ["fin\u200b-9", "f\u00adin-9"]),
        # a marker citing it is that marker's finding, once
        ("See [doc:fin-9] and [doc:pub, fin-9].", ["[doc:fin-9]", "fin-9"]),
        # a marker citing another ID does not hide a mention inside it
        ("See [doc:fin-9.v2].", ["fin-9"]),
    ],
)
def test_an_invisible_id_as_a_whole_token(output: str, mentioned: list[str]) -> None:
    verdict = FLAG.check(output, SOURCES, EMPLOYEE)
    assert spans(verdict, output) == mentioned
    for f in verdict.findings:
        if f.label is U and f.message.startswith("names"):
            assert f.message == "names a source that is not visible to the caller"


def test_an_id_also_visible_through_another_source_is_not_invisible() -> None:
    sources = [*SOURCES, {"id": "fin-9", "text": "A public note.", "roles": None}]
    assert FLAG.check("See fin-9 and [doc:fin-9].", sources, EMPLOYEE).findings == []


def test_an_id_visible_to_nobody_is_caught_for_everybody() -> None:
    sources = [{"id": "board-7", "text": "Sealed.", "roles": []}]
    for roles in ([], ["admin"], ["board"]):
        verdict = DEFAULT.check("The minutes are in board-7.", sources, roles)
        assert verdict.decision is Decision.BLOCKED


def test_mentions_with_strip_remove_the_statement() -> None:
    guard = Guard.from_dict({"citations": {"on_unauthorized": "strip"}})
    verdict = guard.check("Leave is 25 days [doc:hr-12]. See fin-9 for the rest. Bye [doc:pub].", SOURCES, EMPLOYEE)
    assert (verdict.decision, verdict.output) == (Decision.MODIFIED, "Leave is 25 days [doc:hr-12]. Bye [doc:pub].")


def test_mentions_with_any_citation_pattern() -> None:
    guard = Guard.from_dict({"citations": {"pattern": r"【(?P<id>[^】]+)】", "on_unauthorized": "flag"}})
    output = "Leave【hr-12】, closure【fin-9】, and fin-9 again; [doc:fin-9]."
    assert spans(guard.check(output, SOURCES, EMPLOYEE), output) == ["【fin-9】", "fin-9", "fin-9"]


# --------------------------------------------------------------------------------------------------- copied text

WORDS = BERLIN.rstrip(".").split()


@pytest.mark.parametrize(
    ("copy", "found"),
    [
        pytest.param(" ".join(WORDS[:8]), " ".join(WORDS[:8]), id="eight words"),
        pytest.param(" ".join(WORDS[3:10]), None, id="seven words pass"),
        pytest.param(" ".join(WORDS[:8]).upper(), " ".join(WORDS[:8]).upper(), id="upper case"),
        pytest.param("tHE bErLiN OFFICE will Close in march AND", "tHE bErLiN OFFICE will Close in march AND",
                     id="mixed case"),
        pytest.param("The Berlin office — will close, in March; and one",
                     "The Berlin office — will close, in March; and one", id="other punctuation"),
        pytest.param("The Ber\u200blin office will close in March and",
                     "The Ber\u200blin office will close in March and", id="zero-width"),
        pytest.param("Ｔｈｅ Ｂｅｒｌｉｎ office will close in March and",
                     "Ｔｈｅ Ｂｅｒｌｉｎ office will close in March and", id="full-width"),
        pytest.param("The Berlin office will [doc:pub] close in March and",
                     "The Berlin office will [doc:pub] close in March and", id="a marker inside the run"),
        pytest.param("The Berlin office will close [doc:pub, doc:hr-12] in March and",
                     "The Berlin office will close [doc:pub, doc:hr-12] in March and", id="a group inside the run"),
        pytest.param("Note: " + " ".join(WORDS) + "!", " ".join(WORDS), id="the whole source, one finding"),
        # runs reach across statements: a sentence end, a line break, short list items do not cut them
        pytest.param("The Berlin office will close. In March and one hundred",
                     "The Berlin office will close. In March and one hundred", id="cut by a sentence end"),
        pytest.param("The Berlin office will close\nin March and one hundred",
                     "The Berlin office will close\nin March and one hundred", id="cut by a line break"),
        pytest.param("The Berlin office.\n- Will close in.\n- March and one.",
                     "The Berlin office.\n- Will close in.\n- March and one", id="short list items"),
        pytest.param("The Berlin office will. Something else. Close in March and one hundred", None,
                     id="other words between"),
    ],
)
def test_copied_runs(copy: str, found: str | None) -> None:
    output = f"Hello there. {copy} Bye now [doc:pub]."
    verdict = FLAG.check(output, SOURCES, EMPLOYEE)
    assert spans(verdict, output) == ([] if found is None else [found])
    for f in verdict.findings:
        assert "berlin" not in f.message.lower() and "fin-9" not in f.message


def test_a_copy_inside_a_code_block_spans_its_lines() -> None:
    output = "Here:\n```\nThe Berlin office\nwill close in March\nand one hundred\n```\nDone [doc:pub]."
    verdict = FLAG.check(output, SOURCES, EMPLOYEE)
    assert spans(verdict, output) == ["The Berlin office\nwill close in March\nand one hundred"]


def test_a_copy_survives_the_line_breaks_of_the_source() -> None:
    sources = [{"id": "memo", "text": "The Berlin office will\nclose in March\n\nand one hundred roles go.",
                "roles": ["board"]}]
    output = "Heads up: the Berlin office will close in March and one hundred roles go."
    assert spans(FLAG.check(output, sources, []), output) == ["the Berlin office will close in March and one "
                                                              "hundred roles go"]


@pytest.mark.parametrize(("n", "length", "caught"), [(8, 7, False), (8, 8, True), (3, 3, True), (3, 2, False),
                                                     (12, 11, False), (12, 12, True), (1, 1, True)])
def test_the_threshold_is_configurable(n: int, length: int, caught: bool) -> None:
    guard = Guard.from_dict({"citations": {"leak_min_words": n, "on_unauthorized": "flag"}})
    copy = " ".join(["Kwyjibo", *WORDS[1:]][:length])  # "Kwyjibo" stands for "The": in no source
    output = f"Wow: {copy}?"
    sources = [*SOURCES[:2], {**SOURCES[2], "text": "Kwyjibo " + BERLIN[4:]}]
    assert spans(guard.check(output, sources, EMPLOYEE), output) == ([copy] if caught else [])


def test_the_default_threshold_is_eight_words() -> None:
    assert Guard.from_dict({"citations": {}}).policy.citations.leak_min_words == 8  # type: ignore[union-attr]


def test_runs_that_a_visible_source_holds_too_are_no_leak() -> None:
    shared = "Employees receive 25 days of paid annual leave per calendar year."
    sources: list[dict[str, Any]] = [{"id": "hr-12", "text": shared, "roles": None},
               {"id": "memo", "text": "Confidential: " + shared + " The bonus pool is cut by half this year.",
                "roles": ["board"]}]
    output = f"{shared} [doc:hr-12]"
    assert FLAG.check(output, sources, []).findings == []
    output = "Sadly the bonus pool is cut by half this year."
    assert spans(FLAG.check(output, sources, []), output) == ["the bonus pool is cut by half this year"]
    # partly shared: every run of eight that no visible source holds counts; the finding covers their words
    output = "Employees receive 25 days of paid annual leave per calendar year; the bonus pool is cut by half."
    assert spans(FLAG.check(output, sources, []), output) == [
        "of paid annual leave per calendar year; the bonus pool is cut by half"]
    # a statement boundary does not cut the run: it reaches from the shared sentence into the next
    output = "Employees receive 25 days of paid annual leave per calendar year. The bonus pool is cut by half."
    assert spans(FLAG.check(output, sources, []), output) == [
        "of paid annual leave per calendar year. The bonus pool is cut by half"]
    # words between break it: seven copied words after them are no copy
    output = "Employees receive 25 days of paid annual leave per calendar year. Also: the bonus pool is cut by half."
    assert FLAG.check(output, sources, []).findings == []


def test_the_text_of_an_invisible_copy_leaks_even_when_its_id_is_visible() -> None:
    sources: list[dict[str, Any]] = [{"id": "hr", "text": "Public leave rules."},
                                     {"id": "hr", "text": BERLIN, "roles": ["board"]}]
    output = f"{BERLIN} [doc:hr]"
    verdict = DEFAULT.check(output, sources, [])
    assert verdict.decision is Decision.BLOCKED
    assert spans(verdict, output) == [BERLIN[:-1]]


@pytest.mark.parametrize(("action", "decision", "expected"), [
    ("block", Decision.BLOCKED, BLOCKED),
    ("strip", Decision.MODIFIED, "Leave is 25 days [doc:hr-12]."),
    ("flag", Decision.PASS, None),
])
def test_copy_actions(action: str, decision: Decision, expected: str | None) -> None:
    guard = Guard.from_dict({"citations": {"on_unauthorized": action}})
    output = f"Leave is 25 days [doc:hr-12]. {BERLIN}"
    verdict = guard.check(output, SOURCES, EMPLOYEE)
    assert (verdict.decision, verdict.output) == (decision, output if expected is None else expected)


def test_per_source_runs_are_cached_across_turns() -> None:
    from guardrail.checks.citations import _runs

    text = "A passage nobody else holds, long enough to be remembered by the guard for a while."
    sources = [{"id": "s", "text": text, "roles": ["x"]}]
    DEFAULT.check("First turn, nothing copied.", sources, [])
    hits = _runs.cache_info().hits
    DEFAULT.check("Second turn, nothing copied either.", [dict(sources[0])], [])
    assert _runs.cache_info().hits == hits + 1


def test_no_invisible_source_costs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from guardrail.checks import citations

    def boom(*args: Any) -> Any:
        raise AssertionError("looked for leaks with no invisible source")

    monkeypatch.setattr(citations, "mentions", boom)
    monkeypatch.setattr(citations, "copies", boom)
    verdict = DEFAULT.check(f"See fin-9. {BERLIN}", SOURCES, ["employee", "finance"])
    assert (verdict.decision, verdict.findings) == (Decision.PASS, [])


def test_near_miss_hints_name_visible_ids_only() -> None:
    sources = [*SOURCES, {"id": "fin_10", "text": "t", "roles": None}]
    output = "A [doc:pub, doc:fin_9]. B [DOC: hr_12]."
    verdict = FLAG.check(output, sources, EMPLOYEE)
    messages = {output[f.start:f.end]: f.message for f in verdict.findings}
    assert set(messages) == {"doc:fin_9", "[DOC: hr_12]"}
    assert "fin-9" not in messages["doc:fin_9"]
    assert "'hr-12'" in messages["[DOC: hr_12]"]  # visible: may be suggested


# ------------------------------------------------------------------------------------------------- streams


def stream(guard: Guard, output: str, cuts: list[int], sources: Any, roles: list[str]) -> tuple[str, Any, bool]:
    session = guard.stream(sources, roles)
    released, pos = [], 0
    for cut in sorted(set(cuts)):
        released.append(session.feed(output[pos:cut]))
        pos = cut
    released.append(session.feed(output[pos:]))
    rest, verdict = session.finish()
    return "".join(released) + rest, verdict, session.blocked


def test_a_group_unfinished_at_the_end_of_a_chunk_is_held() -> None:
    guard = Guard.from_dict({"citations": {"coverage": "flag"}})
    session = guard.stream(SOURCES, EMPLOYEE)
    assert session.feed("Leave is 25 days. [doc:hr-12, do") == ""
    assert session.feed("c:pub] Next") == "Leave is 25 days. [doc:hr-12, doc:pub]"
    rest, verdict = session.finish()
    assert rest == " Next"
    assert session.released == "Leave is 25 days. [doc:hr-12, doc:pub] Next"
    assert verdict.decision is Decision.PASS


def test_a_stream_never_releases_an_invisible_group_item() -> None:
    guard = Guard.from_dict({"citations": {"on_unauthorized": "strip"}})
    output = "Leave is 25 days [doc:hr-12]. Berlin closes [doc:hr-12, DOC: fin-9]. Laptops last [doc:pub]. Bye"
    for size in (1, 3, 7, 40):
        released, verdict, blocked = stream(guard, output, list(range(size, len(output), size)), SOURCES, EMPLOYEE)
        assert not blocked
        assert released == verdict.output == "Leave is 25 days [doc:hr-12]. Laptops last [doc:pub]. Bye"


def test_a_stream_holds_the_words_that_may_grow_into_a_copy() -> None:
    # A copy cut into short lines: the first line alone is no copy, but it may become one, so it waits.
    guard = Guard.from_dict({"citations": {"on_unauthorized": "strip"}})
    session = guard.stream(SOURCES, EMPLOYEE)
    assert session.feed("Leave is 25 days [doc:hr-12].\nThe Berlin office will close.\nIn") == \
        "Leave is 25 days [doc:hr-12]."
    # ... and once the run is whole, both lines go, and what follows them is released
    assert session.feed(" March and one hundred.\nLaptops last [doc:pub].\nBye") == "\nLaptops last [doc:pub]."
    rest, verdict = session.finish()
    assert session.released == verdict.output == "Leave is 25 days [doc:hr-12].\nLaptops last [doc:pub].\nBye"
    # Nothing is held for long when the words at the end of a statement do not go on in the source.
    session = guard.stream(SOURCES, EMPLOYEE)
    assert session.feed("The Berlin office is big. Laptops last") == "The Berlin office is big."
    # Blocking: nothing of the copy reaches the client before the block.
    session = DEFAULT.stream(SOURCES, EMPLOYEE)
    released = [session.feed(w + " ") for w in "Hi. The Berlin office will close.\nIn March and one hundred.".split()]
    rest, verdict = session.finish()
    assert session.blocked and verdict.decision is Decision.BLOCKED
    assert "".join(released) + rest == "Hi."


@pytest.mark.parametrize(("n", "output"), [
    # Sent first: a statement ending in "the Berlin office" (the run breaks at the next word). Stripping the
    # uncited statement after it joins those words to "Will close": a copy of four in the edited output.
    (4, "Leave is 25 days, said the Berlin office [doc:hr-12]. Nobody knows more here. Will close, they said "
        "[doc:pub]. Bye [doc:pub]."),
    # The strip joins "the" to "Berlin office" in what is sent; the next statement, which no edit touches,
    # makes it a copy of five.
    (5, "Leave is 25 days, said the [doc:hr-12]. Nobody knows. Berlin office [doc:pub]. Will close, they said "
        "[doc:pub]. Bye [doc:pub]."),
])
def test_a_copy_that_a_strip_joins_across_what_was_sent_is_never_released(n: int, output: str) -> None:
    guard = Guard.from_dict({"citations": {"coverage": "strip", "leak_min_words": n}})
    assert guard.check(output, SOURCES, EMPLOYEE).decision is Decision.BLOCKED
    for size in (1, 3, 7, 40):
        released, verdict, blocked = stream(guard, output, list(range(size, len(output), size)), SOURCES, EMPLOYEE)
        assert blocked and verdict.decision is Decision.BLOCKED
        assert released.startswith("Leave is 25 days, said the"), released
        assert not copied(GROUP_RE.sub(" ", released), BERLIN, n), (size, released)


@pytest.mark.parametrize(("n", "output"), [
    (4, "Leave is 25 days, said the Berlin office [doc:hr-12]. Nobody knows more here. Will close, they said "
        "[doc:pub]. Bye [doc:pub]."),
    (5, "Leave is 25 days, said the [doc:hr-12]. Nobody knows. Berlin office [doc:pub]. Will close, they said "
        "[doc:pub]. Bye [doc:pub]."),
])
@pytest.mark.parametrize("terms", [["zq"], ["zq", "a much longer banned phrase than any run"]])
def test_a_copy_that_a_strip_joins_is_found_beside_a_banned_terms_check(n: int, output: str, terms: list[str]) -> None:
    # The edited output is looked at again only around the edits, in windows both checks share: they must reach
    # as far as the copy check needs (words), not only as far as the terms check does (characters).
    guard = Guard.from_dict({"citations": {"coverage": "strip", "leak_min_words": n}, "banned_terms": {"terms": terms}})
    verdict = guard.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED
    assert [f.label for f in verdict.findings if f.action is Action.BLOCK] == [U]


@pytest.mark.parametrize("mark", ["\u00ad", "\u200b"])
def test_a_zero_width_character_at_the_end_of_a_chunk_ends_no_word(mark: str) -> None:
    # "O\u00ad" may become "On": the words before it must wait, or "On March third" completes a copy.
    for policy in ({"citations": {}}, {"citations": {"on_unauthorized": "strip"}}):
        session = Guard.from_dict(policy).stream(SOURCES, EMPLOYEE)
        first = session.feed("Hello there. The Berlin office will close. I" + mark)
        second = session.feed("n March and one hundred. Bye now.")
        rest, _ = session.finish()
        released = first + second + rest
        assert "Berlin" not in released and "hundred" not in released, released


@pytest.mark.parametrize("copy", ["_The_ _Berlin_ _office_ _will_ _close_ _in_ _March_ _and_",
                                  "__The__ __Berlin__ __office__ __will__ __close__ __in__ __March__ __and__",
                                  "The_Berlin_office_will_close_in_March_and"])
def test_markdown_emphasis_does_not_hide_a_copy(copy: str) -> None:
    verdict = DEFAULT.check(f"Note: {copy}.", SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED and verdict.findings[0].label is U


@pytest.mark.parametrize("written", ["fin\\-9", "fin&#45;9", "fin&#x2d;9", "fin&hyphen;9", "fin&#8209;9",
                                     "fin\u20119", "fin\u22129", "fin\uff0d9", "fin\u200b\u2011\u200b9"])
def test_an_invisible_id_as_a_renderer_shows_it_is_a_mention(written: str) -> None:
    output = f"Numbers are in {written} [doc:pub]."
    verdict = FLAG.check(output, SOURCES, EMPLOYEE)
    assert spans(verdict, output) == [written]
    streamed, _, _ = stream(DEFAULT, output, list(range(1, len(output))), SOURCES, EMPLOYEE)
    assert "fin" not in streamed


@pytest.mark.parametrize("written", ["fin-90", "xfin-9", "fin&amp;9", "fin&#46;9", "fin\\.9"])
def test_look_alikes_that_show_another_id_are_no_mention(written: str) -> None:
    assert FLAG.check(f"See {written}.", SOURCES, EMPLOYEE).findings == []


LEAK_SOURCES: list[dict[str, Any]] = [
    {"id": "hr-12", "text": "Employees receive 25 days of paid annual leave per calendar year.", "roles": ["employee"]},
    {"id": "pub", "text": "Laptops are replaced every three years and lost devices are reported within a day."},
    {"id": "fin-9", "text": BERLIN, "roles": ["finance"]},
    {"id": "sealed", "text": "Nobody may read this passage about the merger with Initech next spring at all.",
     "roles": []},
]
CITED = ["hr-12", "pub", "fin-9", "sealed", "zz", "HR-12", "fin-90"]
PREFIXES = ["doc:", "DOC:", "Doc: ", "doc:  ", "dOc:\t"]
SEPARATORS = [", ", ",", "; ", ";", ",  "]
COPIES = ["the Berlin office will close in March and one hundred", "NOBODY MAY READ THIS PASSAGE ABOUT THE MERGER",
          "Laptops are replaced every three years and lost devices"]
# copies chopped into short sentences and lines: together still a run
COPIES += ["the Berlin office. Will close in March. And one hundred", "Nobody may read\nthis passage about\nthe merger",
           "the Berlin office will close\n- in March and one hundred"]
# halves of a copy: one run once what stands between them is stripped
COPIES += ["the Berlin office will close", "in March and one hundred and twenty"]
PROSE = ["leave", "is", "the", "office", "Berlin", "closes", "fin-9", "fin-90", "xfin-9", "(doc:fin-9)",
         "sealed", "sealed-off", "merger", "e.g.", "3.5", "days", "per", "year"]


@st.composite
def citation_group(draw: st.DrawFn) -> str:
    ids = draw(st.lists(st.sampled_from(CITED), min_size=1, max_size=3))
    prefix = draw(st.sampled_from(PREFIXES))
    rest = "".join(draw(st.sampled_from(SEPARATORS)) + draw(st.sampled_from(["", "doc:", "DOC: "])) + i
                   for i in ids[1:])
    return f"[{prefix}{ids[0]}{rest}]"


@st.composite
def leaky_sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(PROSE), min_size=1, max_size=6))
    for _ in range(draw(st.integers(0, 2))):
        extra = draw(st.one_of(citation_group(), st.sampled_from(COPIES)))
        words.insert(draw(st.integers(0, len(words))), extra)
    text = " ".join(words)
    end = draw(st.sampled_from([".", ".", "!", "?", ":", ""]))
    tail = draw(st.sampled_from(["", " ", " "])).join([""] + [draw(citation_group())
                                                               for _ in range(draw(st.integers(0, 2)))])
    return text[0].upper() + text[1:] + end + tail


@st.composite
def leaky_answer(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["prose", "prose", "item", "sources", "code"]))
        if kind == "prose":
            lines.append(" ".join(draw(st.lists(leaky_sentence(), min_size=1, max_size=3))))
        elif kind == "item":
            lines.append("- " + draw(leaky_sentence()))
        elif kind == "sources":
            lines.append("Sources: " + " ".join(draw(st.lists(citation_group(), min_size=1, max_size=2))))
        else:
            lines.append("```\n" + draw(st.sampled_from(COPIES)).replace(" ", "\n", 2) + "\n```")
    return "".join(line + draw(st.sampled_from(["\n", "\n\n", "\r\n"])) for line in lines[:-1]) + lines[-1]


STREAM_POLICIES = {
    "strip": {"citations": {"on_unauthorized": "strip", "coverage": "flag"}, "budget_ms": 60_000},
    "block": {"citations": {"on_unauthorized": "block", "on_hallucinated": "strip"}, "budget_ms": 60_000},
    "strip-all": {"citations": {"on_unauthorized": "strip", "coverage": "strip"}, "quotes": {"on_unverified": "strip"},
                  "budget_ms": 60_000},
    "short-runs": {"citations": {"on_unauthorized": "strip", "leak_min_words": 3}, "budget_ms": 60_000},
}
STREAM_GUARDS = {name: Guard.from_dict(policy) for name, policy in STREAM_POLICIES.items()}
ROLE_SETS = [[], ["employee"], ["finance"], ["employee", "finance"]]


def invisible(roles: list[str]) -> list[dict[str, Any]]:
    return [s for s in LEAK_SOURCES if not (s.get("roles") is None or set(s["roles"]) & set(roles))]


def token_occurrences(text: str, sid: str) -> list[int]:
    return [m.start() for m in re.finditer(r"(?<![\w-])" + re.escape(sid) + r"(?![\w-])", text)]


def copied(text: str, source: str, n: int) -> bool:
    from guardrail.text import words

    have = words(text)
    src = {tuple(words(source)[i:i + n]) for i in range(len(words(source)) - n + 1)}
    return any(tuple(have[i:i + n]) in src for i in range(len(have) - n + 1))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(STREAM_GUARDS)), output=leaky_answer(), roles=st.sampled_from(ROLE_SETS),
       cuts=st.lists(st.integers(0, 400), max_size=20))
@example(name="strip", output="Claim [doc:hr-12, do", roles=["employee"], cuts=[15, 17])
@example(name="strip", output="Berlin. [DOC: hr-12; fin-9] Next.", roles=["employee"], cuts=[12])
@example(name="strip-all", output="Leave the Berlin office will close [doc:pub]. Days per year. In March and one "
         "hundred and twenty [doc:pub].", roles=["employee"], cuts=[])
def test_streamed_release_equals_the_checked_output_and_never_leaks(name: str, output: str, roles: list[str],
                                                                     cuts: list[int]) -> None:
    guard = STREAM_GUARDS[name]
    released, verdict, blocked = stream(guard, output, [c for c in cuts if c < len(output)], LEAK_SOURCES, roles)
    buffered = guard.check(output, LEAK_SOURCES, roles)
    assert verdict.decision is buffered.decision
    if buffered.decision is Decision.BLOCKED:
        assert blocked
    else:
        assert released == buffered.output
    n = guard.policy.citations.leak_min_words  # type: ignore[union-attr]
    for source in invisible(roles):
        assert token_occurrences(released, source["id"]) == [], (source["id"], released)
        # a run of the source's words anywhere in what was released, across statements and lines
        assert not copied(GROUP_RE.sub(" ", released), source["text"], n), released


# -------------------------------------------------------------------------------------- properties of findings

CHAOS = st.lists(st.one_of(st.sampled_from([*PROSE, *COPIES, " ", ". ", "\n", "\u200b", "-", "[", "]", ",", ";",
                                            "doc:", "DOC: ", "```\n", "Sources:", "\"", "“"]),
                           citation_group()), max_size=30).map("".join)
flagging = Guard.from_dict({"citations": {"on_hallucinated": "flag", "on_unauthorized": "flag", "coverage": "flag",
                                          "leak_min_words": 4},
                            "quotes": {"on_unverified": "flag"}, "budget_ms": 60_000})
GROUP_RE = re.compile(r"\[[Dd][Oo][Cc]:[ \t]*[^\][,;\s]+(?:[,;][ \t]*(?:[Dd][Oo][Cc]:[ \t]*)?[^\][,;\s]+)*\]")
ITEM_RE = re.compile(r"(?:[Dd][Oo][Cc]:[ \t]*)?(?P<id>[^\][,;\s]+)")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=st.one_of(leaky_answer(), CHAOS, st.text(max_size=200)), roles=st.sampled_from(ROLE_SETS),
       n=st.sampled_from([1, 2, 4, 8]))
@example(output="fin-9\u200b", roles=[], n=8)
@example(output="the Berlin office will close in March and one hundred", roles=[], n=8)
def test_no_output_crashes_and_findings_name_what_they_cover(output: str, roles: list[str], n: int) -> None:
    guard = flagging if n == 4 else Guard.from_dict({"citations": {"on_hallucinated": "flag", "on_unauthorized": "flag",
                                                                   "leak_min_words": n}, "budget_ms": 60_000})
    from guardrail.text import words

    verdict = guard.check(output, LEAK_SOURCES, roles)
    assert verdict.decision is Decision.PASS and verdict.output == output
    hidden = invisible(roles)
    hidden_ids = {s["id"] for s in hidden}
    retrieved = {s["id"] for s in LEAK_SOURCES}
    for f in verdict.findings:
        assert f.label is not Label.GUARD_ERROR, f
        assert 0 <= f.start < f.end <= len(output), f
        span = output[f.start:f.end]
        if f.label not in (U, H):
            continue
        assert not any(h in f.message for h in hidden_ids), f
        if f.message.startswith("names"):
            from guardrail.checks.citations import _as_shown

            bare = _as_shown(span)[0]  # zero-width characters, look-alike hyphens, escapes do not hide an ID
            assert bare in hidden_ids, (f, span)
            before = output[f.start - 1] if f.start else " "
            assert before != "-" and before != "_" and not before.isalnum(), (f, span)
        elif f.message.startswith("text copied"):
            bare = GROUP_RE.sub("", span)  # citation markers are not words of the text
            assert len(words(bare)) >= n, (f, span)
            assert words(output[f.start:f.start + 1]) and words(output[f.end - 1:f.end]), (f, span)  # whole words
            assert any(copied(bare, s["text"], n) for s in hidden), (f, span)
        else:  # a marker: a whole group of one ID, or an item of a group
            m = GROUP_RE.fullmatch(span) or ITEM_RE.fullmatch(span)
            assert m is not None, (f, span)
            cited = span.rstrip("]").split(":", 1)[-1].strip() if span.startswith("[") else m.group("id")
            assert (cited in retrieved) == (f.label is U), (f, span)


def test_source_objects_are_accepted() -> None:
    sources = [Source("fin-9", BERLIN, ("finance",)), Source("pub", "Public.")]
    verdict = DEFAULT.check("See fin-9.", sources, [])
    assert verdict.decision is Decision.BLOCKED


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab1_ .,-\n[]:é", min_size=1, max_size=40), data=st.data())
def test_where_a_held_word_starts_agrees_with_word_spans(text: str, data: st.DataObject) -> None:
    from guardrail.checks.citations import _word_start
    from guardrail.text import word_spans

    points = sorted(data.draw(st.lists(st.integers(0, len(text)), min_size=0, max_size=4, unique=True)))
    spans = [(a, b) for a, b in zip(points[::2], points[1::2], strict=False) if a < b]
    cut = data.draw(st.integers(0, len(text) - 1))
    for partial in (False, True):
        found = word_spans(text, cut, len(text), spans)[:-1 if partial else None]
        for k in range(1, len(found) + 1):
            assert _word_start(text, cut, len(text), spans, partial, k) == found[-k][1]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab1 .,-[]:\u201c\u201d\u2014\u2019\U0001f600\u00a0\u200b", min_size=1, max_size=40),
       data=st.data())
def test_where_a_held_word_starts_with_separating_non_ascii_characters(text: str, data: st.DataObject) -> None:
    """Quotation marks, dashes and emoji separate words: such text is read the ASCII way (a zero-width character
    joins words, and sends it the other way)."""
    test_where_a_held_word_starts_agrees_with_word_spans.hypothesis.inner_test(text, data)


def test_short_strings_remembered_for_one_copy_length_are_not_reused_for_another() -> None:
    """Two policies in one process with the same invisible IDs and no acting terms: a string that is too short for
    a copy of 8 words, remembered as clean, still carries a copy of 3 words for the policy that counts 3."""
    from guardrail._scrub import Scrubber

    secret = "the quarterly merger review with Initech closes on Friday and nobody outside finance may know"
    sources = [Source("a", "Leave is 25 days.", None), Source("fin-9", secret, ("finance",))]
    strict = Guard.from_dict({"citations": {"on_unauthorized": "block", "leak_min_words": 3}})
    lenient = Guard.from_dict({"citations": {"on_unauthorized": "block"}})
    text = "merger review with Initech"
    assert Scrubber(lenient.compiled, sources, frozenset()).scrub(text) == text
    assert Scrubber(strict.compiled, sources, frozenset()).scrub(text) == "[redacted]"


def test_the_chunks_a_stream_guard_writes_repeat_no_secret_of_the_first_chunk() -> None:
    """The chunks the guard writes itself (re-sent text, the end of a blocked choice) take the first chunk's id and
    model: scrubbed, as every chunk the upstream sent is."""
    import json as json_module

    from guardrail._chat import ChunkStream
    from guardrail._scrub import Scrubber
    from guardrail.stream import StreamGuard

    guard = Guard.from_dict({"citations": {"on_unauthorized": "block"},
                             "banned_terms": {"terms": ["BLUEJAY"], "on_match": "redact"}})
    sources = [Source("a", "Leave is 25 days.", None), Source("fin-9", "Secret.", ("finance",))]
    roles = frozenset({"employee"})

    def chunk(text: str) -> bytes:
        return b"data: " + json_module.dumps({"id": "fin-9", "object": "chat.completion.chunk",
                                              "model": "m-BLUEJAY",
                                              "choices": [{"index": 0, "delta": {"content": text}}]}).encode() + b"\n\n"

    stream = ChunkStream(lambda: StreamGuard(guard.compiled, sources, roles),
                         Scrubber(guard.compiled, sources, roles), blocked_message="No.", fail_closed=True)
    out = stream.feed(chunk("Leave is ") + chunk("25 days [doc:a]. Ask ") + chunk("BLUEJAY [doc:a].")
                      + b"data: [DONE]\n\n") + stream.close()
    assert b"25 days" in out
    assert b"BLUEJAY" not in out and b"fin-9" not in out


def test_a_stream_holds_a_copy_whose_words_are_split_by_grouped_markers() -> None:
    """The words held for a copy are counted from a cut that never falls inside a marker group: a cut after the
    comma of "[doc:a,  doc:b, doc:a]" once counted "doc", "b" and "a" as words and let "outside finance" go."""
    secret = "the quarterly merger review with Initech closes on Friday and nobody outside finance may know"
    sources = [{"id": "a", "text": "Leave is 25 days."}, {"id": "b", "text": "Other text."},
               {"id": "fin", "text": secret, "roles": ["finance"]}]
    guard = Guard.from_dict({"citations": {"on_unauthorized": "block", "leak_min_words": 4},
                             "blocked_message": "Blocked."})
    text = ("Note: outside\nfinance [doc:a,  doc:b, doc:a]\n[doc:a,  doc:b, doc:a] [doc:a] may [doc:a,doc:b] know "
            "the quarterly.")
    stream = guard.stream(sources, ["employee"])
    released = "".join(stream.feed(c) for c in text)
    rest, verdict = stream.finish()
    assert verdict.decision is Decision.BLOCKED
    assert "outside" not in released + rest and "finance" not in released + rest


def test_a_zero_width_character_after_a_line_break_does_not_let_the_last_word_of_a_copy_out() -> None:
    """A soft hyphen right after a word may still join it to what comes ("O\u00ad" may become "On"); after a line
    break it joins nothing, and the word before it is complete: held like any word that may begin a copy."""
    secret = "the quarterly merger review with Initech closes on Friday and nobody outside finance may know"
    sources = [{"id": "a", "text": "Leave is 25 days."}, {"id": "fin", "text": secret, "roles": ["finance"]}]
    guard = Guard.from_dict({"citations": {"on_unauthorized": "block", "leak_min_words": 3},
                             "blocked_message": "Blocked."})
    for chunks in (["Leave is 25 days [doc:a]. We meet on\n\u00ad", "Friday and more."],
                   ["Leave is 25 days [doc:a]. We meet on\n", "Friday and more."],
                   ["Leave is 25 days [doc:a]. We meet o\u00ad", "n\nFriday and more."]):
        stream = guard.stream(sources, ["employee"])
        released = "".join(stream.feed(c) for c in chunks)
        rest, verdict = stream.finish()
        assert verdict.decision is Decision.BLOCKED
        assert "meet" not in released + rest, chunks


@pytest.mark.parametrize("mark", ["\u200e", "\u2066", "\ufe0f", "\U000e0020", "\u034f"])
def test_an_invisible_id_through_any_invisible_character_is_a_mention(mark: str) -> None:
    output = f"See fin{mark}-9 for the numbers."
    verdict = DEFAULT.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED and spans(verdict, output) == [f"fin{mark}-9"]


@pytest.mark.parametrize("written", ["\uff46\uff49\uff4e\uff0d\uff19", "\ufb01n-9", "fin-\U0001d7d7",
                                     "fin\u2010\uff19"])
def test_an_invisible_id_in_a_compatibility_form_is_a_mention(written: str) -> None:
    """Full-width letters, a ligature, mathematical digits: a reader takes them for the ID (NFKC makes it)."""
    output = f"See {written} for the numbers [doc:hr-12]."
    verdict = DEFAULT.check(output, SOURCES, EMPLOYEE)
    assert verdict.decision is Decision.BLOCKED and spans(verdict, output) == [written]
    from guardrail._scrub import Scrubber
    from guardrail.models import coerce_sources

    scrubber = Scrubber(DEFAULT.compiled, coerce_sources(SOURCES), frozenset(EMPLOYEE))
    assert scrubber.scrub(f"error about {written}.") == "error about [redacted]."
    assert DEFAULT.check("The \ufb01nal fin-99 figures [doc:hr-12].", SOURCES, EMPLOYEE).decision is Decision.PASS
