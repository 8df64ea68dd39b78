"""The ``lexical`` judge: tables of pairs per phenomenon (our own passages, never the held-out set), properties."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guardrail.judges import JudgeFailure, Probabilities, load_judge
from guardrail.judges.lexical import LexicalJudge

E, N, C = "entailment", "neutral", "contradiction"
JUDGE = LexicalJudge()

LEAVE = (
    "Annual leave\n"
    "Full-time employees are entitled to 25 days of paid annual leave per calendar year. Part-time employees receive "
    "leave in proportion to their contracted hours. Up to 5 unused days may be carried over into the following year; "
    "any remaining days expire on 31 March. Leave requests must be submitted through the HR portal at least two "
    "weeks before the first day of leave."
)
EXPENSES = (
    "Travel expenses\n"
    "Employees travelling on company business are reimbursed for economy-class flights only. Business-class travel "
    "is not permitted unless approved in advance by a Vice President. Hotel costs are reimbursed up to $200 per night "
    "in most cities and up to $300 per night in London, New York and Tokyo. Receipts must be submitted within 30 "
    "days of the end of the trip. Meals are covered up to a daily allowance of $75."
)
DEVICES = (
    "Laptop and device policy\n"
    "Every new employee receives a company laptop on their first day. Staff may choose between a Windows laptop and "
    "a MacBook. Personal devices must not be used to access customer data. All laptops must be encrypted with "
    "BitLocker or FileVault, and passwords must be at least 12 characters long. Lost or stolen devices must be "
    "reported to the IT Service Desk within 24 hours."
)
REMOTE = (
    "Remote work\n"
    "Employees may work from home up to two days per week with their manager's approval. Working from outside the "
    "country is prohibited for more than 10 working days per year. The office in Berlin is open Monday to Friday "
    "from 8:00 to 19:00."
)
TRAINING = (
    "Security training is mandatory for all staff and must be completed by 30 June 2025. The training takes about "
    "45 minutes and is available in English and German. Contractors are not required to complete the training but "
    "are encouraged to do so. Phishing simulations are run every quarter; in Q3 2024 the click rate fell to 4%, "
    "down from 11% in Q2."
)
BENEFITS = (
    "The company contributes 5% of base salary to the pension plan. Employees can contribute an additional 3%, "
    "which the company matches at 50%. Health insurance is provided through Allianz and covers spouses and children "
    "under 25. Gym membership is reimbursed up to €40 per month."
)
DATA = "Personal data must not be transferred outside the EU without a data processing agreement."
FILLER = [
    "The cafeteria on the ground floor serves breakfast from 7:30 and lunch from 11:30.",
    "Bicycle racks are located behind the east entrance next to the loading dock.",
    "The library lends books and magazines to anyone with a valid badge.",
    "Printers on every floor print double-sided by default to save paper.",
    "The rooftop terrace is closed during winter for maintenance of the garden.",
    "Lockers can be reserved at reception and are assigned for one quarter at a time.",
    "Meeting rooms are booked through the calendar and released after fifteen minutes without check-in.",
    "Recycling bins for glass, paper and plastic stand in each kitchen.",
    "The fitness room in the basement has showers and towels for everyone.",
    "Parking spaces in the garage are reserved for car sharing and electric vehicles.",
    "Plants in the open-plan areas are watered by an external gardening service.",
    "Coffee machines are descaled every Thursday evening by the facilities team.",
    "Umbrellas can be borrowed from the stand at the main door and returned the next day.",
    "Lost and found items are kept at reception for a month before being donated.",
    "Fire drills take place twice a year and everyone must leave the building.",
    "The mail room sorts incoming letters and parcels before noon.",
    "Water dispensers offer still and sparkling water on every floor.",
    "Quiet rooms are meant for focused work and phone calls are discouraged there.",
    "Desk lamps and monitor arms can be requested through the facilities portal.",
    "The first-aid kit is in the kitchen cupboard next to the fridge.",
]
VISITORS = "Visitors must sign in at reception and be accompanied by an employee at all times inside the building."
LONG = " ".join(FILLER[:10]) + " " + VISITORS + " " + " ".join(FILLER[10:])


def label(premise: str, hypothesis: str) -> str:
    (result,) = JUDGE.judge([(premise, hypothesis)])
    assert isinstance(result, Probabilities)
    return result.label


def check(premise: str, hypothesis: str, expected: str) -> None:
    got = label(premise, hypothesis)
    assert got == expected, JUDGE.explain(premise, hypothesis)


NUMBERS = [
    (LEAVE, "Full-time employees get 25 days of paid leave each year.", E),
    (LEAVE, "Full-time employees are entitled to 30 days of paid annual leave.", C),
    (LEAVE, "Employees can carry over up to 5 unused days into the next year.", E),
    (LEAVE, "Up to 10 unused days may be carried over into the following year.", C),
    (LEAVE, "Full-time employees are entitled to twenty-five days of annual leave.", E),
    (LEAVE, "Full-time employees are entitled to twenty days of annual leave.", C),
    (EXPENSES, "Receipts must be submitted within 30 days of the end of the trip.", E),
    (EXPENSES, "Receipts must be submitted within 60 days of the end of the trip.", C),
    (EXPENSES, "The daily meal allowance is $75.", E),
    (EXPENSES, "The daily meal allowance is $100.", C),
    (EXPENSES, "Hotel costs in London are reimbursed up to $300 per night.", E),
    (EXPENSES, "Hotel costs are reimbursed up to $250 per night in most cities.", C),
    (DEVICES, "Passwords must be at least 12 characters long.", E),
    (DEVICES, "Passwords must be at least 8 characters long.", C),
    (DEVICES, "Lost devices must be reported within 24 hours.", E),
    (DEVICES, "Lost devices must be reported within 48 hours.", C),
    (BENEFITS, "Gym membership is reimbursed up to €40 a month.", E),
    (BENEFITS, "Gym membership is reimbursed up to €60 per month.", C),
    ("The project has 1,200 active users.", "The project has 1200 active users.", E),
    ("The budget for the pilot is $1.2 million.", "The pilot's budget is $1,200,000.", E),
    ("The budget for the pilot is $1.2 million.", "The pilot's budget is $1.2k.", C),
    ("Each team may order up to three monitors.", "Each team may order up to 3 monitors.", E),
    ("Each team may order up to three monitors.", "Each team may order up to four monitors.", C),
    ("Pull requests larger than 400 lines should be split.", "Pull requests over 400 lines should be split.", E),
    ("Pull requests larger than 400 lines should be split.", "Pull requests over 200 lines should be split.", C),
    ("Rooms on floors 3 and 4 can be booked.", "Rooms on the fourth floor can be booked.", E),
    ("A certificate is needed from the fourth day of illness.", "A certificate is needed from the first day.", C),
    ("Annual leave (days): 25", "Annual leave is 25 days.", E),
    ("The SOC is staffed 24/7.", "The SOC is staffed for 24 hours.", N),  # a bare 24 is not 24 hours
    # A case ("a €5,000 grant") against a rule's range or threshold: inside it, the rule applies; outside, the
    # passage does not say; the rule restated with other values contradicts it.
    ("Grants between €2,000 and €8,000 need a committee vote.", "A €5,000 grant needs a committee vote.", E),
    ("Grants between €2,000 and €8,000 need a committee vote.", "A €9,500 grant needs a committee vote.", N),
    ("Grants between €2,000 and €8,000 need a committee vote.", "Grants between €2,000 and €6,000 need a "
     "committee vote.", C),
    ("Trips longer than 5 days need a travel plan.", "A 7-day trip needs a travel plan.", E),
    ("Trips longer than 5 days need a travel plan.", "Trips longer than 3 days need a travel plan.", C),
    ("Employees are fully vested after four years of service.", "Once an employee has four years of service, they "
     "are fully vested.", E),
]

UNITS = [
    (LEAVE, "Leave requests must be submitted through the HR portal at least 14 days in advance.", E),
    (DEVICES, "Lost devices must be reported to the IT Service Desk within one day.", E),
    (DEVICES, "Lost devices must be reported to the IT Service Desk within 24 days.", C),
    (REMOTE, "With their manager's approval, employees may work from home up to two days per month.", C),
    (REMOTE, "Employees may work from home two days a week with their manager's approval.", E),
    (EXPENSES, "Hotel costs in Tokyo are reimbursed up to €300 per night.", C),
    (TRAINING, "The security training takes about 45 minutes.", E),
    (TRAINING, "The security training takes about 45 hours.", C),
    ("The warranty lasts 2 years.", "The warranty lasts 24 months.", E),
    ("The warranty lasts 2 years.", "The warranty lasts 36 months.", C),
    ("The office opens at 9 am.", "The office opens at 9:00.", E),
    ("The office opens at 9 am.", "The office opens at 10 a.m.", C),
    ("Guest sessions expire after half an hour.", "Guest sessions expire after 30 minutes.", E),
    ("Rooms can be booked for up to 4 hours.", "Rooms can be booked for a whole day.", C),
    ("Reviews are held within 10 working days.", "Reviews are held within 10 days.", N),  # working days are not days
    ("Reviews are held within 10 working days.", "Reviews are held within 5 business days.", C),
    ("The phone allowance is €40 per month.", "The phone allowance is €480 a year.", E),
    ("The phone allowance is €40 per month.", "The phone allowance is €600 a year.", C),
    ("Each team has a monthly budget of €500.", "Each team has a budget of €500 per month.", E),
    ("Each team has a monthly budget of €500.", "Each team has a budget of €500 per week.", C),
    ("Backups are restored as a test every two weeks.", "Backups are restored as a test every week.", C),
    ("Staff accrue 20 days of leave per calendar year.", "Staff accrue 20 days of leave over a calendar year.", E),
]

PERCENTAGES = [
    (BENEFITS, "The company contributes 5% of base salary to the pension plan.", E),
    (BENEFITS, "The company contributes 50% of base salary to the pension plan.", C),
    (BENEFITS, "The company contributes 5 percent of base salary to the pension plan.", E),
    (BENEFITS, "Employees can contribute an additional 3%, which the company matches at 50%.", E),
    (BENEFITS, "Employees can contribute an additional 3%, which the company matches at 100%.", C),
    (TRAINING, "In Q3 2024 the phishing click rate fell to 4 percent.", E),
    (TRAINING, "In Q3 2024 the phishing click rate fell to 14%.", C),
]

DATES = [
    (LEAVE, "Remaining unused days expire on March 31.", E),
    (LEAVE, "Remaining unused days expire on 30 April.", C),
    (TRAINING, "Security training must be completed by 2025-06-30.", E),
    (TRAINING, "Security training must be completed by 30 June 2024.", C),
    (TRAINING, "Security training must be completed by the end of July 2025.", C),
    (TRAINING, "The click rate fell to 4% in the third quarter of 2024.", E),
    (TRAINING, "The click rate fell to 4% in Q4 2024.", C),
    (REMOTE, "The office in Berlin is open from Monday to Friday.", E),
    (REMOTE, "The office in Berlin is open on Saturdays.", C),
    ("The audit is scheduled for 12 May 2025.", "The audit is scheduled for May 12, 2025.", E),
    ("The audit is scheduled for 12 May 2025.", "The audit is scheduled for 12/05/2026.", C),
    ("The audit is scheduled for 12 May 2025.", "The audit is scheduled for a Monday.", E),  # 12 May 2025 was one
    ("The audit is scheduled for 12 May 2025.", "The audit is scheduled for a Friday.", C),
    ("The office is closed on 25 and 26 December.", "The office is closed on December 26.", E),
    ("The office is closed on 25 and 26 December.", "The office is closed on 27 December.", C),
    ("The office is closed on December 25 and 26.", "The office is closed on 25 December.", E),
    # A year named once holds for the dates after it, but only as a hint: it never contradicts.
    ("The new building opens in 2027. The move is planned for 3 May.", "The move is planned for 3 May 2027.", E),
    ("The new building opens in 2027. The move is planned for 3 May.", "The move is planned for 3 May 2026.", N),
    # Months tell calendar quarters, not fiscal ones.
    ("In 2025, the audit closes in May.", "The audit closes in Q2 2025.", E),
    ("In fiscal 2025, the audit closes in May.", "The audit closes in Q2 2025.", N),
    ("Open enrollment ends on 21 November.", "Open enrollment closes on 21 November.", E),
]

NEGATION = [
    (EXPENSES, "Business-class travel is not allowed without advance approval from a Vice President.", E),
    (EXPENSES, "Business-class travel requires advance approval by a Vice President.", E),
    (EXPENSES, "Business-class travel is not permitted.", E),
    (EXPENSES, "Business-class travel is permitted.", N),  # only with the approval
    (DEVICES, "Personal devices can be used to access customer data.", C),
    (DEVICES, "Customer data must not be accessed from personal devices.", E),
    (DEVICES, "Employees must never use personal devices to access customer data.", E),
    (TRAINING, "Contractors do not have to complete the security training.", E),
    (TRAINING, "Contractors are required to complete the security training.", C),
    (LEAVE, "Part-time employees do not receive annual leave.", C),
    ("Refunds are issued for cancelled orders.", "Refunds are not issued for cancelled orders.", C),
    ("Refunds are not issued for cancelled orders.", "Cancelled orders are never refunded.", E),
    ("Tickets are non-refundable.", "Tickets are refundable.", C),
    ("Claims must be filed no later than 31 March.", "Claims must be filed by 31 March.", E),
    ("Claims must be filed no later than 31 March.", "Claims must not be filed by 31 March.", C),
    ("The guest network requires no password.", "The guest network requires a password.", C),
    ("The guest network requires no password.", "No password is needed for the guest network.", E),
    ("Passwords expire every 90 days and cannot be reused.", "Passwords expire every 90 days.", E),
    ("Passwords expire every 90 days and cannot be reused.", "Passwords can be reused.", C),
    ("Bridge days are not granted automatically; they must be taken as leave.", "Bridge days must be taken as "
     "leave.", E),
    ("Bridge days are not granted automatically; they must be taken as leave.", "Bridge days are granted "
     "automatically.", C),
    (DATA, "Transferring personal data outside the EU requires a data processing agreement.", E),
    (DATA, "Personal data may be transferred outside the EU without a data processing agreement.", C),
    (DATA, "Personal data must not be transferred outside the EU.", E),
    ("Streaming sites are blocked on the guest network.", "Streaming sites are allowed on the guest network.", C),
    ("Nobody is obliged to attend the summer party.", "Attending the summer party is optional.", E),
]

MODALITY = [
    # "may" and "must" neither entail nor contradict each other: a stronger or weaker rule is not stated.
    (REMOTE, "Employees must work from home two days per week.", N),
    (DEVICES, "Staff must choose a Windows laptop.", N),
    (DEVICES, "Lost or stolen devices may be reported to the IT Service Desk.", N),
    (DEVICES, "Staff can choose between a Windows laptop and a MacBook.", E),
    (DEVICES, "All laptops have to be encrypted with BitLocker or FileVault.", E),
    (DEVICES, "Encrypting laptops with BitLocker or FileVault is optional.", C),
    (TRAINING, "Security training is compulsory for all staff.", E),
    (TRAINING, "Security training is optional for all staff.", C),
    (REMOTE, "Working from outside the country is allowed for more than 10 working days per year.", C),
    ("Visitors may use the guest Wi-Fi.", "Visitors are permitted to use the guest Wi-Fi.", E),
    ("Visitors may use the guest Wi-Fi.", "Visitors are prohibited from using the guest Wi-Fi.", C),
    ("Smoking is prohibited in the building.", "Smoking is forbidden inside the building.", E),
    ("Smoking is prohibited in the building.", "Smoking is permitted in the building.", C),
]

ENTITIES = [
    (EXPENSES, "Hotel costs in Tokyo are reimbursed up to $300 per night.", E),
    (EXPENSES, "Hotel costs in Paris are reimbursed up to $300 per night.", C),
    (BENEFITS, "Health insurance is provided by Allianz.", E),
    (BENEFITS, "Health insurance is provided through AXA.", C),
    (REMOTE, "The office in Hamburg is open Monday to Friday from 8:00 to 19:00.", C),
    (DEVICES, "Lost devices must be reported to the Security Operations Center within 24 hours.", C),
    (TRAINING, "The training is available in English and French.", C),
    ("Our Berlin office hosts the engineering team.", "The engineering team is based in the Berlin office.", E),
    ("Our Berlin office hosts the engineering team.", "The engineering team is based in the Munich office.", C),
    ("Expense reports are filed in Concur.", "Expense reports are filed in SAP Concur.", N),
]

PARAPHRASE = [
    (DEVICES, "New staff get a company notebook on their first day.", E),
    (LEAVE, "Leave requests must be submitted via the HR portal.", E),
    (EXPENSES, "Only economy-class flights are reimbursed for business travel.", E),
    (BENEFITS, "Spouses and children under 25 are covered by the health insurance.", E),
    (REMOTE, "With manager approval, staff can work from home for up to two days a week.", E),
    (TRAINING, "All staff members are required to complete security training.", E),
    ("The manager approves all purchases above $500.", "Purchases over $500 need approval by the manager.", E),
    ("Employees receive a laptop on their first day.", "Staff members get a laptop on day one.", E),
    ("Rooms on floors 3 and 4 can be booked.", "Rooms on the third and fourth floors can be booked.", E),
    ("Employees get 25 days of leave.", "Employees get 25 days of leave [doc:hr-1][2].", E),
]

ADDED = [
    (LEAVE, "Full-time employees are entitled to 25 days of paid annual leave plus 3 wellness days.", N),
    (DEVICES, "Every new employee receives a company laptop and a mobile phone on their first day.", N),
    (EXPENSES, "Receipts must be submitted in Concur within 30 days of the end of the trip.", N),
    (TRAINING, "Security training is mandatory for all staff and takes place in the Berlin office.", N),
    (BENEFITS, "Gym membership has been reimbursed up to €40 per month since January 2024.", N),
    (REMOTE, "Employees may work from home up to two days per week, and the company pays for their internet.", N),
    (DEVICES, "The cafeteria serves vegetarian meals every day.", N),
    (BENEFITS, "Employees receive 25 days of annual leave.", N),
    ("The team has 12 engineers.", "The team has 12 engineers and 4 designers.", N),
]

MULTI = LEAVE + "\n\n" + DEVICES
MULTI_PASSAGE = [
    (MULTI, "Full-time employees are entitled to 25 days of paid annual leave, and every new employee receives a "
            "company laptop.", E),
    (MULTI, "Passwords must be at least 12 characters long.", E),
    (MULTI, "Full-time employees are entitled to 20 days of paid annual leave.", C),
    (MULTI, "Personal devices can be used to access customer data.", C),
    (MULTI, "New employees receive a company laptop and a parking space on their first day.", N),
    (DEVICES + "\n\n" + LEAVE, "Up to 5 unused days of leave may be carried over into the following year.", E),
]

LONG_PASSAGES = [
    (LONG, "Visitors must be accompanied by an employee at all times inside the building.", E),
    (LONG, "Visitors have to sign in at reception.", E),
    (LONG, "Visitors may walk around the building without being accompanied by an employee.", C),
    (LONG, "Visitors do not need to sign in at reception.", C),
    (LONG, "Visitors can borrow books from the library and park electric vehicles in the garage.", N),
    (LONG, "The cafeteria serves lunch from 12:30.", C),
    (LONG, "Fire drills take place twice a year.", E),
    (LONG, "Fire drills take place once a year.", C),
]


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), NUMBERS)
def test_numbers(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), UNITS)
def test_units(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), PERCENTAGES)
def test_percentages(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), DATES)
def test_dates(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), NEGATION)
def test_negation(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), MODALITY)
def test_modality(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), ENTITIES)
def test_entities(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), PARAPHRASE)
def test_paraphrase(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), ADDED)
def test_added_specifics(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), MULTI_PASSAGE)
def test_multi_passage(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), LONG_PASSAGES)
def test_long_passage_support_in_the_middle(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


def test_long_passage_is_long() -> None:
    assert len(LONG) > 1500 and LONG.index(VISITORS) > len(LONG) / 3


# ------------------------------------------------------------------------------------------ why it said so


@pytest.mark.parametrize(
    ("premise", "hypothesis", "kind"),
    [
        (LEAVE, "Full-time employees are entitled to 30 days of paid annual leave.", "number"),
        (TRAINING, "Security training must be completed by 30 June 2024.", "date"),
        (BENEFITS, "Health insurance is provided through AXA.", "entity"),
        (DEVICES, "Personal devices can be used to access customer data.", "polarity"),
        ("Meetings start before 9 am.", "Meetings start after 9 am.", "antonym"),
    ],
)
def test_conflict_kinds(premise: str, hypothesis: str, kind: str) -> None:
    assert [c.kind for c in JUDGE.explain(premise, hypothesis).conflicts] == [kind]


def test_added_specific_is_named() -> None:
    ex = JUDGE.explain(LEAVE, "Full-time employees are entitled to 25 days of paid annual leave plus 3 wellness days.")
    assert ex.conflicts == () and ex.probabilities.label == N
    assert any(a.startswith("number: 3 wellness days") for a in ex.added + ex.weak)


def test_contradiction_needs_the_same_slot() -> None:
    """A different number of something else is an added specific, not a contradiction."""
    ex = JUDGE.explain("The team has 12 engineers.", "The team has 3 designers.")
    assert ex.conflicts == () and ex.probabilities.label == N


def test_the_slot_picks_the_right_number() -> None:
    premise = "Managers approve requests within 3 days. Appeals are decided within 10 days."
    assert label(premise, "Appeals are decided within 10 days.") == E
    assert label(premise, "Appeals are decided within 3 days.") == C
    assert label(premise, "Managers approve requests within 10 days.") == C


def test_probabilities_are_graded() -> None:
    """Full support scores higher than partial support, which scores higher than none."""
    full = JUDGE.explain(LEAVE, "Full-time employees are entitled to 25 days of paid annual leave.")
    partial = JUDGE.explain(LEAVE, "Full-time employees are entitled to 25 days of paid leave and a sabbatical.")
    none = JUDGE.explain(LEAVE, "The cafeteria serves vegetarian meals.")
    assert full.probabilities.entailment > partial.probabilities.entailment > none.probabilities.entailment
    assert full.coverage == 1.0 and none.coverage == 0.0


def test_judge_attributes_and_loader() -> None:
    judge = load_judge("lexical")
    assert isinstance(judge, LexicalJudge)
    assert (judge.name, judge.version, judge.window_chars) == ("lexical", "3", 4000)


# -------------------------------------------------------------------------------------------------- properties

ALL_PAIRS = [(p, h) for table in (NUMBERS, UNITS, PERCENTAGES, DATES, NEGATION, MODALITY, ENTITIES, PARAPHRASE,
                                   ADDED, MULTI_PASSAGE, LONG_PASSAGES) for p, h, _ in table]


def test_batch_order_and_determinism() -> None:
    forward = JUDGE.judge(ALL_PAIRS)
    backward = LexicalJudge().judge(ALL_PAIRS[::-1])
    assert len(forward) == len(ALL_PAIRS)
    assert forward == backward[::-1]
    assert forward == [JUDGE.judge([pair])[0] for pair in ALL_PAIRS]
    assert len({r.label for r in forward if isinstance(r, Probabilities)}) == 3


def test_deterministic_across_processes(tmp_path: Path) -> None:
    """The same answers, to the last bit, whatever the string hash seed (set and dict orders differ)."""
    data = tmp_path / "pairs.json"
    nli = Path(__file__).resolve().parent.parent / "nli"
    dev = [(r["premise"], r["hypothesis"]) for name in ("dev_c.jsonl", "dev_d.jsonl")
           for r in map(json.loads, (nli / name).read_text().splitlines())]
    pairs = [*ALL_PAIRS, *dev]  # (the development sets' messier text: sums over sets of words, say, in any order)
    data.write_text(json.dumps(pairs))
    script = (
        "import json, sys; from guardrail.judges.lexical import LexicalJudge; "
        "pairs = [tuple(p) for p in json.load(open(sys.argv[1]))]; "
        "print(json.dumps([list(r) for r in LexicalJudge().judge(pairs)]))"
    )
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script, str(data)], env=env, capture_output=True, text=True,
                              check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop()) == [list(r) for r in JUDGE.judge(pairs)]


def test_probabilities_sum_to_one() -> None:
    for result in JUDGE.judge(ALL_PAIRS):
        assert isinstance(result, Probabilities)
        assert math.isclose(sum(result), 1.0, abs_tol=1e-9)
        assert all(0.0 <= x <= 1.0 for x in result)


@pytest.mark.parametrize(
    ("premise", "hypothesis"),
    [("", ""), ("", "Employees get 25 days."), (LEAVE, ""), ("   \n\n  ", "?!"), ("\u200b\ufeff", "\u00ad")],
)
def test_empty_and_blank_are_neutral(premise: str, hypothesis: str) -> None:
    assert label(premise, hypothesis) == N


def test_odd_unicode() -> None:
    """Full-width digits, curly quotes, non-Latin scripts, combining marks and emoji are read or ignored."""
    assert label("Employees get ２５ days of leave.", "Employees get 25 days of leave.") == E
    assert label("Employees get ２５ days of leave.", "Employees get 30 days of leave.") == C
    german = "Mitarbeiter erhalten 25 Urlaubstage in München."
    assert label(german, german) == E
    assert label("Сотрудники получают 25 дней отпуска.", "Сотрудники получают 30 дней отпуска.") == C
    for text in ("٣٠ يوما", "e\u0301\u0301\u0301 😀🇩🇪 \udcff", "x" * 5000, "1" * 400, "$$$%%%", "Q9 FY99 31/31/2031"):
        assert isinstance(JUDGE.judge([(text, text), (LEAVE, text), (text, "Employees get 25 days.")])[0],
                          Probabilities)


TEXT = st.text(
    st.characters(exclude_categories=["Cs"]) | st.sampled_from(list(" \n.,;:-%$€0123456789")), max_size=300
) | st.lists(
    st.sampled_from("not no must may cannot 25 30 days weeks % $ 2025 March 31 Q3 Berlin Munich IT the staff , . \n"
                    "twenty-five at least up to per week Monday 9 am 12:00 non-refundable".split(" ")),
    max_size=40,
).map(" ".join)


@given(TEXT, TEXT)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_never_crashes_and_sums_to_one(premise: str, hypothesis: str) -> None:
    (result,) = JUDGE.judge([(premise, hypothesis)])
    assert not isinstance(result, JudgeFailure), result
    assert math.isclose(sum(result), 1.0, abs_tol=1e-9)
    assert all(0.0 <= x <= 1.0 for x in result)


@given(TEXT)
@settings(max_examples=200, deadline=None)
def test_a_text_entails_itself(text: str) -> None:
    """Whatever a text says, it never contradicts itself."""
    (result,) = JUDGE.judge([(text, text)])
    assert isinstance(result, Probabilities)
    assert result.label != C


# ---------------------------------------------------------------------------------------- known limitations

LIMITATIONS = [
    # A swapped relation: every word and name is in the passage.
    ("Alice reports to Bob.", "Bob reports to Alice.", C),
    # Paraphrase far from the passage's words.
    ("Staff are entitled to 25 days of paid annual leave.", "Employees have five weeks of vacation.", E),
    # One added noun in a long claim whose other words are all in the passage.
    (LEAVE + "\n\n" + DEVICES, "New employees receive a company laptop and a company car on their first day.", N),
    # The wrong one of two values that both appear in the aligned clause.
    ("Full-time staff receive 25 days of leave, part-time staff 15 days.", "Part-time staff receive 25 days.", C),
]


@pytest.mark.xfail(strict=True, reason="a lexical heuristic cannot see this (documented limitation)")
@pytest.mark.parametrize(("premise", "hypothesis", "expected"), LIMITATIONS)
def test_known_limitations(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


# ------------------------------------------------------------------------------------ rules of version 2
# Each case below was judged otherwise by version 1; each fails when its rule is taken out.

def test_no_later_than_is_a_deadline() -> None:
    """"no later than 30 days" is at most 30 days (not "later than": more than)."""
    ex = JUDGE.explain("Expense reports must be submitted within 30 days of the trip.",
                       "Expense reports must be submitted no later than 30 days after the trip.")
    assert not [c for c in ex.conflicts if c.kind == "number"]


def test_not_even_does_not_cancel_never() -> None:
    ex = JUDGE.explain("Employees must not share their passwords with anyone.",
                       "Passwords must never be shared, not even with the service desk.")
    assert not [c for c in ex.conflicts if c.kind == "polarity"]


def test_a_condition_after_a_comma_keeps_its_negation() -> None:
    premise = "Personal use of company phones is permitted, provided it does not affect work."
    assert label(premise, "Personal use of company phones is prohibited.") == C
    assert not JUDGE.explain(premise, "Personal use of company phones is permitted.").conflicts


def test_hyphenated_ordinal_quarter() -> None:
    assert label("Q2 results are published on 25 July.", "Second-quarter results are published on 25 July.") == E


def test_a_day_inside_a_date_range_is_stated() -> None:
    ex = JUDGE.explain("The plant is closed from December 22 through January 2.", "The plant is closed on December 29.")
    assert not ex.conflicts and ex.probabilities.label == E


def test_a_day_after_an_after_bound() -> None:
    ex = JUDGE.explain("Staff are not eligible for the bonus if they joined after September 1.",
                       "Staff who joined on October 10 are not eligible for the bonus.")
    assert not [c for c in ex.conflicts if c.kind == "date"]


def test_an_exact_date_overrides_a_year_in_the_same_slot() -> None:
    premise = "Fiscal year 2025 began on April 1, 2024 and ends on March 31, 2025."
    assert label(premise, "Fiscal year 2025 ends on December 31, 2025.") == C
    assert label(premise, "Fiscal year 2025 ends on 31 March 2025.") == E


def test_another_modifier_of_the_subject_is_another_thing() -> None:
    """"The antivirus agent" is not "the VPN agent": the claim speaks of something the passage does not."""
    premise = "The VPN agent must be updated before May 1."
    assert label(premise, "The antivirus agent must be updated before May 1.") == N


def test_never_contradicts_a_rule_with_an_exception() -> None:
    premise = "Interns may not access the finance system without a named sponsor."
    assert label(premise, "Interns are never allowed to access the finance system.") == C


def test_any_contradicts_a_rule_with_an_exception_and_only_agrees() -> None:
    premise = "The use of translation tools with client data is prohibited unless the tool is approved by Legal."
    assert label(premise, "Staff can use any translation tool with client data.") == C
    assert not [c for c in JUDGE.explain(premise, "Only approved translation tools may be used with client data.")
                .conflicts if c.kind == "polarity"]


def test_no_limit_is_an_unbounded_permission() -> None:
    premise = "Working from another country is not permitted for more than 15 days per year, unless HR agrees."
    assert label(premise, "There is no limit on working from another country.") == C


def test_a_case_worth_an_amount() -> None:
    """"a gift worth $300" is a case of the rule's threshold, not another threshold."""
    ex = JUDGE.explain("Gifts worth more than $50 may not be accepted.", "Staff cannot accept a gift worth $300.")
    assert not ex.conflicts and not ex.weak and ex.probabilities.label == E


