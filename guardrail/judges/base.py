"""What every NLI judge looks like: a batch of (premise, hypothesis) pairs in, label probabilities out.

A judge says, for each pair, how likely the premise (the cited passage) entails, is neutral to, or contradicts the
hypothesis (the claim). It never runs on the request path: the monitor's workers and ``guardrail audit`` call it.
A pair the judge could not decide (a malformed answer after its retries, a model that failed) is a
:class:`JudgeFailure`, never a guess: scoring counts it apart, neither supported nor unsupported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple, Protocol

from ..exceptions import GuardrailError

NLILabel = Literal["entailment", "neutral", "contradiction"]
LABELS: tuple[NLILabel, ...] = ("entailment", "neutral", "contradiction")


class Probabilities(NamedTuple):
    """The judge's belief for one pair; the three add up to 1."""

    entailment: float
    neutral: float
    contradiction: float

    @property
    def label(self) -> NLILabel:
        """The most likely label (ties go to the more cautious one: neutral, then contradiction)."""
        best = max(self)
        if self.neutral == best:
            return "neutral"
        if self.contradiction == best:
            return "contradiction"
        return "entailment"


class JudgeFailure(NamedTuple):
    """A pair the judge could not decide; ``reason`` says why (never the pair's text)."""

    reason: str


Judgement = Probabilities | JudgeFailure


class JudgeError(GuardrailError):
    """A judge cannot be built or used at all (a bad spec, a missing model file, a missing extra)."""


class Judge(Protocol):
    """An NLI judge. ``name`` and ``version`` are recorded with every result it produced."""

    @property
    def name(self) -> str:
        """The judge's kind (``lexical``, ``onnx``, ``llm``)."""
        ...

    @property
    def version(self) -> str:
        """What makes its answers reproducible: a version, a model digest."""
        ...

    @property
    def window_chars(self) -> int:
        """How long a premise it reads well, in characters: longer passages are split into windows (the best
        counts)."""
        ...

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        """One judgement per ``(premise, hypothesis)`` pair, in order."""
        ...
