"""The statistics of the reports and gates: Wilson intervals, Cohen's kappa, a cluster bootstrap, gate expressions.

Pure and small: what ``guardrail audit``, ``guardrail report`` and ``guardrail nli evaluate`` share.

- :func:`wilson`: the 95 % Wilson score interval of a proportion (NIST's recommendation over the normal
  approximation; it stays inside [0, 1] and behaves at k = 0 and k = n).
- :func:`cluster_bootstrap`: an interval for a pooled rate whose units come in clusters (the statements of one
  answer are not independent): answers are resampled with replacement, never single statements.
- :func:`cohen_kappa`: agreement beyond chance of two labelings (a judge against gold labels).
- :class:`Gate`: ``METRIC[.FIELD] OP NUMBER`` (``citation_recall.low>=0.8``), all of which must hold.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials; ``(0.0, 1.0)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"k must be between 0 and n, not {k} of {n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    if k == 0:
        low = 0.0
    if k == n:
        high = 1.0
    return low, high


def proportion(k: int, n: int) -> dict[str, Any]:
    """``{"k", "n", "rate", "low", "high"}``: a rate with its 95 % Wilson interval (rate None when ``n`` is 0)."""
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "low": low, "high": high}


def cluster_bootstrap(clusters: Sequence[tuple[int, int]], iterations: int = 2000, seed: int = 0,
                      level: float = 0.95) -> tuple[float, float]:
    """A percentile interval for ``sum(k) / sum(n)`` over clusters ``(k, n)`` (one per answer), resampling whole
    clusters. Deterministic for a seed; ``(0.0, 1.0)`` without data. Uses NumPy when it is installed (the ``nli``
    extra), the same resampling in pure Python otherwise."""
    data = [(k, n) for k, n in clusters if n > 0]
    if not data:
        return 0.0, 1.0
    size = len(data)
    try:
        import numpy as np
    except ImportError:
        rates = _bootstrap_python(data, iterations, seed)
    else:
        ks = np.fromiter((k for k, _ in data), dtype=np.float64, count=size)
        ns = np.fromiter((n for _, n in data), dtype=np.float64, count=size)
        rng = np.random.default_rng(seed)
        chunk = max(1, 2_000_000 // size)  # resample in blocks: memory stays bounded for a million answers
        parts = []
        for start in range(0, iterations, chunk):
            picks = rng.integers(0, size, size=(min(chunk, iterations - start), size))
            parts.append(ks[picks].sum(axis=1) / ns[picks].sum(axis=1))
        rates = sorted(np.concatenate(parts).tolist())
    tail = (1 - level) / 2
    return rates[math.floor(tail * (iterations - 1))], rates[math.ceil((1 - tail) * (iterations - 1))]


def _bootstrap_python(data: list[tuple[int, int]], iterations: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    size = len(data)
    rates = []
    for _ in range(iterations):
        k_sum = n_sum = 0
        for k, n in rng.choices(data, k=size):
            k_sum += k
            n_sum += n
        rates.append(k_sum / n_sum)
    rates.sort()
    return rates


def cohen_kappa(gold: Sequence[Hashable], predicted: Sequence[Hashable]) -> float:
    """Cohen's kappa of two labelings of the same items (1: perfect, 0: chance). Raises on unequal lengths."""
    if len(gold) != len(predicted):
        raise ValueError("both labelings must label the same items")
    n = len(gold)
    if n == 0:
        return 0.0
    observed = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    labels = set(gold) | set(predicted)
    expected = sum((list(gold).count(label) / n) * (list(predicted).count(label) / n) for label in labels)
    if expected >= 1.0:
        return 1.0 if observed >= 1.0 else 0.0
    return (observed - expected) / (1 - expected)


def macro_f1(gold: Sequence[Hashable], predicted: Sequence[Hashable], labels: Sequence[Hashable]) -> float:
    """The mean over ``labels`` of each label's F1 (a label never gold nor predicted scores 0)."""
    scores = []
    for label in labels:
        tp = sum(g == label and p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(g != label and p == label for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label and p != label for g, p in zip(gold, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores) if scores else 0.0


# ------------------------------------------------------------------------------------------------------------ gates

FIELDS = ("rate", "low", "high", "k", "n")
_GATE = re.compile(r"\s*([A-Za-z_][\w.]*?)(?:\.(rate|low|high|k|n))?\s*(>=|<=|==|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*$")
_OPS = {">=": float.__ge__, ">": float.__gt__, "<=": float.__le__, "<": float.__lt__, "==": float.__eq__}


class GateError(ValueError):
    """A gate expression that does not parse, or names a metric the report does not have."""


@dataclass(frozen=True, slots=True)
class Gate:
    """One release condition: ``metric.field op value``."""

    metric: str
    field: str
    op: str
    value: float
    text: str

    @classmethod
    def parse(cls, text: str) -> Gate:
        """Read ``METRIC[.FIELD] OP NUMBER``; raise :class:`GateError` if it is not one."""
        m = _GATE.match(text)
        if m is None:
            raise GateError(f"not a gate expression: {text!r} (expected METRIC[.FIELD] OP NUMBER, e.g. "
                            "'citation_recall.low>=0.8'; FIELD is rate, low, high, k or n; OP is >=, >, <=, < or ==)")
        metric, field, op, value = m.groups()
        return cls(metric, field or "rate", op, float(value), text.strip())

    def check(self, metrics: Mapping[str, Mapping[str, Any]]) -> tuple[bool, float | None]:
        """Whether the gate holds on ``metrics`` (``{name: {"k", "n", "rate", "low", "high"}}``) and the value it
        saw. A metric with no data fails every gate but one on its ``n``: ``k == 0`` of nothing is no evidence (a
        mistyped store or policy name would pass it). Raise :class:`GateError` for an unknown metric."""
        if self.metric not in metrics:
            known = ", ".join(sorted(metrics))
            raise GateError(f"unknown metric {self.metric!r} in gate {self.text!r}; known: {known}")
        entry = metrics[self.metric]
        if self.field != "n" and isinstance(entry, Mapping) and entry.get("n") == 0:
            return False, None
        seen = entry.get(self.field) if isinstance(entry, Mapping) else (entry if self.field == "rate" else None)
        if seen is None:
            return False, None
        return bool(_OPS[self.op](float(seen), self.value)), float(seen)


def check_gates(gates: Sequence[Gate], metrics: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The failing gates, each described for a person (empty: the release may go). Unknown metrics raise."""
    failures = []
    for gate in gates:
        ok, seen = gate.check(metrics)
        if not ok:
            shown = "no data" if seen is None else f"{gate.metric}.{gate.field} = {seen:.4g}"
            failures.append(f"gate failed: {gate.text} ({shown})")
    return failures
