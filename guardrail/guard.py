"""The :class:`Guard`: a compiled policy, ready to check outputs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .compiled import CompiledPolicy, compile_policy
from .engine import evaluate
from .models import Source, Verdict
from .policy import Locator, Policy, read_policy_file, validate_policy

SourceLike = Source | Mapping[str, Any]

# Outputs longer than this are checked in a worker thread by ``acheck`` so that the event loop stays responsive.
_OFFLOAD_CHARS = 64_000


class Guard:
    """Checks outputs against one policy. Build it once (compiling is the expensive part) and share it."""

    def __init__(self, compiled: CompiledPolicy):
        self.compiled = compiled

    @classmethod
    def from_policy(cls, path: str | Path) -> Guard:
        """Load, validate and compile a policy file; raise :class:`~guardrail.PolicyError` if it is not valid."""
        policy, locator = read_policy_file(path)
        return cls(compile_policy(policy, Path(path).resolve().parent, locator))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base_dir: str | Path | None = None) -> Guard:
        """Build a guard from a policy given as a mapping (the parsed YAML); paths are relative to ``base_dir``."""
        locator = Locator("<policy>")
        return cls(compile_policy(validate_policy(data, locator), Path(base_dir) if base_dir else None, locator))

    @property
    def policy(self) -> Policy:
        """The validated policy."""
        return self.compiled.policy

    def check(
        self, output: str, sources: Iterable[SourceLike] | None = None, roles: Iterable[str] | None = None
    ) -> Verdict:
        """Check one output. ``sources`` is the turn's retrieved set (none: every citation is invalid); ``roles``
        are the caller's roles, from the application's authentication."""
        if not isinstance(output, str):
            raise TypeError(f"output must be a str, not {type(output).__name__}")
        if isinstance(roles, str):
            raise TypeError("roles must be a list of strings, not a string")
        role_set = frozenset(roles or ())
        if not all(isinstance(r, str) for r in role_set):
            raise TypeError("roles must be strings")
        return evaluate(self.compiled, output, [Source.coerce(s) for s in sources or ()], role_set)

    async def acheck(
        self, output: str, sources: Iterable[SourceLike] | None = None, roles: Iterable[str] | None = None
    ) -> Verdict:
        """:meth:`check` for async code. A typical check takes tens of microseconds, less than a thread hop, so it
        runs inline; very long outputs are checked in a worker thread."""
        if isinstance(output, str) and len(output) > _OFFLOAD_CHARS:
            import asyncio  # not at module level: it costs more to import than the rest of guardrail

            return await asyncio.to_thread(self.check, output, sources, roles)
        return self.check(output, sources, roles)

    def __repr__(self) -> str:
        names = ", ".join(check.name for check in self.compiled.checks) or "no checks"
        return f"<Guard {self.policy.name!r}: {names}>"
