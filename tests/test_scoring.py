"""ALCE scoring of one turn (CONTRACT section 8.4) against hand-computed turns, with a judge whose answers are set
by the test (seed 000's toy NLI: a premise entails a claim when it contains the claim's key fact)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from guardrail import Guard
from guardrail.claims import turn_claims
from guardrail.judges import JudgeFailure, Judgement, Probabilities
from guardrail.models import Source
from guardrail.scoring import Claim, score_turn

ENTAIL = Probabilities(0.9, 0.05, 0.05)
NEUTRAL = Probabilities(0.1, 0.8, 0.1)
CONTRA = Probabilities(0.05, 0.15, 0.8)


class KeyJudge:
    """Entailment when the premise holds every key of the claim; contradiction when it holds a 'no' key."""

    name = "key"
    version = "1"

    def __init__(self, keys: dict[str, list[str]], contradictions: dict[str, str] | None = None,
                 window_chars: int = 4000, fail_on: str | None = None):
        self.keys = keys
        self.contradictions = contradictions or {}
        self.window_chars = window_chars
        self.fail_on = fail_on
        self.calls: list[tuple[str, str]] = []

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        out: list[Judgement] = []
        for premise, claim in pairs:
            self.calls.append((premise, claim))
            if self.fail_on is not None and self.fail_on in premise:
                out.append(JudgeFailure("malformed answer"))
            elif claim in self.contradictions and self.contradictions[claim] in premise:
                out.append(CONTRA)
            elif all(k in premise for k in self.keys.get(claim, ["\0"])):
                out.append(ENTAIL)
            else:
                out.append(NEUTRAL)
        return out


PASSAGES = {"hr-12": "Employees accrue 25 days of paid time off per calendar year.",
            "hr-31": "Unused PTO up to 5 days may be carried over to the next year.",
            "it-3": "Laptops are replaced every three years.",
            "fin-9": "Carry-over needs the approval of your manager."}
CARRY = "Up to 5 unused days carry over."
JUDGE = KeyJudge({CARRY: ["up to 5 days may be carried over"],
                  "Carry-over of 5 days needs approval.": ["up to 5 days", "approval"],
                  "Laptops are replaced every two years.": ["every two years"]},
                 contradictions={"Laptops are replaced every two years.": "every three years"})


def score(*claims: Claim, judge: KeyJudge = JUDGE):  # type: ignore[no-untyped-def]
    return score_turn(list(claims), PASSAGES, judge)


def test_seed_worked_example_recall_one_precision_half() -> None:
    result = score(Claim(0, 30, CARRY, ("hr-31", "hr-12")))
    assert (result.generated.citation_recall, result.generated.citation_precision) == (1.0, 0.5)
    verdicts = {c.id: (c.verdict, c.credited) for c in result.citations}
    assert verdicts == {"hr-31": ("FULLY_SUPPORTS", True), "hr-12": ("DOES_NOT_ADDRESS", False)}
    assert result.citations[0].evidence == (0, len(PASSAGES["hr-31"]))


def test_seed_worked_example_unsupported_citation_gets_no_credit() -> None:
    result = score(Claim(0, 30, CARRY, ("hr-12",)))
    assert (result.generated.citation_recall, result.generated.citation_precision) == (0.0, 0.0)
    assert result.citations[0].verdict == "DOES_NOT_ADDRESS" and result.citations[0].evidence is None


def test_invalid_ids_count_in_the_denominator_without_credit() -> None:
    result = score(Claim(0, 30, CARRY, ("hr-31",), (("hr-99", "HALLUCINATED_SOURCE"),)))
    assert result.generated.citation_recall == 0.0  # an invalid ID: recall 0 even though hr-31 entails
    assert (result.generated.credited, result.generated.citations) == (0, 2)
    assert [(c.id, c.valid, c.label) for c in result.citations] == [
        ("hr-31", True, None), ("hr-99", False, "HALLUCINATED_SOURCE")]
    assert result.to_dict()["hallucinated_sources"] == [{"id": "hr-99", "statement": 0,
                                                          "label": "HALLUCINATED_SOURCE"}]


def test_uncited_claims_score_zero_and_are_listed() -> None:
    result = score(Claim(0, 30, CARRY, ("hr-31",)), Claim(31, 50, "Free cake on Fridays."))
    assert (result.generated.supported, result.generated.statements) == (1, 2)
    assert result.generated.citation_precision == 1.0
    assert result.to_dict()["uncited_claims"] == [{"statement": 1, "start": 31, "end": 50}]


def test_three_citations_leave_one_out() -> None:
    claim = "Carry-over of 5 days needs approval."
    result = score(Claim(0, 40, claim, ("hr-31", "fin-9", "it-3")))
    # hr-31 and fin-9 are each needed (neither alone entails, both together do); it-3 is irrelevant.
    assert result.generated.citation_recall == 1.0
    assert {c.id: c.verdict for c in result.citations} == {
        "hr-31": "PARTIALLY_SUPPORTS", "fin-9": "PARTIALLY_SUPPORTS", "it-3": "DOES_NOT_ADDRESS"}
    assert result.generated.citation_precision == pytest.approx(2 / 3)
    hr31 = result.citations[0]
    assert hr31.evidence == (0, len(PASSAGES["hr-31"]))


def test_exempt_statements_are_not_scored() -> None:
    result = score(Claim(0, 10, "Hi there!", needs_citation=False), Claim(11, 40, CARRY, ("hr-31",)))
    assert (result.generated.statements, result.generated.citation_recall) == (1, 1.0)
    assert result.statements[0].recall is None


def test_contradiction_is_counted_apart() -> None:
    result = score(Claim(0, 40, "Laptops are replaced every two years.", ("it-3",)))
    assert result.generated.citation_recall == 0.0 and result.generated.contradicted == 1
    assert result.statements[0].contradicted and result.citations[0].verdict == "CONTRADICTS"


def test_judge_errors_are_neither_supported_nor_unsupported() -> None:
    judge = KeyJudge(JUDGE.keys, fail_on="Unused PTO")
    result = score(Claim(0, 30, CARRY, ("hr-31",)), Claim(31, 60, CARRY, ("hr-12",)), judge=judge)
    assert result.generated.errors == 1
    assert (result.generated.supported, result.generated.statements) == (0, 1)  # only the judged one counts
    assert result.statements[0].error and result.statements[0].recall is None


def test_delivered_scores_follow_what_the_guard_kept() -> None:
    kept = Claim(0, 30, CARRY, ("hr-31",), (("hr-99", "HALLUCINATED_SOURCE"),), delivered_invalid=())
    gone = Claim(31, 60, "Free cake on Fridays.", delivered=False)
    result = score(kept, gone)
    assert (result.generated.supported, result.generated.statements) == (0, 2)
    assert (result.delivered.supported, result.delivered.statements) == (1, 1)  # its bad marker was stripped
    assert result.delivered.citation_precision == 1.0


def test_long_passages_are_windowed_and_the_best_window_counts() -> None:
    filler = "Nothing relevant is said in this sentence at all. " * 60
    passages = {"long": filler + "Unused PTO up to 5 days may be carried over to the next year. " + filler}
    judge = KeyJudge(JUDGE.keys, window_chars=500)
    result = score_turn([Claim(0, 30, CARRY, ("long",))], passages, judge)
    assert result.generated.citation_recall == 1.0
    assert all(len(premise) <= 500 for premise, _ in judge.calls) and len(judge.calls) > 3
    start, end = result.citations[0].evidence  # type: ignore[misc]
    assert passages["long"][start:end] == "Unused PTO up to 5 days may be carried over to the next year."


def test_each_pair_is_asked_once() -> None:
    judge = KeyJudge(JUDGE.keys)
    score_turn([Claim(0, 30, CARRY, ("hr-31",)), Claim(31, 60, CARRY, ("hr-31",))], PASSAGES, judge)
    assert len(judge.calls) == 1


GUARD = Guard.from_dict({"citations": {"on_hallucinated": "strip"}, "banned_terms": {"terms": ["BLUEJAY"]}})
SOURCES = [Source.coerce({"id": k, "text": v}) for k, v in PASSAGES.items()] + [
    Source.coerce({"id": "sec", "text": "Secret plans.", "roles": ["board"]})]


def test_claims_from_the_guards_own_segmentation() -> None:
    output = ("Hi!\n\nUp to 5 unused days carry over [doc:hr-31][doc:hr-12]. Laptops last [doc:it-3] [doc:zz].\n"
              "- Ask BLUEJAY about it.\n\nSources:\n- [doc:hr-31] Handbook")
    verdict = GUARD.check(output, SOURCES, [])
    got = turn_claims(GUARD.compiled, output, SOURCES, frozenset(), verdict)
    needs = [(c.text, c.cited, c.invalid, c.delivered) for c in got.claims if c.needs_citation]
    assert needs == [
        ("Up to 5 unused days carry over.", ("hr-31", "hr-12"), (), True),
        ("Laptops last.", ("it-3",), (("zz", "HALLUCINATED_SOURCE"),), True),
        ("Ask BLUEJAY about it.", (), (), True),
    ]
    assert got.claims[2].delivered_invalid == ()  # the guard stripped [doc:zz]
    assert set(got.passages) == {"hr-31", "hr-12", "it-3"}  # no invisible source's text, ever
    assert [c.needs_citation for c in got.claims] == [False, True, True, True, False, False]
