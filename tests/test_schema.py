"""The schema check: JSON (one Markdown fence allowed) valid under a JSON Schema; messages name class and path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from guardrail import Action, Decision, Guard, Label, PolicyError

TICKET_SCHEMA = json.loads((Path(__file__).parent.parent / "policies/schemas/ticket.schema.json").read_text())
BLOCKED = "Sorry, I can't share that answer."
GOOD = '{"summary": "Printer broken", "priority": "high", "category": "hardware"}'


def guard(schema: dict[str, Any] = TICKET_SCHEMA, **extra: Any) -> Guard:
    return Guard.from_dict({"schema": {"json_schema": schema, **extra}})


@pytest.mark.parametrize(
    "output",
    [
        GOOD,
        f"```json\n{GOOD}\n```",
        f"```JSON\n{GOOD}\n```",
        f"```\n{GOOD}\n```",
        f"```json\n{GOOD}\n```\n",
        f"\n```json\n{GOOD}\n```  \n",
        f"```json\r\n{GOOD}\r\n```",
        f"  {GOOD}\n",
        '{"summary": "Printer broken", "priority": "low", "category": "other", "steps": ["Turn it off"],'
        ' "customer_visible": true}',
        '{\n  "summary": "Printer broken",\n  "priority": "urgent",\n  "category": "access"\n}',
    ],
    ids=["bare", "fenced-json", "fenced-JSON", "fenced-untagged", "fence-newline", "fence-padded", "fence-crlf",
         "bare-padded", "all-fields", "pretty"],
)
def test_valid_output_is_returned_unchanged(output: str) -> None:
    verdict = guard().check(output)
    assert verdict.decision is Decision.PASS
    assert verdict.output == output
    assert verdict.findings == []


INVALID = [
    # (id, output, message start)
    ("not-json", "Here is your ticket.", "parse_error at $"),
    ("text-before-json", f"Here: {GOOD}", "parse_error at $"),
    ("text-after-fence", f"```json\n{GOOD}\n```\nDone.", "parse_error at $"),
    ("two-fences", f"```json\n{GOOD}\n```\n```json\n{GOOD}\n```", "parse_error at $"),
    ("trailing-comma", GOOD[:-1] + ",}", "parse_error at $"),
    ("empty", "", "parse_error at $"),
    ("fenced-garbage", "```json\nnot json at all\n```", "parse_error at $"),
    ("missing-required", '{"summary": "Printer broken", "category": "hardware"}', "required at $"),
    ("wrong-type", '{"summary": 12345, "priority": "high", "category": "hardware"}', "type at $.summary"),
    ("root-type", '["Printer broken"]', "type at $"),
    ("enum", '{"summary": "Printer broken", "priority": "ZEBRA-SECRET", "category": "hardware"}',
     "enum at $.priority"),
    ("additional", '{"summary": "Printer broken", "priority": "high", "category": "hardware", "extra": "x"}',
     "additionalProperties at $"),
    ("nested-type", '{"summary": "Printer broken", "priority": "high", "category": "hardware", "steps": ["a", 5]}',
     "type at $.steps[1]"),
    ("min-length", '{"summary": "Pr", "priority": "high", "category": "hardware"}', "minLength at $.summary"),
    ("fenced-invalid", '```json\n{"summary": "Printer broken", "priority": "meh", "category": "hardware"}\n```',
     "enum at $.priority"),
]


@pytest.mark.parametrize(("output", "message"), [row[1:] for row in INVALID], ids=[row[0] for row in INVALID])
def test_invalid_output_is_blocked_with_class_and_path(output: str, message: str) -> None:
    verdict = guard().check(output)
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == BLOCKED
    [finding] = verdict.findings
    assert (finding.check, finding.label, finding.action) == ("schema", Label.SCHEMA_INVALID, Action.BLOCK)
    assert (finding.start, finding.end) == (0, len(output))
    assert finding.message.startswith(message), finding.message


def test_required_message_names_the_missing_keys() -> None:
    [finding] = guard().check("{}").findings
    assert finding.message == "required at $: missing 'summary', 'priority', 'category'"


@pytest.mark.parametrize(
    "output",
    [
        '{"summary": "ZEBRA-SECRET", "priority": "ZEBRA-SECRET", "category": "hardware"}',
        '{"summary": 99887766, "priority": "high", "category": "hardware"}',
        '{"summary": "Printer broken", "priority": "high", "category": "hardware", "extra": "ZEBRA-SECRET"}',
        '{"summary": "Printer broken", "priority": "high", "category": "hardware",'
        ' "steps": ["ZEBRA-SECRET", 99887766]}',
        '{"summary": "ZEBRA-SECRET", "priority": "high", "category": "hardware",}',
        '{"summary": "ZEBRA-SECRET", "priority": "high", "category": "hardware"} ZEBRA-SECRET',
        "ZEBRA-SECRET",
        '{"summary": "ZEBRA-SECRET\u0001", "priority": "high"}',
        '{"summary": "ZEBRA-SECRET\\x", "priority": "high"}',
        '{"summary": "ZE',
    ],
)
def test_message_never_includes_values_from_the_output(output: str) -> None:
    [finding] = guard().check(output).findings
    assert "ZEBRA" not in finding.message
    assert "99887766" not in finding.message
    assert finding.message.split(" ", 1)[0] in {"parse_error", "required", "type", "enum", "additionalProperties"}


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_standard_number_literals_are_not_json(literal: str) -> None:
    # RFC 8259 has no NaN or Infinity; an output containing them is "not JSON" for any strict consumer.
    schema = {"type": "object", "properties": {"n": {"type": "number"}}}
    [finding] = guard(schema).check(f'{{"n": {literal}}}').findings
    assert finding.message.startswith("parse_error")


def test_deeply_nested_output_is_a_parse_error_not_a_crash() -> None:
    output = "[" * 100_000 + "]" * 100_000
    verdict = guard({"type": "array"}).check(output)
    assert verdict.decision is Decision.BLOCKED
    assert [f.label for f in verdict.findings] == [Label.SCHEMA_INVALID]


@pytest.mark.parametrize(
    ("on_invalid", "decision", "action"),
    [
        ("block", Decision.BLOCKED, Action.BLOCK),
        ("strip", Decision.BLOCKED, Action.BLOCK),  # strip on a schema failure means block
        ("flag", Decision.PASS, Action.FLAG),
    ],
)
def test_on_invalid(on_invalid: str, decision: Decision, action: Action) -> None:
    verdict = guard(on_invalid=on_invalid).check("{}")
    assert verdict.decision is decision
    assert [f.action for f in verdict.findings] == [action]
    assert verdict.output == ("{}" if decision is Decision.PASS else BLOCKED)


def test_on_invalid_defaults_to_block() -> None:
    assert guard().check("nope").findings[0].action is Action.BLOCK


# ------------------------------------------------------------------------------------------- where the schema is


def test_schema_file_is_relative_to_the_policy_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy_dir = tmp_path / "conf"
    (policy_dir / "schemas").mkdir(parents=True)
    (policy_dir / "schemas" / "t.json").write_text(json.dumps({"type": "object", "required": ["a"]}))
    (policy_dir / "p.yaml").write_text("schema:\n  json_schema: schemas/t.json\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    g = Guard.from_policy(policy_dir / "p.yaml")
    assert g.check('{"a": 1}').decision is Decision.PASS
    assert g.check('{"b": 1}').findings[0].message.startswith("required at $")


def test_schema_file_relative_path_given_as_relative_policy_path(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "t.json").write_text('{"type": "array"}')
    (tmp_path / "conf" / "p.yaml").write_text("schema:\n  json_schema: t.json\n")
    monkeypatch.chdir(tmp_path)
    g = Guard.from_policy("conf/p.yaml")
    assert g.check("[]").decision is Decision.PASS
    assert g.check("{}").decision is Decision.BLOCKED


def test_schema_file_relative_to_base_dir(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text('{"type": "array"}')
    g = Guard.from_dict({"schema": {"json_schema": "t.json"}}, base_dir=tmp_path)
    assert g.check("[1]").decision is Decision.PASS
    assert g.check('"x"').decision is Decision.BLOCKED


def test_inline_schema_mapping_in_yaml(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(
        "schema:\n  json_schema:\n    type: object\n    properties:\n      n: {type: integer}\n    required: [n]\n")
    g = Guard.from_policy(tmp_path / "p.yaml")
    assert g.check('{"n": 3}').decision is Decision.PASS
    assert g.check('{"n": "3"}').findings[0].message == "type at $.n"


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ({"type": "strnig"}, "not a valid Draft 2020-12 JSON Schema"),
        ({"type": "object", "required": "summary"}, "not a valid Draft 2020-12 JSON Schema"),
        ({"minLength": -1}, "not a valid Draft 2020-12 JSON Schema"),
    ],
)
def test_invalid_schema_is_a_policy_error_at_load(tmp_path: Path, schema: dict[str, Any], reason: str) -> None:
    (tmp_path / "s.json").write_text(json.dumps(schema))
    (tmp_path / "p.yaml").write_text("name: x\nschema:\n  json_schema: s.json\n")
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(tmp_path / "p.yaml")
    text = str(info.value)
    assert str(tmp_path / "p.yaml") in text
    assert ":3:" in text
    assert "schema.json_schema" in text
    assert reason in text
    with pytest.raises(PolicyError, match="not a valid Draft 2020-12 JSON Schema"):
        guard(schema)


@pytest.mark.parametrize(
    ("content", "reason"),
    [("{not json", "is not JSON"), ("[1, 2]", "does not hold a JSON object")],
)
def test_unusable_schema_file_is_a_policy_error(tmp_path: Path, content: str, reason: str) -> None:
    (tmp_path / "s.json").write_text(content)
    (tmp_path / "p.yaml").write_text("schema:\n  json_schema: s.json\n")
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(tmp_path / "p.yaml")
    assert reason in str(info.value)
    assert "schema.json_schema" in str(info.value)


def test_schema_section_needs_json_schema(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("schema:\n  on_invalid: block\n")
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(tmp_path / "p.yaml")
    assert "schema.json_schema" in str(info.value)
    assert "required key is missing" in str(info.value)
