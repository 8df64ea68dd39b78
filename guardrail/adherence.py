"""Verifiable instructions for one turn, in the three forms users write them, and adherence rates over many turns.

An instruction is an IFEval instruction (its id and IFEval's kwargs, decided as the official evaluator decides, see
:mod:`guardrail.ifeval`) or one of seed 002's constraints. A turn's instructions come

- as a list of ``{"id": ..., **kwargs}`` (the policy's ``instructions.rules``, ``attach_context(instructions=...)``,
  the proxy's ``guardrail.instructions``, a record's ``instructions``); an item may also say ``on_violation``
  (``flag``, ``strip`` or ``block``; what the guard does when it is not followed) and ``mode`` (``strict``, the
  default, or ``loose``: which verdict acting looks at);
- in IFEval's own record form: ``instruction_id_list`` with the parallel ``kwargs`` list;
- as seed 002's ``constraints`` object: ``max_words``, ``min_words``, ``max_chars``, ``must_be_json``,
  ``must_include``, ``must_exclude`` (a string or a list), ``regex``. Each becomes one instruction with the id
  ``constraints:<key>`` (one per string of ``must_include`` / ``must_exclude``), decided as seed 002 does: words are
  whitespace-separated tokens, bounds are inclusive, includes and excludes ignore case, ``regex`` is searched
  anywhere. Constraints have no loose variant: ``followed_loose`` is ``followed``.

A record with ``prompt`` gives it to the instructions that need it (``combination:repeat_prompt``). Pure: no I/O.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import regex

from .models import Action, InstructionResult
from .stats import proportion

if TYPE_CHECKING:
    from .ifeval import Response, Result

_OPTIONS = ("on_violation", "mode")
MAX_INSTRUCTIONS = 256
REGEX_TIMEOUT_S = 0.05
"""How long a per-turn ``regex`` constraint may search one output."""
_REGEX_MAX_CHARS, _REGEX_MAX_REPEAT = 2000, 1000
_REPEAT = regex.compile(r"(?<=\{\s*|\{\s*\d+\s*,\s*)\d+")  # the numbers of {m}, {m,} and {m,n}
_ACTIONS = {"flag": Action.FLAG, "strip": Action.STRIP, "block": Action.BLOCK}


class _Constraint:
    """One of seed 002's constraints: a strict verdict only."""

    id: str

    def __init__(self, id: str, value: Any):
        self.id, self.value = id, value

    def check(self, text: str) -> bool:
        raise NotImplementedError

    def evaluate(self, response: str | Response) -> Result:
        from .ifeval import Result

        ok = self.check(response if isinstance(response, str) else response.text)
        return Result(ok, ok)


class _MaxWords(_Constraint):
    def check(self, text: str) -> bool:
        return len(text.split()) <= self.value


class _MinWords(_Constraint):
    def check(self, text: str) -> bool:
        return len(text.split()) >= self.value


class _MaxChars(_Constraint):
    def check(self, text: str) -> bool:
        return len(text) <= self.value


class _MustBeJson(_Constraint):
    def check(self, text: str) -> bool:
        if not self.value:
            return True
        try:
            json.loads(text)
        except (ValueError, RecursionError):
            return False
        return True


class _MustInclude(_Constraint):
    def check(self, text: str) -> bool:
        return self.value.lower() in text.lower()


class _MustExclude(_Constraint):
    def check(self, text: str) -> bool:
        return self.value.lower() not in text.lower()