@pytest.mark.parametrize(("premise", "hypothesis"), [
    ("Remote access requires MFA.", "Remote access requires multi-factor authentication."),
    ("Report incidents to the Network Operations Center.", "Report incidents to the NOC."),
])
def test_acronyms_and_their_expansions(premise: str, hypothesis: str) -> None:
    assert label(premise, hypothesis) == E


@pytest.mark.parametrize(("premise", "hypothesis"), [
    ("Call logs are kept for 18 months.", "Call logs are kept for a year and a half."),
    ("Urgent tickets are answered within 15 minutes.", "Urgent tickets are answered within a quarter of an hour."),
])
def test_fractions_of_units(premise: str, hypothesis: str) -> None:
    ex = JUDGE.explain(premise, hypothesis)
    assert not ex.conflicts and ex.probabilities.label == E


def test_number_words_before_two_modifiers_and_a_unit() -> None:
    ex = JUDGE.explain("Up to 3 days of leave may be carried over.",
                       "Up to three unused holiday days may be carried over.")
    assert not [a for a in ex.added if a.startswith("number")] and not ex.conflicts


def test_unit_abbreviations() -> None:
    ex = JUDGE.explain("Mileage is reimbursed at 0.40 EUR per kilometre.", "Mileage is reimbursed at 40 cents per km.")
    assert not ex.conflicts


