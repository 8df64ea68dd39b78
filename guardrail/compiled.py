"""Turning a validated :class:`~guardrail.policy.Policy` into ready-to-run checks, once per policy."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import regex

from ._locate import DEFAULT_CITATION_PATTERN, GROUPED_CITATION_PATTERN, Locator
from .checks.base import Check, MarkerPattern, Turn, acts
from .checks.citations import CitationCheck
from .checks.instructions import InstructionCheck
from .checks.quotes import QuoteCheck
from .checks.rules import RuleCheck
from .checks.schema import SchemaCheck
from .checks.terms import TermCheck
from .exceptions import PolicyError
from .models import Action, Finding
from .text import normalize

if TYPE_CHECKING:
    from .adherence import Instructions, Rule
    from .policy import Policy


@dataclass(frozen=True, slots=True)
class CompiledPolicy:
    """A policy with its regexes, term automaton and schema validator built."""

    policy: Policy
    checks: tuple[Check, ...]
    marker_re: MarkerPattern
    acting_at: frozenset[int] = field(init=False, repr=False, compare=False)
    """The indices of the checks that act (:func:`~guardrail.checks.base.acts`): what an edited output is checked
    by again."""

    acting_terms: TermCheck | None = field(init=False, repr=False, compare=False)
    """The banned-term check, when it acts on more than a flag: what other fields and headers are scrubbed of."""
    copy_words: int = field(init=False, repr=False, compare=False)
    """How many words copied from a source the caller may not see make a leak (the citations check's
    ``leak_min_words``; 8 without one): what other fields are scrubbed of."""
    acting_runs: dict[int, Callable[[Turn], list[Finding]]] = field(init=False, repr=False, compare=False)
    """What finds the acting findings of each check that acts, by index: its ``run``, or for the citations check
    whose coverage is only flagged, its markers and leaks (``recheck``). A stream's look needs no more: the
    verdict comes from the whole output's check."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "acting_at", frozenset(k for k, check in enumerate(self.checks) if acts(check)))
        object.__setattr__(self, "acting_runs", {
            k: check.recheck if isinstance(check, CitationCheck) and check.coverage in (None, Action.FLAG)
            else check.run for k, check in enumerate(self.checks) if k in self.acting_at})
        object.__setattr__(self, "acting_terms", next(
            (c for c in self.checks if isinstance(c, TermCheck) and c.action is not Action.FLAG), None))
        citations = next((c for c in self.checks if isinstance(c, CitationCheck)), None)
        object.__setattr__(self, "copy_words", citations.leak_min_words if citations is not None else 8)

    @property
    def acting(self) -> bool:
        """Whether some check can change what the user receives (else every output passes unchanged)."""
        return bool(self.acting_at)

    @property
    def whole_output(self) -> bool:
        """Whether some check needs the complete output before any of it can be released."""
        return any(check.whole_output for check in self.checks)

    def with_instructions(self, instructions: Instructions | None) -> CompiledPolicy:
        """This policy for one turn that carries its own instructions: they are checked before the policy's
        ``instructions.rules`` (and results come in that order), acting as ``on_violation`` says, by default as
        the policy's ``instructions.on_violation`` (``flag`` without an instructions section)."""
        if not instructions:
            return self
        ins = self.policy.instructions
        default = Action(ins.on_violation) if ins is not None else Action.FLAG
        mine = next((c for c in self.checks if isinstance(c, RuleCheck)), None)
        rules = RuleCheck(instructions.rules + (mine.rules if mine is not None else ()), default)
        checks = (*(c for c in self.checks if c is not mine), rules)
        return CompiledPolicy(self.policy, checks, self.marker_re)


