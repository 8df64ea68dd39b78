"""Schema: the output is JSON (one surrounding Markdown fence allowed) valid under a JSON Schema, Draft 2020-12.

Two validators serve one schema, and every verdict and message is that of the ``jsonschema`` package:

- ``jsonschema`` checks the policy's schema at load time (a ``PolicyError`` names the failing keyword) and gives the
  verdict and the message (``best_match``) of every output that the fast path does not accept.
- On the hot path a compiled ``jsonschema_rs`` Draft 2020-12 validator (the ``jsonschema-rs`` package) only ever says
  "valid": an output is passed without ``jsonschema`` when ``orjson`` parses it to the value ``json.loads`` would give
  (guarded: no run of 19 or more digits, since ``orjson`` turns an integer beyond 64 bits into a float, and fewer
  brackets than half the recursion limit, since ``json.loads`` gives up on deep nesting where ``orjson`` goes on to
  1024) and the compiled validator accepts that value. Whatever ``orjson`` refuses (NaN, Infinity, lone surrogates,
  numbers that overflow to infinity, any parse error) and whatever the compiled validator rejects takes the
  ``jsonschema`` path whole — ``json.loads`` then ``best_match`` — so a parse error or an invalid output reads exactly
  as it did before the fast path existed.
- To keep the fast path's "valid" that of ``jsonschema``: formats are annotations only (no format checker, as with
  ``jsonschema``); ``pattern`` and ``multipleOf`` are evaluated by custom keywords with ``jsonschema``'s own
  semantics (Python's ``re.search``, and the float quotient test), since the Rust regex engine (ECMA ``\\d``, ``\\S``,
  ``$``) and its ``multipleOf`` arithmetic differ; references are never retrieved (offline). A schema the fast path
  cannot mirror exactly uses the ``jsonschema`` path for every output: ``patternProperties`` (its regexes are the Rust
  engine's), ``$dynamicRef``/``$dynamicAnchor``/``$recursiveRef``, ``$vocabulary``, an ``$id`` below the root, a
  ``$ref`` that is not local (``#...``), a ``$schema`` other than 2020-12's, integers beyond ±2**53, non-finite
  numbers; so does a schema that ``jsonschema_rs`` refuses to compile.

``jsonschema_rs`` is imported once, at import time; if it cannot be imported (no wheel for the platform), every output
takes the ``jsonschema`` path, with the same verdicts and messages, only slower.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import sys
from types import ModuleType
from typing import Any, ClassVar

import orjson
import regex

from ..exceptions import PolicyError
from ..models import Action, Finding, Label
from .base import Turn

_rs: ModuleType | None
try:
    _rs = importlib.import_module("jsonschema_rs")
except ImportError:  # pragma: no cover - the wheel is a runtime dependency; this is the safety net
    _rs = None

_FENCED = regex.compile(r"\s*```[ \t]*(?:json)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```\s*", regex.DOTALL | regex.IGNORECASE)
# A run of digits long enough to be an integer that orjson would read as a float (beyond -2**63 .. 2**64 - 1).
_LONG_DIGITS = regex.compile(r"[0-9]{19}")
_DRAFT_2020_12 = frozenset({"https://json-schema.org/draft/2020-12/schema",
                            "https://json-schema.org/draft/2020-12/schema#"})
# Keywords whose semantics in jsonschema_rs are not known to match jsonschema's: such a schema is never fast.
_UNMIRRORED = frozenset({"patternProperties", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
                         "$vocabulary"})
_EXACT_INT = 2**53


class SchemaCheck:
    """``SCHEMA_INVALID``; the message names the error class (``parse_error`` or the failing keyword) and the JSON
    path, never a value taken from the output."""

    name: ClassVar[str] = "schema"
    whole_output = True

    def __init__(self, schema: dict[str, Any], action: Action):
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            where = "/".join(str(p) for p in exc.path) or "the root"
            raise PolicyError(f"not a valid Draft 2020-12 JSON Schema: {exc.validator} at {where}") from None
        self._validator = Draft202012Validator(schema)
        self._fast = _compile_fast(schema)
        # Blocking is the only way to act on the whole output.
        self.action = Action.BLOCK if action is Action.STRIP else action

    @property
    def fast(self) -> bool:
        """Whether outputs are first tried on the compiled (``jsonschema_rs``) validator."""
        return self._fast is not None

    def recheck(self, turn: Turn) -> list[Finding]:
        """All of it: an edit can join a term, break the JSON or take away what a rule needs."""
        return self.run(turn)

    def run(self, turn: Turn) -> list[Finding]:
        text = turn.output
        fenced = _FENCED.fullmatch(text)
        if fenced:
            text = fenced.group(1)
        fast = self._fast
        if (
            fast is not None
            and text.count("[") + text.count("{") < sys.getrecursionlimit() // 2
            and _LONG_DIGITS.search(text) is None
        ):
            try:
                if fast.is_valid(orjson.loads(text)):
                    return []
            except Exception:  # anything orjson or the compiled validator refuses: the jsonschema path
                pass
        return self._run_jsonschema(text, turn)

    def _run_jsonschema(self, text: str, turn: Turn) -> list[Finding]:
        """The verdict and message of ``jsonschema``: the reference for every output the fast path did not pass."""
        from jsonschema.exceptions import best_match

        try:
            instance = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, json.JSONDecodeError):
                reason = f"{exc.msg}: line {exc.lineno} column {exc.colno}"
            else:
                reason = "nesting too deep" if isinstance(exc, RecursionError) else str(exc)
            return [self._finding(f"parse_error at $: {reason}", turn)]
        error = best_match(self._validator.iter_errors(instance))
        if error is None:
            return []
        detail = ""
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = [k for k in error.validator_value if k not in error.instance]
            detail = ": missing " + ", ".join(repr(k) for k in missing)
        return [self._finding(f"{error.validator} at {error.json_path}{detail}", turn)]

    def _finding(self, message: str, turn: Turn) -> Finding:
        return Finding(self.name, Label.SCHEMA_INVALID, self.action, 0, len(turn.output), message)


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (RFC 8259), though Python's parser accepts them.
    raise ValueError(f"{name} is not a JSON value")


# ----------------------------------------------------------------------------------------------- the fast path


class _Pattern:
    """``pattern`` as ``jsonschema`` evaluates it: Python's ``re.search`` on strings."""

    def __init__(self, parent_schema: Any, value: str, schema_path: Any):
        self._search = re.compile(value).search

    def validate(self, instance: Any) -> None:
        if isinstance(instance, str) and self._search(instance) is None:
            raise ValueError("pattern")