def test_a_duration_is_not_a_rate_period() -> None:
    """"ten years" of service says nothing against "20 days per year" of leave."""
    ex = JUDGE.explain("Staff receive 20 days of leave per year.", "After ten years, staff receive 30 days of leave.")
    assert not [c for c in ex.conflicts if c.claim == "ten years"]


def test_for_all_against_a_rule_with_an_exception() -> None:
    """Once a known limitation: a quantifier ("for all") against a condition ("unless approved")."""
    assert label(EXPENSES, "Business-class travel is allowed for all employees.") == C


# ------------------------------------------------------------------------------------ rules of version 3
# Each case below was judged otherwise by version 2; each fails when its rule (or the lexicon) is taken out.

VERSION_3 = [
    # a negation that turns a bound round: "cannot ... more than 9" is "at most 9"
    ("Drivers cannot drive more than 9 hours a day.", "Drivers may drive up to 9 hours a day.", E),
    ("Drivers cannot drive more than 9 hours a day.", "Drivers may drive up to 11 hours a day.", C),
    # a table's cells are clauses of their own; "requests/min" is a rate
    ("Rate limits\nStarter: 100 requests/min | Pro: 1,000 requests/min | Enterprise: 5,000 requests/min",
     "The Pro plan allows 1,000 requests per minute.", E),
    ("Rate limits\nStarter: 100 requests/min | Pro: 1,000 requests/min | Enterprise: 5,000 requests/min",
     "The Pro plan allows 5,000 requests per minute.", C),
    # how often: "four times a day" is every 6 hours
    ("Production databases are backed up every 6 hours.", "Production databases are backed up four times a day.", E),
    ("Production databases are backed up every 6 hours.", "Production databases are backed up twice a day.", C),
    # a currency code before the amount; the case of a threshold
    ("Carrier invoices above USD 10,000 are approved by the Logistics Director.",
     "A USD 14,000 carrier invoice needs the Logistics Director's approval.", E),
    # a predicate that says "not"
    ("Inbound receiving at the Memphis warehouse is paused on 25 September.",
     "The Memphis warehouse will not receive inbound deliveries on 25 September.", E),
]


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), VERSION_3)
def test_rules_of_version_3(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis"), [
    ("Visitors are required to wear a badge at all times.", "Guests must wear a badge at all times."),
    ("The company provides free flu vaccinations at the on-site clinic every October.",
     "Free flu shots are offered at the on-site clinic every October."),
])
def test_wordnet_relations_cover_a_paraphrase(premise: str, hypothesis: str) -> None:
    """A synonym, a derivation or a word one step broader or narrower covers the claim's word (without the
    lexicon: coverage 0.75 and 0.67, "shot offer" an added specific)."""
    x = JUDGE.explain(premise, hypothesis)
    assert x.coverage >= 0.8 and not x.added and x.probabilities.label == E, x


