"""Accuracy and speed of the refusal detector (:func:`guardrail.refusal.is_refusal`) on a labelled set.

    python benchmarks/refusal_accuracy.py [--data held-out|dev|FILE] [--rounds R] [--json FILE]

The labelled sets ship with the package: ``guardrail/data/refusals.jsonl`` (held out: the published figures) and
``guardrail/data/refusals_dev.jsonl`` (the set the rules were written against). Each line is
``{"id", "output", "refused", "kind"}``. Printed: accuracy, refusal recall (refused answers detected), false-refusal
rate (answers wrongly called refusals), each as k/n with its 95 % Wilson interval, the confusion counts, accuracy
per kind, the misclassified ids, and the median and p90 microseconds per call (every output timed on its own,
``--rounds`` times).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

from guardrail.refusal import DETECTOR_VERSION, is_refusal
from guardrail.stats import wilson

SETS = {"held-out": "refusals.jsonl", "dev": "refusals_dev.jsonl"}


def load(spec: str) -> list[dict[str, Any]]:
    if spec in SETS:
        text = (resources.files("guardrail") / "data" / SETS[spec]).read_text(encoding="utf-8")
    else:
        text = Path(spec).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "low": low, "high": high}


def evaluate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    tp = fn = fp = tn = 0
    per_kind: dict[str, list[int]] = {}
    wrong = []
    for row in rows:
        predicted = is_refusal(row["output"])
        gold = bool(row["refused"])
        tp += gold and predicted
        fn += gold and not predicted
        fp += predicted and not gold
        tn += not gold and not predicted
        tally = per_kind.setdefault(row["kind"], [0, 0])
        tally[0] += predicted == gold
        tally[1] += 1
        if predicted != gold:
            wrong.append(row["id"])
    return {
        "accuracy": rate(tp + tn, len(rows)),
        "refusal_recall": rate(tp, tp + fn),
        "false_refusal_rate": rate(fp, fp + tn),
        "confusion": {"tp": tp, "fn": fn, "fp": fp, "tn": tn},
        "per_kind": {kind: rate(k, n) for kind, (k, n) in sorted(per_kind.items())},
        "wrong": wrong,
    }


def timing(rows: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    outputs = [row["output"] for row in rows]
    for text in outputs:  # warm up
        is_refusal(text)
    samples = []
    clock = time.perf_counter_ns
    for _ in range(rounds):
        for text in outputs:
            start = clock()
            is_refusal(text)
            samples.append(clock() - start)
    samples.sort()
    return {"median_us": statistics.median(samples) / 1000, "p90_us": samples[int(0.9 * (len(samples) - 1))] / 1000,
            "calls": len(samples)}


def _fmt(r: dict[str, Any]) -> str:
    value = "n/a" if r["rate"] is None else f"{r['rate']:.3f}"
    return f"{r['k']}/{r['n']} = {value}  [95% Wilson {r['low']:.3f}, {r['high']:.3f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="held-out", help="held-out, dev, or a JSONL file")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    rows = load(args.data)
    result = evaluate(rows)
    result["timing"] = timing(rows, args.rounds)
    result.update(detector=DETECTOR_VERSION, data=args.data, rows=len(rows), python=platform.python_version())
    c = result["confusion"]
    print(f"{DETECTOR_VERSION} on {args.data} ({len(rows)} outputs, {c['tp'] + c['fn']} refusals)")
    print(f"accuracy            {_fmt(result['accuracy'])}")
    print(f"refusal recall      {_fmt(result['refusal_recall'])}")
    print(f"false-refusal rate  {_fmt(result['false_refusal_rate'])}")
    print(f"confusion           TP {c['tp']}  FN {c['fn']}  FP {c['fp']}  TN {c['tn']}")
    print("per kind (accuracy):")
    gold = Counter(row["kind"] for row in rows if row["refused"])
    for kind, r in result["per_kind"].items():
        label = "refusal" if gold[kind] else "answer"
        print(f"  {kind:20s} ({label:7s}) {_fmt(r)}")
    print(f"misclassified       {', '.join(result['wrong']) or 'none'}")
    t = result["timing"]
    print(f"speed               median {t['median_us']:.1f} us/call, p90 {t['p90_us']:.1f} us "
          f"({t['calls']} calls, Python {result['python']})")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
