"""The command line (CONTRACT section 7), run as a real subprocess: ``guardrail check`` and ``policy validate``."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
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


def test_version() -> None:
    from guardrail import __version__

    result = guardrail("--version")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"guardrail {__version__}\n", "")
    assert __version__ == "0.1.0"


def test_policy_without_an_action_prints_the_policy_help() -> None:
    result = guardrail("policy")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: guardrail policy ")
    assert "validate" in result.stderr
    assert "check JSONL records" not in result.stderr  # not the top-level help
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------------------------------- serve


def serve(*args: str | Path, key: str | None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDRAIL_")}
    if key is not None:
        env["GUARDRAIL_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "guardrail.cli", "serve", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.mark.parametrize(("key", "state"), [(None, "is not set"), ("", "is not set"), ("   ", "is blank"),
                                            ("\t", "is blank")], ids=["unset", "empty", "spaces", "tab"])
def test_serve_refuses_to_start_without_a_key(key: str | None, state: str) -> None:
    result = serve("--policy", ENTERPRISE, "--upstream", "http://127.0.0.1:9/v1", "--port", "0", key=key)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"guardrail: GUARDRAIL_API_KEY {state}: the proxy refuses to start without a key")
    assert "Traceback" not in result.stderr


def test_serve_help_documents_the_limits() -> None:
    result = guardrail("serve", "--help")
    assert result.returncode == 0
    help_text = " ".join(result.stdout.split())
    assert "--max-connections N" in help_text and "(default: 1000)" in help_text
    assert "--timeout SECONDS" in help_text and "(default: 120)" in help_text
    assert "GUARDRAIL_API_KEY" in help_text


@pytest.mark.parametrize("args", [["--max-connections", "0"], ["--max-connections", "many"],
                                  ["--max-connections", "2.5"], ["--timeout", "0"], ["--timeout", "-3"],
                                  ["--timeout", "soon"], ["--timeout", "nan"], ["--timeout", "inf"]])
def test_serve_rejects_bad_limits(args: list[str]) -> None:
    result = serve("--policy", ENTERPRISE, "--upstream", "http://127.0.0.1:9/v1", *args, key="k")
    assert result.returncode == 2
    assert f"argument {args[0]}" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_rejects_a_bad_upstream() -> None:
    result = serve("--policy", ENTERPRISE, "--upstream", "localhost:8000", key="k")
    assert result.returncode == 2
    assert result.stderr.strip() == "guardrail: the upstream must be an http:// or https:// URL, not 'localhost:8000'"


def test_serve_passes_the_limits_to_the_proxy(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    import guardrail.proxy
    from guardrail import cli

    made: dict[str, Any] = {}
    real = guardrail.proxy.create_proxy

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(guardrail.proxy, "create_proxy", spy)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: made.update(run=kw))
    monkeypatch.setenv("GUARDRAIL_API_KEY", "k")
    monkeypatch.delenv("GUARDRAIL_UPSTREAM_API_KEY", raising=False)
    base = ["serve", "--policy", str(ENTERPRISE), "--upstream", "http://127.0.0.1:9/v1"]
    assert cli.main([*base, "--max-connections", "250", "--timeout", "7.5", "--port", "9999"]) == 0
    assert (made["max_connections"], made["timeout"], made["api_key"]) == (250, 7.5, "k")
    assert made["run"] == {"host": "127.0.0.1", "port": 9999, "log_level": "warning"}
    assert "at most 250 upstream connections, timeout 7.5 s" in capsys.readouterr().err
    made.clear()
    assert cli.main(base) == 0
    assert (made["max_connections"], made["timeout"]) == (1000, 120.0)


def test_serve_runs_guards_and_forwards(tmp_path: Path) -> None:
    import socket

    import httpx
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from guardrail.demo import BackgroundServer

    async def chat(request: Request) -> JSONResponse:
        return JSONResponse({"choices": [{"index": 0, "message": {"role": "assistant", "content": "Ask BLUEJAY."}}]})

    async def models(request: Request) -> JSONResponse:
        return JSONResponse({"data": [{"id": "m"}], "auth": request.headers.get("authorization")})

    upstream = Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/v1/models", models)])
    (tmp_path / "p.yaml").write_text("banned_terms:\n  terms: [BLUEJAY]\n")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GUARDRAIL_")},
           "GUARDRAIL_API_KEY": "the-key", "GUARDRAIL_UPSTREAM_API_KEY": "up"}
    with BackgroundServer(upstream) as model:
        process = subprocess.Popen(
            [sys.executable, "-m", "guardrail.cli", "serve", "--policy", str(tmp_path / "p.yaml"), "--upstream",
             model.url + "/v1", "--port", str(port), "--max-connections", "3", "--timeout", "5"],
            stderr=subprocess.PIPE, text=True, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    if httpx.get(url + "/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
            auth = {"authorization": "bearer the-key"}
            chat_reply = httpx.post(url + "/v1/chat/completions", json={"messages": []}, headers=auth)
            models_reply = httpx.get(url + "/v1/models", headers=auth)
            missing = httpx.get(url + "/nowhere", headers=auth)
        finally:
            process.terminate()
            _, err = process.communicate(timeout=10)
    assert chat_reply.json()["choices"][0]["message"]["content"] == "Ask [redacted]."
    assert models_reply.json() == {"data": [{"id": "m"}], "auth": "Bearer up"}
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_url"
    assert "at most 3 upstream connections, timeout 5 s" in err


# ------------------------------------------------------------------------------------------------- progress bar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def screen(written: str) -> list[str]:
    """The lines a terminal shows for ``written``: ``\\r`` returns to column 0, later characters overwrite."""
    lines: list[list[str]] = [[]]
    column = 0
    for char in written:
        if char == "\r":
            column = 0
        elif char == "\n":
            lines.append([])
            column = 0
        else:
            line = lines[-1]
            if column < len(line):
                line[column] = char
            else:
                line.append(char)
            column += 1
    return ["".join(line) for line in lines]


def test_messages_never_share_a_line_with_the_progress_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from guardrail import cli

    records: list[Any] = []
    bad = {7, 8, 31, 60, 99}
    for n in range(1, 101):
        records.append("not json" if n in bad else {"id": n, **PASS})
    path = jsonl(tmp_path, *records)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(cli, "_PROGRESS_MIN_LINES", 10)
    status = cli.main(["check", "--policy", str(ENTERPRISE), str(path), "-o", str(tmp_path / "out.jsonl")])
    assert sys.stderr is terminal  # given back when the run ends
    written = terminal.getvalue()
    assert status == 2
    assert "%" in written and "\r" in written  # the bar was shown
    shown = [line.rstrip() for line in screen(written)]
    reports = [line for line in shown if "line " in line and ": not valid JSON" in line]
    assert [r.split(":")[0] for r in reports] == [f"line {n}" for n in sorted(bad)], shown
    for line in shown:
        if ": not valid JSON" in line:
            assert line.startswith("line "), line  # never glued to the bar
    assert shown[-2].startswith("guardrail: 95 records checked")  # the summary too, and the bar is gone at the end
    assert shown[-1] == ""
    assert not any(line.startswith("[") for line in shown)


def test_help_texts_and_validate_say_what_they_mean(tmp_path: Path) -> None:
    """No literal "%%" in a description (argparse formats only help strings), and a policy's checks named once
    each (its rules and its own instructions are both the instructions check)."""
    for command in ("audit", "report"):
        shown = subprocess.run([sys.executable, "-m", "guardrail.cli", command, "--help"], capture_output=True,
                               text=True, timeout=60).stdout
        assert "95% Wilson" in shown and "%%" not in shown
    path = tmp_path / "p.yaml"
    path.write_text("name: mine\ninstructions:\n  max_words: 50\n  rules:\n    - {id: 'punctuation:no_comma'}\n")
    shown = subprocess.run([sys.executable, "-m", "guardrail.cli", "policy", "validate", str(path)],
                           capture_output=True, text=True, timeout=60).stdout
    assert shown.strip().endswith("(checks: instructions)")