def test_only_for_another_is_no_contradiction() -> None:
    """"Not on Pro" is what "only on Enterprise" implies: never a contradiction (version 2 named Pro against
    Enterprise as a swapped entity)."""
    assert label("SCIM provisioning is supported only on the Enterprise plan.",
                 "SCIM provisioning is not supported on the Pro plan.") != C


def test_a_case_in_an_if_clause_is_decided_by_the_threshold() -> None:
    """The values of an "if" clause are a case's, not values the rule states."""
    premise = ("The supplier shall deliver not less than 98% of order lines on time in each quarter. If on-time "
               "delivery falls below 95% in any quarter, the buyer may deduct 3% from that quarter's invoices.")
    x = JUDGE.explain(premise, "If only 94% of order lines arrive on time in a quarter, the buyer can deduct 3%.")
    assert not [c for c in x.conflicts if c.kind == "number"], x


def test_the_lexicon_relates_words_in_both_directions() -> None:
    from guardrail.judges.lexical import _analyse, _related

    premise = _analyse("Visitors sign in at reception and lunch is served at noon.")
    assert _related("guest", premise) == "visitor"  # narrower in the claim
    assert _related("meal", premise) == "lunch"  # broader in the claim
    assert _related("cafeteria", premise) is None


def test_the_model_matches_its_features() -> None:
    """The fitted weights were written for the features the judge computes (same count, same order)."""
    from guardrail.judges import _lexical_model as model
    from guardrail.judges.lexical import _features

    features, _ = _features(LEAVE, "Employees get 25 days of leave.")
    assert len(features) == len(model.FEATURES) == len(model.MEAN) == len(model.SCALE)
    assert all(len(row) == len(features) for row in model.WEIGHTS) and len(model.BIAS) == 3


