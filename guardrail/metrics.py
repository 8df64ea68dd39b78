"""The metrics of CONTRACT section 8.5 over scored turns: what ``guardrail audit`` summarises and ``guardrail report``
shows, each a numerator, a denominator, a rate and its 95 % Wilson interval.

Per-statement rates (citation recall, precision, contradictions) pool the statements of all turns; they also carry a
cluster-bootstrap interval by turn (``cluster_low``/``cluster_high``), because the statements of one answer are not
independent. The ALCE macro averages (``alce_recall``, ``alce_precision``, ``alce_f1``) average per turn, as ALCE
does, over the turns that have something to average (a turn with no statement to support has no recall), and are
points without an interval. Pure: no I/O.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from .adherence import Adherence
from .scoring import TurnResult
from .stats import cluster_bootstrap, proportion

DECISIONS = ("pass", "modified", "blocked")
POOLED = {  # metric: (numerator, denominator) fields of TurnSummary
    "citation_recall": ("supported", "statements"),
    "citation_precision": ("credited", "citations"),
    "contradiction_rate": ("contradicted", "judged"),
    "delivered_citation_recall": ("delivered_supported", "delivered_statements"),
}
OFFLINE_METRICS = ("instruction_level.strict", "instruction_level.loose", "prompt_level.strict", "prompt_level.loose",
                   "refusal_recall", "false_refusal_rate", "field_accuracy", "gold_source_recall",
                   "gold_source_precision")
"""Reported only when some turn carries what they need (instructions, ``should_refuse``, ``gold``, ``gold_ids``)."""
METRIC_NAMES = (*POOLED, "hallucinated_source_rate", *(f"decision.{d}" for d in DECISIONS),
                "alce_recall", "alce_precision", "alce_f1", *OFFLINE_METRICS)


def gated(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """``metrics`` with the offline ones it lacks as rates without data, which fail every gate on them."""
    return {**{name: {"k": 0, "n": 0, "rate": None, "low": None, "high": None} for name in OFFLINE_METRICS},
            **metrics}


@dataclass(frozen=True, slots=True)
class TurnSummary:
    """The counts of one scored turn: all a report needs (the results store keeps one a sample)."""

    decision: str
    supported: int = 0
    statements: int = 0
    credited: int = 0
    citations: int = 0
    contradicted: int = 0
    judged: int = 0
    errors: int = 0
    delivered_supported: int = 0
    delivered_statements: int = 0
    invalid: bool = False
    """The output cites at least one invalid ID."""
    policy: str = "default"
    day: str | None = None
    labels: tuple[str, ...] = ()
    """The distinct labels of the guard's findings on the turn."""
    drops: int = 0
    """Samples the sampling process dropped just before this one (buffer full, queue unavailable), reported with it."""
    instructions: tuple[tuple[str, bool, bool], ...] = ()
    """The verifiable instructions' results: ``(id, followed, followed_loose)``, in order."""
    should_refuse: bool | None = None
    refused: bool | None = None
    """With a record's ``should_refuse``: whether the output was a refusal (:mod:`guardrail.offline`)."""
    fields: tuple[tuple[str, bool], ...] = ()
    """With a record's ``gold``: ``(path, correct)`` per gold field."""
    gold_ids: int = 0
    cited_ids: int = 0
    cited_gold: int = 0
    """With a record's ``gold_ids``: how many, how many distinct IDs the output cites, how many of those are gold."""

    @classmethod
    def of(cls, decision: str, result: TurnResult, *, policy: str = "default", day: str | None = None,
           labels: tuple[str, ...] = (), drops: int = 0, **offline: Any) -> TurnSummary:
        """The counts of a scored turn; ``offline``: the instruction and gold fields (see the fields below)."""
        g, d = result.generated, result.delivered
        return cls(decision, g.supported, g.statements, g.credited, g.citations, g.contradicted, g.judged, g.errors,
                   d.supported, d.statements, any(not c.valid for c in result.citations), policy, day, labels, drops,
                   **offline)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["labels"] = list(self.labels)
        out["instructions"] = [list(r) for r in self.instructions]
        out["fields"] = [list(r) for r in self.fields]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnSummary:
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        if "labels" in values:
            values["labels"] = tuple(values["labels"] or ())
        for key in ("instructions", "fields"):
            if key in values:
                values[key] = tuple(tuple(r) for r in values[key] or ())
        return cls(**values)


def _point(values: list[float]) -> dict[str, Any]:
    return {"k": None, "n": len(values), "rate": sum(values) / len(values) if values else None, "low": None,
            "high": None}


def metrics(turns: Iterable[TurnSummary], clustered: bool = True) -> dict[str, dict[str, Any]]:
    """Every metric of section 8.5 over ``turns``: ``{name: {"k", "n", "rate", "low", "high", ...}}``; with
    ``clustered``, the per-statement rates also get their cluster-bootstrap interval."""
    turns = list(turns)
    out: dict[str, dict[str, Any]] = {}
    for name, (num, den) in POOLED.items():
        clusters = [(getattr(t, num), getattr(t, den)) for t in turns]
        entry = proportion(sum(k for k, _ in clusters), sum(n for _, n in clusters))
        if clustered:
            entry["cluster_low"], entry["cluster_high"] = cluster_bootstrap(clusters, iterations=1000)
        out[name] = entry
    out["hallucinated_source_rate"] = proportion(sum(t.invalid for t in turns), len(turns))
    for d in DECISIONS:
        out[f"decision.{d}"] = proportion(sum(t.decision == d for t in turns), len(turns))
    recalls = [t.supported / t.statements for t in turns if t.statements]
    precisions = [t.credited / t.citations for t in turns if t.citations]
    out["alce_recall"], out["alce_precision"] = _point(recalls), _point(precisions)
    r, p = out["alce_recall"]["rate"], out["alce_precision"]["rate"]
    f1 = None if r is None or p is None else (2 * r * p / (r + p) if r + p else 0.0)
    out["alce_f1"] = {"k": None, "n": min(len(recalls), len(precisions)), "rate": f1, "low": None, "high": None}
    out.update(offline_metrics(turns))
    return out


