"""What every IFEval checker shares: the result, the errors, kwargs validation, strict and loose evaluation."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..exceptions import CheckError, GuardrailError

Splitter = Literal["punkt", "builtin"]
SplitterChoice = Literal["auto", "punkt", "builtin"]
Relation = Literal["less than", "at least"]
RELATIONS: tuple[Relation, ...] = ("less than", "at least")


class InstructionError(GuardrailError, ValueError):
    """An instruction id is unknown, or its kwargs are unknown, missing or of the wrong type.

    The message names the instruction id and the key: ``keywords:frequency: unknown kwarg 'freq' (...)``.
    """

    def __init__(self, instruction_id: str, message: str, *, key: str | None = None):
        self.instruction_id, self.key, self.reason = instruction_id, key, message
        super().__init__(f"{instruction_id}: {message}")


class MissingDependencyError(CheckError):
    """A checker needs an optional package that is not installed (``pip install 'guardrail[lang]'``)."""


@dataclass(frozen=True, slots=True)
class Result:
    """One instruction's verdict on one response.

    ``followed`` is IFEval's strict verdict, ``followed_loose`` its loose one (followed under any of the eight
    response transformations). ``sentence_splitter`` says which sentence splitter a sentence-based type used
    (``None`` for the other types). ``notes`` names IFEval quirks that decided the verdict, such as a language
    check counted as followed because the text has no letters to detect.
    """

    followed: bool
    followed_loose: bool
    sentence_splitter: Splitter | None = None
    notes: tuple[str, ...] = ()


# ----------------------------------------------------------------------------------------------------------------
# kwargs


@dataclass(frozen=True, slots=True)
class Param:
    """One kwarg a checker takes: its name, what it must be, and whether it may be left out."""

    name: str
    kind: Literal["count", "positive", "relation", "text", "word_list", "char", "language"]
    required: bool = True


_KIND_TEXT = {
    "count": "an integer >= 0",
    "positive": "an integer >= 1",
    "relation": "'less than' or 'at least'",
    "text": "a non-blank string",
    "word_list": "a non-empty list of non-blank strings",
    "char": "a single non-whitespace character",
    "language": "an ISO 639-1 code langdetect can output",
}

# What langdetect 1.0.9 can answer (its 55 profiles); a code outside this set could never match.
LANGDETECT_CODES = frozenset(
    "af ar bg bn ca cs cy da de el en es et fa fi fr gu he hi hr hu id it ja kn ko lt lv mk ml mr ne nl no pa pl "
    "pt ro ru sk sl so sq sv sw ta te th tl tr uk ur vi zh-cn zh-tw".split()
)


def _valid(kind: str, value: Any) -> bool:
    if kind in ("count", "positive"):
        return type(value) is int and value >= (1 if kind == "positive" else 0)
    if kind == "relation":
        return value in RELATIONS
    if kind == "text":
        return isinstance(value, str) and not value.isspace() and value != ""
    if kind == "word_list":
        return (
            isinstance(value, (list, tuple))
            and len(value) > 0
            and all(isinstance(w, str) and w.strip() != "" for w in value)
        )
    if kind == "char":
        return isinstance(value, str) and len(value) == 1 and not value.isspace()
    if kind == "language":
        return isinstance(value, str) and value in LANGDETECT_CODES
    raise AssertionError(kind)


def validate(instruction_id: str, params: Sequence[Param], kwargs: Mapping[str, Any] | None) -> dict[str, Any]:
    """The kwargs checked against ``params``: unknown, missing and ill-typed keys are ``InstructionError``."""
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, Mapping):
        raise InstructionError(instruction_id, f"kwargs must be a mapping, got {type(kwargs).__name__}")
    names = [p.name for p in params]
    accepted = ", ".join(names) if names else "none"
    for key in kwargs:
        if key not in names:
            hint = difflib.get_close_matches(str(key), names, n=1)
            also = f"; did you mean {hint[0]!r}?" if hint else ""
            raise InstructionError(instruction_id, f"unknown kwarg {key!r} (accepted: {accepted}){also}", key=str(key))
    out: dict[str, Any] = {}
    for p in params:
        value = kwargs.get(p.name)
        if value is None:
            if p.required:
                raise InstructionError(instruction_id, f"missing kwarg {p.name!r} ({_KIND_TEXT[p.kind]})", key=p.name)
            continue
        if not _valid(p.kind, value):
            raise InstructionError(instruction_id, f"{p.name} must be {_KIND_TEXT[p.kind]}, got {value!r}", key=p.name)
        out[p.name] = value
    return out


def compare(relation: Relation, actual: int, threshold: int) -> bool:
    """IFEval's two relations: ``less than`` is actual < N, ``at least`` is actual >= N."""
    return actual < threshold if relation == "less than" else actual >= threshold


# ----------------------------------------------------------------------------------------------------------------
# responses and their loose variants