def compile_policy(policy: Policy, base_dir: Path | None = None, locator: Locator | None = None) -> CompiledPolicy:
    """Build the checks of ``policy``; paths in it are relative to ``base_dir``. Raise :class:`PolicyError`."""
    locator = locator or Locator("<policy>")
    base = base_dir or Path.cwd()
    checks: list[Check] = []
    cit = policy.citations
    pattern = cit.pattern if cit else DEFAULT_CITATION_PATTERN
    marker_re: MarkerPattern
    if pattern in (DEFAULT_CITATION_PATTERN, GROUPED_CITATION_PATTERN):
        # The default, spelled as the contract's example does or not: the grouped reader (base.find_markers).
        marker_re = re.compile(GROUPED_CITATION_PATTERN)
    else:
        marker_re = _user_regex(pattern, ("citations", "pattern"), locator)
    if "id" not in marker_re.groupindex:
        raise locator.error("the pattern needs a named group 'id' (the cited ID)", ("citations", "pattern"))
    if cit is not None:
        coverage = None if cit.coverage == "off" else Action(cit.coverage)
        checks.append(CitationCheck(Action(cit.on_hallucinated), Action(cit.on_unauthorized), coverage,
                                    cit.leak_min_words))
    terms = policy.banned_terms
    if policy.quotes is not None:
        gaps = (terms.replacement,) if terms is not None and terms.on_match == "redact" else ()
        checks.append(QuoteCheck(policy.quotes.min_chars, Action(policy.quotes.on_unverified), gaps))
    if terms is not None:
        term_check = TermCheck(_term_list(terms.terms, terms.files, base, locator), Action(terms.on_match),
                               terms.case_sensitive)
        if terms.replacement and term_check.run(Turn(terms.replacement, (), frozenset(), marker_re, 0.0)):
            # (an output that held the term would pass unchanged, the term still in it)
            raise locator.error("the replacement spells a banned term", ("banned_terms", "replacement"))
        if cit is not None and terms.on_match == "redact" and marker_re.search(terms.replacement):
            # (every answer redacted would cite what nobody retrieved, and be blocked for it)
            raise locator.error("the replacement reads as a citation marker", ("banned_terms", "replacement"))
        checks.append(term_check)
    if policy.schema_ is not None:
        schema = _load_schema(policy.schema_.json_schema, base, locator)
        try:
            checks.append(SchemaCheck(schema, Action(policy.schema_.on_invalid)))
        except PolicyError as exc:
            raise locator.error(exc.reason, ("schema", "json_schema")) from None
    ins = policy.instructions
    if ins is not None:
        checks.append(InstructionCheck(
            Action(ins.on_violation),
            max_words=ins.max_words, min_words=ins.min_words, max_chars=ins.max_chars,
            min_bullets=ins.min_bullets, max_bullets=ins.max_bullets, no_emoji=ins.no_emoji,
            required_sections=tuple(ins.required_sections),
            must_match=tuple((p, _user_regex(p, ("instructions", "must_match", i), locator))
                             for i, p in enumerate(ins.must_match)),
            must_not_match=tuple((p, _user_regex(p, ("instructions", "must_not_match", i), locator))
                                 for i, p in enumerate(ins.must_not_match)),
        ))
        if ins.rules:
            checks.append(RuleCheck(_rules(ins.rules, locator), Action(ins.on_violation)))
    return CompiledPolicy(policy, tuple(checks), marker_re)


def _rules(items: list[dict[str, Any]], locator: Locator) -> tuple[Rule, ...]:
    from .adherence import parse
    from .ifeval import InstructionError, MissingDependencyError

    out: list[Rule] = []
    for i, item in enumerate(items):
        try:
            out.extend(parse([item], where="rule").rules)
        except InstructionError as exc:
            path: tuple[Any, ...] = ("instructions", "rules", i)
            raise locator.error(str(exc), (*path, exc.key) if exc.key and exc.key in item else path) from None
        except MissingDependencyError as exc:
            raise locator.error(str(exc), ("instructions", "rules", i)) from None
    return tuple(out)


def _user_regex(pattern: str, path: tuple[Any, ...], locator: Locator) -> regex.Pattern[str]:
    try:
        return regex.compile(pattern, regex.VERSION0)
    except regex.error as exc:
        raise locator.error(f"regular expression does not compile: {exc}", path) from None


def _blank(term: str) -> bool:
    """Whether a term is empty once normalised (an ASCII one: when it is all whitespace, the usual quick answer)."""
    if term.isascii():
        return not term or term.isspace()
    return not normalize(term)


def _term_list(terms: list[str], files: list[str], base: Path, locator: Locator) -> list[tuple[str, str]]:
    out = []
    for i, term in enumerate(terms):
        if _blank(term):
            raise locator.error("a banned term must not be empty", ("banned_terms", "terms", i))
        out.append((term, f"banned_terms.terms[{i}]"))
    for i, name in enumerate(files):
        path = base / name
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise locator.error(f"cannot read term file {str(path)!r} ({exc.__class__.__name__})",
                                ("banned_terms", "files", i)) from None
        for n, line in enumerate(lines, 1):
            term = line.strip()
            if not _blank(term) and not term.startswith("#"):
                out.append((term, f"{name}:{n}"))
    return out


def _load_schema(value: str | dict[str, Any], base: Path, locator: Locator) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    path = base / value
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise locator.error(f"cannot read schema file {str(path)!r} ({exc.__class__.__name__})",
                            ("schema", "json_schema")) from None
    except ValueError as exc:
        raise locator.error(f"schema file {str(path)!r} is not JSON ({exc})", ("schema", "json_schema")) from None
    if not isinstance(schema, dict):
        raise locator.error(f"schema file {str(path)!r} does not hold a JSON object", ("schema", "json_schema"))
    return schema