class _Regex(_Constraint):
    """Searched with a timeout, as the policy's own patterns are: a pattern that backtracks without end raises
    ``TimeoutError``, which the guard reports as a ``GUARD_ERROR`` of the instructions check."""

    def __init__(self, id: str, value: Any):
        super().__init__(id, value)
        # Compiling is not bounded by a timeout: a huge pattern or repeat count ("a{1000000000}") is refused.
        counts = [int(c) for c in _REPEAT.findall(value)]
        if len(value) > _REGEX_MAX_CHARS or any(c > _REGEX_MAX_REPEAT for c in counts) \
                or math.prod(c for c in counts if c > 1) > _REGEX_MAX_REPEAT ** 2:  # nested repeats multiply
            raise _error(id, f"regex is too large (at most {_REGEX_MAX_CHARS} characters and repeat counts of "
                             f"{_REGEX_MAX_REPEAT})", key="regex")
        try:
            self.pattern = regex.compile(value, regex.VERSION0)
        except (regex.error, ValueError, OverflowError) as exc:
            raise _error(id, f"regex does not compile: {exc}", key="regex") from None

    def check(self, text: str) -> bool:
        return self.pattern.search(text, timeout=REGEX_TIMEOUT_S) is not None


_CONSTRAINTS: dict[str, tuple[type[_Constraint], str]] = {
    "max_words": (_MaxWords, "count"),
    "min_words": (_MinWords, "count"),
    "max_chars": (_MaxChars, "count"),
    "must_be_json": (_MustBeJson, "bool"),
    "must_include": (_MustInclude, "texts"),
    "must_exclude": (_MustExclude, "texts"),
    "regex": (_Regex, "text"),
}
CONSTRAINT_IDS = tuple(f"constraints:{key}" for key in _CONSTRAINTS)


@dataclass(frozen=True, slots=True)
class Rule:
    """One instruction, compiled: its id, its checker, what not following it does (``None``: the policy's
    ``instructions.on_violation``, or ``flag``) and whether acting looks at the loose verdict."""

    id: str
    checker: Any  # an ifeval.Checker or a constraint: .evaluate(Response) -> Result
    action: Action | None = None
    loose: bool = False


@dataclass(frozen=True, slots=True)
class Instructions:
    """A turn's instructions, parsed and compiled (build with :func:`parse` or :func:`from_record`)."""

    rules: tuple[Rule, ...] = ()
    prompt: str | None = None

    def __bool__(self) -> bool:
        return bool(self.rules)


class BudgetSpent(Exception):
    """The turn's latency budget ran out before every rule was checked."""


def results(rules: Sequence[Rule], text: str, deadline: float | None = None) -> list[InstructionResult]:
    """Every rule's result on ``text``, in order; :class:`BudgetSpent` once ``perf_counter()`` passes
    ``deadline`` between two rules."""
    from .ifeval import Response

    response = Response(text)
    out: list[InstructionResult] = []
    for rule in rules:
        if deadline is not None and out and time.perf_counter() > deadline:
            raise BudgetSpent(f"the latency budget ran out after {len(out)} of {len(rules)} instructions")
        checker = rule.checker
        if rule.loose or response.blank or getattr(checker, "noted", True) or not hasattr(checker, "check"):
            r = checker.evaluate(response)
            out.append(InstructionResult(rule.id, r.followed, r.followed_loose, r.sentence_splitter))
        elif checker.check(text):
            out.append(InstructionResult(rule.id, True, True, checker.sentence_splitter))
        else:  # the loose verdict when someone reads it: the variants cost more than every strict check together
            out.append(InstructionResult(rule.id, False, _loose(checker, response), checker.sentence_splitter))
    return out


def _loose(checker: Any, response: Response) -> Callable[[], bool]:
    return lambda: checker.evaluate(response).followed_loose


