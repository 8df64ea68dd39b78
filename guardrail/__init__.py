"""guardrail: an output guardrail for retrieval-augmented LLM chat endpoints."""

from .exceptions import CheckError, GuardrailError, PolicyError
from .guard import Guard
from .models import Action, Decision, Finding, Label, Source, Verdict
from .policy import Policy

__version__ = "0.1.0"

__all__ = [
    "Action",
    "CheckError",
    "Decision",
    "Finding",
    "Guard",
    "GuardrailError",
    "Label",
    "Policy",
    "PolicyError",
    "Source",
    "Verdict",
    "__version__",
]
