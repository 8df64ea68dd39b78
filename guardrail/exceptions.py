"""The exceptions guardrail raises.

    GuardrailError
     ├── PolicyError        a policy file is unreadable or invalid (names the file, the key path and the line)
     ├── CheckError         a check could not run (becomes a GUARD_ERROR finding, never escapes ``Guard.check``)
     └── StreamFormatError  a streamed body is not UTF-8, not SSE or not chat-completion chunks (``guardrail._sse``;
                            the middleware turns it into the policy's fail mode)
"""

from __future__ import annotations


class GuardrailError(Exception):
    """Base class of every error guardrail raises on purpose."""


class PolicyError(GuardrailError):
    """A policy file cannot be loaded: ``file:line: key.path: what is wrong``."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None, line: int | None = None):
        self.file, self.key, self.line, self.reason = file, key, line, message
        where = file or "<policy>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


class CheckError(GuardrailError):
    """A check failed to run; the engine turns it into a ``GUARD_ERROR`` finding."""
