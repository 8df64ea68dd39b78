"""Throughput of the NLI judges: (premise, hypothesis) pairs per second, on one core.

    python benchmarks/bench_judges.py [--judge SPEC ...] [--pairs N] [--runs R] [--json FILE]

The workload is seeded and synthetic: policy-style passages of ~1.5 KB (sentences with numbers, units, dates,
names and modal verbs) and claims of ~20 words made from their sentences, some left as they are, some with a
number, a name, a date or a polarity changed, some with words added. Each passage is cited by several claims, as in
the monitor (a statement is judged against each of its citations and their concatenation).

Three cases per judge:

- ``repeated``: the same pairs every run: premises already seen (a judge may cache their analysis);
- ``fresh``: every run uses passages it has not seen before (made unique by a reference number), each cited by
  ``--claims`` claims: what a worker sees when samples arrive;
- ``unique``: every pair has a premise of its own (no sharing at all): the worst case.

Each case runs ``--runs`` times; the median pairs per second is reported with the spread, and the machine
(``nproc``, CPU model, Python). Another judge is one more ``--judge`` spec (anything ``load_judge`` accepts).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from guardrail.judges import Judge, load_judge

SEED = 20_241_201
PASSAGE_CHARS = 1500

CITIES = ["Berlin", "Munich", "Hamburg", "Lisbon", "Madrid", "Paris", "London", "Dublin", "Vienna", "Zurich"]
TEAMS = ["Finance", "Sales", "Marketing", "Legal", "Security", "Facilities", "Engineering", "Support"]
PRODUCTS = ["Atlas", "Orion", "Nimbus", "Vega", "Helix", "Quasar"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MODALS = ["must", "may", "can", "should", "will"]
SUBJECTS = ["Employees", "Contractors", "Managers", "New hires", "Part-time staff", "Visitors", "Interns"]
OBJECTS = ["expense reports", "leave requests", "travel bookings", "access requests", "purchase orders",
           "security incidents", "equipment returns", "training records"]
TEMPLATES = [
    "{subject} {modal} submit {object} within {n} {unit} of the request.",
    "{subject} based in {city} {modal} attend the {team} briefing every {weekday}.",
    "The {team} team approves {object} above {currency}{amount} before {day} {month} {year}.",
    "{product} licences are renewed every {n} {unit} and cost {currency}{amount} per seat.",
    "Up to {pct}% of the annual budget {modal} be spent on {object} in Q{quarter} {year}.",
    "{subject} {modal} not store {object} on personal devices outside the {city} office.",
    "Requests for {object} are answered within {n} business days by the {team} desk in {city}.",
    "The {product} service is available from 8:00 to {hour}:00 on weekdays and is closed on public holidays.",
    "If {object} are late, the {team} team sends a reminder after {n} {unit}.",
    "Since {month} {year}, {subject} in {city} receive {n} additional days of leave.",
    "At least {pct}% of {subject} {modal} complete the {product} course by {month} {day}.",
]
UNITS = ["days", "weeks", "months", "hours"]
FILLER_WORDS = ("according to the handbook", "as described in the intranet", "in line with the policy",
                "where applicable", "unless agreed otherwise")


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        subject=rng.choice(SUBJECTS), modal=rng.choice(MODALS), object=rng.choice(OBJECTS), n=rng.randint(2, 60),
        unit=rng.choice(UNITS), city=rng.choice(CITIES), team=rng.choice(TEAMS), weekday=rng.choice(WEEKDAYS),
        currency=rng.choice("$€£"), amount=f"{rng.randint(1, 50) * 100:,}", day=rng.randint(1, 28),
        month=rng.choice(MONTHS), year=rng.randint(2023, 2027), product=rng.choice(PRODUCTS),
        pct=rng.randint(1, 95), quarter=rng.randint(1, 4), hour=rng.randint(16, 21),
    )


def make_passage(rng: random.Random) -> tuple[str, list[str]]:
    """A passage of about PASSAGE_CHARS characters and its sentences."""
    sentences: list[str] = []
    size = 0
    while size < PASSAGE_CHARS - 60:
        sentence = _fill(rng, rng.choice(TEMPLATES))
        if rng.random() < 0.3:
            sentence = sentence[:-1] + ", " + rng.choice(FILLER_WORDS) + "."
        sentences.append(sentence)
        size += len(sentence) + 1
    return " ".join(sentences), sentences


def make_claim(rng: random.Random, sentences: Sequence[str]) -> str:
    """A claim of ~20 words from a passage: a sentence as is, altered, or with words added."""
    claim = rng.choice(sentences)
    roll = rng.random()
    words = claim.split()
    if roll < 0.25:
        digits = [i for i, w in enumerate(words) if any(ch.isdigit() for ch in w)]
        if digits:
            i = rng.choice(digits)
            words[i] = "".join(str((int(ch) + 3) % 10) if ch.isdigit() else ch for ch in words[i])
    elif roll < 0.4:
        names = [i for i, w in enumerate(words) if w.strip(".,") in CITIES + TEAMS]
        if names:
            words[rng.choice(names)] = rng.choice(CITIES + TEAMS)
    elif roll < 0.55:
        words.insert(min(2, len(words)), rng.choice(["not", "never", "always"]))
    elif roll < 0.7:
        words = [*words[:-1], words[-1].rstrip("."), "and", "a", "company", "car."]
    claim = " ".join(words)
    if len(claim.split()) < 18:
        claim = claim[:-1] + ", " + rng.choice(FILLER_WORDS) + "."
    return claim


@dataclass(frozen=True)
class Workload:
    """Pairs for one run of one case."""

    pairs: list[tuple[str, str]]
    premises: int


def workload(seed: int, pairs: int, claims_per_passage: int, unique: bool, tag: str = "") -> Workload:
    """``pairs`` pairs; with ``tag`` every passage ends with its own reference (never seen before)."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    premises = 0
    while len(out) < pairs:
        passage, sentences = make_passage(rng)
        premises += 1
        for k in range(1 if unique else claims_per_passage):
            text = passage + (f" Reference {tag}-{premises}." if tag else "")
            if unique:
                text += f" Copy {k}."
            out.append((text, make_claim(rng, sentences)))
    rng.shuffle(out)
    return Workload(out[:pairs], premises)