def test_no_contradiction_without_a_conflict_it_can_name() -> None:
    for hypothesis in ("The cafeteria serves vegetarian meals.", "Leave requests are approved by HR.",
                       "Employees may carry over unused days."):
        x = JUDGE.explain(LEAVE, hypothesis)
        if not x.conflicts:
            assert x.probabilities.label != C, x


@pytest.mark.parametrize(("premise", "hypothesis"), [
    ("Returns. You may return unused items within 30 days of delivery for a full refund.",
     "An order delivered on 1 June 2026 can be returned for a full refund until 1 July 2026."),
    ("A postmortem is required for every Sev1 incident and must be published within 5 business days of resolution.",
     "For a Sev1 resolved on Friday 27 February 2026, the postmortem is due by Friday 6 March 2026."),
    ("Release 5.0 becomes generally available on Tuesday 3 March 2026. The v1 REST API will be removed 12 months "
     "after general availability.", "The v1 API is scheduled for removal in March 2027."),
])
def test_dates_the_passage_gives_by_arithmetic(premise: str, hypothesis: str) -> None:
    check(premise, hypothesis, E)


def test_a_day_no_arithmetic_gives_is_not_supported() -> None:
    premise = "A postmortem is required for every Sev1 incident and must be published within 5 business days."
    assert label(premise, "For a Sev1 resolved on Friday 27 February 2026, the postmortem is due by Friday 13 March "
                          "2026.") != E


