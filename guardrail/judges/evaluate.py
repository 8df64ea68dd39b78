"""``guardrail nli evaluate``: a judge measured on labelled pairs (CONTRACT section 7).

Input: one ``{"premise", "hypothesis", "label", "slice"?, "group"?, "perturbation"?}`` a line. Output: accuracy,
macro-F1, Cohen's kappa against the gold labels, the confusion matrix, per-slice accuracy with 95 % Wilson intervals,
and for perturbation groups (seed 001: a base pair, variants with one consequential field changed that must flip its
label, and order permutations that must not) the flip rate and the order stability. Pairs the judge could not decide
are counted apart (``errors``), never as right or wrong.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..stats import cohen_kappa, macro_f1, proportion
from .base import LABELS, Judge, JudgeFailure


def evaluate_pairs(judge: Judge, pairs: Sequence[Mapping[str, Any]], batch: int = 64) -> dict[str, Any]:
    """Judge every pair and measure the judge against the gold labels."""
    predicted: list[str | None] = []
    for i in range(0, len(pairs), batch):
        part = pairs[i:i + batch]
        for judgement in judge.judge([(p["premise"], p["hypothesis"]) for p in part]):
            predicted.append(None if isinstance(judgement, JudgeFailure) else judgement.label)
    judged = [(p, y) for p, y in zip(pairs, predicted, strict=True) if y is not None]
    gold = [p["label"] for p, _ in judged]
    guess = [y for _, y in judged]
    confusion: dict[str, dict[str, int]] = {g: {y: 0 for y in LABELS} for g in LABELS}
    for g, y in zip(gold, guess, strict=True):
        confusion[g][y] += 1
    by_slice: dict[str, list[bool]] = defaultdict(list)
    for p, y in judged:
        by_slice[p.get("slice") or "all"].append(p["label"] == y)
    slices = {}
    for name, hits in sorted(by_slice.items()):
        entry = proportion(sum(hits), len(hits))
        slices[name] = {"n": entry["n"], "accuracy": entry["rate"], "low": entry["low"], "high": entry["high"]}
    right = sum(g == y for g, y in zip(gold, guess, strict=True))
    accuracy = proportion(right, len(judged))
    return {
        "judge": {"name": judge.name, "version": judge.version},
        "n": len(judged),
        "errors": len(pairs) - len(judged),
        "accuracy": accuracy["rate"],
        "accuracy_low": accuracy["low"],
        "accuracy_high": accuracy["high"],
        "macro_f1": macro_f1(gold, guess, LABELS),
        "kappa": cohen_kappa(gold, guess),
        "confusion": confusion,
        "slices": slices,
        "binary": _binary(gold, guess),
        "perturbation": _perturbation(pairs, predicted),
        "gold_labels": dict(Counter(gold)),
    }


def _binary(gold: Sequence[str], guess: Sequence[str]) -> dict[str, Any]:
    """Entailment against the rest: what citation scoring uses (a citation supports its claim, or it does not)."""
    tp = sum(g == y == "entailment" for g, y in zip(gold, guess, strict=True))
    fp = sum(g != "entailment" and y == "entailment" for g, y in zip(gold, guess, strict=True))
    fn = sum(g == "entailment" and y != "entailment" for g, y in zip(gold, guess, strict=True))
    right = sum((g == "entailment") == (y == "entailment") for g, y in zip(gold, guess, strict=True))
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return {"accuracy": proportion(right, len(gold)), "precision": precision, "recall": recall, "f1": f1}


def _perturbation(pairs: Sequence[Mapping[str, Any]], predicted: Sequence[str | None]) -> dict[str, Any]:
    """Flip variants must be judged otherwise than their base; order variants like it."""
    base: dict[str, str | None] = {}
    for p, y in zip(pairs, predicted, strict=True):
        if p.get("group") and not p.get("perturbation"):
            base[p["group"]] = y
    flips: list[bool] = []
    orders: list[bool] = []
    for p, y in zip(pairs, predicted, strict=True):
        kind, group = p.get("perturbation"), p.get("group")
        if not kind or group not in base or y is None or base[group] is None:
            continue
        (flips if kind == "flip" else orders).append(y != base[group] if kind == "flip" else y == base[group])
    return {"groups": len(base), "flip_rate": proportion(sum(flips), len(flips)),
            "order_stability": proportion(sum(orders), len(orders))}


def format_evaluation(result: Mapping[str, Any]) -> str:
    """The evaluation as text: the headline figures, the confusion matrix and the slices."""
    judge = result["judge"]
    acc = result["accuracy"]
    lines = [f"judge {judge['name']} {judge['version']}: {result['n']} pairs"
             + (f" ({result['errors']} the judge could not decide, not counted)" if result["errors"] else ""),
             f"accuracy {_pct(acc)} [{_pct(result['accuracy_low'])}, {_pct(result['accuracy_high'])}]  "
             f"macro-F1 {result['macro_f1']:.3f}  Cohen's kappa {result['kappa']:.3f}",
             "", "confusion (rows gold, columns judged):",
             f"{'':15s}" + "".join(f"{label:>15s}" for label in LABELS)]
    for gold in LABELS:
        lines.append(f"{gold:15s}" + "".join(f"{result['confusion'][gold][y]:15d}" for y in LABELS))
    b = result["binary"]
    lines += ["", f"supported or not (what scoring uses): accuracy {_pct(b['accuracy']['rate'])} "
                  f"[{_pct(b['accuracy']['low'])}, {_pct(b['accuracy']['high'])}], precision {_pct(b['precision'])}, "
                  f"recall {_pct(b['recall'])}, F1 {b['f1']:.3f}"]
    lines += ["", f"{'slice':18s} {'n':>5s} {'accuracy':>9s}  95% interval"]
    for name, s in result["slices"].items():
        lines.append(f"{name:18s} {s['n']:5d} {_pct(s['accuracy']):>9s}  [{_pct(s['low'])}, {_pct(s['high'])}]")
    pert = result["perturbation"]
    if pert["groups"]:
        flip, order = pert["flip_rate"], pert["order_stability"]
        lines += ["", f"perturbations ({pert['groups']} groups): flip rate {flip['k']}/{flip['n']} "
                      f"{_pct(flip['rate'])} [{_pct(flip['low'])}, {_pct(flip['high'])}], order stability "
                      f"{order['k']}/{order['n']} {_pct(order['rate'])} [{_pct(order['low'])}, {_pct(order['high'])}]"]
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"
