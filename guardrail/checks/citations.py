"""Citations: every cited ID must be in the retrieved set and visible to the caller; optionally every claim cited."""

from __future__ import annotations

import difflib
from typing import ClassVar

from ..models import Action, Finding, Label
from ..text import is_exempt
from .base import Turn


class CitationCheck:
    """``HALLUCINATED_SOURCE``, ``UNAUTHORIZED_SOURCE`` and (with coverage on) ``UNCITED_CLAIM``."""

    name: ClassVar[str] = "citations"
    whole_output = False

    def __init__(self, on_hallucinated: Action, on_unauthorized: Action, coverage: Action | None):
        self.on_hallucinated = on_hallucinated
        self.on_unauthorized = on_unauthorized
        self.coverage = coverage
        self.actions = (on_hallucinated, on_unauthorized, coverage)

    def run(self, turn: Turn) -> list[Finding]:
        findings = self.recheck(turn)
        if self.coverage is not None:
            for st, cited in zip(turn.statements, turn.cited, strict=True):
                if not cited and not is_exempt(turn.output, st, turn.marker_spans):
                    findings.append(
                        Finding(self.name, Label.UNCITED_CLAIM, self.coverage, st.start, st.end,
                                f"{st.kind.value} carries no valid citation")
                    )
        return findings

    def recheck(self, turn: Turn) -> list[Finding]:
        """The markers alone: removing a marker can make a new one of what stood around it; edits never take a
        valid citation away from a statement they keep."""
        findings = []
        for mk in turn.markers:
            if mk.id not in turn.retrieved:
                findings.append(
                    Finding(self.name, Label.HALLUCINATED_SOURCE, self.on_hallucinated, mk.start, mk.end,
                            _hallucinated_message(mk.id, turn))
                )
            elif mk.id not in turn.visible:
                # Never name the ID: the caller may not even know the document exists.
                findings.append(
                    Finding(self.name, Label.UNAUTHORIZED_SOURCE, self.on_unauthorized, mk.start, mk.end,
                            "cited source is not visible to the caller")
                )
        return findings


def _hallucinated_message(cited: str, turn: Turn) -> str:
    message = "cited ID was not retrieved for this turn"
    if not turn.retrieved:
        return message + " (no sources were attached)"
    close = _closest(cited, list(turn.visible))
    return message + (f"; did you mean {close!r}?" if close else "")


def _closest(cited: str, visible: list[str]) -> str | None:
    """The visible ID the cited one most resembles (a near miss such as ``doc-12`` for ``doc_12``), if any."""
    if not visible:
        return None
    key = _fold(cited)
    for vid in visible:
        if _fold(vid) == key:
            return vid
    match = difflib.get_close_matches(cited, visible, n=1, cutoff=0.8)
    return match[0] if match else None


def _fold(identifier: str) -> str:
    return "".join(ch for ch in identifier.casefold() if ch.isalnum())
