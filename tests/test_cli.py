"""The command line (CONTRACT section 7), run as a real subprocess: ``guardrail check`` and ``policy validate``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
ENTERPRISE = ROOT / "policies" / "enterprise-assistant.yaml"
EXAMPLES = ROOT / "examples" / "answers.jsonl"
SOURCES = [{"id": "a", "text": "Employees receive 25 days of paid annual leave."},
           {"id": "s", "text": "Secret.", "roles": ["board"]}]

PASS = {"output": "Leave is 25 days [doc:a].", "sources": SOURCES, "roles": []}
MODIFIED = {"output": "Leave is 25 days [doc:a]. Ask BLUEJAY [doc:a].", "sources": SOURCES, "roles": []}
BLOCKED = {"output": "Leave is 25 days [doc:s].", "sources": SOURCES, "roles": []}


def guardrail(*args: str | Path, stdin: str | bytes | None = None, cwd: Path | None = None,
              script: bool = False) -> subprocess.CompletedProcess[str]:
    command: list[str | Path]
    if script:
        exe = shutil.which("guardrail", path=str(Path(sys.executable).parent))
        assert exe, "the guardrail console script is installed next to the interpreter"
        command = [exe, *args]
    else:
        command = [sys.executable, "-m", "guardrail.cli", *args]
    data = stdin.decode("utf-8", "surrogateescape") if isinstance(stdin, bytes) else stdin
    return subprocess.run(command, input=data, capture_output=True, text=True, timeout=60, cwd=cwd)


def jsonl(tmp_path: Path, *records: Any, name: str = "in.jsonl") -> Path:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rows(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


# ----------------------------------------------------------------------------------------------------------- check


def test_check_examples_one_record_a_line_in_input_order() -> None:
    result = guardrail("check", "--policy", ENTERPRISE, EXAMPLES)
    assert result.returncode == 0, result.stderr
    out = rows(result.stdout)
    expected_ids = [json.loads(line)["id"] for line in EXAMPLES.read_text().splitlines() if line.strip()]
    assert [r["id"] for r in out] == expected_ids
    by_id = {r["id"]: r for r in out}
    assert by_id["clean"]["decision"] == "pass"
    assert by_id["unauthorized"]["decision"] == "blocked"
    assert by_id["unauthorized"]["output"] == "Sorry, I can't share that answer."
    assert by_id["banned-term"]["decision"] == "modified"
    assert "BLUEJAY" not in by_id["banned-term"]["output"]
    assert by_id["no-sources"]["decision"] == "blocked"
    for r in out:
        assert set(r) == {"id", "decision", "output", "findings"}
        for f in r["findings"]:
            assert set(f) == {"check", "label", "action", "start", "end", "message"}


def test_check_record_fields(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, {"id": "x", **MODIFIED}))
    assert result.returncode == 0
    [row] = rows(result.stdout)
    assert row == {
        "id": "x",
        "decision": "modified",
        "output": "Leave is 25 days [doc:a]. Ask [redacted] [doc:a].",
        "findings": [{"check": "banned_terms", "label": "BANNED_TERM", "action": "redact", "start": 30, "end": 37,
                      "message": "banned term (banned_terms.terms[1])"}],
    }


def test_missing_id_gets_the_line_number_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(["", json.dumps(PASS), "   ", json.dumps({"id": "named", **PASS}), "",
                               json.dumps({"id": 7, **BLOCKED}), json.dumps(MODIFIED)]) + "\n\n")
    result = guardrail("check", "--policy", ENTERPRISE, path)
    assert result.returncode == 0, result.stderr
    assert [(r["id"], r["decision"]) for r in rows(result.stdout)] == [
        (2, "pass"), ("named", "pass"), (7, "blocked"), (7, "modified")]


MALFORMED = [
    ("not-json", "not json", "not valid JSON"),
    ("truncated", '{"output": "x"', "not valid JSON"),
    ("array", "[1, 2]", "expected a JSON object"),
    ("string", '"text"', "expected a JSON object"),
    ("output-number", '{"output": 5}', "'output' must be a string"),
    ("output-missing", '{"id": "q"}', "missing 'output'"),
    ("roles-string", '{"output": "x", "roles": "admin"}', "'roles' must be a list of strings"),
    ("roles-numbers", '{"output": "x", "roles": [1, 2]}', "'roles' must be a list of strings"),
    ("sources-object", '{"output": "x", "sources": {"id": "a"}}', "'sources' must be a list"),
    ("source-bad-id", '{"output": "x", "sources": [{"id": 5, "text": "t"}]}', "'id' must be a string"),
    ("source-not-object", '{"output": "x", "sources": ["a"]}', "a source must be a mapping"),
    ("id-list", '{"id": [1], "output": "x"}', "'id' must be a string or a number"),
]


@pytest.fixture(scope="module")
def malformed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """One run over every malformed line of the table, each between two good records (one subprocess, not twelve)."""
    records: list[Any] = []
    numbers = []
    for k, (_, line, _) in enumerate(MALFORMED):
        records += [{"id": f"before-{k}", **PASS}, line]
        numbers.append(len(records))
    records.append({"id": "last", **BLOCKED})
    path = jsonl(tmp_path_factory.mktemp("cli"), *records)
    return guardrail("check", "--policy", ENTERPRISE, path), numbers


def test_malformed_lines_do_not_stop_the_run(malformed_run: Any) -> None:
    result, _ = malformed_run
    assert result.returncode == 2
    assert [r["id"] for r in rows(result.stdout)] == [f"before-{k}" for k in range(len(MALFORMED))] + ["last"]
    assert "Traceback" not in result.stderr
    assert f"{len(MALFORMED)} malformed lines skipped" in result.stderr


@pytest.mark.parametrize(("index", "reason"), [(k, m[2]) for k, m in enumerate(MALFORMED)],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_line_is_reported_with_its_number(malformed_run: Any, index: int, reason: str) -> None:
    result, numbers = malformed_run
    reports = [ln for ln in result.stderr.splitlines() if ln.startswith(f"line {numbers[index]}: ")]
    assert len(reports) == 1, result.stderr
    assert reason in reports[0]


@pytest.mark.parametrize(
    ("records", "fail_on", "status"),
    [
        ([PASS], None, 0),
        ([PASS, MODIFIED, BLOCKED], None, 0),
        ([PASS], "modified", 0),
        ([PASS, MODIFIED], "modified", 1),
        ([PASS, BLOCKED], "modified", 1),  # blocked is stricter than modified
        ([PASS, MODIFIED], "blocked", 0),
        ([MODIFIED, BLOCKED, PASS], "blocked", 1),
        ([PASS, "garbage"], None, 2),
        ([BLOCKED, "garbage"], "blocked", 2),  # 2 wins over 1
        (["garbage", MODIFIED], "modified", 2),
    ],
    ids=["pass", "mixed-no-gate", "gate-modified-pass", "gate-modified-hit", "gate-modified-by-blocked",
         "gate-blocked-miss", "gate-blocked-hit", "malformed", "malformed-beats-blocked", "malformed-beats-modified"],
)
def test_exit_status(tmp_path: Path, records: list[Any], fail_on: str | None, status: int) -> None:
    args = ["check", "--policy", ENTERPRISE, jsonl(tmp_path, *records)]
    if fail_on:
        args += ["--fail-on", fail_on]
    assert guardrail(*args).returncode == status


def test_bad_fail_on_value_is_a_usage_error(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, "--fail-on", "pass", jsonl(tmp_path, PASS))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["-"], []], ids=["dash", "default"])
def test_reads_stdin(args: list[str]) -> None:
    stdin = "\n".join(json.dumps({"id": i, **r}) for i, r in enumerate([PASS, MODIFIED, BLOCKED])) + "\n"
    result = guardrail("check", "--policy", ENTERPRISE, *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert [(r["id"], r["decision"]) for r in rows(result.stdout)] == [(0, "pass"), (1, "modified"), (2, "blocked")]


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, PASS, BLOCKED), "--output", out)
    assert result.returncode == 0
    assert result.stdout == ""
    assert [r["decision"] for r in rows(out.read_text(encoding="utf-8"))] == ["pass", "blocked"]


def test_unwritable_output_file(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, PASS), "-o", tmp_path / "no" / "out.jsonl")
    assert result.returncode == 2
    assert "out.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


def test_summary_on_stderr(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, PASS, MODIFIED, BLOCKED, BLOCKED))
    summary = result.stderr.strip().splitlines()[-1]
    assert "4 records checked" in summary
    assert "1 pass, 1 modified, 2 blocked" in summary
    assert "UNAUTHORIZED_SOURCE 2" in summary
    assert "BANNED_TERM 1" in summary
    assert all(line.startswith("{") for line in result.stdout.splitlines())


def test_non_ascii_output_is_written_as_utf8(tmp_path: Path) -> None:
    record = {"id": "ü", "output": "Grüße, 東京 \U0001f600 [doc:a].", "sources": SOURCES}
    out = tmp_path / "out.jsonl"
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, record), "-o", out)
    assert result.returncode == 0
    [row] = rows(out.read_text(encoding="utf-8"))
    assert row["id"] == "ü"
    assert row["output"] == record["output"]


def test_invalid_utf8_does_not_crash_the_run(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"id": "bad", "output": "caf\xe9 \xff"}\n' + json.dumps({"id": "good", **PASS}).encode() + b"\n")
    result = guardrail("check", "--policy", ENTERPRISE, path)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 2)
    out = rows(result.stdout)
    assert out[-1]["id"] == "good"
    assert out[-1]["decision"] == "pass"
    if result.returncode == 2:
        assert any(line.startswith("line 1: ") for line in result.stderr.splitlines())


def test_invalid_utf8_on_stdin_does_not_crash() -> None:
    stdin = b'{"id": "bad", "output": "caf\xe9"}\n' + json.dumps({"id": "good", **PASS}).encode() + b"\n"
    result = subprocess.run([sys.executable, "-m", "guardrail.cli", "check", "--policy", str(ENTERPRISE), "-"],
                            input=stdin, capture_output=True, timeout=60)
    assert b"Traceback" not in result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["id"] == "good"


def test_missing_input_file(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, tmp_path / "nope.jsonl")
    assert result.returncode == 2
    assert "nope.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("name: x\nbogus: 1\n", [":2:", "bogus", "unknown key"]),
        ("name: x\ncitations: [\n", [":3:", "not valid YAML"]),
    ],
)
def test_bad_policy_exits_2_with_one_line_and_no_traceback(tmp_path: Path, text: str, pieces: list[str]) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text(text)
    result = guardrail("check", "--policy", policy, jsonl(tmp_path, PASS))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(policy) in lines[0]
    for piece in pieces:
        assert piece in lines[0]
    assert "Traceback" not in result.stderr


def test_console_script(tmp_path: Path) -> None:
    result = guardrail("check", "--policy", ENTERPRISE, jsonl(tmp_path, PASS, BLOCKED), "--fail-on", "blocked",
                       script=True)
    assert result.returncode == 1
    assert [r["decision"] for r in rows(result.stdout)] == ["pass", "blocked"]


def test_relative_paths_resolve_from_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "pol").mkdir()
    (tmp_path / "pol" / "terms.txt").write_text("Zanzibar\n")
    (tmp_path / "pol" / "p.yaml").write_text("banned_terms:\n  files: [terms.txt]\n")
    jsonl(tmp_path, {"output": "Go to Zanzibar."})
    result = guardrail("check", "--policy", "pol/p.yaml", "in.jsonl", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert rows(result.stdout)[0]["output"] == "Go to [redacted]."


# ------------------------------------------------------------------------------------------------ policy validate


def test_policy_validate_ok() -> None:
    path = ROOT / "policies" / "support-ticket.yaml"
    result = guardrail("policy", "validate", path)
    assert result.returncode == 0, result.stderr
    checks = "banned_terms, schema, instructions"
    assert result.stdout.strip() == f"{path}: valid policy 'support-ticket' (checks: {checks})"


def test_policy_validate_bad(tmp_path: Path) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text("name: x\nbanned_terms:\n  terms: [a]\n  case_sensitve: true\n")
    result = guardrail("policy", "validate", policy)
    assert result.returncode == 2
    assert result.stderr.strip() == f"guardrail: {policy}:4: banned_terms.case_sensitve: unknown key"
    assert "Traceback" not in result.stderr


def test_policy_validate_console_script(tmp_path: Path) -> None:
    policy = tmp_path / "bad.yaml"
    policy.write_text("fail_mode: sometimes\n")
    result = guardrail("policy", "validate", policy, script=True)
    assert result.returncode == 2
    assert f"{policy}:1: fail_mode" in result.stderr


def test_no_command_is_a_usage_error() -> None:
    result = guardrail()
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
