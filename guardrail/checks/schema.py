"""Schema: the output is JSON (one surrounding Markdown fence allowed) valid under a JSON Schema, Draft 2020-12."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import regex

from ..exceptions import PolicyError
from ..models import Action, Finding, Label
from .base import Turn

_FENCED = regex.compile(r"\s*```[ \t]*(?:json)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```\s*", regex.DOTALL | regex.IGNORECASE)


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
        # Blocking is the only way to act on the whole output.
        self.action = Action.BLOCK if action is Action.STRIP else action

    def recheck(self, turn: Turn) -> list[Finding]:
        """All of it: an edit can join a term, break the JSON or take away what a rule needs."""
        return self.run(turn)

    def run(self, turn: Turn) -> list[Finding]:
        from jsonschema.exceptions import best_match

        text = turn.output
        fenced = _FENCED.fullmatch(text)
        if fenced:
            text = fenced.group(1)
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
