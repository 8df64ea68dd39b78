"""Benchmark of the schema check: the fast path (orjson + compiled jsonschema_rs) against the jsonschema path.

    python benchmarks/bench_schema.py [--quick] [--iterations N]

On ~1 KB JSON tickets (``workload.make_tickets``, bare, 900-1124 chars), valid and invalid (a priority not in the enum),
it times one call with ``time.perf_counter_ns``: ``Guard.check`` with a schema-only policy, and the check alone
(``SchemaCheck.run`` on a prepared turn), each with the fast path and with the jsonschema path (the same check built
while ``jsonschema_rs`` is hidden, as when it cannot be imported). All jobs run interleaved, in an order that rotates
every iteration, so that they share the machine's noise; it prints p50/p99 in µs and the jsonschema/fast ratios.
Before timing it checks that both paths give the same findings on every ticket.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import regex

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workload import TICKET_SCHEMA, make_tickets

from guardrail import Guard
from guardrail.checks import schema as schema_module
from guardrail.checks.base import Turn
from guardrail.checks.schema import SchemaCheck
from guardrail.models import Action

SEED = 20_240_601
N_TICKETS = 61  # a prime: consecutive iterations see different tickets


def _tickets() -> tuple[list[str], list[str]]:
    from jsonschema import Draft202012Validator

    reference = Draft202012Validator(TICKET_SCHEMA)
    valid, invalid = [], []
    for text in make_tickets(SEED, 40 * N_TICKETS):
        if text.startswith("```") or not text.endswith("}") or not 900 <= len(text) <= 1124:
            continue
        if reference.is_valid(json.loads(text)):
            valid.append(text)
        elif '"critical"' in text:  # an enum error: the invalid output the benchmark times
            invalid.append(text)
    return valid[:N_TICKETS], invalid[:N_TICKETS]


def _build(fast: bool) -> tuple[Guard, SchemaCheck]:
    saved = schema_module._rs
    if not fast:
        schema_module._rs = None  # as when jsonschema_rs cannot be imported
    try:
        guard = Guard.from_dict({"schema": {"json_schema": TICKET_SCHEMA}})
        check = SchemaCheck(TICKET_SCHEMA, Action.BLOCK)
    finally:
        schema_module._rs = saved
    assert check.fast is fast
    return guard, check


def _pct(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="500 iterations a job")
    parser.add_argument("--iterations", type=int, default=4000)
    args = parser.parse_args()
    iterations = 500 if args.quick else args.iterations

    valid, invalid = _tickets()
    sizes = [len(t) for t in valid + invalid]
    marker_re = regex.compile(r"\[\[(?!)\]\]")
    paths = {"fast": _build(True), "jsonschema": _build(False)}
    for name, texts in (("valid", valid), ("invalid", invalid)):
        for text in texts:
            got = {p: [f.message for f in guard.check(text).findings] for p, (guard, _) in paths.items()}
            assert got["fast"] == got["jsonschema"], (text, got)
            assert bool(got["fast"]) is (name == "invalid"), got

    def turn(text: str) -> Turn:
        return Turn(text, (), frozenset(), marker_re, float("inf"))

    jobs: dict[tuple[str, str, str], tuple[Callable[[object], object], list[object]]] = {}
    for path, (guard, check) in paths.items():
        for validity, texts in (("valid", valid), ("invalid", invalid)):
            jobs[("Guard.check", validity, path)] = (guard.check, list(texts))  # type: ignore[arg-type]
            jobs[("check alone", validity, path)] = (check.run, [turn(t) for t in texts])  # type: ignore[arg-type]

    keys = list(jobs)
    samples: dict[tuple[str, str, str], list[int]] = {k: [] for k in keys}
    for key in keys:  # warm-up
        fn, inputs = jobs[key]
        for item in inputs:
            fn(item)
    gc.collect()
    gc.disable()
    try:
        clock = time.perf_counter_ns
        for i in range(iterations):
            shift = i % len(keys)
            for key in keys[shift:] + keys[:shift]:
                fn, inputs = jobs[key]
                item = inputs[i % len(inputs)]
                start = clock()
                fn(item)
                samples[key].append(clock() - start)
    finally:
        gc.enable()

    print(f"schema check on ~1 KB tickets ({min(sizes)}-{max(sizes)} chars, median {statistics.median(sizes):.0f}); "
          f"{len(valid)} valid and {len(invalid)} invalid tickets; {iterations} iterations a job, interleaved")
    print(f"python {sys.version.split()[0]}; jsonschema {version('jsonschema')}; "
          f"jsonschema-rs {version('jsonschema-rs')}; orjson {version('orjson')}")
    print()
    print(f"{'level':<12} {'output':<8} {'fast p50':>9} {'fast p99':>9} {'js p50':>9} {'js p99':>9} "
          f"{'p50 ratio':>9} {'p99 ratio':>9}")
    for level in ("Guard.check", "check alone"):
        for validity in ("valid", "invalid"):
            fast = samples[(level, validity, "fast")]
            slow = samples[(level, validity, "jsonschema")]
            f50, f99, s50, s99 = _pct(fast, 0.5), _pct(fast, 0.99), _pct(slow, 0.5), _pct(slow, 0.99)
            print(f"{level:<12} {validity:<8} {f50:>9.1f} {f99:>9.1f} {s50:>9.1f} {s99:>9.1f} "
                  f"{s50 / f50:>8.1f}x {s99 / f99:>8.1f}x")
    print()
    print("µs per call; 'js' is the jsonschema path (as without jsonschema_rs); ratio = js / fast")


if __name__ == "__main__":
    main()
