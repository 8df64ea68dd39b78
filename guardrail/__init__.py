"""guardrail: an output guardrail for retrieval-augmented LLM chat endpoints.

The public names are imported on first use, so that ``import guardrail`` (and the command line) start fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .exceptions import CheckError, GuardrailError, PolicyError
    from .guard import Guard, GuardedStream
    from .middleware import GuardrailMiddleware, VerdictInfo, attach_context
    from .models import Action, Decision, Finding, Label, Source, Verdict
    from .policy import Policy
    from .stream import StreamGuard

__version__ = "0.1.0"

__all__ = [
    "Action",
    "CheckError",
    "Decision",
    "Finding",
    "Guard",
    "GuardedStream",
    "GuardrailError",
    "GuardrailMiddleware",
    "Label",
    "Policy",
    "PolicyError",
    "Source",
    "StreamGuard",
    "Verdict",
    "VerdictInfo",
    "__version__",
    "attach_context",
]

_HOMES = {
    "Action": "models",
    "CheckError": "exceptions",
    "Decision": "models",
    "Finding": "models",
    "Guard": "guard",
    "GuardedStream": "guard",
    "GuardrailError": "exceptions",
    "GuardrailMiddleware": "middleware",
    "Label": "models",
    "Policy": "policy",
    "PolicyError": "exceptions",
    "Source": "models",
    "StreamGuard": "stream",
    "Verdict": "models",
    "VerdictInfo": "middleware",
    "attach_context": "middleware",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'guardrail' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