class Response:
    """A response and, computed once on first need, the texts IFEval's loose mode also tries.

    Loose mode tries, in this order: the response; it with every ``*`` deleted; it without its first line,
    without its last line, without both (lines split on ``\\n``, each of these whitespace-stripped); and those
    three with every ``*`` deleted. Blank texts never pass. Only the texts that differ from the raw response and
    from each other are kept, since a checker is a pure function of its text.
    """

    __slots__ = ("_variants", "blank", "text")

    def __init__(self, text: str):
        self.text = text
        self.blank = not text or text.isspace()
        self._variants: tuple[str, ...] | None = None

    @property
    def variants(self) -> tuple[str, ...]:
        """The loose texts other than the response itself, non-blank and distinct."""
        if self._variants is None:
            self._variants = _loose_variants(self.text)
        return self._variants


def _loose_variants(text: str) -> tuple[str, ...]:
    first_nl = text.find("\n")
    if first_nl < 0:
        candidates = [text.replace("*", "")] if "*" in text else []
    else:
        last_nl = text.rfind("\n")
        no_first = text[first_nl + 1 :].strip()
        no_last = text[:last_nl].strip()
        no_both = text[first_nl + 1 : last_nl].strip() if last_nl > first_nl else ""
        candidates = [no_first, no_last, no_both]
        if "*" in text:
            candidates = [text.replace("*", ""), *candidates]
            candidates += [no_first.replace("*", ""), no_last.replace("*", ""), no_both.replace("*", "")]
    out: list[str] = []
    for c in candidates:
        # Few and long: comparing is cheaper than hashing them.
        if c and not c.isspace() and c != text and c not in out:
            out.append(c)
    return tuple(out)


def loose_texts(response: str) -> list[str]:
    """IFEval's eight loose texts for ``response``, in its order, unfiltered (for inspection and tests)."""
    lines = response.split("\n")
    first = "\n".join(lines[1:]).strip()
    last = "\n".join(lines[:-1]).strip()
    both = "\n".join(lines[1:-1]).strip()
    return [
        response,
        response.replace("*", ""),
        first,
        last,
        both,
        first.replace("*", ""),
        last.replace("*", ""),
        both.replace("*", ""),
    ]


# ----------------------------------------------------------------------------------------------------------------
# checkers


class Checker:
    """One IFEval instruction with validated kwargs; ``check`` is IFEval's ``check_following`` on one text.

    Subclasses set ``id`` and ``params`` and implement ``check``. A checker holds only what its kwargs compiled
    to, so one instance may be shared by threads and reused for any number of responses.
    """

    id: ClassVar[str]
    params: ClassVar[tuple[Param, ...]] = ()
    noted: ClassVar[bool] = False  # True where check_noted can name a quirk that decided a verdict
    sentence_splitter: Splitter | None = None

    def __init__(
        self,
        kwargs: Mapping[str, Any] | None = None,
        *,
        prompt: str | None = None,
        sentence_splitter: SplitterChoice = "auto",
    ):
        self.kwargs = validate(self.id, self.params, kwargs)
        self.prompt = prompt
        self.splitter_choice = sentence_splitter
        self.setup(self.kwargs)

    def setup(self, kw: dict[str, Any]) -> None:
        """Compile the validated kwargs (regular expressions, lowercased phrases) once."""

    def check(self, text: str) -> bool:
        """IFEval's verdict on exactly this text (no blank rule, no loose variants)."""
        raise NotImplementedError

    def check_noted(self, text: str) -> tuple[bool, str | None]:
        """``check`` with the name of the quirk that decided it, if one did."""
        return self.check(text), None

    def evaluate(self, response: str | Response) -> Result:
        """Strict and loose verdicts on ``response``."""
        r = response if isinstance(response, Response) else Response(response)
        if r.blank:
            return Result(False, False, self.sentence_splitter)
        if self.noted:
            return self._evaluate_noted(r)
        if self.check(r.text):
            return Result(True, True, self.sentence_splitter)
        check = self.check
        for v in r.variants:
            if check(v):
                return Result(False, True, self.sentence_splitter)
        return Result(False, False, self.sentence_splitter)

    def _evaluate_noted(self, r: Response) -> Result:
        strict, note = self.check_noted(r.text)
        if strict:
            return Result(True, True, self.sentence_splitter, (note,) if note else ())
        for v in r.variants:
            ok, note = self.check_noted(v)
            if ok:
                return Result(False, True, self.sentence_splitter, (note,) if note else ())
        return Result(False, False, self.sentence_splitter)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r}, {self.kwargs!r})"


CheckerFactory = Callable[..., Checker]


def evaluate_all(checkers: Iterable[Checker], response: str) -> list[Result]:
    """Every checker's result on one response; the loose variants are computed once, when first needed."""
    r = Response(response)
    return [c.evaluate(r) for c in checkers]
