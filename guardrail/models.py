"""Frozen value objects shared by every layer: sources, findings, verdicts and the closed sets they use."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple


class Decision(StrEnum):
    """What the guard did to an output."""

    PASS = "pass"
    MODIFIED = "modified"
    BLOCKED = "blocked"


class Action(StrEnum):
    """What a finding asks for, weakest first (the order is the precedence)."""

    FLAG = "flag"
    REDACT = "redact"
    STRIP = "strip"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        return _ACTION_RANK[self]


_ACTION_RANK = {Action.FLAG: 0, Action.REDACT: 1, Action.STRIP: 2, Action.BLOCK: 3}


class Label(StrEnum):
    """Why a check failed."""

    HALLUCINATED_SOURCE = "HALLUCINATED_SOURCE"
    UNAUTHORIZED_SOURCE = "UNAUTHORIZED_SOURCE"
    UNCITED_CLAIM = "UNCITED_CLAIM"
    UNVERIFIED_QUOTE = "UNVERIFIED_QUOTE"
    BANNED_TERM = "BANNED_TERM"
    SCHEMA_INVALID = "SCHEMA_INVALID"
    INSTRUCTION_VIOLATED = "INSTRUCTION_VIOLATED"
    GUARD_ERROR = "GUARD_ERROR"


class Source(NamedTuple):
    """One retrieved passage. ``roles=None``: visible to everyone; ``()``: visible to nobody."""

    id: str
    text: str
    roles: tuple[str, ...] | frozenset[str] | None = None

    @classmethod
    def coerce(cls, value: Source | Mapping[str, Any]) -> Source:
        """Accept a Source or a ``{"id", "text", "roles"}`` mapping; raise ``TypeError`` on anything else."""
        if type(value) is Source and type(value.id) is str and type(value.text) is str and (
                value.roles is None or type(value.roles) is tuple):
            return value  # already checked (attach_context, then Guard.check)
        if type(value) is dict:  # the common case, kept fast: a retrieved passage as parsed JSON
            sid, text, roles = value.get("id"), value.get("text", ""), value.get("roles")
            if type(sid) is str and type(text) is str:
                if type(roles) is list:
                    return tuple.__new__(cls, (sid, text, tuple(roles)))
                if roles is None or type(roles) is tuple:
                    return tuple.__new__(cls, (sid, text, roles))
        if isinstance(value, Source):
            value = value._asdict()
        elif not isinstance(value, Mapping):
            raise TypeError(f"a source must be a mapping with 'id' and 'text', not {type(value).__name__}")
        sid, text, roles = value.get("id"), value.get("text", ""), value.get("roles")
        if not isinstance(sid, str):
            raise TypeError("a source's 'id' must be a string")
        if not isinstance(text, str):
            raise TypeError(f"source {sid!r}: 'text' must be a string")
        if roles is not None and type(roles) is not tuple:
            if isinstance(roles, str | bytes) or not isinstance(roles, Iterable):
                raise TypeError(f"source {sid!r}: 'roles' must be a list of strings or null")
            roles = tuple(roles)
        return cls(sid, text, roles)

    def visible_to(self, roles: frozenset[str]) -> bool:
        """Whether a caller holding ``roles`` may see this source."""
        return self.roles is None or not roles.isdisjoint(self.roles)


@dataclass(frozen=True, slots=True)
class Finding:
    """One failed check. ``start``/``end`` are code-point offsets into the original output, end exclusive."""

    check: str
    label: Label
    action: Action
    start: int
    end: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a finding (CONTRACT section 1)."""
        return {
            "check": self.check,
            "label": self.label.value,
            "action": self.action.value,
            "start": self.start,
            "end": self.end,
            "message": self.message,
        }


class InstructionResult:
    """One verifiable instruction's verdict on one output: ``followed`` (strict) and ``followed_loose``, and for
    the sentence-counting types the splitter that counted (``punkt`` or ``builtin``).

    The loose verdict of an instruction not followed strictly needs IFEval's loose variants of the output; it is
    worked out when first read (``followed_loose``, ``to_dict``), so a guard that acts on strict verdicts and
    reports nothing never pays for it."""

    __slots__ = ("_loose", "followed", "id", "sentence_splitter")

    def __init__(self, id: str, followed: bool, followed_loose: bool | Callable[[], bool],
                 sentence_splitter: str | None = None):
        self.id, self.followed, self.sentence_splitter = id, followed, sentence_splitter
        self._loose = followed_loose

    @property
    def followed_loose(self) -> bool:
        loose = self._loose
        if not isinstance(loose, bool):
            loose = self._loose = bool(loose())
        return loose

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InstructionResult):
            return NotImplemented
        return (self.id, self.followed, self.followed_loose, self.sentence_splitter) == \
            (other.id, other.followed, other.followed_loose, other.sentence_splitter)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"InstructionResult(id={self.id!r}, followed={self.followed}, followed_loose={self.followed_loose}, "
                f"sentence_splitter={self.sentence_splitter!r})")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "followed": self.followed, "followed_loose": self.followed_loose}
        if self.sentence_splitter is not None:
            out["sentence_splitter"] = self.sentence_splitter
        return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of guarding one output: the decision, the text to send, and why."""

    decision: Decision
    output: str
    findings: list[Finding] = field(default_factory=list)
    elapsed_us: float = field(default=0.0, compare=False)
    instructions: list[InstructionResult] = field(default_factory=list)
    """The results of the turn's verifiable instructions (``instructions.rules`` and per-turn ones), in order."""

    @property
    def labels(self) -> list[str]:
        """The distinct labels found, in order of first appearance."""
        return list(dict.fromkeys(f.label.value for f in self.findings))

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape written by ``guardrail check``."""
        out = {
            "decision": self.decision.value,
            "output": self.output,
            "findings": [f.to_dict() for f in self.findings],
        }
        if self.instructions:
            out["instructions"] = [r.to_dict() for r in self.instructions]
        return out


def _coerce_sources_py(values: Iterable[Source | Mapping[str, Any]]) -> list[Source]:
    return [Source.coerce(v) for v in values]


def _compiled_coerce_sources() -> Callable[[Iterable[Source | Mapping[str, Any]]], list[Source]]:
    from .text import _SPEEDUPS

    if _SPEEDUPS is None:
        return _coerce_sources_py
    _SPEEDUPS.configure_sources(Source)
    return _SPEEDUPS.coerce_sources  # type: ignore[no-any-return]


coerce_sources = _compiled_coerce_sources()
"""``[Source.coerce(v) for v in values]``: a turn's retrieved set as Sources, compiled when it could be (the same
results, the same errors: what the compiled path does not take, ``Source.coerce`` does)."""
