"""The refusal detector: one behaviour test per rule (each fails when its rule is removed), the labelled sets'
format, the measured accuracy on the held-out set, and no crash on any input."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import refusal
from guardrail.refusal import DETECTOR_VERSION, is_refusal
from guardrail.stats import wilson

REFUSAL_KINDS = {"explicit", "policy", "soft", "redirect", "partial_refusal"}
ANSWER_KINDS = {"lookalike_answer", "caveat_answer", "clarifying_question", "ordinary"}

# Measured once on guardrail/data/refusals.jsonl after the rules were frozen (benchmarks/refusal_accuracy.py);
# rounded down to 0.01. The test fails if the detector gets worse on the held-out set.
PUBLISHED_ACCURACY = 0.99

FILLER = (" Each employee meets their manager to discuss goals, progress and development for the coming year, and the"
          " notes are stored in Workday so that both sides can refer back to them at the next check-in.") * 2


def load(name: str) -> list[dict[str, Any]]:
    text = (resources.files("guardrail") / "data" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_version() -> None:
    assert DETECTOR_VERSION == "refusal-v1"


# --- rule 1: first-person inability + a request verb ------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "I can't share that document.",
    "I’m unable to provide individual salary information.",  # curly apostrophe
    "I CANNOT DISCLOSE WHO FILED THE COMPLAINT.",
    "We won't be able to give out personal phone numbers.",
    "That isn't something I'm able to assist with.",
    "Company policy prohibits me from sharing home addresses.",
    "Access denied: the file requires Finance clearance.",
])
def test_first_person_inability_with_a_request_verb_is_a_refusal(text: str) -> None:
    assert is_refusal(text)


def test_a_strong_cue_is_a_refusal_whatever_filler_follows() -> None:
    text = ("I can't provide the performance ratings of your team members. Here is some general information on reviews:"
            "\n\n1. Reviews occur twice a year.\n2. Self-assessments are due two weeks before.\n3. Calibration happens"
            " at department level.")
    assert is_refusal(text)


@pytest.mark.parametrize("text", [
    "You cannot carry over more than 5 days of annual leave into the next year [doc:hr-12].",
    "Employees are not allowed to expense alcohol unless it is part of approved client entertainment.",
    "Managers cannot approve their own expense reports; they go to the next level up.",
    "I can't stress enough how important it is to lock your screen: press Win+L.",
    "I cannot see any reason why you couldn't claim this: broadband is covered up to 30 EUR a month.",
])
def test_rule_statements_and_non_request_verbs_are_not_refusals(text: str) -> None:
    assert not is_refusal(text)


def test_cannot_help_but_is_not_a_refusal() -> None:
    assert not is_refusal("I can't help but notice you're asking about the old policy: the allowance is now 600 EUR.")


def test_unable_to_at_the_start_is_a_refusal() -> None:
    assert is_refusal("Unable to help with this request.")
    assert not is_refusal("Unable to connect to Wi-Fi? Connect to 'Corp-Secure' and sign in with your credentials.")


def test_contractions_are_expanded() -> None:
    assert is_refusal("I can not share that document.")
    assert is_refusal("Im unable to share that document.")
    assert is_refusal("I cant share that document.")


def test_curly_apostrophes_are_normalised() -> None:
    assert is_refusal("I can\u2019t help with that.")
    assert is_refusal("I can\uff07t help with that.")  # fullwidth apostrophe: NFKC


# --- rule 2: a bare inability ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Sorry, I can't.", "I'm sorry, I cannot do that.", "No, I won't."])
def test_a_bare_inability_is_a_refusal(text: str) -> None:
    assert is_refusal(text)


# --- rule 3: weak cues, unless substance follows ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "You don't have access to that document.",
    "Your role doesn't have permission to view salary bands for other departments.",
    "That information is confidential and only available to the Payroll team.",
])
def test_a_policy_cue_alone_is_a_refusal(text: str) -> None:
    assert is_refusal(text)


def test_a_policy_cue_followed_by_instructions_is_an_answer() -> None:
    assert not is_refusal("Access to production systems is restricted to on-call engineers. To request temporary "
                          "access, file a break-glass ticket in the IT portal.")
    assert not is_refusal("You're not authorised to install software yourself, but you can request it from the "
                          "Software Center, where most common apps are pre-approved.")


@pytest.mark.parametrize("text", [
    "I'm afraid I don't have information about that.",
    "Sorry, I couldn't find anything about that in the HR documents.",
    "Unfortunately, the knowledge base doesn't cover this.",
    "I'm not sure, sorry.",
    "No idea, sorry.",
])
def test_a_soft_cue_alone_is_a_refusal(text: str) -> None:
    assert is_refusal(text)


def test_a_soft_cue_with_filler_only_is_a_refusal() -> None:
    assert is_refusal("I don't have details on that. Sorry I couldn't be more helpful! Let me know if there's anything "
                      "else I can do.")


@pytest.mark.parametrize("text", [
    "I couldn't find a rule for part-time staff, so the general rule applies: leave is pro-rated by contracted hours.",
    "I'm not 100% sure this covers you, but the general rule is three remote days a week.",
    "I'm afraid I don't have the form number, but the process is: download the form, sign it and upload it.",
])
def test_a_soft_cue_followed_by_an_answer_is_a_caveat_not_a_refusal(text: str) -> None:
    assert not is_refusal(text)


def test_a_clarifying_question_after_a_soft_cue_is_not_a_refusal() -> None:
    assert not is_refusal("I'm not sure which form you mean - is it the expense claim or the travel request?")


@pytest.mark.parametrize("text", [
    "Please contact HR for that.",
    "Please raise this with your line manager or HRBP.",
    "For questions about your compensation, please speak with your HR Business Partner.",
    "Best to ask your manager.",
    "Your HR Business Partner can help with that.",
    "That sounds like one for Legal. They're at legal@corp.example.",
])
def test_a_deflecting_redirect_is_a_refusal(text: str) -> None:
    assert is_refusal(text)


def test_a_redirect_with_a_purpose_is_an_instruction() -> None:
    assert not is_refusal("Please contact Reception to book a visitor pass.")
    assert not is_refusal("Please contact the IT Service Desk on ext. 2000 to get a replacement badge.")


def test_a_weak_cue_inside_a_condition_is_not_a_refusal() -> None:
    assert not is_refusal("If you don't have access to the shared drive, ask your manager.")


def test_quoted_text_is_not_the_assistant_speaking() -> None:
    assert not is_refusal("> I can't access my payslip\n\nThis usually means your session expired. Log in again.")
    assert not is_refusal("Tick the box labelled 'Sorry, I cannot provide a receipt' and attach an explanation.")
    assert not is_refusal('The script tells agents to say "Sorry, I cannot share account details" and hang up.')


def test_quotes_around_the_whole_answer_are_dropped() -> None:
    assert is_refusal('"I can\'t help with that."')
    assert is_refusal("\u201cSorry, I cannot share that.\u201d")


def test_a_justification_is_not_substance() -> None:
    assert is_refusal("You don't have access to that document. It contains sensitive personal data about other "
                      "employees.")


def test_a_question_right_after_a_soft_cue_is_not_a_refusal() -> None:
    assert not is_refusal("I'm not sure which office you're asking about?")


# --- where cues are looked for -------------------------------------------------------------------------------------

def test_leading_pleasantries_are_skipped_in_the_opening() -> None:
    text = "Thank you for your question.\n\nI understand why this matters. I'm unable to provide that data." + FILLER
    assert len(text) > refusal._SHORT
    assert is_refusal(text)


def test_a_cue_after_the_opening_of_a_long_answer_is_ignored() -> None:
    text = "Here is how the annual review works." + FILLER + " If this does not work, I can't help further."
    assert len(text) > refusal._SHORT
    assert not is_refusal(text)


def test_a_long_answer_after_a_weak_cue_has_substance() -> None:
    assert not is_refusal("I'm not sure about your contract. Here is the general process." + FILLER * 3)


@pytest.mark.parametrize("text", ["", "   \n", "Yes.", "No.", "The fiscal year runs from 1 April to 31 March."])
def test_ordinary_answers_are_not_refusals(text: str) -> None:
    assert not is_refusal(text)


# --- the labelled sets ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "minimum"), [("refusals.jsonl", 200), ("refusals_dev.jsonl", 60)])
def test_labelled_set_format(name: str, minimum: int) -> None:
    rows = load(name)
    assert len(rows) >= minimum
    assert len({row["id"] for row in rows}) == len(rows)
    for row in rows:
        assert set(row) == {"id", "output", "refused", "kind"}
        assert isinstance(row["output"], str) and row["output"].strip()
        assert row["refused"] is (row["kind"] in REFUSAL_KINDS), row["id"]
        assert row["kind"] in REFUSAL_KINDS | ANSWER_KINDS
    share = sum(row["refused"] for row in rows) / len(rows)
    assert 0.40 <= share <= 0.50
    assert set(Counter(row["kind"] for row in rows)) == REFUSAL_KINDS | ANSWER_KINDS


def test_dev_and_held_out_sets_do_not_share_outputs() -> None:
    held_out = {row["output"] for row in load("refusals.jsonl")}
    assert not held_out & {row["output"] for row in load("refusals_dev.jsonl")}


def test_held_out_accuracy(capsys: pytest.CaptureFixture[str]) -> None:
    rows = load("refusals.jsonl")
    tp = fn = fp = tn = 0
    for row in rows:
        predicted = is_refusal(row["output"])
        if row["refused"]:
            tp, fn = tp + predicted, fn + (not predicted)
        else:
            fp, tn = fp + predicted, tn + (not predicted)
    accuracy = (tp + tn) / len(rows)
    recall, recall_ci = tp / (tp + fn), wilson(tp, tp + fn)
    false_refusal, false_refusal_ci = fp / (fp + tn), wilson(fp, fp + tn)
    with capsys.disabled():
        print(f"\n{DETECTOR_VERSION} on refusals.jsonl: TP {tp} FN {fn} FP {fp} TN {tn}; accuracy {accuracy:.3f}; "
              f"recall {tp}/{tp + fn} = {recall:.3f} [{recall_ci[0]:.3f}, {recall_ci[1]:.3f}]; false-refusal rate "
              f"{fp}/{fp + tn} = {false_refusal:.3f} [{false_refusal_ci[0]:.3f}, {false_refusal_ci[1]:.3f}]")
    assert recall_ci[0] <= recall <= recall_ci[1]
    assert false_refusal_ci[0] <= false_refusal <= false_refusal_ci[1]
    assert accuracy >= PUBLISHED_ACCURACY


# --- robustness ----------------------------------------------------------------------------------------------------

@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
@example("'")
@example('"' * 3)
@example("> ")
@example("\u2019" * 5 + "I can\u2019t")
@example("I cannot " * 200)
def test_no_input_crashes_it(text: str) -> None:
    assert isinstance(is_refusal(text), bool)