@dataclass(frozen=True)
class Result:
    """One judge on one case: pairs per second over the runs."""

    judge: str
    case: str
    pairs: int
    runs: int
    median: float
    low: float
    high: float


def measure(judge: Judge, make: Callable[[int], Workload], runs: int, batch: int) -> list[float]:
    """Pairs per second of each run; ``make(run)`` gives the run's pairs (built before the clock starts)."""
    rates = []
    for run in range(runs):
        work = make(run)
        pairs = work.pairs
        start = time.perf_counter()
        for i in range(0, len(pairs), batch):
            judge.judge(pairs[i:i + batch])
        rates.append(len(pairs) / (time.perf_counter() - start))
    return rates


def machine() -> dict[str, str]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": str(os.cpu_count()), "cpu": cpu, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "platform": platform.platform()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--judge", action="append", help="a judge spec (repeatable; default: lexical)")
    parser.add_argument("--pairs", type=int, default=2000, help="pairs per run (default 2000)")
    parser.add_argument("--runs", type=int, default=7, help="runs per case (default 7)")
    parser.add_argument("--claims", type=int, default=8, help="claims citing each passage (default 8)")
    parser.add_argument("--batch", type=int, default=32, help="pairs per judge() call (default 32)")
    parser.add_argument("--json", type=Path, help="also write the results and the machine to this file")
    args = parser.parse_args(argv)
    specs = args.judge or ["lexical"]

    info = machine()
    print(f"machine: nproc={info['nproc']}  cpu={info['cpu']}  python={info['python']} ({info['implementation']})")
    sample = workload(SEED, 200, args.claims, False)
    print(f"workload: {args.pairs} pairs per run, {args.runs} runs; passages of "
          f"{statistics.mean(len(p) for p, _ in sample.pairs):,.0f} characters, claims of "
          f"{statistics.mean(len(h.split()) for _, h in sample.pairs):.1f} words, {args.claims} claims per passage, "
          f"batches of {args.batch}; one process, one thread")
    results: list[Result] = []
    for spec in specs:
        judge = load_judge(spec)
        cases: dict[str, Callable[[int], Workload]] = {
            "repeated": lambda run: workload(SEED, args.pairs, args.claims, False),
            "fresh": lambda run: workload(SEED + 1 + run, args.pairs, args.claims, False, tag=f"F{run}"),
            "unique": lambda run: workload(SEED + 1000 + run, args.pairs, args.claims, True, tag=f"U{run}"),
        }
        measure(judge, cases["repeated"], 1, args.batch)  # warm-up: imports, first-use tables
        for case, make in cases.items():
            rates = measure(judge, make, args.runs, args.batch)
            results.append(Result(f"{judge.name}:{judge.version}", case, args.pairs, args.runs,
                                  statistics.median(rates), min(rates), max(rates)))
    print()
    print(f"{'judge':<14} {'case':<10} {'pairs/s (median)':>17} {'min':>9} {'max':>9}")
    for r in results:
        print(f"{r.judge:<14} {r.case:<10} {r.median:>17,.0f} {r.low:>9,.0f} {r.high:>9,.0f}")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "results": [asdict(r) for r in results]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