def offline_metrics(turns: list[TurnSummary]) -> dict[str, dict[str, Any]]:
    """The adherence and gold metrics, present only when some turn carries what they need: instruction-level and
    prompt-level accuracy, strict and loose; refusal recall and false-refusal rate; field accuracy; cited-source
    recall and precision against gold."""
    out: dict[str, dict[str, Any]] = {}
    if any(t.instructions for t in turns):
        out.update(adherence(turns).metrics())
    judged = [t for t in turns if t.should_refuse is not None]
    if judged:
        should = [t for t in judged if t.should_refuse]
        should_not = [t for t in judged if not t.should_refuse]
        out["refusal_recall"] = proportion(sum(bool(t.refused) for t in should), len(should))
        out["false_refusal_rate"] = proportion(sum(bool(t.refused) for t in should_not), len(should_not))
    if any(t.fields for t in turns):
        results = [ok for t in turns for _, ok in t.fields]
        out["field_accuracy"] = proportion(sum(results), len(results))
    if any(t.gold_ids for t in turns):
        out["gold_source_recall"] = proportion(sum(t.cited_gold for t in turns), sum(t.gold_ids for t in turns))
        out["gold_source_precision"] = proportion(sum(t.cited_gold for t in turns if t.gold_ids),
                                                  sum(t.cited_ids for t in turns if t.gold_ids))
    return out


def adherence(turns: Iterable[TurnSummary]) -> Adherence:
    """IFEval's four rates and the per-type table over ``turns`` (those without instructions are inconclusive)."""
    tally = Adherence()
    for t in turns:
        tally.add(t.instructions)
    return tally


def per_field(turns: Iterable[TurnSummary]) -> dict[str, dict[str, Any]]:
    """Accuracy per gold field path."""
    counts: dict[str, list[int]] = {}
    for t in turns:
        for path, ok in t.fields:
            c = counts.setdefault(path, [0, 0])
            c[0] += ok
            c[1] += 1
    return {path: proportion(k, n) for path, (k, n) in sorted(counts.items())}


def summarize(turns: Iterable[TurnSummary], judge: Mapping[str, str], *, drops: int = 0,
              errors: int | None = None) -> dict[str, Any]:
    """The report's JSON shape: ``{"samples", "errors", "drops", "judge", "metrics", "by_day", "by_policy"}``.
    ``errors`` defaults to the turns with a judge error."""
    turns = list(turns)
    by_day: dict[str, list[TurnSummary]] = defaultdict(list)
    by_policy: dict[str, list[TurnSummary]] = defaultdict(list)
    for t in turns:
        if t.day is not None:
            by_day[t.day].append(t)
        by_policy[t.policy].append(t)
    labels: Counter[str] = Counter(label for t in turns for label in t.labels)
    return {
        "samples": len(turns),
        "errors": sum(1 for t in turns if t.errors) if errors is None else errors,
        "drops": drops + sum(t.drops for t in turns),
        "labels": dict(labels.most_common()),
        "judge": dict(judge),
        "metrics": metrics(turns),
        **_tables(turns),
        "by_day": {day: {"metrics": metrics(ts, clustered=False)} for day, ts in sorted(by_day.items())},
        "by_policy": {name: {"metrics": metrics(ts, clustered=False)} for name, ts in sorted(by_policy.items())},
    }


def _tables(turns: list[TurnSummary]) -> dict[str, Any]:
    """The per-instruction-type and per-field tables, when there is something in them."""
    out: dict[str, Any] = {}
    if any(t.instructions for t in turns):
        tally = adherence(turns).to_dict()
        out["instructions"] = {"inconclusive": tally["inconclusive"], "by_type": tally["by_type"]}
    if any(t.fields for t in turns):
        out["fields"] = per_field(turns)
    return out


def table(summary: Mapping[str, Any]) -> str:
    """The metrics as a text table: name, k/n, rate and interval."""
    lines = [f"{'metric':28s} {'k/n':>13s} {'rate':>7s}  95% interval"]
    for name, m in summary["metrics"].items():
        rate = "-" if m["rate"] is None else f"{m['rate']:.3f}"
        if m["k"] is None:
            lines.append(f"{name:28s} {'(' + str(m['n']) + ' turns)':>13s} {rate:>7s}  (a macro average)")
        else:
            lines.append(f"{name:28s} {str(m['k']) + '/' + str(m['n']):>13s} {rate:>7s}  "
                         f"[{m['low']:.3f}, {m['high']:.3f}]")
    judge = summary.get("judge") or {}
    lines.append(f"{summary['samples']} turns, {summary['errors']} with judge errors, {summary.get('drops', 0)} "
                 f"dropped; judge {judge.get('name', '?')} {judge.get('version', '')}".rstrip())
    return "\n".join(lines)
