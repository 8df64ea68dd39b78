"""NLI judges behind one protocol (:mod:`guardrail.judges.base`): ``lexical`` (built in), ``onnx:DIR``, ``llm:URL``.

:func:`load_judge` turns a judge spec (CONTRACT section 7) into a judge. Optional judges import their dependencies
only when built, with an install hint when they are missing.
"""

from __future__ import annotations

from .base import LABELS, Judge, JudgeError, JudgeFailure, Judgement, NLILabel, Probabilities

__all__ = ["LABELS", "Judge", "JudgeError", "JudgeFailure", "Judgement", "NLILabel", "Probabilities", "load_judge"]


def load_judge(spec: str) -> Judge:
    """``lexical``, ``onnx:DIR`` or ``llm:URL?model=NAME[&labels=2|3&timeout=S&retries=N&concurrency=N]``; raise
    :class:`JudgeError` for anything else."""
    kind, _, rest = spec.partition(":")
    if kind == "lexical" and not rest:
        from .lexical import LexicalJudge

        return LexicalJudge()
    if kind == "onnx" and rest:
        from .onnx import OnnxJudge

        return OnnxJudge(rest)
    if kind == "llm" and rest:
        from .llm import LLMJudge

        return LLMJudge(rest)
    raise JudgeError(f"unknown judge {spec!r}: expected 'lexical', 'onnx:DIR' or 'llm:URL?model=NAME'")