def parse(items: Any = None, *, prompt: str | None = None, instruction_id_list: Any = None, kwargs: Any = None,
          constraints: Any = None, where: str = "instructions") -> Instructions:
    """Parse a turn's instructions from any of the three forms (all may be given; they are kept in that order).
    Raise :class:`~guardrail.ifeval.InstructionError` (a ``ValueError``) naming the item and the key."""
    if prompt is not None and not isinstance(prompt, str):
        raise _error("prompt", "must be a string")
    rules: list[Rule] = []
    if items is not None:
        if not isinstance(items, list | tuple):
            raise _error(where, "must be a list of {\"id\": ..., kwargs} objects")
        for i, item in enumerate(items):
            rules.append(_item(item, prompt, f"{where}[{i}]"))
    if instruction_id_list is not None or kwargs is not None:
        if not isinstance(instruction_id_list, list) or not all(isinstance(x, str) for x in instruction_id_list):
            raise _error("instruction_id_list", "must be a list of IFEval instruction ids")
        if kwargs is None:
            kwargs = [{}] * len(instruction_id_list)
        if not isinstance(kwargs, list) or len(kwargs) != len(instruction_id_list):
            raise _error("kwargs", f"must be a list of {len(instruction_id_list)} objects, one per id")
        for i, (iid, kw) in enumerate(zip(instruction_id_list, kwargs, strict=True)):
            if kw is not None and not isinstance(kw, Mapping):
                raise _error(f"kwargs[{i}]", "must be an object")
            # IFEval's records list every kwarg of every type, most of them null: null means not given.
            given = {k: v for k, v in (kw or {}).items() if v is not None}
            rules.append(Rule(iid, _compiled(iid, _key(given), _prompt_for(iid, prompt))))
    if constraints is not None:
        rules.extend(_constraints(constraints))
    if len(rules) > MAX_INSTRUCTIONS:
        raise _error(where, f"at most {MAX_INSTRUCTIONS} instructions a turn, not {len(rules)}")
    return Instructions(tuple(rules), prompt)


def from_record(record: Mapping[str, Any]) -> Instructions:
    """The instructions a ``check``/``audit`` record (or the proxy's ``guardrail`` field) carries."""
    return parse(record.get("instructions"), prompt=record.get("prompt"),
                 instruction_id_list=record.get("instruction_id_list"), kwargs=record.get("kwargs"),
                 constraints=record.get("constraints"))


def _item(item: Any, prompt: str | None, where: str) -> Rule:
    if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
        raise _error(where, "must be an object with an 'id' (an IFEval instruction id)")
    iid = item["id"]
    action = item.get("on_violation")
    if action is not None and (not isinstance(action, str) or action not in _ACTIONS):
        raise _error(iid, f"on_violation must be flag, strip or block, not {action!r}", key="on_violation")
    mode = item.get("mode", "strict")
    if not isinstance(mode, str) or mode not in ("strict", "loose"):
        raise _error(iid, f"mode must be strict or loose, not {mode!r}", key="mode")
    given = {k: v for k, v in item.items() if k != "id" and k not in _OPTIONS}
    if iid.startswith("constraints:"):
        key = iid.split(":", 1)[1]
        if set(given) - {"value"}:
            raise _error(iid, "takes one kwarg, 'value'", key=next(iter(set(given) - {"value"})))
        checker: Any = _constraint(key, given.get("value"))
    else:
        checker = _compiled(iid, _key(given), _prompt_for(iid, prompt))
    return Rule(iid, checker, None if action is None else _ACTIONS[action], mode == "loose")


def _key(kwargs: Mapping[str, Any]) -> str:
    try:
        return json.dumps(kwargs, sort_keys=True)
    except (TypeError, ValueError):
        raise _error("kwargs", "must be JSON values") from None


def _error(instruction_id: str, message: str, *, key: str | None = None) -> Exception:
    from .ifeval import InstructionError

    return InstructionError(instruction_id, message, key=key)


def _prompt_for(instruction_id: str, prompt: str | None) -> str | None:
    """The prompt, for the one type that reads it (so that the others' compiled checkers are shared by turns)."""
    return prompt if instruction_id == "combination:repeat_prompt" else None


def _compiled(instruction_id: str, kwargs_json: str, prompt: str | None) -> Any:
    """A checker, compiled once per distinct instruction (turns repeat their system prompt's instructions); one
    with large kwargs (a long keyword list) is compiled for its turn only, so that the cache stays small."""
    if len(kwargs_json) > 4096 or (prompt is not None and len(prompt) > 4096):
        return _compile(instruction_id, kwargs_json, prompt)
    return _cached(instruction_id, kwargs_json, prompt)


