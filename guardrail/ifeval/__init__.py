"""IFEval's 25 verifiable instructions, decided as Google's official evaluator decides them, deterministically.

    >>> from guardrail import ifeval
    >>> ifeval.evaluate("length_constraints:number_words", "Hello there, world.",
    ...                 {"relation": "less than", "num_words": 151})
    Result(followed=True, followed_loose=True, sentence_splitter=None, notes=())

Each instruction is named by its IFEval id and takes IFEval's kwargs verbatim; an unknown or missing kwarg is an
``InstructionError`` naming the id and the key. ``followed`` is IFEval's strict verdict and ``followed_loose``
its loose one. A checker never raises on a response; it raises ``MissingDependencyError`` (a ``CheckError``) when
built without the optional package it needs: ``pip install 'guardrail[lang]'`` brings langdetect, which the three
language types need, and NLTK, whose Punkt English model counts sentences when it is installed (otherwise a
built-in splitter does, and ``Result.sentence_splitter`` says which).

Reuse checkers: ``compile`` validates the kwargs and compiles them once; ``evaluate_all`` checks several on one
response and builds IFEval's loose variants of it only once, and only if a strict verdict fails.

Where the official evaluator is not deterministic, crashes, or picks something at random, this is decided instead:

- ``keywords:letter_frequency`` with a letter that is not one ASCII letter (IFEval keys 1122 ``#``, 1129 ``!``):
  IFEval counts a random letter; here the given character is counted (as IFEval's current code does).
- langdetect is seeded per detection (seed 0), so a text always gets the same language; the application's own
  ``DetectorFactory.seed`` is left alone.
- A text langdetect cannot detect (no letters) is counted as followed, as IFEval does, and ``Result.notes`` says so.
- Keywords, forbidden words, section splitters and other postscript markers are literal text, not regular
  expressions (the same for all of IFEval's kwargs, which are plain words; "C++" no longer crashes).
- Kwargs IFEval would replace by random values when missing, negative or out of range (``nth_paragraph`` above
  ``num_paragraphs``, a multi-character ``letter``, an unknown ``relation``) are an ``InstructionError``; so is a
  language code langdetect cannot output (IFEval crashes on codes outside its own list).
- ``detectable_format:json_format`` on JSON nested too deep for the interpreter is not followed (IFEval crashes).
- ``combination:repeat_prompt`` without ``prompt_to_repeat`` uses the ``prompt`` given to ``compile``.
- Punkt is only used from NLTK >= 3.8.2 (its ``punkt_tab`` model); older pickled models are not loaded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import (
    change_case,
    combination,
    detectable_content,
    detectable_format,
    keywords,
    language,
    length_constraints,
    punctuation,
    startend,
)
from ._core import (
    Checker,
    InstructionError,
    MissingDependencyError,
    Response,
    Result,
    SplitterChoice,
    evaluate_all,
    loose_texts,
)
from ._text import langdetect_available

__all__ = [
    "INSTRUCTION_IDS",
    "REGISTRY",
    "Checker",
    "InstructionError",
    "MissingDependencyError",
    "Response",
    "Result",
    "compile",
    "evaluate",
    "evaluate_all",
    "evaluate_ifeval_record",
    "langdetect_available",
    "loose_texts",
    "punkt_available",
]

_CHECKERS: tuple[type[Checker], ...] = (
    keywords.Existence,
    keywords.Frequency,
    keywords.ForbiddenWords,
    keywords.LetterFrequency,
    language.ResponseLanguage,
    length_constraints.NumberSentences,
    length_constraints.NumberParagraphs,
    length_constraints.NumberWords,
    length_constraints.NthParagraphFirstWord,
    detectable_content.NumberPlaceholders,
    detectable_content.Postscript,
    detectable_format.NumberBulletLists,
    detectable_format.ConstrainedResponse,
    detectable_format.NumberHighlightedSections,
    detectable_format.MultipleSections,
    detectable_format.JsonFormat,
    detectable_format.Title,
    combination.TwoResponses,
    combination.RepeatPrompt,
    startend.EndChecker,
    change_case.CapitalWordFrequency,
    change_case.EnglishCapital,
    change_case.EnglishLowercase,
    punctuation.NoComma,
    startend.Quotation,
)

REGISTRY: Mapping[str, type[Checker]] = {c.id: c for c in _CHECKERS}
"""IFEval instruction id -> checker class, in the official registry's order."""

INSTRUCTION_IDS: tuple[str, ...] = tuple(REGISTRY)
"""The 25 IFEval instruction ids."""


def compile(
    instruction_id: str,
    kwargs: Mapping[str, Any] | None = None,
    prompt: str | None = None,
    *,
    sentence_splitter: SplitterChoice = "auto",
) -> Checker:
    """A checker for one instruction, its kwargs validated and compiled.

    ``prompt`` is the user's prompt (``combination:repeat_prompt`` uses it when ``prompt_to_repeat`` is not
    given). ``sentence_splitter`` picks the splitter of the sentence-based types: ``auto`` (Punkt when
    installed, else built-in), ``punkt`` (``MissingDependencyError`` without it) or ``builtin``.
    """
    cls = REGISTRY.get(instruction_id) if isinstance(instruction_id, str) else None
    if cls is None:
        import difflib

        near = difflib.get_close_matches(str(instruction_id), INSTRUCTION_IDS, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise InstructionError(str(instruction_id), f"unknown IFEval instruction id{hint}")
    return cls(kwargs, prompt=prompt, sentence_splitter=sentence_splitter)


def evaluate(
    instruction_id: str,
    response: str,
    kwargs: Mapping[str, Any] | None = None,
    prompt: str | None = None,
    *,
    sentence_splitter: SplitterChoice = "auto",
) -> Result:
    """Strict and loose verdicts of one instruction on one response (``compile`` then ``Checker.evaluate``)."""
    return compile(instruction_id, kwargs, prompt, sentence_splitter=sentence_splitter).evaluate(response)


def evaluate_ifeval_record(
    instruction_id_list: Sequence[str],
    kwargs_list: Sequence[Mapping[str, Any] | None],
    response: str,
    prompt: str | None = None,
    *,
    sentence_splitter: SplitterChoice = "auto",
) -> list[Result]:
    """The results of an IFEval record's parallel ``instruction_id_list`` and ``kwargs`` on its response."""
    if len(instruction_id_list) != len(kwargs_list):
        raise InstructionError(
            "<record>", f"instruction_id_list has {len(instruction_id_list)} ids but kwargs has {len(kwargs_list)}"
        )
    pairs = zip(instruction_id_list, kwargs_list, strict=True)
    checkers = [compile(i, k, prompt, sentence_splitter=sentence_splitter) for i, k in pairs]
    return evaluate_all(checkers, response)


def punkt_available() -> bool:
    """Whether NLTK's Punkt English model is installed (then ``auto`` counts sentences with it)."""
    from ._text import _punkt

    return _punkt() is not None
