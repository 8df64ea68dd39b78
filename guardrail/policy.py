"""The policy file: its pydantic models (unknown keys are errors) and loading them from YAML with line numbers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ._locate import DEFAULT_BLOCKED_MESSAGE, DEFAULT_CITATION_PATTERN, Locator
from .exceptions import PolicyError

OnFailure = Literal["flag", "strip", "block"]
Coverage = Literal["off", "flag", "strip", "block"]
# Numbers are numbers: YAML reads ``yes``/``on``/``true`` as a bool, and a lax int would take it as 1.
Int = Annotated[int, Strict()]
Float = Annotated[float, Strict()]  # an int is still a float


class _Section(BaseModel):
    # defer_build: the validators are built on the first load, not at import (a CLI must start fast).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)


class CitationsPolicy(_Section):
    """``citations:``: every cited ID must be retrieved and visible to the caller; optionally every claim cited."""

    pattern: str = DEFAULT_CITATION_PATTERN
    on_hallucinated: OnFailure = "strip"
    on_unauthorized: OnFailure = "block"
    coverage: Coverage = "off"
    leak_min_words: Int = Field(8, ge=1)
    """How many consecutive words copied from a source the caller may not see make an ``UNAUTHORIZED_SOURCE``."""

    @field_validator("coverage", mode="before")
    @classmethod
    def _yaml_off(cls, value: Any) -> Any:
        return "off" if value is False else value


class QuotesPolicy(_Section):
    """``quotes:``: every quoted span must occur verbatim (after normalisation) in an allowed source."""

    min_chars: Int = Field(12, ge=1)
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

    max_words: Int | None = Field(None, ge=0)
    min_words: Int | None = Field(None, ge=0)
    max_chars: Int | None = Field(None, ge=0)
    min_bullets: Int | None = Field(None, ge=0)
    max_bullets: Int | None = Field(None, ge=0)
    no_emoji: bool = False
    required_sections: list[str] = []
    must_match: list[str] = []
    must_not_match: list[str] = []
    rules: list[dict[str, Any]] = []
    """IFEval instructions (and seed 002's constraints): ``{id, ...kwargs, on_violation?, mode?}``, checked when
    the policy is compiled (:mod:`guardrail.adherence`)."""
    on_violation: OnFailure = "flag"

    @model_validator(mode="after")
    def _bounds(self) -> InstructionsPolicy:
        for low, high in (("min_words", "max_words"), ("min_bullets", "max_bullets")):
            lo, hi = getattr(self, low), getattr(self, high)
            if lo is not None and hi is not None and lo > hi:
                raise PydanticCustomError("contradictory_bounds", "{low} ({lo}) is above {high} ({hi})",
                                          {"low": low, "lo": lo, "high": high, "hi": hi})
        return self


class SamplingPolicy(_Section):
    """``sampling:``: which turns the asynchronous citation-support monitor sees."""

    rate: Float = Field(0.0, ge=0.0, le=1.0)
    always_on: list[Literal["pass", "modified", "blocked"]] = []
    queue: str = "sqlite:///.guardrail/queue.db"
    buffer: Int = Field(10_000, ge=1)

    @field_validator("queue")
    @classmethod
    def _queue_url(cls, url: str) -> str:
        # Known at load, not at the first sample (which would only log that samples are dropped).
        scheme, sep, rest = url.partition("://")
        if not sep or scheme not in ("memory", "sqlite", "redis", "rediss") or (scheme == "sqlite" and (
                not rest.startswith("/") or rest in ("/", "//"))):
            raise PydanticCustomError("queue_url", "not a queue URL: expected memory://[NAME], sqlite:///PATH or "
                                                   "redis://HOST:PORT/DB")
        return url


class TelemetryPolicy(_Section):
    """``telemetry:``: what spans, events and metrics may carry."""

    record_content: bool = False


class Policy(_Section):
    """A whole policy file. Every section is optional; an absent section turns its check off, a section present
    with nothing under it (``citations:`` alone, or ``citations: {}``) turns it on with its defaults."""

    name: str = "default"
    citations: CitationsPolicy | None = None
    quotes: QuotesPolicy | None = None
    banned_terms: BannedTermsPolicy | None = None
    schema_: SchemaPolicy | None = Field(None, alias="schema")
    instructions: InstructionsPolicy | None = None
    blocked_message: str = DEFAULT_BLOCKED_MESSAGE
    fail_mode: Literal["closed", "open"] = "closed"
    budget_ms: Float = Field(50.0, gt=0)
    sampling: SamplingPolicy | None = None
    telemetry: TelemetryPolicy | None = None
    fields: list[Literal["tool_calls"]] = []
    """Fields guarded besides the user-visible text (content, refusal, reasoning), which always is."""
    keepalive_s: Float = Field(15.0, gt=0, allow_inf_nan=False)
    """While a stream is held whole, an SSE comment goes out this often (seconds)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    @field_validator("citations", "quotes", "banned_terms", "schema_", "instructions", "sampling", "telemetry",
                     mode="before")
    @classmethod
    def _present_is_on(cls, value: Any) -> Any:
        return {} if value is None else value


def _key_lines(node: Any, path: tuple[Any, ...], out: dict[tuple[Any, ...], int], file: str,
               active: frozenset[int] = frozenset()) -> None:
    """Record the line of every key and list item under ``node``; raise on a key given twice in one mapping
    (PyYAML would silently keep the last one)."""
    import yaml

    if id(node) in active:  # a recursive alias (``&a [*a]``) is not walked forever
        return
    active |= {id(node)}
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key, value in node.value:
            sub = (*path, key.value) if isinstance(key, yaml.ScalarNode) else (*path, "<complex key>")
            line = key.start_mark.line + 1
            identity = _key_identity(key)
            if identity is not None:
                if identity in seen:
                    raise Locator(file, {sub: line}).error(f"duplicate key (first at line {seen[identity]})", sub)
                seen[identity] = line
            out[sub] = line
            _key_lines(value, sub, out, file, active)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[(*path, i)] = item.start_mark.line + 1
            _key_lines(item, (*path, i), out, file, active)


def _key_identity(key: Any) -> Any:
    """What a mapping key means (``1`` and ``"1"`` differ, ``on`` and ``true`` do not), or None for a merge key
    (``<<``, whose keys the mapping's own override) or a key that is not a plain value."""
    import yaml

    if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
        return None
    try:
        value = yaml.constructor.SafeConstructor().construct_object(key)
        hash(value)
    except (yaml.YAMLError, TypeError):
        return (key.tag, key.value)
    return (type(value).__name__, value)


def read_policy_file(path: str | Path) -> tuple[Policy, Locator]:
    """Parse and validate a policy file; raise :class:`PolicyError` naming the file, key path and line."""
    import yaml

    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read the policy file ({exc.__class__.__name__}: {exc})", file=file) from None
    lines: dict[tuple[Any, ...], int] = {}
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _key_lines(node, (), lines, file)  # before constructing: that merges ``<<`` keys into the node
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        reason = getattr(exc, "problem", None) or str(exc)
        raise PolicyError(f"not valid YAML: {reason}", file=file, line=mark.line + 1 if mark else None) from None
    finally:
        loader.dispose()
    locator = Locator(file, lines)
    return validate_policy(data, locator), locator


def validate_policy(data: Any, locator: Locator | None = None) -> Policy:
    """Validate a mapping (a parsed policy file) into a :class:`Policy`."""
    locator = locator or Locator("<policy>")
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise locator.error(f"a policy must be a mapping of keys, not {type(data).__name__}", ())
    bad = _unpaired_surrogate(data, ())
    if bad is not None:  # (the value is not shown: it may be a banned term)
        raise locator.error("not valid Unicode: holds an unpaired surrogate (U+D800 to U+DFFF), which no policy "
                            "file can hold and no digest, log or header can carry", bad)
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: locator.line(_error_path(e)) or 0)
        first = errors[0]
        path = _error_path(first)
        message = _explain(first, locator)
        if len(errors) > 1:  # the first by line on the first line, as one error says it; each other on its own
            message += f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})"
            message += "".join(f"\n{locator.error(_explain(e, locator), _error_path(e))}" for e in errors[1:])
        raise locator.error(message, path) from None