def _compile(instruction_id: str, kwargs_json: str, prompt: str | None) -> Any:
    from . import ifeval  # the catalogue loads with the first instruction, not with the guard

    return ifeval.compile(instruction_id, json.loads(kwargs_json), prompt)


_cached = lru_cache(maxsize=512)(_compile)


def _constraints(value: Any) -> list[Rule]:
    if not isinstance(value, Mapping):
        raise _error("constraints", "must be an object")
    out = []
    for key, v in value.items():
        if key not in _CONSTRAINTS:
            raise _error("constraints", f"unknown constraint {key!r} (known: {', '.join(_CONSTRAINTS)})",
                                   key=key)
        if _CONSTRAINTS[key][1] == "texts":
            for needle in [v] if isinstance(v, str) else v if isinstance(v, list) else [v]:
                out.append(Rule(f"constraints:{key}", _constraint(key, needle)))
        else:
            out.append(Rule(f"constraints:{key}", _constraint(key, v)))
    return out


def _constraint(key: str, value: Any) -> _Constraint:
    iid = f"constraints:{key}"
    if key not in _CONSTRAINTS:
        raise _error(iid, f"unknown constraint (known: {', '.join(_CONSTRAINTS)})")
    cls, kind = _CONSTRAINTS[key]
    ok = {"count": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
          "bool": isinstance(value, bool),
          "texts": isinstance(value, str) and value != "",
          "text": isinstance(value, str) and value != ""}[kind]
    if not ok:
        wanted = {"count": "an integer >= 0", "bool": "true or false", "texts": "a non-empty string",
                  "text": "a non-empty string"}[kind]
        raise _error(iid, f"must be {wanted}, not {value!r}", key=key)
    return cls(iid, value)


# ------------------------------------------------------------------------------------------------------ adherence


@dataclass
class _Counts:
    strict: int = 0
    loose: int = 0
    n: int = 0

    def add(self, strict: bool, loose: bool) -> None:
        self.n += 1
        self.strict += strict
        self.loose += loose

    def to_dict(self) -> dict[str, Any]:
        return {"strict": proportion(self.strict, self.n), "loose": proportion(self.loose, self.n)}


@dataclass
class Adherence:
    """Instruction-level and prompt-level accuracy, strict and loose, over many turns (IFEval's four numbers),
    and per instruction type. A turn without instructions is inconclusive: counted apart, never failed."""

    instruction: _Counts = field(default_factory=_Counts)
    prompt: _Counts = field(default_factory=_Counts)
    by_type: dict[str, _Counts] = field(default_factory=dict)
    inconclusive: int = 0

    def add(self, turn: Iterable[tuple[str, bool, bool]]) -> None:
        """One turn's results, as ``(id, followed, followed_loose)``."""
        items = list(turn)
        if not items:
            self.inconclusive += 1
            return
        for iid, strict, loose in items:
            self.instruction.add(strict, loose)
            self.by_type.setdefault(iid, _Counts()).add(strict, loose)
        self.prompt.add(all(strict for _, strict, _ in items), all(loose for _, _, loose in items))

    def metrics(self) -> dict[str, dict[str, Any]]:
        """The four rates as report metrics: ``instruction_level.strict`` ... ``prompt_level.loose``."""
        out = {}
        for name, c in (("instruction_level", self.instruction), ("prompt_level", self.prompt)):
            out[f"{name}.strict"] = proportion(c.strict, c.n)
            out[f"{name}.loose"] = proportion(c.loose, c.n)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "instruction_level": self.instruction.to_dict(),
            "prompt_level": self.prompt.to_dict(),
            "inconclusive": self.inconclusive,
            "by_type": {k: self.by_type[k].to_dict() for k in sorted(self.by_type)},
        }