def test_another_agent_is_a_conflict_and_an_additional_one_is_not() -> None:
    """"approved by X" against "approved by Y": a different approver (a conflict); "by Y and HR" adds one (not
    stated, never a contradiction)."""
    premise = "Parental leave requests are submitted in Workday and approved by your line manager."
    x = JUDGE.explain(premise, "Parental leave requests are approved by your department head.")
    assert [c.kind for c in x.conflicts] == ["agent"] and x.probabilities.label == C
    x = JUDGE.explain(premise, "Parental leave requests are approved by your line manager and HR.")
    assert not x.conflicts and x.probabilities.label != C


def test_a_limit_restated_with_another_value_conflicts() -> None:
    premise = "Cover limits\nThe most we will cover for any single watch is £1,500."
    assert label(premise, "A single watch is covered up to £2,500.") == C
    assert label(premise, "A single watch is covered up to £1,500.") == E


def test_fractions_of_a_whole_are_percentages() -> None:
    premise = "Overpayments of up to 10% of the balance each year are free of early repayment charges."
    assert label(premise, "You can overpay up to a tenth of your balance every year without a charge.") != C
    assert label(premise, "You can overpay up to a fifth of your balance every year without a charge.") == C


def test_the_committed_model_is_what_the_fit_writes(tmp_path: Path) -> None:
    """``nli/fit_lexical.py`` on the committed development sets reproduces ``_lexical_model.py`` byte for byte:
    the weights were fitted on the features this code computes (a change to the reading needs a refit)."""
    pytest.importorskip("numpy")
    root = Path(__file__).resolve().parent.parent
    script = (root / "nli" / "fit_lexical.py").read_text()
    out = tmp_path / "model.py"
    patched = script.replace('OUT = ROOT / "guardrail" / "judges" / "_lexical_model.py"', f"OUT = Path({str(out)!r})")
    assert patched != script
    (tmp_path / "fit.py").write_text(patched)
    env = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, str(tmp_path / "fit.py"), "--fit", *(str(root / "nli" / f"{name}.jsonl") for name in
                    ("dev", "dev_b", "dev_c", "dev_d", "dev_e"))], check=True, capture_output=True, env=env, cwd=root)
    assert out.read_text() == (root / "guardrail" / "judges" / "_lexical_model.py").read_text()


