"""``guardrail audit`` (CONTRACT section 9) through a subprocess: result shapes and order, the summary, gates and
exit codes, malformed lines, workers; and ``guardrail nli evaluate`` (section 7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

POLICY = "citations:\n  coverage: flag\nbanned_terms:\n  terms: [BLUEJAY]\n"
HR = {"id": "hr-12", "text": "Full-time employees receive 25 days of paid annual leave per calendar year. Unused leave "
                             "of up to 5 days may be carried over with manager approval.", "roles": ["employee"]}
IT = {"id": "it-3", "text": "Laptops are replaced every three years. Lost devices must be reported within 24 hours."}
SECRET = {"id": "fin-9", "text": "The Berlin office will close in March.", "roles": ["finance"]}
RECORDS: list[dict[str, Any]] = [
    {"id": "supported", "output": "Full-time employees receive 25 days of paid annual leave per calendar year "
                                  "[doc:hr-12].", "sources": [HR, IT], "roles": ["employee"]},
    {"id": "contradicted", "output": "Laptops are replaced every five years [doc:it-3].", "sources": [HR, IT],
     "roles": ["employee"]},
    {"id": "invented", "output": "Lost devices must be reported within 24 hours [doc:it-3][doc:it-9]. Hello!",
     "sources": [HR, IT], "roles": []},
    {"id": "uncited", "output": "Laptops are replaced every three years. Ask BLUEJAY.", "sources": [IT]},
    {"id": "hidden", "output": "The Berlin office will close in March [doc:fin-9].", "sources": [SECRET],
     "roles": ["employee"]},
]


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def audit(tmp_path: Path, *args: str, lines: list[Any] | None = None) -> subprocess.CompletedProcess[str]:
    policy = tmp_path / "policy.yaml"
    policy.write_text(POLICY)
    records = write(tmp_path / "records.jsonl", RECORDS if lines is None else lines)
    return subprocess.run([sys.executable, "-m", "guardrail.cli", "audit", "--policy", str(policy), str(records),
                           *args], capture_output=True, text=True, timeout=120, cwd=tmp_path)


def rows(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_results_in_order_with_the_contracts_shape(tmp_path: Path) -> None:
    proc = audit(tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = rows(proc)
    assert [r["id"] for r in got] == [r["id"] for r in RECORDS]
    for r in got:
        assert {"id", "decision", "findings", "scores", "statements", "citations", "uncited_claims",
                "hallucinated_sources"} <= set(r)
        assert set(r["scores"]) == {"citation_recall", "citation_precision"}
        for st in r["statements"]:
            assert {"start", "end", "text", "recall", "contradicted"} <= set(st)
        for c in r["citations"]:
            assert {"id", "statement", "verdict", "evidence"} <= set(c)
    supported, contradicted, invented, uncited, hidden = got
    assert supported["scores"] == {"citation_recall": 1.0, "citation_precision": 1.0}
    assert supported["citations"][0]["verdict"] == "FULLY_SUPPORTS"
    evidence = supported["citations"][0]["evidence"]
    assert HR["text"][evidence["start"]:evidence["end"]].startswith("Full-time employees receive 25 days")
    assert contradicted["scores"]["citation_recall"] == 0.0 and contradicted["statements"][0]["contradicted"]
    assert contradicted["citations"][0]["verdict"] == "CONTRADICTS"
    assert invented["scores"] == {"citation_recall": 0.0, "citation_precision": 0.0}  # it-9 spoils the statement
    assert invented["hallucinated_sources"] == [{"id": "it-9", "statement": 0, "label": "HALLUCINATED_SOURCE"}]
    assert invented["delivered_scores"]["citation_recall"] == 1.0  # the guard stripped [doc:it-9]
    assert [u["statement"] for u in uncited["uncited_claims"]] == [0, 1]
    assert hidden["decision"] == "blocked" and hidden["hallucinated_sources"][0]["label"] == "UNAUTHORIZED_SOURCE"
    assert hidden["delivered_scores"] == {"citation_recall": None, "citation_precision": None}


def test_summary_with_intervals_and_gates(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    proc = audit(tmp_path, "--summary", str(summary), "--gate", "citation_recall.low>=0.0",
                 "--gate", "hallucinated_source_rate.k<=2")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(summary.read_text())
    assert report["samples"] == 5 and report["judge"]["name"] == "lexical"
    recall = report["metrics"]["citation_recall"]
    # statements needing a citation: 1 + 1 + 1 + 2 + 1 = 6, of which the first is supported
    assert (recall["k"], recall["n"]) == (1, 6)
    assert recall["low"] < 1 / 6 < recall["high"]
    assert report["metrics"]["hallucinated_source_rate"]["k"] == 2
    assert report["metrics"]["decision.blocked"]["k"] == 1
    assert {"alce_recall", "alce_precision", "alce_f1", "delivered_citation_recall", "contradiction_rate"} <= set(
        report["metrics"])
    assert "citation_recall" in proc.stderr and "[" in proc.stderr  # the table, with intervals


@pytest.mark.parametrize(("gates", "status"), [
    (["citation_recall.rate>=0.1"], 0),
    (["citation_recall.low>=0.5"], 1),
    (["citation_recall.rate>=0.1", "hallucinated_source_rate.k==0"], 1),
    (["citation_recall >= high"], 2),
    (["citation_recal.low>=0.5"], 2),
])
def test_gate_exit_codes(tmp_path: Path, gates: list[str], status: int) -> None:
    proc = audit(tmp_path, *[arg for g in gates for arg in ("--gate", g)])
    assert proc.returncode == status, proc.stderr
    if status == 1:
        assert "gate failed:" in proc.stderr


def test_malformed_lines_are_reported_and_win_over_gates(tmp_path: Path) -> None:
    lines = [RECORDS[0], "{not json", [1, 2], {"id": "x"}, {"output": "Fine.", "sources": "nope"}, "", RECORDS[1]]
    proc = audit(tmp_path, "--gate", "citation_recall.low>=0.9", lines=lines)
    assert proc.returncode == 2
    assert [line.split(":")[0] for line in proc.stderr.splitlines() if line.startswith("line ")] == [
        "line 2", "line 3", "line 4", "line 5"]
    assert [r["id"] for r in rows(proc)] == ["supported", "contradicted"]


def test_workers_keep_the_order_and_the_numbers(tmp_path: Path) -> None:
    many = [dict(r, id=f"{r['id']}-{i}") for i in range(8) for r in RECORDS]
    one = audit(tmp_path, lines=many)
    two = audit(tmp_path, "--workers", "2", lines=many)
    assert one.returncode == two.returncode == 0
    assert rows(one) == rows(two)


def test_nli_evaluate_prints_the_judges_figures(tmp_path: Path) -> None:
    pairs = write(tmp_path / "pairs.jsonl", [
        {"premise": "Laptops are replaced every three years.", "hypothesis": "Laptops are replaced every three years.",
         "label": "entailment", "slice": "copy", "group": "g1"},
        {"premise": "Laptops are replaced every three years.", "hypothesis": "Laptops are replaced every five years.",
         "label": "contradiction", "slice": "numeric", "group": "g1", "perturbation": "flip"},
        {"premise": "Lost devices must be reported. Laptops are replaced every three years.",
         "hypothesis": "Laptops are replaced every three years.", "label": "entailment", "slice": "copy",
         "group": "g1", "perturbation": "order"},
        {"premise": "The office opens at nine.", "hypothesis": "The canteen serves vegan food.", "label": "neutral"},
        "not json",
    ])
    proc = subprocess.run([sys.executable, "-m", "guardrail.cli", "nli", "evaluate", "--backend", "lexical",
                           "--pairs", str(pairs), "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "line 5: not valid JSON" in proc.stderr
    result = json.loads(proc.stdout)
    assert {"n", "accuracy", "macro_f1", "kappa", "confusion", "slices"} <= set(result)
    assert result["n"] == 4 and result["accuracy"] == 1.0 and result["kappa"] == 1.0
    assert set(result["slices"]) == {"copy", "numeric", "all"}
    assert {"n", "accuracy", "low", "high"} == set(result["slices"]["copy"])
    assert result["perturbation"]["flip_rate"]["rate"] == 1.0
    assert result["perturbation"]["order_stability"]["rate"] == 1.0
    text = subprocess.run([sys.executable, "-m", "guardrail.cli", "nli", "evaluate", "--pairs", str(pairs)],
                          capture_output=True, text=True, timeout=60)
    assert "accuracy 100.0%" in text.stdout and "confusion" in text.stdout