class _MultipleOf:
    """``multipleOf`` as ``jsonschema`` evaluates it (its float quotient test), by ``jsonschema`` itself."""

    def __init__(self, parent_schema: Any, value: Any, schema_path: Any):
        from jsonschema import Draft202012Validator

        self._is_valid = Draft202012Validator({"multipleOf": value}).is_valid

    def validate(self, instance: Any) -> None:
        if not self._is_valid(instance):
            raise ValueError("multipleOf")


def _compile_fast(schema: dict[str, Any]) -> Any:
    """The compiled validator, or None when ``jsonschema_rs`` is missing or the schema is one it cannot mirror."""
    if _rs is None:
        return None
    try:
        if not _mirrorable(schema, root=True):
            return None
        return _rs.Draft202012Validator(
            schema,
            validate_formats=False,
            offline=True,
            keywords={"pattern": _Pattern, "multipleOf": _MultipleOf},
        )
    except Exception:  # one jsonschema accepts but jsonschema_rs does not compile (or too deep to look at)
        return None


def _mirrorable(node: Any, root: bool = False) -> bool:
    """Whether nothing in the schema (looked at as plain JSON, so conservatively) needs the ``jsonschema`` path."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _UNMIRRORED:
                return False
            if key == "$id" and not root:
                return False
            if key == "$ref" and not (isinstance(value, str) and value.startswith("#")):
                return False
            if key == "$schema" and not (isinstance(value, str) and value in _DRAFT_2020_12):
                return False
            if not _mirrorable(value):
                return False
        return True
    if isinstance(node, list):
        return all(_mirrorable(item) for item in node)
    if isinstance(node, bool) or node is None or isinstance(node, str):
        return True
    if isinstance(node, int):
        return -_EXACT_INT <= node <= _EXACT_INT
    if isinstance(node, float):
        return math.isfinite(node)
    return False