def test_the_lexicon_is_keyed_by_the_judges_stems() -> None:
    """The table was built with this stemmer: common words find their entries (a stemmer change needs a rebuild,
    ``nli/build_lexicon.py``)."""
    from guardrail.judges._lexicon import antonyms, concepts
    from guardrail.judges.lexical import _stem

    for word in ("visitor", "guest", "approval", "approve", "employee", "invoice", "refund", "deadline", "manager"):
        assert concepts(_stem(word)) != (frozenset(), frozenset()), word
    assert _stem("exclude") in antonyms(_stem("include"))


# A review of version 3 as it stood found these; each fails without its fix.
REVIEWED = [
    # a table of one row a line keeps each row's label with its value
    ("Retention schedule\nRecord type | Retention\nInvoices | 10 years\nPayslips | 6 years",
     "Payslips are retained for 10 years.", C),
    ("| Record type | Retention |\n|---|---|\n| Invoices | 10 years |\n| Payslips | 6 years |",
     "Payslips are retained for 6 years.", E),
    # a flat negation of a rule with an exception or an "only" is still a contradiction
    ("Customer records must be deleted after 7 years unless a legal hold applies.",
     "Customer records are never deleted.", C),
    ("Laptops must be encrypted unless they are lab machines.", "Laptops do not need to be encrypted.", C),
    ("SCIM provisioning is supported only on the Enterprise plan.", "SCIM provisioning is never supported.", C),
    # "suspended" before its noun describes it; after "is" it says "not"
    ("Suspended accounts are deleted after 30 days.", "Accounts are deleted 30 days after suspension.", E),
    # a question states nothing
    ("Q: Can I expense a gym membership?\nA: No. Gym memberships are not reimbursable.",
     "Gym memberships can be expensed.", C),
    # a rate per user per month
    ("Seats cost EUR 40 per user per month.", "Seats cost EUR 480 per user per year.", E),
]


