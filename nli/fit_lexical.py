"""Fit the ``lexical`` judge's decision: a multinomial logistic model from the evidence its reading finds (coverage,
added specifics, weak matches, conflicts by kind, its hand-set rule's answer) to entailment / neutral /
contradiction, and write the weights to ``guardrail/judges/_lexical_model.py``.

Fitted on development sets only, never on ``nli/pairs.jsonl`` (the held-out set whose figures are published):

    python nli/fit_lexical.py                                # fit on the dev sets, write the model
    python nli/fit_lexical.py --fit nli/dev.jsonl nli/dev_c.jsonl --validate nli/dev_b.jsonl --dry-run

Features are standardised; the fit is full-batch gradient descent on the L2-regularised cross-entropy, a fixed
number of steps from zero: deterministic, the same file for the same inputs. Needs numpy (a development tool only:
the judge itself evaluates the model in pure Python).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from guardrail.judges.lexical import _features  # noqa: E402

LABELS = ("entailment", "neutral", "contradiction")
FEATURES = ("supported", "overall", "local", "rule_e", "rule_n", "rule_c", "added_words", "added_numbers",
            "added_dates", "added_entities", "weak_specifics", "weak_modality", "conflict_number", "conflict_date",
            "conflict_entity", "conflict_polarity", "conflict_antonym", "conflict_agent", "conflicts", "matched",
            "clean", "clean_coverage", "added_supported", "entity_supported", "specific_supported",
            "polarity_supported")
DEV = ("dev.jsonl", "dev_b.jsonl", "dev_c.jsonl", "dev_d.jsonl", "dev_e.jsonl")
OUT = ROOT / "guardrail" / "judges" / "_lexical_model.py"


def load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of the pairs the judge's rule leaves to the model (the rest it decides alone)."""
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line.strip()]
    found = [_features(r["premise"], r["hypothesis"]) for r in rows]
    keep = [k for k, (_, decisive) in enumerate(found) if not decisive]
    x = np.array([found[k][0] for k in keep], dtype=float)
    y = np.array([LABELS.index(rows[k]["label"]) for k in keep])
    assert x.shape[1] == len(FEATURES), (x.shape, len(FEATURES))
    return x, y


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 6000, rate: float = 0.3):
    mean, scale = x.mean(0), x.std(0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    w, b = np.zeros((3, z.shape[1])), np.zeros(3)
    onehot = np.eye(3)[y]
    for _ in range(steps):
        logits = z @ w.T + b
        p = np.exp(logits - logits.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        g = p - onehot
        w -= rate * (g.T @ z / len(z) + l2 * w / len(z))
        b -= rate * g.mean(0)
    return mean, scale, w, b


def predict(model, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = model
    return ((x - mean) / scale @ w.T + b).argmax(1)


def report(name: str, model, x: np.ndarray, y: np.ndarray) -> None:
    p = predict(model, x)
    f1 = []
    for k in range(3):
        tp, fp, fn = ((p == k) & (y == k)).sum(), ((p == k) & (y != k)).sum(), ((p != k) & (y == k)).sum()
        f1.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    print(f"{name}: {len(y)} pairs, accuracy {(p == y).mean():.3f}, macro-F1 {np.mean(f1):.3f}")


def write(model, sources: list[str]) -> None:
    mean, scale, w, b = model

    def row(values, indent: str = "    ") -> str:
        body = textwrap.fill(", ".join(f"{float(v):.6g}" for v in values) + ",", 110, initial_indent=indent,
                             subsequent_indent=indent)
        return "(\n" + body + "\n" + indent[4:] + ")"

    names = textwrap.fill(", ".join(repr(f) for f in FEATURES) + ",", 110, initial_indent="    ",
                          subsequent_indent="    ")
    text = [
        '"""The ``lexical`` judge\'s fitted decision (written by ``nli/fit_lexical.py``; do not edit by hand).',
        "",
        f"Fitted on {len(sources)} development sets: {', '.join(sources)}.",
        '"""',
        "",
        f"FEATURES = (\n{names}\n)",
        f"MEAN = {row(mean)}",
        f"SCALE = {row(scale)}",
        "WEIGHTS = (",
        *(f"    # {label}\n    {row(r, '        ')}," for r, label in zip(w, LABELS, strict=True)),
        ")",
        f"BIAS = {row(b)}",
        "",
    ]
    OUT.write_text("\n".join(text))
    print(f"wrote {OUT}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent
    ap.add_argument("--fit", nargs="+", type=Path, default=[here / d for d in DEV if (here / d).exists()])
    ap.add_argument("--validate", nargs="*", type=Path, default=[])
    ap.add_argument("--l2", type=float, default=20.0)
    ap.add_argument("--dry-run", action="store_true", help="report, do not write the model")
    args = ap.parse_args()
    if any(p.name == "pairs.jsonl" for p in [*args.fit, *args.validate]):
        sys.exit("pairs.jsonl is the held-out set: choosing a judge by it would make its figures meaningless")
    x, y = load(args.fit)
    model = fit(x, y, args.l2)
    report("fit", model, x, y)
    for path in args.validate:
        report(path.name, model, *load([path]))
    if not args.dry_run:
        write(model, [p.name for p in args.fit])


if __name__ == "__main__":
    main()
