"""The statements of a turn as scoring needs them, from the guard's own segmentation and decision.

For each statement: its span, its text without citation markers, the visible IDs it cites, the invalid IDs it cites
(with their label), whether it needs a citation (not exempt, not a Sources line), and whether the guard delivered
it, with the invalid citations it kept (a stripped marker is gone). Plus the text of every valid cited source. Never
the text of a source the caller may not see: the monitor's sample record is built from this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .checks.base import Turn
from .compiled import CompiledPolicy
from .engine import plan
from .models import Action, Decision, Label, Source, Verdict
from .scoring import Claim
from .text import Kind, is_exempt

_LIST_MARKER = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+")


@dataclass(frozen=True, slots=True)
class TurnClaims:
    """A turn ready to score: its claims and the passages of the valid sources they cite (``{id: text}``)."""

    claims: list[Claim]
    passages: dict[str, str]


def turn_claims(compiled: CompiledPolicy, output: str, sources: Sequence[Source], roles: frozenset[str],
                verdict: Verdict) -> TurnClaims:
    """The claims of ``output`` as the guard saw it, and what of it ``verdict`` delivered."""
    turn = Turn(output, sources, roles, compiled.marker_re, float("inf"))
    statements = turn.statements
    removed: frozenset[int] = frozenset()
    stripped: set[int] = set()
    if verdict.decision is Decision.MODIFIED:
        banned = compiled.policy.banned_terms
        removed = plan(turn, verdict.findings, banned.replacement if banned else "").removed
        stripped = {f.start for f in verdict.findings
                    if f.label is Label.HALLUCINATED_SOURCE and f.action is Action.STRIP}
    blocked = verdict.decision is Decision.BLOCKED
    claims, passages = [], {}
    spans = sorted(set(turn.marker_spans))
    for i, (st, markers) in enumerate(zip(statements, turn.statement_markers, strict=True)):
        cited, invalid, kept_invalid = [], [], []
        for mk in markers:
            if mk.id in turn.visible:
                cited.append(mk.id)
                if mk.id not in passages:
                    passages[mk.id] = "\n\n".join(src.text for src in turn.visible[mk.id])
            else:
                label = "HALLUCINATED_SOURCE" if mk.id not in turn.retrieved else "UNAUTHORIZED_SOURCE"
                invalid.append((mk.id, label))
                if mk.start not in stripped:
                    kept_invalid.append((mk.id, label))
        needs = st.kind is not Kind.SOURCE and not is_exempt(output, st, spans)
        claims.append(Claim(
            st.start, st.end, _claim_text(output, st.start, st.end, spans), tuple(dict.fromkeys(cited)),
            tuple(dict.fromkeys(invalid)), needs, delivered=not blocked and i not in removed,
            delivered_invalid=tuple(dict.fromkeys(kept_invalid)),
        ))
    return TurnClaims(claims, passages)


def _claim_text(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    """A statement's words for the judge: citation markers and a list marker taken out, whitespace collapsed."""
    parts, pos = [], start
    for a, b in spans:
        if b <= start or a >= end:
            continue
        parts.append(text[pos:max(a, pos)])
        pos = max(pos, b)
    parts.append(text[pos:end])
    body = _LIST_MARKER.sub("", "".join(parts), count=1)
    return " ".join(body.split()).replace(" .", ".").replace(" ,", ",")