@pytest.mark.parametrize(("premise", "hypothesis", "expected"), REVIEWED)
def test_reviewed_cases(premise: str, hypothesis: str, expected: str) -> None:
    check(premise, hypothesis, expected)


@pytest.mark.parametrize(("premise", "hypothesis"), [
    ("Refunds are issued within 10 business days.", "The office was closed on 3 March 2025 and on 17 March 2025."),
    ("Refunds are issued within 30 days.", "1 June 2025, 1 July 2025."),
])
def test_dates_a_duration_apart_about_something_else_are_not_derived(premise: str, hypothesis: str) -> None:
    assert label(premise, hypothesis) != E


@pytest.mark.parametrize("text", [
    "1/2 3/4 5/8 " * 2_000, "half of a quarter of " * 1_000, "On 3 March 2025 and 17 March 2025, " * 300,
    " ".join(f"${k:,}" for k in range(1, 3_000)), "The fee is 5 per user. " * 2_000,
])
def test_long_inputs_do_not_hang(text: str) -> None:
    """Inputs full of numbers, fractions or dates are read in linear time: each took seconds to minutes when it was
    quadratic (a guard against a hang, with a bound ten times what they take, not a measure of speed)."""
    import time

    started = time.process_time()
    (result,) = JUDGE.judge([(text, text[:300]), ])
    (again,) = JUDGE.judge([("Refunds are issued within 30 days.", text)])
    assert isinstance(result, Probabilities) and isinstance(again, Probabilities)
    assert time.process_time() - started < 5.0
