"""Policy files (CONTRACT section 4): the examples load and work; errors name the file, the key path and the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from guardrail import Action, Decision, Guard, Label, Policy, PolicyError

POLICIES = Path(__file__).parent.parent / "policies"

HR = [
    {"id": "hr-12", "text": "Full-time employees receive 25 days of paid annual leave per calendar year.",
     "roles": ["employee"]},
    {"id": "it-3", "text": "Laptops are replaced every three years.", "roles": None},
    {"id": "fin-9", "text": "The Berlin office will close in March.", "roles": ["finance-leads"]},
]


# ------------------------------------------------------------------------------------------- the example policies


@pytest.mark.parametrize("name", ["enterprise-assistant", "compliance-strict", "support-ticket"])
def test_example_policy_loads(name: str) -> None:
    guard = Guard.from_policy(POLICIES / f"{name}.yaml")
    assert guard.policy.name == name
    assert isinstance(guard.policy, Policy)


def test_example_policies_are_all_covered() -> None:
    assert sorted(p.stem for p in POLICIES.glob("*.yaml")) == [
        "compliance-strict", "enterprise-assistant", "support-ticket"]


ENTERPRISE = [
    ("clean", "You receive 25 days of paid leave [doc:hr-12]. Laptops last three years [doc:it-3].", "pass",
     None, []),
    ("quote", 'The handbook says "25 days of paid annual leave" [doc:hr-12].', "pass", None, []),
    ("uncited-flag", "Hi! Leave is 25 days [doc:hr-12]. There is free cake.", "pass", None, ["UNCITED_CLAIM"]),
    ("banned-inline", "Ask the BLUEJAY team [doc:it-3].", "modified", "Ask the [redacted] team [doc:it-3].",
     ["BANNED_TERM"]),
    ("banned-from-file", "Ask the Nightingale team [doc:it-3].", "modified", "Ask the [redacted] team [doc:it-3].",
     ["BANNED_TERM"]),
    ("banned-file-3", "Ask the heron-7 team [doc:it-3].", "modified", "Ask the [redacted] team [doc:it-3].",
     ["BANNED_TERM"]),
    ("hallucinated", "Leave is 25 days [doc:hr-12]. Monitors last five years [doc:it-4].", "modified",
     "Leave is 25 days [doc:hr-12].", ["HALLUCINATED_SOURCE", "UNCITED_CLAIM"]),
    ("unauthorized", "Leave is 25 days [doc:hr-12]. Berlin closes [doc:fin-9].", "blocked",
     "Sorry, I can't share that answer.", ["UNAUTHORIZED_SOURCE", "UNCITED_CLAIM"]),
    ("bad-quote", 'It says "30 days of paid annual leave" [doc:hr-12].', "blocked",
     "Sorry, I can't share that answer.", ["UNVERIFIED_QUOTE"]),
    ("emoji-flag", "Laptops last three years [doc:it-3] \U0001f389", "pass", None, ["INSTRUCTION_VIOLATED"]),
]


@pytest.mark.parametrize(("output", "decision", "expected", "labels"), [r[1:] for r in ENTERPRISE],
                         ids=[r[0] for r in ENTERPRISE])
def test_enterprise_assistant(output: str, decision: str, expected: str | None, labels: list[str]) -> None:
    verdict = Guard.from_policy(POLICIES / "enterprise-assistant.yaml").check(output, HR, ["employee"])
    assert verdict.decision.value == decision
    assert verdict.output == (output if expected is None else expected)
    assert [f.label.value for f in verdict.findings] == labels


STRICT_BLOCKED = "This answer could not be verified against approved sources."
SOURCES_TAIL = "\n\nSources:\n- [doc:hr-12] HR handbook"

COMPLIANCE = [
    ("clean", "Employees receive 25 days of leave [doc:hr-12]." + SOURCES_TAIL, "pass", None),
    ("uncited-stripped", "Employees receive 25 days of leave [doc:hr-12]. Also free lunch." + SOURCES_TAIL,
     "modified", "Employees receive 25 days of leave [doc:hr-12]." + SOURCES_TAIL),
    ("todo-stripped", "Employees receive 25 days [doc:hr-12]. TODO check [doc:hr-12]." + SOURCES_TAIL,
     "modified", "Employees receive 25 days [doc:hr-12]." + SOURCES_TAIL),
    ("as-an-ai-stripped", "As an AI I checked [doc:hr-12]. Leave is 25 days [doc:hr-12]." + SOURCES_TAIL,
     "modified", "Leave is 25 days [doc:hr-12]." + SOURCES_TAIL),
    ("no-sources-section", "Employees receive 25 days of leave [doc:hr-12].", "blocked", STRICT_BLOCKED),
    ("banned", "Guaranteed returns on leave [doc:hr-12]." + SOURCES_TAIL, "blocked", STRICT_BLOCKED),
    ("hallucinated", "Leave is 25 days [doc:hr-12]. More [doc:hr-13]." + SOURCES_TAIL, "blocked", STRICT_BLOCKED),
    ("only-uncited", "Leave is generous." + SOURCES_TAIL, "blocked", STRICT_BLOCKED),
    ("too-long", " ".join(["Leave is 25 days [doc:hr-12]."] * 70) + SOURCES_TAIL, "blocked", STRICT_BLOCKED),
]


@pytest.mark.parametrize(("output", "decision", "expected"), [r[1:] for r in COMPLIANCE],
                         ids=[r[0] for r in COMPLIANCE])
def test_compliance_strict(output: str, decision: str, expected: str | None) -> None:
    verdict = Guard.from_policy(POLICIES / "compliance-strict.yaml").check(output, HR, ["employee"])
    assert verdict.decision.value == decision
    assert verdict.output == (output if expected is None else expected)


TICKET_BLOCKED = '{"error": "The ticket could not be created. Please try again."}'

TICKETS = [
    ("valid", '{"summary": "Printer broken", "priority": "high", "category": "hardware"}', "pass", []),
    ("fenced", '```json\n{"summary": "VPN down", "priority": "urgent", "category": "access"}\n```', "pass", []),
    ("invalid", '{"summary": "Printer broken"}', "blocked", ["SCHEMA_INVALID"]),
    ("competitor", '{"summary": "Try HelpHero instead", "priority": "low", "category": "other"}', "blocked",
     ["BANNED_TERM"]),
    ("too-long", '{"summary": "' + "x" * 4000 + '", "priority": "low", "category": "other"}', "blocked",
     ["SCHEMA_INVALID", "INSTRUCTION_VIOLATED"]),
]


@pytest.mark.parametrize(("output", "decision", "labels"), [r[1:] for r in TICKETS], ids=[r[0] for r in TICKETS])
def test_support_ticket(output: str, decision: str, labels: list[str]) -> None:
    verdict = Guard.from_policy(POLICIES / "support-ticket.yaml").check(output)
    assert verdict.decision.value == decision
    assert verdict.output == (output if decision == "pass" else TICKET_BLOCKED)
    assert sorted(f.label.value for f in verdict.findings) == sorted(labels)


# ------------------------------------------------------------------------------------------------------- defaults


def test_section_defaults() -> None:
    policy = Guard.from_dict({"citations": {}, "quotes": {}, "banned_terms": {}, "instructions": {},
                              "schema": {"json_schema": {}}}).policy
    assert policy.citations is not None and policy.quotes is not None and policy.banned_terms is not None
    assert policy.schema_ is not None and policy.instructions is not None
    assert (policy.citations.on_hallucinated, policy.citations.on_unauthorized, policy.citations.coverage) == (
        "strip", "block", "off")
    assert policy.citations.pattern == r"\[doc:(?P<id>[^\]\s]+)\]"
    assert (policy.quotes.on_unverified, policy.quotes.min_chars) == ("block", 12)
    assert (policy.banned_terms.on_match, policy.banned_terms.replacement) == ("redact", "[redacted]")
    assert policy.banned_terms.case_sensitive is False
    assert policy.schema_.on_invalid == "block"
    assert policy.instructions.on_violation == "flag"
    assert policy.fail_mode == "closed"


def test_empty_policy_has_no_checks() -> None:
    guard = Guard.from_dict({})
    assert guard.compiled.checks == ()
    verdict = guard.check("Anything [doc:nope] goes, Falcon \U0001f389.")
    assert (verdict.decision, verdict.findings) == (Decision.PASS, [])


def test_empty_policy_file_is_valid(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("# nothing yet\n")
    assert Guard.from_policy(tmp_path / "p.yaml").compiled.checks == ()


@pytest.mark.parametrize("text", ["citations:\n  coverage: off\n", "citations:\n  coverage: 'off'\n",
                                  "citations:\n  coverage: false\n"])
def test_coverage_off_accepts_yaml_false(tmp_path: Path, text: str) -> None:
    (tmp_path / "p.yaml").write_text(text)
    guard = Guard.from_policy(tmp_path / "p.yaml")
    assert guard.policy.citations is not None
    assert guard.policy.citations.coverage == "off"
    assert guard.check("An uncited claim.").findings == []


SECTION_TEXTS = ["{name}:\n", "{name}: {{}}\n", "{name}: null\n", "{name}: ~\n",
                 "# a comment\n{name}:   # on\nname: x\n"]
DEFAULT_SECTIONS = ["citations", "quotes", "banned_terms", "instructions", "sampling", "telemetry"]


@pytest.mark.parametrize("text", SECTION_TEXTS, ids=["bare", "empty-mapping", "null", "tilde", "commented"])
@pytest.mark.parametrize("name", DEFAULT_SECTIONS)
def test_a_present_empty_section_is_on_with_its_defaults(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / "p.yaml").write_text(text.format(name=name))
    guard = Guard.from_policy(tmp_path / "p.yaml")
    section = getattr(guard.policy, name)
    assert section is not None, f"{name}: with nothing under it turned the section off"
    assert section == type(section)()  # every key at its default
    if name not in ("sampling", "telemetry"):
        assert [check.name for check in guard.compiled.checks] == [name]


@pytest.mark.parametrize("name", [*DEFAULT_SECTIONS, "schema"])
def test_from_dict_none_section_is_on(name: str) -> None:
    if name == "schema":
        with pytest.raises(PolicyError) as info:
            Guard.from_dict({"schema": None})
        assert str(info.value) == "<policy>: schema.json_schema: required key is missing"
        return
    section = getattr(Guard.from_dict({name: None}).policy, name)
    assert section is not None and section == type(section)()


def test_bare_citations_section_checks_citations(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("name: x\ncitations:\n")
    verdict = Guard.from_policy(tmp_path / "p.yaml").check("Leave is 25 days [doc:hr-12]. It is [doc:nope].", HR,
                                                           ["employee"])
    assert [f.label for f in verdict.findings] == [Label.HALLUCINATED_SOURCE]
    assert (verdict.decision, verdict.output) == (Decision.MODIFIED, "Leave is 25 days [doc:hr-12].")


def test_absent_sections_stay_off() -> None:
    policy = Guard.from_dict({"name": "x"}).policy
    assert [getattr(policy, n) for n in [*DEFAULT_SECTIONS, "schema_"]] == [None] * 7


def test_new_keys_load_with_their_values(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(
        "citations:\n  leak_min_words: 3\nfields: [tool_calls]\nkeepalive_s: 0.5\n"
        "telemetry:\n  record_content: true\nsampling:\n  rate: 0.25\n  buffer: 5\n")
    policy = Guard.from_policy(tmp_path / "p.yaml").policy
    assert policy.citations is not None and policy.citations.leak_min_words == 3
    assert policy.fields == ["tool_calls"]
    assert policy.keepalive_s == 0.5
    assert policy.telemetry is not None and policy.telemetry.record_content is True
    assert policy.sampling is not None and (policy.sampling.rate, policy.sampling.buffer) == (0.25, 5)


def test_new_keys_defaults() -> None:
    policy = Guard.from_dict({"citations": {}, "sampling": {}, "telemetry": {}}).policy
    assert policy.citations is not None and policy.citations.leak_min_words == 8
    assert (policy.fields, policy.keepalive_s) == ([], 15.0)
    assert policy.telemetry is not None and policy.telemetry.record_content is False
    assert policy.sampling is not None and policy.sampling.buffer == 10_000
    assert Guard.from_dict({"keepalive_s": 2}).policy.keepalive_s == 2.0  # an int is a number of seconds


def test_terms_and_term_files_combine(tmp_path: Path) -> None:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "t.txt").write_text("# a comment\n\nOsprey\n  Project Kestrel  \n")
    (tmp_path / "p.yaml").write_text("banned_terms:\n  terms: [Falcon]\n  files: [lists/t.txt]\n  on_match: flag\n")
    guard = Guard.from_policy(tmp_path / "p.yaml")
    output = "Falcon, Osprey and project kestrel, but not a comment."
    verdict = guard.check(output)
    assert [output[f.start:f.end] for f in verdict.findings] == ["Falcon", "Osprey", "project kestrel"]
    assert all(f.label is Label.BANNED_TERM and f.action is Action.FLAG for f in verdict.findings)
    assert "lists/t.txt:3" in verdict.findings[1].message


# --------------------------------------------------------------------------------------------------------- errors


def load_error(tmp_path: Path, text: str, files: dict[str, str] | None = None) -> tuple[str, Path, PolicyError]:
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(content)
    path = tmp_path / "policy.yaml"
    path.write_text(text)
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(path)
    return str(info.value), path, info.value


ERRORS: list[tuple[str, str, str | None, int | None, list[str]]] = [
    # (id, policy text, key path, line, other pieces of the message)
    ("unknown-top", "name: x\nbogus: 1\n", "bogus", 2, ["unknown key"]),
    ("unknown-nested", "name: x\ncitations:\n  on_hallucinated: strip\n  patern: 'x'\n", "citations.patern", 4,
     ["unknown key"]),
    ("unknown-terms", "banned_terms:\n  terms: [a]\n  case_sensitve: true\n", "banned_terms.case_sensitve", 3,
     ["unknown key"]),
    ("unknown-deep", "name: x\n\ninstructions:\n  max_words: 3\n  no_emojis: true\n", "instructions.no_emojis", 5,
     ["unknown key"]),
    ("bad-enum", "citations:\n  on_hallucinated: delete\n", "citations.on_hallucinated", 2,
     ["'delete'", "'flag'", "'strip'", "'block'"]),
    ("bad-coverage", "citations:\n  coverage: always\n", "citations.coverage", 2, ["'always'"]),
    ("bad-on-match", "banned_terms:\n  on_match: hide\n", "banned_terms.on_match", 2, ["'hide'", "'redact'"]),
    ("redact-not-for-citations", "citations:\n  on_unauthorized: redact\n", "citations.on_unauthorized", 2,
     ["'redact'"]),
    ("bad-fail-mode", "name: x\nfail_mode: half\n", "fail_mode", 2, ["'half'", "'closed'", "'open'"]),
    ("bad-number", "quotes:\n  min_chars: 0\n", "quotes.min_chars", 2, []),
    ("bad-type", "instructions:\n  max_words: many\n", "instructions.max_words", 2, []),
    ("bad-budget", "budget_ms: -1\n", "budget_ms", 1, []),
    ("bad-sampling", "sampling:\n  rate: 2\n", "sampling.rate", 2, []),
    ("regex-pattern", "citations:\n  pattern: '[doc:(?P<id>'\n", "citations.pattern", 2,
     ["regular expression does not compile"]),
    ("regex-no-id", "citations:\n  pattern: '\\[doc:([^\\]]+)\\]'\n", "citations.pattern", 2,
     ["named group 'id'"]),
    ("regex-must-match", "instructions:\n  must_match:\n    - 'ok'\n    - '(unclosed'\n", "instructions.must_match[1]",
     4, ["regular expression does not compile"]),
    ("regex-must-not-match", "instructions:\n  must_not_match: ['ok', 'fine', '[z-a]']\n",
     "instructions.must_not_match[2]", 2, ["regular expression does not compile"]),
    ("missing-term-file", "banned_terms:\n  files: [nope.txt]\n", "banned_terms.files[0]", 2,
     ["cannot read term file", "nope.txt"]),
    ("missing-term-file-2", "banned_terms:\n  files:\n    - t.txt\n    - gone.txt\n", "banned_terms.files[1]", 4,
     ["gone.txt"]),
    ("missing-schema-file", "name: x\nschema:\n  json_schema: nope.json\n", "schema.json_schema", 3,
     ["cannot read schema file", "nope.json"]),
    ("empty-term", "banned_terms:\n  terms: ['x', '  ']\n", "banned_terms.terms[1]", 2, ["must not be empty"]),
    ("missing-required", "schema:\n  on_invalid: flag\n", "schema.json_schema", 1, ["required key is missing"]),
    # a section present with nothing under it is on: schema then needs its json_schema
    ("schema-null", "name: x\nschema:\n", "schema.json_schema", 2, ["required key is missing"]),
    ("schema-empty", "name: x\nschema: {}\n", "schema.json_schema", 2, ["required key is missing"]),
    ("section-false", "citations: false\n", "citations", 1,
     ["a section must be a mapping of keys", "leave the section out to turn its check off"]),
    ("section-list", "quotes: [min_chars]\n", "quotes", 1, ["a section must be a mapping of keys"]),
    # YAML reads yes/on/true as a bool: never a number
    ("bool-as-int", "instructions:\n  max_words: yes\n", "instructions.max_words", 2, ["valid integer", "True"]),
    ("bool-as-float", "budget_ms: true\n", "budget_ms", 1, ["valid number"]),
    # the keys added for the leak fixes
    ("leak-min-words-zero", "citations:\n  leak_min_words: 0\n", "citations.leak_min_words", 2, ["0"]),
    ("leak-min-words-text", "citations:\n  leak_min_words: many\n", "citations.leak_min_words", 2, ["'many'"]),
    ("leak-min-words-bool", "citations:\n  leak_min_words: true\n", "citations.leak_min_words", 2, ["True"]),
    ("fields-unknown", "name: x\nfields: [tool_calls, content]\n", "fields[1]", 2, ["'content'", "'tool_calls'"]),
    ("fields-not-a-list", "fields: tool_calls\n", "fields", 1, ["valid list"]),
    ("keepalive-zero", "keepalive_s: 0\n", "keepalive_s", 1, ["greater than 0"]),
    ("keepalive-negative", "keepalive_s: -1.5\n", "keepalive_s", 1, ["greater than 0"]),
    ("keepalive-text", "keepalive_s: soon\n", "keepalive_s", 1, ["'soon'"]),
    ("keepalive-infinite", "keepalive_s: .inf\n", "keepalive_s", 1, ["finite"]),
    ("telemetry-bad-bool", "telemetry:\n  record_content: maybe\n", "telemetry.record_content", 2, ["'maybe'"]),
    ("telemetry-unknown", "telemetry:\n  record_spans: true\n", "telemetry.record_spans", 2, ["unknown key"]),
    ("sampling-buffer-zero", "sampling:\n  rate: 0.1\n  buffer: 0\n", "sampling.buffer", 3, []),
    # a queue the sampler could never open fails at load, not at the first sample (which only logged a drop)
    ("queue-scheme", "sampling:\n  rate: 1\n  queue: ftp://x/y\n", "sampling.queue", 3, ["not a queue URL"]),
    ("queue-sqlite-host", "sampling:\n  queue: sqlite://q.db\n", "sampling.queue", 2, ["sqlite:///PATH"]),
    ("queue-password", "sampling:\n  queue: 'rediz://:hunter2@h:6379/0'\n", "sampling.queue", 2, [":***@"]),
    ("sampling-buffer-float", "sampling:\n  buffer: 1.5\n", "sampling.buffer", 2, ["valid integer"]),
    # a replacement that spells a banned term would leave the output unchanged, the term in it (a differential
    # fuzzer found the buffered check passing it)
    ("replacement-is-a-term", "banned_terms:\n  terms: [Falcon, BLUEJAY]\n  replacement: '[blue jay: BLUEJAY]'\n",
     "banned_terms.replacement", 3, ["spells a banned term"]),
    # nor one that reads as a citation marker: every redacted answer would cite it, and be blocked for it (found by
    # a differential fuzzer: a stream released text before that block)
    ("replacement-is-a-marker", "citations: {}\nbanned_terms:\n  terms: [x]\n  replacement: 'see [doc:a]'\n",
     "banned_terms.replacement", 4, ["reads as a citation marker"]),
]


@pytest.mark.parametrize(("text", "key", "line", "pieces"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_policy_errors_name_file_key_and_line(tmp_path: Path, text: str, key: str, line: int,
                                              pieces: list[str]) -> None:
    message, path, error = load_error(tmp_path, text, {"t.txt": "Falcon\n"})
    assert message.startswith(f"{path}:{line}: {key}: "), message
    assert (error.file, error.key, error.line) == (str(path), key, line)
    for piece in pieces:
        assert piece in message
    assert "Traceback" not in message
    assert "\n" not in message


DUPLICATES = [
    # (id, policy text, the exact message after "policy.yaml:")
    ("nested", "name: x\n# the citation rules\ncitations:\n  on_unauthorized: block\n  coverage: flag\n"
     "  on_hallucinated: strip\n  on_unauthorized: flag\n",
     "7: citations.on_unauthorized: duplicate key (first at line 4)"),
    ("top-level", "name: a\nquotes: {}\nname: b\n", "3: name: duplicate key (first at line 1)"),
    ("section-twice", "citations:\n  coverage: flag\nquotes: {}\ncitations:\n",
     "4: citations: duplicate key (first at line 1)"),
    ("flow-mapping", "citations: {coverage: flag, coverage: 'off'}\n",
     "1: citations.coverage: duplicate key (first at line 1)"),
    ("quoted-and-plain", "name: a\n'name': b\n", "2: name: duplicate key (first at line 1)"),
    ("yaml-bools", "banned_terms:\n  case_sensitive: true\n  case_sensitive: false\n",
     "3: banned_terms.case_sensitive: duplicate key (first at line 2)"),
    ("inline-schema", "schema:\n  json_schema:\n    type: object\n    required: [a]\n    type: array\n",
     "5: schema.json_schema.type: duplicate key (first at line 3)"),
    ("in-a-list", "schema:\n  json_schema:\n    allOf:\n      - {type: object}\n      - required: [a]\n"
     "        required: [b]\n", "6: schema.json_schema.allOf[1].required: duplicate key (first at line 5)"),
    ("the-first-one-is-named", "name: a\ncitations:\n  coverage: flag\n  coverage: block\nname: b\n",
     "4: citations.coverage: duplicate key (first at line 3)"),
]


@pytest.mark.parametrize(("text", "expected"), [d[1:] for d in DUPLICATES], ids=[d[0] for d in DUPLICATES])
def test_duplicate_keys_are_errors(tmp_path: Path, text: str, expected: str) -> None:
    message, path, error = load_error(tmp_path, text)
    assert message == f"{path}:{expected}"
    assert error.line == int(expected.split(":")[0])


def test_a_merge_key_is_not_a_duplicate(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("schema:\n  json_schema:\n    $defs:\n      base: &base {type: object}\n"
                                     "    <<: *base\n    type: object\n")
    assert Guard.from_policy(tmp_path / "p.yaml").policy.schema_ is not None


def test_the_same_key_in_different_mappings_is_not_a_duplicate(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("quotes:\n  on_unverified: flag\nschema:\n  json_schema: {}\n"
                                     "  on_invalid: flag\ninstructions:\n  on_violation: flag\n")
    Guard.from_policy(tmp_path / "p.yaml")


BOUNDS = [
    ("words", "name: x\ninstructions:\n  max_words: 10\n  no_emoji: true\n  min_words: 20\n",
     "5: instructions.min_words: 20 is above instructions.max_words (10, line 3): no output can satisfy both"),
    ("bullets", "instructions:\n  min_bullets: 3\n  max_bullets: 1\n",
     "2: instructions.min_bullets: 3 is above instructions.max_bullets (1, line 3): no output can satisfy both"),
]


@pytest.mark.parametrize(("text", "expected"), [b[1:] for b in BOUNDS], ids=[b[0] for b in BOUNDS])
def test_contradictory_bounds_are_errors(tmp_path: Path, text: str, expected: str) -> None:
    message, path, error = load_error(tmp_path, text)
    assert message == f"{path}:{expected}"
    assert (error.key, error.line) == (expected.split(": ")[1], int(expected.split(":")[0]))


def test_contradictory_bounds_from_dict() -> None:
    with pytest.raises(PolicyError) as info:
        Guard.from_dict({"instructions": {"min_bullets": 5, "max_bullets": 2}})
    assert str(info.value) == ("<policy>: instructions.min_bullets: 5 is above instructions.max_bullets (2): "
                               "no output can satisfy both")


def test_equal_bounds_are_fine() -> None:
    ins = Guard.from_dict({"instructions": {"min_words": 3, "max_words": 3, "min_bullets": 0, "max_bullets": 0}})
    assert ins.policy.instructions is not None and ins.policy.instructions.min_words == 3


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("name: x\ncitations: [\n", 3),
        ("name: x\n  bad: indent\n", 2),
        ("name: 'unterminated\n", 2),
        ("citations:\n\tpattern: x\n", 2),
    ],
)
def test_invalid_yaml_names_the_line(tmp_path: Path, text: str, line: int) -> None:
    message, path, error = load_error(tmp_path, text)
    assert message.startswith(f"{path}:{line}: not valid YAML"), message
    assert error.line == line


@pytest.mark.parametrize(("text", "kind"), [("- a\n- b\n", "list"), ("just a string\n", "str"), ("42\n", "int")])
def test_non_mapping_root(tmp_path: Path, text: str, kind: str) -> None:
    message, path, _ = load_error(tmp_path, text)
    assert message.startswith(str(path))
    assert f"a policy must be a mapping of keys, not {kind}" in message


def test_missing_policy_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(path)
    assert str(info.value).startswith(f"{path}: cannot read the policy file")


def test_policy_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(PolicyError) as info:
        Guard.from_policy(path)
    assert str(path) in str(info.value)


def test_several_errors_report_the_first_by_line_and_count_the_rest(tmp_path: Path) -> None:
    message, path, _ = load_error(tmp_path, "name: x\nzeta: 1\ncitations:\n  on_hallucinated: nope\nalpha: 2\n")
    assert message.startswith(f"{path}:2: zeta: unknown key")
    assert "(and 2 more errors)" in message
    # ... and name each of the rest on a line of its own, so that one run shows all there is to fix
    assert message.splitlines()[1:] == [f"{path}:4: citations.on_hallucinated: 'nope' is not allowed; expected "
                                        "'flag', 'strip' or 'block'", f"{path}:5: alpha: unknown key"]


def test_error_from_dict_names_the_policy_placeholder() -> None:
    with pytest.raises(PolicyError) as info:
        Guard.from_dict({"citations": {"coverage": "sometimes"}})
    assert str(info.value).startswith("<policy>: citations.coverage: ")


def test_policy_error_is_a_guardrail_error() -> None:
    from guardrail import GuardrailError

    with pytest.raises(GuardrailError):
        Guard.from_dict({"bogus": True})


def test_policy_value_is_frozen() -> None:
    policy: Any = Guard.from_dict({"citations": {}}).policy
    with pytest.raises(Exception):  # noqa: B017 - pydantic raises its own ValidationError
        policy.name = "changed"


@pytest.mark.parametrize(("data", "key"), [
    ({"banned_terms": {"terms": ["fine", "a\ud800b"]}}, "banned_terms.terms[1]"),
    ({"blocked_message": "sorry \udfff"}, "blocked_message"),
])
def test_an_unpaired_surrogate_is_a_policy_error_naming_the_key(data: dict, key: str) -> None:
    """Only a dict can hold one (YAML cannot): a clear error with the key, never the value (a banned term)."""
    with pytest.raises(PolicyError) as caught:
        Guard.from_dict(data)
    assert caught.value.key == key
    assert "\ud800" not in str(caught.value) and "\udfff" not in str(caught.value)
