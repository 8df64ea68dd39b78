"""Verifiable instructions in policies and per turn (CONTRACT sections 2, 5, 7): IFEval's catalogue and seed 002's
constraints, acting on strict or loose verdicts, in the API, the middleware, the proxy, ``check`` and ``audit``;
adherence rates with intervals; IFEval conformance through ``guardrail check``; the gold metrics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_middleware import body_of, completion, run, upstream
from test_proxy import AUTH, KEY, FakeUpstream

from guardrail import Decision, Guard, GuardrailMiddleware, Label, PolicyError, Source, ifeval
from guardrail.adherence import CONSTRAINT_IDS, parse
from guardrail.cli import main
from guardrail.demo import BackgroundServer
from guardrail.ifeval import InstructionError
from guardrail.proxy import create_proxy

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "ifeval"
DATA = ROOT / "tests" / "data" / "ifeval"
RESPONSES = {"gpt4": "input_response_data_gpt4_20231107_145030.jsonl",
             "text_bison": "input_response_data_text_bison.jsonl"}

NO_COMMA = {"id": "punctuation:no_comma"}
TWO_BULLETS = {"id": "detectable_format:number_bullet_lists", "num_bullets": 2}


def results(verdict: Any) -> list[tuple[str, bool, bool]]:
    return [(r.id, r.followed, r.followed_loose) for r in verdict.instructions]


# -------------------------------------------------------------------------------------------- policy rules


def test_policy_rules_give_results_and_act_on_violation() -> None:
    guard = Guard.from_dict({"instructions": {"rules": [NO_COMMA, {**TWO_BULLETS, "on_violation": "block"}]},
                             "blocked_message": "Blocked."})
    verdict = guard.check("Hello there.\n* a\n* b")
    assert verdict.decision is Decision.PASS and verdict.findings == []
    assert results(verdict) == [("punctuation:no_comma", True, True),
                                ("detectable_format:number_bullet_lists", True, True)]
    verdict = guard.check("Hello, there.\n* a")
    assert verdict.decision is Decision.BLOCKED and verdict.output == "Blocked."
    assert [(f.label, f.action, f.message) for f in verdict.findings] == [
        (Label.INSTRUCTION_VIOLATED, "flag", "punctuation:no_comma: not followed"),
        (Label.INSTRUCTION_VIOLATED, "block", "detectable_format:number_bullet_lists: not followed")]
    assert all((f.start, f.end) == (0, 17) for f in verdict.findings)  # a rule is about the whole output
    assert results(verdict)[1] == ("detectable_format:number_bullet_lists", False, False)


def test_the_sections_on_violation_is_the_rules_default_and_strip_blocks() -> None:
    guard = Guard.from_dict({"instructions": {"rules": [NO_COMMA], "on_violation": "strip"}})
    verdict = guard.check("One, two.")
    assert verdict.decision is Decision.BLOCKED and verdict.findings[0].action == "block"


def test_mode_loose_acts_on_the_loose_verdict() -> None:
    # IFEval's loose mode also tries the response without its first line: "Sure, here it is:" is forgiven.
    output = "Sure, here it is:\nno commas here at all"
    strict = Guard.from_dict({"instructions": {"rules": [{**NO_COMMA, "on_violation": "block"}]}})
    loose = Guard.from_dict({"instructions": {"rules": [{**NO_COMMA, "on_violation": "block", "mode": "loose"}]}})
    assert strict.check(output).decision is Decision.BLOCKED
    verdict = loose.check(output)
    assert verdict.decision is Decision.PASS and results(verdict) == [("punctuation:no_comma", False, True)]


@pytest.mark.parametrize(("rule", "key", "words"), [
    ({"id": "punctuation:no_coma"}, "instructions.rules[0]", ["unknown IFEval instruction id", "no_comma"]),
    ({"id": "length_constraints:number_words", "relation": "less than", "num_words": "x"},
     "instructions.rules[0].num_words", ["integer"]),
    ({"id": "keywords:frequency", "keyword": "a", "frequency": 1}, "instructions.rules[0]", ["relation"]),
    ({"id": "punctuation:no_comma", "on_violation": "redact"}, "instructions.rules[0].on_violation", ["flag"]),
    ({"id": "punctuation:no_comma", "mode": "lenient"}, "instructions.rules[0].mode", ["loose"]),
    ({"id": "punctuation:no_comma", "extra": 1}, "instructions.rules[0].extra", ["unknown kwarg"]),
])
def test_a_bad_rule_fails_at_load_with_file_key_and_line(tmp_path: Path, rule: dict[str, Any], key: str,
                                                         words: list[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("name: x\ninstructions:\n  rules:\n    - " + json.dumps(rule) + "\n", encoding="utf-8")
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(policy)
    err = info.value
    assert err.file == str(policy) and err.key == key and err.line == 4, (err.key, err.line, str(err))
    assert all(w in str(err) for w in words), str(err)


def test_a_stream_is_held_whole_only_when_a_rule_acts() -> None:
    flagging = Guard.from_dict({"instructions": {"rules": [NO_COMMA]}, "banned_terms": {"terms": ["zzz"]}})
    session = flagging.stream()
    assert session.feed("Hello there. And") == "Hello there. And"  # only the terms hold text back
    blocking = Guard.from_dict({"instructions": {"rules": [{**NO_COMMA, "on_violation": "block"}]}})
    session = blocking.stream()
    assert session.feed("Hello there. And") == ""
    session.feed(" then, a comma.")
    rest, verdict = session.finish()
    assert rest == "" and session.blocked and verdict.decision is Decision.BLOCKED


# ------------------------------------------------------------------------------------------- per-turn forms


def test_per_turn_instructions_come_first_then_the_policys() -> None:
    guard = Guard.from_dict({"instructions": {"rules": [NO_COMMA]}})
    verdict = guard.check("Hi.\n* a\n* b", instructions=[TWO_BULLETS, {"id": "change_case:english_lowercase"}])
    assert [r.id for r in verdict.instructions] == ["detectable_format:number_bullet_lists",
                                                    "change_case:english_lowercase", "punctuation:no_comma"]
    assert guard.check("Hi.").instructions == [r for r in guard.check("Hi.").instructions
                                               if r.id == "punctuation:no_comma"]


def test_per_turn_instructions_act_as_the_policy_says_unless_they_say() -> None:
    guard = Guard.from_dict({"instructions": {"on_violation": "block"}, "blocked_message": "Blocked."})
    assert guard.check("a, b", instructions=[NO_COMMA]).decision is Decision.BLOCKED
    assert guard.check("a, b", instructions=[{**NO_COMMA, "on_violation": "flag"}]).decision is Decision.PASS
    # without an instructions section they are flagged
    assert Guard.from_dict({}).check("a, b", instructions=[NO_COMMA]).decision is Decision.PASS


def test_ifeval_record_form_with_null_kwargs_and_the_prompt() -> None:
    prompt = "Repeat the request word for word without change and then give your answer: say hi"
    parsed = parse(instruction_id_list=["combination:repeat_prompt", "punctuation:no_comma"],
                   kwargs=[{"prompt_to_repeat": None}, {"num_words": None}], prompt=prompt)
    verdict = Guard.from_dict({}).check(prompt + "\nhi", instructions=parsed)
    assert results(verdict) == [("combination:repeat_prompt", True, True), ("punctuation:no_comma", True, True)]
    with pytest.raises(InstructionError, match="kwargs"):
        parse(instruction_id_list=["punctuation:no_comma"], kwargs=[{}, {}])


@pytest.mark.parametrize(("constraints", "output", "expected"), [
    ({"max_words": 3}, "one two three", [True]),
    ({"max_words": 3}, "one two three four", [False]),
    ({"min_words": 2, "max_chars": 5}, "ab cd", [True, True]),
    ({"max_chars": 4}, "abcde", [False]),
    ({"must_be_json": True}, '{"a": 1}', [True]),
    ({"must_be_json": True}, "{'a': 1}", [False]),
    ({"must_include": ["Leave", "days"]}, "leave is 25 DAYS", [True, True]),
    ({"must_include": "weeks"}, "leave is 25 days", [False]),
    ({"must_exclude": ["Falcon"]}, "project falcon", [False]),
    ({"regex": r"\[doc:\w+\]"}, "see [doc:hr]", [True]),
])
def test_seed_002_constraints(constraints: dict[str, Any], output: str, expected: list[bool]) -> None:
    verdict = Guard.from_dict({}).check(output, instructions=parse(constraints=constraints))
    assert [(r.followed, r.followed_loose) for r in verdict.instructions] == [(e, e) for e in expected]
    assert all(r.id in CONSTRAINT_IDS for r in verdict.instructions)


def test_a_regex_constraint_that_backtracks_without_end_is_a_guard_error() -> None:
    guard = Guard.from_dict({"blocked_message": "Blocked."})
    verdict = guard.check("x" * 5000 + "!", instructions=parse(constraints={"regex": "(x+x+)+y"}))
    assert verdict.decision is Decision.BLOCKED  # fail_mode closed
    assert [f.label for f in verdict.findings] == [Label.GUARD_ERROR]
    assert "timed out in the instructions check" in verdict.findings[0].message


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"constraints": {"max_word": 3}}, "unknown constraint"),
    ({"constraints": {"max_words": -1}}, "integer"),
    ({"constraints": {"regex": "("}}, "does not compile"),
    ({"constraints": {"regex": "a{1000000000}"}}, "too large"),  # compiling it would take gigabytes
    ({"constraints": {"regex": "((a{900}){900}){900}"}}, "too large"),
    ({"items": [{"id": "punctuation:no_comma", "on_violation": ["block"]}]}, "on_violation"),
    ({"items": [{"id": "punctuation:no_comma", "mode": {}}]}, "mode"),
    ({"items": [{"kw": 1}]}, "'id'"),
    ({"items": "punctuation:no_comma"}, "list"),
])
def test_bad_per_turn_instructions_raise_naming_what(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InstructionError, match=message):
        parse(**kwargs)


# -------------------------------------------------------------------------------- middleware and the proxy


def test_attach_context_instructions_reach_the_verdict() -> None:
    seen: list[Any] = []
    context = {"sources": [], "roles": [], "instructions": [{**NO_COMMA, "on_violation": "block"}]}
    app = GuardrailMiddleware(upstream("application/json", [completion("a, b")], context=context),
                              guard=Guard.from_dict({"blocked_message": "Blocked."}),
                              on_verdict=lambda verdict, info: seen.append(verdict))
    body = json.loads(body_of(run(app)))
    assert body["choices"][0]["message"]["content"] == "Blocked."
    assert results(seen[0]) == [("punctuation:no_comma", False, False)]


def test_the_proxy_takes_instructions_and_the_prompt_from_the_request() -> None:
    fake = FakeUpstream()  # answers "Ask BLUEJAY."
    guard = Guard.from_dict({"blocked_message": "Blocked.", "instructions": {"on_violation": "block"}})
    with BackgroundServer(fake.app) as up, \
            BackgroundServer(create_proxy(guard, up.url + "/v1", api_key=KEY)) as proxy:
        def ask(turn: dict[str, Any]) -> httpx.Response:
            return httpx.post(proxy.url + "/v1/chat/completions", headers=AUTH, json={
                "model": "m", "messages": [{"role": "user", "content": "Ask"}], "guardrail": turn})

        reply = ask({"instructions": [{"id": "keywords:existence", "keywords": ["BLUEJAY"]}]})
        assert reply.json()["choices"][0]["message"]["content"] == "Ask BLUEJAY."
        reply = ask({"instruction_id_list": ["keywords:forbidden_words"], "kwargs": [{"forbidden_words": ["ask"]}]})
        assert reply.json()["choices"][0]["message"]["content"] == "Blocked."
        # the prompt defaults to the last user message
        reply = ask({"instructions": [{"id": "combination:repeat_prompt"}]})
        assert reply.json()["choices"][0]["message"]["content"] == "Ask BLUEJAY."
        reply = ask({"instructions": [{"id": "combination:repeat_prompt"}], "prompt": None})  # null: not given
        assert reply.json()["choices"][0]["message"]["content"] == "Ask BLUEJAY."
        for odd in ([], False, ""):
            assert ask(odd).status_code == 400  # type: ignore[arg-type]
        reply = ask({"constraints": {"max_words": 1}})
        assert reply.json()["choices"][0]["message"]["content"] == "Blocked."
        reply = ask({"instructions": [{"id": "punctuation:no_coma"}]})
        assert reply.status_code == 400
        assert reply.json()["error"]["code"] == "invalid_guardrail_instructions"
        assert "no_comma" in reply.json()["error"]["message"]
        # an error message never repeats the ID or the text of a source the caller may not see
        secret = {"id": "fin-9", "text": "The merger with Initech closes next spring after the board vote.",
                  "roles": ["board"]}
        for bad in ({"instructions": [{"id": "fin-9"}]},
                    {"constraints": {"max_words": "The merger with Initech closes next spring after the board"}}):
            reply = ask({"sources": [secret], "roles": ["staff"], **bad})
            assert reply.status_code == 400, reply.text
            message = reply.json()["error"]["message"]
            assert "fin-9" not in message and "Initech" not in message, message
        reply = httpx.post(proxy.url + "/v1/chat/completions", headers=AUTH, json={
            "model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}],
            "guardrail": {"instructions": [NO_COMMA]}})
        assert reply.status_code == 200  # a content part that is not text is no prompt, not a crash


# ------------------------------------------------------------------------------------- check, audit, report


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_check_reports_results_in_order_and_adherence_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) \
        -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    records = _write(tmp_path / "in.jsonl", [
        {"id": "a", "output": "no commas", "instructions": [NO_COMMA, TWO_BULLETS]},
        {"id": "b", "output": "a, b", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]},
        {"id": "c", "output": "short", "constraints": {"max_words": 3, "must_include": "short"}},
        {"id": "d", "output": "no instructions here"},
        {"id": "e", "output": "x", "instructions": [{"id": "nope"}]},
    ])
    out = tmp_path / "out.jsonl"
    assert main(["check", "--policy", str(policy), str(records), "--output", str(out)]) == 2  # line 5 is bad
    err = capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["a", "b", "c", "d"]
    assert rows[0]["instructions"] == [
        {"id": "punctuation:no_comma", "followed": True, "followed_loose": True},
        {"id": "detectable_format:number_bullet_lists", "followed": False, "followed_loose": False}]
    assert rows[1]["instructions"] == [{"id": "punctuation:no_comma", "followed": False, "followed_loose": False}]
    assert [r["id"] for r in rows[2]["instructions"]] == ["constraints:max_words", "constraints:must_include"]
    assert "instructions" not in rows[3]
    assert "line 5: nope: unknown IFEval instruction id" in err
    # 5 instructions, 3 followed; 3 turns with instructions, 1 all followed (c); d is inconclusive
    assert "instruction_level.strict: 3/5 = 60.0%" in err
    assert "prompt_level.strict: 1/3 = 33.3%" in err
    assert "1 record without instructions (inconclusive)" in err


def test_audit_summary_has_adherence_metrics_by_type_and_gates(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("citations: {}\n", encoding="utf-8")
    records = _write(tmp_path / "in.jsonl", [
        {"id": i, "output": "Leave is 25 days [doc:a].", "sources": [{"id": "a", "text": "Leave is 25 days."}],
         "instructions": [NO_COMMA] if i < 3 else [{"id": "keywords:existence", "keywords": ["weeks"]}]}
        for i in range(4)])
    summary = tmp_path / "summary.json"
    argv = ["audit", "--policy", str(policy), "--judge", "lexical", str(records), "--output", str(tmp_path / "o"),
            "--summary", str(summary)]
    assert main([*argv, "--gate", "prompt_level.strict >= 0.8"]) == 1
    report = json.loads(summary.read_text(encoding="utf-8"))
    assert report["metrics"]["prompt_level.strict"]["k"] == 3 and report["metrics"]["prompt_level.strict"]["n"] == 4
    assert report["metrics"]["instruction_level.loose"]["rate"] == 0.75
    assert report["instructions"]["by_type"]["keywords:existence"]["strict"]["k"] == 0
    assert report["instructions"]["by_type"]["punctuation:no_comma"]["loose"]["n"] == 3
    assert main([*argv, "--gate", "prompt_level.strict >= 0.75", "--gate", "prompt_level.strict.low >= 0.5"]) == 1
    assert main([*argv, "--gate", "prompt_level.strict >= 0.75", "--gate", "prompt_level.strict.low >= 0.25"]) == 0
    assert main([*argv, "--gate", "refusal_recall >= 0.5"]) == 1  # no data: every gate on it fails
    capsys.readouterr()


def test_gold_fields_and_gold_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    records = _write(tmp_path / "in.jsonl", [
        {"id": 1, "output": '```json\n{"category": "Hardware ", "priority": "high", "site": {"city": "Berlin"}}\n```',
         "gold": {"category": "hardware", "priority": "low", "site": {"city": "berlin"}}},
        {"id": 2, "output": "not JSON", "gold": {"category": "software"}},
        {"id": 3, "output": "See [doc:a] and [doc:b].", "gold_ids": ["a", "c"]},
        {"id": 4, "output": "Nothing cited.", "gold_ids": ["a"]},
    ])
    out = tmp_path / "out.jsonl"
    assert main(["check", "--policy", str(policy), str(records), "--output", str(out)]) == 0
    err = capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["fields"] == {"category": True, "priority": False, "site.city": True}
    assert rows[1]["fields"] == {"category": False}
    assert "field_accuracy: 2/4 = 50.0%" in err
    assert "gold_source_recall: 1/3 = 33.3%" in err  # a (of a, c) and nothing (of a)
    assert "gold_source_precision: 1/2 = 50.0%" in err  # a and b cited, a is gold


def test_refusal_recall_and_false_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    records = _write(tmp_path / "in.jsonl", [
        {"id": 1, "output": "I'm sorry, but I can't share that document.", "should_refuse": True},
        {"id": 2, "output": "Annual leave is 25 days a year [doc:hr-12].", "should_refuse": True},
        {"id": 3, "output": "You cannot carry over more than five days into the next year.", "should_refuse": False},
        {"id": 4, "output": "I'm unable to help with that request.", "should_refuse": False},
        {"id": 5, "output": "Leave is 25 days."},
    ])
    out = tmp_path / "out.jsonl"
    assert main(["check", "--policy", str(policy), str(records), "--output", str(out)]) == 0
    err = capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("refused") for r in rows] == [True, False, False, True, None]
    assert "refusal_recall: 1/2 = 50.0%" in err
    assert "false_refusal_rate: 1/2 = 50.0%" in err


def test_a_line_nested_too_deep_is_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    records = tmp_path / "in.jsonl"
    records.write_text("[" * 100_000 + "]" * 100_000 + '\n{"output": "fine"}\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["check", "--policy", str(policy), str(records), "--output", str(out)]) == 2
    assert "line 1: not valid JSON here (nested too deep)" in capsys.readouterr().err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1  # the next record still checked


def test_gold_fields_are_compared_by_path_and_as_json_values() -> None:
    from guardrail.offline import field_results

    assert field_results('{"a.b": 1}', {"a.b": 1}) == [("a.b", True)]  # a key with a dot is one key
    assert field_results('{"a": {"b": 1}}', {"a.b": 1}) == [("a.b", False)]
    assert field_results('{"x": 1.0, "y": true}', {"x": 1, "y": 1}) == [("x", True), ("y", False)]


def test_per_turn_rules_stop_when_the_budget_is_spent() -> None:
    guard = Guard.from_dict({"budget_ms": 20})
    many = [{"id": "constraints:regex", "value": f"(a|aa)+${i}"} for i in range(200)]
    verdict = guard.check("a" * 22 + "!", instructions=parse(many))
    assert verdict.decision is Decision.BLOCKED
    assert verdict.findings[-1].message == "latency budget of 20 ms ran out in the instructions check"
    with pytest.raises(InstructionError, match="at most 256"):
        parse([NO_COMMA] * 257)


def test_a_malformed_gold_field_is_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    records = _write(tmp_path / "in.jsonl", [{"output": "x", "gold_ids": "a"}, {"output": "x", "gold": [1]},
                                             {"output": "x", "should_refuse": "yes"}])
    assert main(["check", "--policy", str(policy), str(records), "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "line 1: 'gold_ids' must be a list" in err and "line 2: 'gold' must be" in err
    assert "line 3: 'should_refuse' must be" in err


def test_monitor_samples_carry_instruction_results_into_the_report(tmp_path: Path) -> None:
    from guardrail.judges import load_judge
    from guardrail.metrics import summarize
    from guardrail.monitor.queues import open_queue
    from guardrail.monitor.results import open_results
    from guardrail.monitor.worker import Worker

    queue_url, results_url = f"sqlite:///{tmp_path}/q.db", f"sqlite:///{tmp_path}/r.db"
    guard = Guard.from_dict({"citations": {}, "instructions": {"rules": [NO_COMMA]},
                             "sampling": {"rate": 1.0, "queue": queue_url}})
    sources = [Source("a", "Leave is 25 days.")]
    for i, text in enumerate(["Leave is 25 days [doc:a].", "Leave, is 25 days [doc:a]."]):
        assert guard.offer(text, sources, frozenset(), guard.check(text, sources), request_id=f"r{i}")
    assert guard.sampler is not None and guard.sampler.flush(10)
    with open_results(results_url) as store:
        Worker(open_queue(queue_url), store, load_judge("lexical")).run(once=True)
        report = summarize(store.summaries(), {"name": "lexical", "version": "1"})
    assert report["metrics"]["prompt_level.strict"]["k"] == 1 and report["metrics"]["prompt_level.strict"]["n"] == 2
    assert report["instructions"]["by_type"]["punctuation:no_comma"]["loose"]["n"] == 2


# ----------------------------------------------------------------------------------- IFEval conformance


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.skipif(not SHARED.exists(), reason="shared/ifeval is not there")
@pytest.mark.parametrize("model", ["gpt4", "text_bison"])
def test_ifeval_conformance_through_guardrail_check(model: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Every published response through ``guardrail check`` with its IFEval record form: each instruction's
    strict and loose verdict equals the official evaluator's, but for the documented differences."""
    if not ifeval.langdetect_available():
        pytest.skip("the language types need langdetect (the lang extra)")
    inputs = {r["prompt"]: r for r in _read(SHARED / "input_data.jsonl")}
    records = []
    for r in _read(SHARED / RESPONSES[model]):
        rec = inputs.get(r["prompt"])
        if rec is None:
            continue  # a response to a prompt IFEval's input data no longer has (it is not scored)
        records.append({"id": rec["key"], "prompt": rec["prompt"], "output": r["response"],
                        "instruction_id_list": rec["instruction_id_list"], "kwargs": rec["kwargs"]})
    policy = tmp_path / "p.yaml"
    policy.write_text("{}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["check", "--policy", str(policy), str(_write(tmp_path / "in.jsonl", records)),
                 "--output", str(out)]) == 0
    capsys.readouterr()
    ours = {row["id"]: row["instructions"] for row in _read(out)}
    known = json.loads((DATA / "known_differences.json").read_text(encoding="utf-8"))
    section = "punkt_splitter" if ifeval.punkt_available() else "builtin_splitter"
    expected = {(d["key"], d["id"]) for d in known["random_letter"] + known[section] if d["model"] == model}
    diffs = set()
    compared = 0
    for row in _read(DATA / f"official_{model}.jsonl"):
        for official, mine in zip(row["instructions"], ours[row["key"]], strict=True):
            assert official["id"] == mine["id"]
            compared += 1
            if (official["strict"], official["loose"]) != (mine["followed"], mine["followed_loose"]):
                diffs.add((row["key"], mine["id"]))
    assert compared == {"gpt4": 834, "text_bison": 206}[model]
    assert diffs == expected  # the random letters, and (built-in splitter) a few sentence counts, all documented