def _unpaired_surrogate(node: Any, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The path of the first string (key or value) that holds a lone surrogate, if any."""
    if isinstance(node, str):
        return None if node.isascii() or not _SURROGATE.search(node) else path
    if isinstance(node, Mapping):
        for key, value in node.items():
            found = _unpaired_surrogate(key, (*path, key)) or _unpaired_surrogate(value, (*path, key))
            if found is not None:
                return found
    elif isinstance(node, list | tuple):
        for i, value in enumerate(node):
            found = _unpaired_surrogate(value, (*path, i))
            if found is not None:
                return found
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _error_path(error: Any) -> tuple[Any, ...]:
    path = tuple(error["loc"])
    if error["type"] == "contradictory_bounds":  # raised by the section, about its lower bound
        path += (error["ctx"]["low"],)
    return path


def _explain(error: Any, locator: Locator) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    if kind == "literal_error":
        return f"{_shown(error['input'])} is not allowed; expected {error['ctx']['expected']}"
    if kind == "contradictory_bounds":
        ctx = error["ctx"]
        high = (*tuple(error["loc"]), ctx["high"])
        line = locator.line(high)
        where = f", line {line}" if line is not None else ""
        return f"{ctx['lo']} is above {'.'.join(map(str, high))} ({ctx['hi']}{where}): no output can satisfy both"
    if kind == "queue_url":  # (a URL may hold a password: never shown)
        from .monitor.queues.base import mask_url

        return f"{error['msg']} (got {_shown(mask_url(error['input']))})"
    if kind == "model_type" and len(error["loc"]) == 1:
        return (f"a section must be a mapping of keys, or empty for its defaults (got {_shown(error['input'])}); "
                "leave the section out to turn its check off")
    return f"{error['msg'].rstrip('.')} (got {_shown(error['input'])})"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
