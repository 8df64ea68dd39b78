"""The fast paths against the reference implementations they replace: the one-pass segmenter of a complete text
(:func:`~guardrail.text.segment_text`) against :func:`~guardrail.text.segment`, a Turn's derived facts against the
old per-statement bookkeeping, and the targeted re-check of an edited output against the whole re-check."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import engine
from guardrail._locate import GROUPED_CITATION_PATTERN
from guardrail.checks.base import Marker, Turn, _read_groups, marker_finder, prefix_statements
from guardrail.models import Finding, Source
from guardrail.text import Statement, segment, segment_text

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_properties import GUARDS, SOURCES, answer, any_text, contexts, outputs
from test_text import FINDER, MARKER_RE, chaos, documents

GROUPED = re.compile(GROUPED_CITATION_PATTERN)
SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
texts = st.one_of(documents, chaos, answer(), any_text, st.text(max_size=60),
                  st.tuples(answer(), chaos).map("".join), st.tuples(documents, any_text).map("".join))


def groups_of(text: str) -> dict[int, int]:
    markers = _read_groups(text, False)[0]
    return {mk.group[0]: mk.group[1] for mk in markers}


def regex_groups(text: str) -> dict[int, int]:
    """The groups a user's pattern finds (the single-marker regex of test_text)."""
    return {m.start(): m.end() for m in MARKER_RE.finditer(text) if m.end() > m.start()}


@SETTINGS
@given(texts)
@example("Claim. [doc:a] [doc:b]Next")
@example("e.g. [doc:x.] Next. Done")
@example('He said "Stop. Now." Then [doc:a]. Fine')
@example("A.\u00a0\u00a0B")
@example("```\r")
def test_fast_segmenter_agrees_with_the_segmenter(text: str) -> None:
    markers = _read_groups(text, False)[0]
    assert segment_text(text, groups_of(text)) == segment(text, marker_finder(markers))
    assert segment_text(text, regex_groups(text)) == segment(text, FINDER) or _finder_differs(text)


def _finder_differs(text: str) -> bool:
    """FINDER matches anywhere, also where finditer does not report a match (inside another one)."""
    found = regex_groups(text)
    return any(FINDER(text, p, len(text), False) not in (None, (p, found.get(p)))
               for p in range(len(text)) if text.startswith("[doc:", p))


# ------------------------------------------------------------------------------- a turn's derived facts, fast path

def _reference_statement_markers(statements: list[Statement], markers: list[Marker]) -> list[list[Marker]]:
    """What Turn.statement_markers was: one walk over statements and markers."""
    out: list[list[Marker]] = [[] for _ in statements]
    i, n = 0, len(statements)
    for mk in markers:
        while i < n and statements[i].end <= mk.start:
            i += 1
        if i < n and statements[i].start <= mk.start:
            out[i].append(mk)
    return out


@SETTINGS
@given(answer(), contexts)
def test_turn_facts_agree_with_the_reference(text: str, ctx: Any) -> None:
    roles, sources = ctx
    turn = Turn(text, [Source.coerce(s) for s in sources], frozenset(roles), GROUPED, time.perf_counter() + 60)
    assert turn.statements == segment(text, marker_finder(turn.markers))
    expected = _reference_statement_markers(turn.statements, turn.markers)
    assert [turn.markers_of(i) for i in range(len(turn.statements))] == expected
    assert turn.statement_markers == expected
    assert turn.cited == [any(mk.id in turn.visible for mk in ms) for ms in expected]


# -------------------------------------------------------------------------------------- the targeted re-check

def _whole_recheck(check: Any, turn: Turn) -> list[Finding]:
    return check.recheck(turn)


@SETTINGS
@given(name=st.sampled_from(sorted(GUARDS)), output=outputs, ctx=contexts)
@example(name="acting", output="Ask Project [doc:hr-13] Falcon now [doc:it-3].", ctx=(["employee"], SOURCES))
@example(name="acting", output="Ask [doc: [doc:hr-13]sealed] now [doc:it-3].", ctx=(["employee"], SOURCES))
def test_targeted_recheck_decides_as_the_whole_recheck(name: str, output: str, ctx: Any) -> None:
    """Windows around the edits find what acts exactly when the whole re-check does: same decision, same text,
    same findings."""
    roles, sources = ctx
    fast = GUARDS[name].check(output, sources, roles)
    targeted = engine._targeted
    engine._targeted = _whole_recheck  # type: ignore[assignment]
    try:
        slow = GUARDS[name].check(output, sources, roles)
    finally:
        engine._targeted = targeted
    assert (fast.decision, fast.output) == (slow.decision, slow.output)
    assert fast.findings == slow.findings


@SETTINGS
@given(output=st.tuples(answer(), st.lists(st.sampled_from(["Project Falcon", "BLUEJAY", "[doc:sealed]",
                                                            "[doc:hr-13]", "it-3", "Nobody may read this passage "
                                                            "about the merger with Initech"]),
                                           max_size=4)).map(lambda p: " ".join([p[0], *p[1]])),
       ctx=contexts)
def test_targeted_recheck_with_planted_defects(output: str, ctx: Any) -> None:
    test_targeted_recheck_decides_as_the_whole_recheck.hypothesis.inner_test("acting", output, ctx)  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents, answer(), chaos))
def test_prefix_statements_are_statements_of_the_whole_text(text: str) -> None:
    """Prefix stability between a stream's view (prefix_statements) and the fast segmenter of the whole text."""
    full = set(Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 60).statements)
    for cut in range(0, len(text) + 1, max(1, len(text) // 40)):
        for s in prefix_statements(GROUPED, text[:cut]):
            assert s in full, (text[:cut], s)
