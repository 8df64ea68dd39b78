"""The Python API (CONTRACT section 5): the exported names, check and acheck, argument types."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import guardrail
from guardrail import Action, Decision, Finding, Guard, Label, Verdict

SOURCES = [{"id": "a", "text": "Employees receive 25 days of paid annual leave."},
           {"id": "s", "text": "Secret.", "roles": ["board"]}]
POLICY = {"citations": {"coverage": "flag"}, "banned_terms": {"terms": ["Falcon"]}, "budget_ms": 60_000}


def test_all_is_sorted() -> None:
    assert list(guardrail.__all__) == sorted(guardrail.__all__)


def test_all_is_pinned() -> None:
    # CONTRACT section 5: `from guardrail import Guard, GuardrailMiddleware, attach_context`.
    assert guardrail.__all__ == [
        "Action",
        "CheckError",
        "Decision",
        "Finding",
        "Guard",
        "GuardedStream",
        "GuardrailError",
        "GuardrailMiddleware",
        "Label",
        "Policy",
        "PolicyError",
        "Source",
        "StreamGuard",
        "Verdict",
        "VerdictInfo",
        "__version__",
        "attach_context",
    ]


def test_every_exported_name_exists() -> None:
    for name in guardrail.__all__:
        assert hasattr(guardrail, name), name


def test_enum_values() -> None:
    assert [d.value for d in Decision] == ["pass", "modified", "blocked"]
    assert [a.value for a in Action] == ["flag", "redact", "strip", "block"]
    assert {label.value for label in Label} == {
        "HALLUCINATED_SOURCE", "UNAUTHORIZED_SOURCE", "UNCITED_CLAIM", "UNVERIFIED_QUOTE", "BANNED_TERM",
        "SCHEMA_INVALID", "INSTRUCTION_VIOLATED", "GUARD_ERROR"}


@pytest.mark.parametrize(
    ("output", "roles"),
    [
        ("Leave is 25 days [doc:a].", []),
        ("Leave is 25 days [doc:a]. Ask Falcon [doc:a]. Bad [doc:z].", []),
        ("Secret [doc:s].", []),
        ("Secret [doc:s].", ["board"]),
        ("Uncited claim.", []),
        ("", []),
    ],
)
def test_acheck_returns_the_same_verdict_as_check(output: str, roles: list[str]) -> None:
    guard = Guard.from_dict(POLICY)
    sync = guard.check(output, SOURCES, roles)
    async_ = asyncio.run(guard.acheck(output, SOURCES, roles))
    assert isinstance(async_, Verdict)
    assert async_ == sync
    assert async_.findings == sync.findings


def test_acheck_on_a_long_output_matches_check() -> None:
    # Long outputs go through a worker thread; the verdict is the same.
    output = "Leave is 25 days [doc:a]. Ask Falcon now [doc:z]. " * 2000
    guard = Guard.from_dict({**POLICY, "budget_ms": 60_000})  # timing must not decide the verdict
    assert len(output) > 64_000
    assert asyncio.run(guard.acheck(output, SOURCES, [])) == guard.check(output, SOURCES, [])


def test_acheck_is_a_coroutine_function() -> None:
    assert asyncio.iscoroutinefunction(Guard.acheck)


@pytest.mark.parametrize("output", [None, b"bytes", 5, ["a"], {"output": "x"}])
def test_non_str_output_is_a_type_error(output: Any) -> None:
    guard = Guard.from_dict(POLICY)
    with pytest.raises(TypeError, match="output must be a str"):
        guard.check(output, SOURCES, [])
    with pytest.raises(TypeError, match="output must be a str"):
        asyncio.run(guard.acheck(output, SOURCES, []))


def test_roles_as_a_bare_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Guard.from_dict(POLICY).check("x", SOURCES, "board")


@pytest.mark.parametrize("roles", [(), None, ["employee"], ("employee",), {"employee"}, frozenset()])
def test_roles_accept_any_iterable_of_strings(roles: Any) -> None:
    verdict = Guard.from_dict(POLICY).check("Leave is 25 days [doc:a].", SOURCES, roles)
    assert verdict.decision is Decision.PASS


def test_sources_accept_any_iterable() -> None:
    guard = Guard.from_dict(POLICY)
    verdict = guard.check("Leave is 25 days [doc:a].", (s for s in SOURCES), [])
    assert verdict.decision is Decision.PASS


def test_check_does_not_mutate_its_arguments() -> None:
    sources = [dict(s) for s in SOURCES]
    roles = ["employee"]
    Guard.from_dict(POLICY).check("Ask Falcon [doc:s].", sources, roles)
    assert sources == SOURCES
    assert roles == ["employee"]


def test_verdict_and_finding_shapes() -> None:
    verdict = Guard.from_dict(POLICY).check("Ask Falcon [doc:a].", SOURCES, [])
    assert verdict.decision is Decision.MODIFIED
    assert verdict.decision.value == "modified"
    assert verdict.output == "Ask [redacted] [doc:a]."
    [finding] = verdict.findings
    assert isinstance(finding, Finding)
    assert (finding.check, finding.label, finding.action, finding.start, finding.end) == (
        "banned_terms", Label.BANNED_TERM, Action.REDACT, 4, 10)
    assert isinstance(finding.message, str) and "Falcon" not in finding.message
    assert verdict.to_dict() == {
        "decision": "modified",
        "output": "Ask [redacted] [doc:a].",
        "findings": [{"check": "banned_terms", "label": "BANNED_TERM", "action": "redact", "start": 4, "end": 10,
                      "message": finding.message}],
    }


def test_verdict_is_immutable() -> None:
    verdict = Guard.from_dict(POLICY).check("x", SOURCES, [])
    with pytest.raises(AttributeError):
        verdict.output = "changed"  # type: ignore[misc]


def test_guard_is_reusable_and_shared_state_free() -> None:
    guard = Guard.from_dict(POLICY)
    first = guard.check("Secret [doc:s].", SOURCES, ["board"])
    second = guard.check("Secret [doc:s].", SOURCES, [])
    third = guard.check("Secret [doc:s].", SOURCES, ["board"])
    assert first.decision is Decision.PASS
    assert second.decision is Decision.BLOCKED
    assert third == first


def test_concurrent_achecks_keep_their_own_context() -> None:
    guard = Guard.from_dict(POLICY)

    async def main() -> list[Verdict]:
        calls = [guard.acheck("Secret [doc:s].", SOURCES, ["board"] if i % 2 else []) for i in range(20)]
        return await asyncio.gather(*calls)

    verdicts = asyncio.run(main())
    assert [v.decision for v in verdicts] == [Decision.BLOCKED, Decision.PASS] * 10
