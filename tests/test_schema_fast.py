"""The schema check's fast path (orjson + a compiled jsonschema_rs validator) against the jsonschema path.

For generated instances against schemas that use the keywords policies use, the compiled validator's verdict equals
jsonschema's, and the check's findings (verdict and message) equal those of the check as it was before the fast path
(``_reference`` below: json.loads, jsonschema, best_match), for well-formed JSON and for text that is not quite JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from guardrail import Guard
from guardrail.checks import schema as schema_module
from guardrail.checks.schema import _FENCED, SchemaCheck
from guardrail.models import Action

TICKET_SCHEMA = json.loads((Path(__file__).parent.parent / "policies/schemas/ticket.schema.json").read_text())

SCHEMAS: dict[str, dict[str, Any]] = {
    "ticket": TICKET_SCHEMA,  # types, required, enum, min/maxLength, additionalProperties, items, maxItems
    "patterns-formats": {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": r"^[A-Z]{3}-\d+$"},  # Python's $ also matches before a final \n
            "word": {"pattern": r"^\S+$"},  # Python's \S excludes \x1c-\x1f, ECMA's does not
            "nd": {"pattern": r"^\D*$"},  # Python's \d is Unicode, ECMA's is ASCII
            "dot": {"pattern": r"^.$"},  # ECMA's . excludes \u2028
            "email": {"type": "string", "format": "email"},  # formats: annotations only, as jsonschema has them
            "date": {"format": "date"},
            "uri": {"format": "uri"},
            "ip": {"format": "ipv4"},
            "re": {"format": "regex"},
        },
        "propertyNames": {"pattern": "^[a-z]+$"},
    },
    "numbers": {
        "type": "array",
        "minItems": 1,
        "maxItems": 6,
        "items": {"type": ["integer", "number"], "minimum": -5, "exclusiveMaximum": 100.5, "multipleOf": 0.5},
        "contains": {"type": "integer", "multipleOf": 3},
        "maxContains": 2,
    },
    "tenths": {"type": "object", "additionalProperties": {"multipleOf": 0.1, "maximum": 9007199254740992}},
    # float bounds at 2**64 and -2**63: orjson would read 2**64 + 1 as the float 2**64, and pass it
    "bounds": {"type": "array", "items": {"maximum": 1.8446744073709552e19, "minimum": -9.223372036854775808e18}},
    "unique": {"type": "array", "uniqueItems": True, "items": {"not": {"type": "null"}}},
    "tree": {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer", "minimum": 0, "maximum": 2**53},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 3},
                },
                "required": ["value"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    },
    "unevaluated": {
        "type": "object",
        "properties": {"kind": {"enum": ["a", "b"]}},
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                "then": {"properties": {"x": {"type": "integer"}}},
                "else": {"properties": {"y": {"type": "string", "maxLength": 3}}},
            }
        ],
        "unevaluatedProperties": False,
    },
    "composition": {
        "anyOf": [
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "unevaluatedItems": False},
            {
                "type": "object",
                "minProperties": 1,
                "maxProperties": 3,
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"c": {"required": ["x"]}},
                "properties": {"b": {"oneOf": [{"type": "integer"}, {"minimum": 2}]}, "x": {"const": [1, "a"]}},
            },
            {"type": "string", "minLength": 2, "maxLength": 4},
        ]
    },
    "anchors": {
        "$id": "https://example.com/anchors.json",
        "$defs": {"s": {"$anchor": "str", "type": "string"}, "old": {"type": "boolean"}},
        "definitions": {"n": {"type": "number"}},
        "properties": {"a": {"$ref": "#str"}, "b": {"$ref": "#/definitions/n"}, "c": {"$ref": "#/$defs/old"}},
    },
}
# Schemas the fast path does not mirror: every output takes the jsonschema path.
SLOW_SCHEMAS: dict[str, dict[str, Any]] = {
    "patternProperties": {"patternProperties": {r"^\d+$": {"type": "integer"}}, "additionalProperties": False},
    "remote-ref": {"properties": {"a": {"$ref": "https://example.com/x.json"}}},
    "draft-07": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    "big-int": {"maximum": 2**64},
    "dynamic": {"$dynamicAnchor": "x", "type": "object"},
}

KEYS = ["summary", "priority", "category", "steps", "customer_visible", "extra", "code", "word", "nd", "dot",
        "email", "date", "uri", "ip", "re", "value", "children", "kind", "x", "y", "a", "b", "c", "Bad", "12"]
STRINGS = ["low", "normal", "high", "urgent", "billing", "access", "hardware", "software", "other", "Printer broken",
           "Prn", "", "ABC-12", "ABC-12\n", "abc-12", "١٢", "12", "\x1c", "a b", "x", "\u2028", "é", "e\u0301",
           "x@y.z", "not an email", "2024-01-01", "2024-13-45", "http://a", "::", "1.2.3.4", "999.1.1.1", "(", "a",
           "\U0001f600\U0001f600", "abcd", "abcde"]
NUMBERS = [0, 1, -1, 2, 3, 6, -5, -6, 100, 101, 0.5, 0.3, 0.7, 1.1, 2.5, 3.0, 100.5, 100.0, 99.5, -5.5, 1e15,
           2**53, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1, 9007199254740992.0, 1e300, -0.0]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NUMBERS),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(STRINGS),
    st.text(max_size=8),
)
instances = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.sampled_from(KEYS), children, max_size=6),
    ),
    max_leaves=25,
)

# Near-valid instances for the schemas that generic ones rarely satisfy, so that both verdicts are well covered.
some_strings = st.one_of(st.sampled_from(STRINGS), st.text(max_size=12))
TARGETED: dict[str, st.SearchStrategy[Any]] = {
    "ticket": st.fixed_dictionaries(
        {"summary": st.one_of(st.sampled_from(["Printer broken", "Prn", "e\u0301e\u0301e", "\U0001f600" * 5]),
                              some_strings),
         "priority": st.sampled_from(["low", "high", "urgent", "meh"]),
         "category": st.sampled_from(["billing", "other", "nope"])},
        optional={"steps": st.lists(some_strings, max_size=11) | st.lists(leaves, max_size=2),
                  "customer_visible": st.booleans()},
    ),
    "tree": st.recursive(
        st.fixed_dictionaries({"value": st.sampled_from(NUMBERS)}),
        lambda nodes: st.fixed_dictionaries({"value": st.sampled_from(NUMBERS)},
                                            optional={"children": st.lists(nodes, max_size=4), "x": leaves}),
        max_leaves=12,
    ),
    "numbers": st.lists(
        st.one_of(st.sampled_from([3, 6, 9.0, 2**53, -6]), st.integers(-12, 202).map(lambda n: n / 2)),
        min_size=1, max_size=7),
    "unevaluated": st.fixed_dictionaries(
        {}, optional={"kind": st.sampled_from(["a", "b", "c"]), "x": st.sampled_from([1, 1.5, "1"]),
                      "y": st.sampled_from(["s", "long", 1]), "z": leaves}),
    "composition": st.one_of(
        st.tuples(some_strings, st.sampled_from(NUMBERS)).map(list),
        st.fixed_dictionaries({}, optional={"a": leaves, "b": st.sampled_from([1, 2, 2.5, 3, "b"]), "c": leaves,
                                            "x": st.sampled_from([[1, "a"], [1.0, "a"], [True, "a"], []])}),
    ),
}
named_instances = st.sampled_from(sorted(SCHEMAS)).flatmap(
    lambda name: st.tuples(st.just(name), st.one_of(instances, TARGETED.get(name, instances))))

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reference(validator: Draft202012Validator, text: str) -> list[str]:
    """The check as it was before the fast path: its messages, [] when the output is valid."""
    fenced = _FENCED.fullmatch(text)
    if fenced:
        text = fenced.group(1)

    def reject(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON value")

    try:
        instance = json.loads(text, parse_constant=reject)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            reason = f"{exc.msg}: line {exc.lineno} column {exc.colno}"
        else:
            reason = "nesting too deep" if isinstance(exc, RecursionError) else str(exc)
        return [f"parse_error at $: {reason}"]
    error = best_match(validator.iter_errors(instance))
    if error is None:
        return []
    detail = ""
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [k for k in error.validator_value if k not in error.instance]
        detail = ": missing " + ", ".join(repr(k) for k in missing)
    return [f"{error.validator} at {error.json_path}{detail}"]


GUARDS = {name: Guard.from_dict({"schema": {"json_schema": s}}) for name, s in {**SCHEMAS, **SLOW_SCHEMAS}.items()}
REFERENCES = {name: Draft202012Validator(s) for name, s in {**SCHEMAS, **SLOW_SCHEMAS}.items()}
CHECKS = {name: SchemaCheck(s, Action.BLOCK) for name, s in {**SCHEMAS, **SLOW_SCHEMAS}.items()}


def _messages(name: str, text: str) -> list[str]:
    return [f.message for f in GUARDS[name].check(text).findings]


def _expected(name: str, text: str) -> list[str]:
    """The reference's messages; where jsonschema itself raises (multipleOf on inf), the guard's error finding."""
    try:
        return _reference(REFERENCES[name], text)
    except Exception as exc:
        return [f"the schema check failed ({type(exc).__name__})"]


def test_the_fast_path_is_taken_where_it_mirrors_jsonschema() -> None:
    assert {name for name, check in CHECKS.items() if check.fast} == set(SCHEMAS)


@SETTINGS
@given(named_instances)
@example(("patterns-formats", {"code": "ABC-12\n"}))
@example(("patterns-formats", {"word": "\x1c"}))
@example(("patterns-formats", {"nd": "١٢"}))
@example(("patterns-formats", {"dot": "\u2028"}))
@example(("tenths", {"a": 0.3}))
@example(("tenths", {"a": 9007199254740993}))
@example(("numbers", [3, 6, 9]))
@example(("unique", [1, 1.0]))
@example(("unique", [1, True]))
@example(("tree", {"value": 1, "children": [{"value": 2, "children": [{"value": -1}]}]}))
@example(("unevaluated", {"kind": "a", "x": 1, "y": "s"}))
@example(("composition", ["a", 1, 2]))
@example(("anchors", {"a": 1}))
def test_compiled_verdict_equals_jsonschema(named: tuple[str, Any]) -> None:
    name, instance = named
    fast = CHECKS[name]._fast
    assert fast is not None
    assert fast.is_valid(instance) is REFERENCES[name].is_valid(instance)


@SETTINGS
@given(st.one_of(named_instances,  # and the schemas not mirrored, but for the remote $ref (no retrieval tried)
                 st.tuples(st.sampled_from(sorted(set(SLOW_SCHEMAS) - {"remote-ref"})), instances)),
       st.sampled_from(["bare", "indent", "fenced"]))
def test_findings_equal_the_jsonschema_path(named: tuple[str, Any], layout: str) -> None:
    name, instance = named
    text = json.dumps(instance, indent=2 if layout == "indent" else None)
    if layout == "fenced":
        text = f"```json\n{text}\n```"
    assert _messages(name, text) == _expected(name, text)


NEAR_JSON = [
    '{"summary": NaN, "priority": "low", "category": "other"}',
    '{"summary": "Printer broken", "priority": "low", "category": "other", "n": Infinity}',
    "[1e400]", "[-1e400]", "1e400", '{"value": 1e400}', "[NaN]", "-Infinity",
    "18446744073709551616", "[18446744073709551617, 3]", "[-9223372036854775809]", '{"value": 9007199254740993}',
    '{"a": 18446744073709551616}', "[123456789012345678901234567890.5]", '{"value": 100000000000000000000}',
    '"\\ud800"', '{"summary": "\\udc00 lone", "priority": "low", "category": "other"}', '{"\\ud800": 1}',
    '{"summary": "Printer broken", "priority": "low", "category": "other", "category": "nope"}',
    '{"summary": "Printer broken", "priority": "nope", "category": "other", "priority": "low"}',
    '{"value": 1, "value": -1}', '{"kind": "a", "kind": "b", "y": "s"}',
    "[" * 600 + "]" * 600, "[" * 1000 + "]" * 1000, "[" * 1100 + "]" * 1100,  # json gives up near 1000, orjson at 1024
    '{"children": ' * 400 + "1" + "}" * 400,
    "\ufeff[]", "[1,]", "[1] [2]", '{"a": 1}\x00', '"\x1f"', "01", "", " ", "```json\n[1, 2]\n```",
    "```json\n[1, 2]\n```\n```json\n[]\n```", '["ABC-12\\n"]', '{"code": "ABC-12\\n"}', '{"word": "\\u001c"}',
]


@pytest.mark.parametrize("text", NEAR_JSON)
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_near_json_findings_equal_the_jsonschema_path(name: str, text: str) -> None:
    assert _messages(name, text) == _expected(name, text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SCHEMAS)), st.text(alphabet='{}[]",:0123456789.eE-+ \n\\unNaIfity', max_size=40))
def test_arbitrary_text_findings_equal_the_jsonschema_path(name: str, text: str) -> None:
    assert _messages(name, text) == _expected(name, text)


def test_without_jsonschema_rs_the_jsonschema_path_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema_module, "_rs", None)
    check = SchemaCheck(TICKET_SCHEMA, Action.BLOCK)
    assert not check.fast


def test_jsonschema_rs_missing_at_import_is_the_jsonschema_path() -> None:
    code = (
        "import sys; sys.modules['jsonschema_rs'] = None\n"
        "from guardrail import Guard\n"
        "from guardrail.checks import schema\n"
        "assert schema._rs is None\n"
        "g = Guard.from_dict({'schema': {'json_schema': {'type': 'object', 'required': ['a']}}})\n"
        "assert g.check('{\"a\": 1}').findings == []\n"
        "print(g.check('{}').findings[0].message)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "required at $: missing 'a'"
