"""The policy file: its pydantic models (unknown keys are errors) and loading them from YAML with line numbers."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ._locate import DEFAULT_BLOCKED_MESSAGE, DEFAULT_CITATION_PATTERN, Locator
from .exceptions import PolicyError

OnFailure = Literal["flag", "strip", "block"]
Coverage = Literal["off", "flag", "strip", "block"]


class _Section(BaseModel):
    # defer_build: the validators are built on the first load, not at import (a CLI must start fast).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)


class CitationsPolicy(_Section):
    """``citations:``: every cited ID must be retrieved and visible to the caller; optionally every claim cited."""

    pattern: str = DEFAULT_CITATION_PATTERN
    on_hallucinated: OnFailure = "strip"
    on_unauthorized: OnFailure = "block"
    coverage: Coverage = "off"
    leak_min_words: int = Field(8, ge=1)
    """How many consecutive words copied from a source the caller may not see make an ``UNAUTHORIZED_SOURCE``."""

    @field_validator("coverage", mode="before")
    @classmethod
    def _yaml_off(cls, value: Any) -> Any:
        return "off" if value is False else value


class QuotesPolicy(_Section):
    """``quotes:``: every quoted span must occur verbatim (after normalisation) in an allowed source."""

    min_chars: int = Field(12, ge=1)
    on_unverified: OnFailure = "block"


class BannedTermsPolicy(_Section):
    """``banned_terms:``: terms that must never reach the user."""

    terms: list[str] = []
    files: list[str] = []
    case_sensitive: bool = False
    on_match: Literal["flag", "redact", "strip", "block"] = "redact"
    replacement: str = "[redacted]"


class SchemaPolicy(_Section):
    """``schema:``: the output is JSON valid under a JSON Schema (Draft 2020-12)."""

    json_schema: str | dict[str, Any]
    on_invalid: OnFailure = "block"


class InstructionsPolicy(_Section):
    """``instructions:``: simple verifiable instructions."""

    max_words: int | None = Field(None, ge=0)
    min_words: int | None = Field(None, ge=0)
    max_chars: int | None = Field(None, ge=0)
    min_bullets: int | None = Field(None, ge=0)
    max_bullets: int | None = Field(None, ge=0)
    no_emoji: bool = False
    required_sections: list[str] = []
    must_match: list[str] = []
    must_not_match: list[str] = []
    on_violation: OnFailure = "flag"


class SamplingPolicy(_Section):
    """``sampling:``: which turns the asynchronous citation-support monitor sees."""

    rate: float = Field(0.0, ge=0.0, le=1.0)
    always_on: list[Literal["pass", "modified", "blocked"]] = []
    queue: str = "sqlite:///.guardrail/queue.db"
    buffer: int = Field(10_000, ge=1)


class TelemetryPolicy(_Section):
    """``telemetry:``: what spans, events and metrics may carry."""

    record_content: bool = False


class Policy(_Section):
    """A whole policy file. Every section is optional; an absent section turns its check off."""

    name: str = "default"
    citations: CitationsPolicy | None = None
    quotes: QuotesPolicy | None = None
    banned_terms: BannedTermsPolicy | None = None
    schema_: SchemaPolicy | None = Field(None, alias="schema")
    instructions: InstructionsPolicy | None = None
    blocked_message: str = DEFAULT_BLOCKED_MESSAGE
    fail_mode: Literal["closed", "open"] = "closed"
    budget_ms: float = Field(50.0, gt=0)
    sampling: SamplingPolicy | None = None
    telemetry: TelemetryPolicy | None = None
    fields: list[Literal["tool_calls"]] = []
    """Fields guarded besides the user-visible text (content, refusal, reasoning), which always is."""
    keepalive_s: float = Field(15.0, gt=0)
    """While a stream is held whole, an SSE comment goes out this often (seconds)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


def _key_lines(node: Any, path: tuple[Any, ...], out: dict[tuple[Any, ...], int]) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            sub = (*path, key.value)
            out[sub] = key.start_mark.line + 1
            _key_lines(value, sub, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[(*path, i)] = item.start_mark.line + 1
            _key_lines(item, (*path, i), out)


def read_policy_file(path: str | Path) -> tuple[Policy, Locator]:
    """Parse and validate a policy file; raise :class:`PolicyError` naming the file, key path and line."""
    import yaml

    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read the policy file ({exc.__class__.__name__}: {exc})", file=file) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        reason = getattr(exc, "problem", None) or str(exc)
        raise PolicyError(f"not valid YAML: {reason}", file=file, line=mark.line + 1 if mark else None) from None
    lines: dict[tuple[Any, ...], int] = {}
    if node is not None:
        _key_lines(node, (), lines)
    locator = Locator(file, lines)
    return validate_policy(data, locator), locator


def validate_policy(data: Any, locator: Locator | None = None) -> Policy:
    """Validate a mapping (a parsed policy file) into a :class:`Policy`."""
    locator = locator or Locator("<policy>")
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise locator.error(f"a policy must be a mapping of keys, not {type(data).__name__}", ())
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: locator.line(tuple(e["loc"])) or 0)
        first = errors[0]
        path = tuple(first["loc"])
        message = _explain(first)
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})"
        raise locator.error(message, path) from None


def _explain(error: Any) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    if kind == "literal_error":
        return f"{_shown(error['input'])} is not allowed; expected {error['ctx']['expected']}"
    return f"{error['msg'].rstrip('.')} (got {_shown(error['input'])})"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
