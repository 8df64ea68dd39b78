"""Guard.wrap: guarding code that calls the model itself, for whole answers and for streams of deltas."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from guardrail import Guard, GuardedStream

GUARD = Guard.from_dict({"citations": {}, "banned_terms": {"terms": ["BLUEJAY"]}, "blocked_message": "Blocked."})
DOCS = [{"id": "a", "text": "Leave is 25 days."}, {"id": "s", "text": "Secret.", "roles": ["board"]}]


def test_wrapped_function_returns_the_guarded_text() -> None:
    async def llm(question: str) -> str:
        return f"{question}: ask BLUEJAY [doc:a]. Invented [doc:zz]."

    guarded = GUARD.wrap(llm, sources=DOCS, roles=["staff"])
    assert guarded.__name__ == "llm"
    assert asyncio.run(guarded("Leave")) == "Leave: ask [redacted] [doc:a]."


def test_context_can_come_from_the_call() -> None:
    async def llm(question: str, user_roles: list[str]) -> str:
        return "The secret is out [doc:s]."

    guarded = GUARD.wrap(llm, sources=lambda q, user_roles: DOCS, roles=lambda q, user_roles: user_roles)
    assert asyncio.run(guarded("q", ["staff"])) == "Blocked."
    assert asyncio.run(guarded("q", ["board"])) == "The secret is out [doc:s]."


def test_wrapped_stream_yields_released_deltas_equal_to_the_buffered_output() -> None:
    text = "Leave is 25 days [doc:a]. Ask BLUE" + "JAY now [doc:a]. Invented [doc:zz]. Done [doc:a]."
    closed = []

    async def llm() -> AsyncIterator[str]:
        try:
            for i in range(0, len(text), 5):
                yield text[i:i + 5]
        finally:
            closed.append(True)

    async def collect() -> tuple[list[str], GuardedStream]:
        stream = GUARD.wrap(llm, sources=DOCS)()
        return [d async for d in stream], stream

    deltas, stream = asyncio.run(collect())
    assert "".join(deltas) == GUARD.check(text, DOCS).output
    assert len(deltas) > 1 and not stream.blocked
    assert stream.verdict is not None and stream.verdict.decision.value == "modified"


def test_a_blocked_stream_stops_and_closes_the_model_stream() -> None:
    closed = []

    async def llm() -> AsyncIterator[str]:
        try:
            for piece in ["Fine [doc:a]. ", "The secret [doc:s]. ", "more ", "and more."]:
                yield piece
        finally:
            closed.append(True)

    async def collect() -> tuple[str, GuardedStream]:
        stream = GUARD.wrap(llm, sources=DOCS)()
        return "".join([d async for d in stream]), stream

    released, stream = asyncio.run(collect())
    assert stream.blocked and "secret" not in released and released.startswith("Fine [doc:a].")
    assert closed == [True]


def test_the_turns_own_instructions_from_the_call() -> None:
    """``instructions`` and ``prompt`` travel like ``sources``: values or functions of the call's arguments; their
    results are in the verdict, and a bad one raises before the LLM is called."""
    import pytest

    from guardrail.ifeval import InstructionError

    verdicts = []
    guard = Guard.from_dict({"citations": {}, "blocked_message": "Blocked."})
    guard.offer = lambda output, sources, roles, verdict, **kw: verdicts.append(verdict)  # type: ignore[method-assign]
    calls = []

    async def llm(question: str, rules: list[dict]) -> str:
        calls.append(question)
        return "Leave is 25 days, as agreed [doc:a]."

    guarded = guard.wrap(llm, sources=DOCS, roles=["staff"], instructions=lambda q, rules: rules)
    out = asyncio.run(guarded("q", [{"id": "punctuation:no_comma"}]))
    assert out == "Leave is 25 days, as agreed [doc:a]."
    (verdict,) = verdicts
    assert [(r.id, r.followed) for r in verdict.instructions] == [("punctuation:no_comma", False)]
    with pytest.raises(InstructionError):
        guarded("q", [{"id": "no:such_instruction"}])
    assert calls == ["q"]


def test_an_async_function_that_returns_a_stream_is_guarded_once_awaited() -> None:
    """Client libraries' ``await client.chat(..., stream=True)`` returns the stream from a coroutine: awaited, the
    wrapped call gives a :class:`GuardedStream` of it."""
    text = "Leave is 25 days [doc:a]. Ask BLUEJAY now [doc:a]."

    async def deltas() -> AsyncIterator[str]:
        for i in range(0, len(text), 4):
            yield text[i:i + 4]

    async def llm() -> AsyncIterator[str]:
        return deltas()

    async def collect() -> str:
        stream = await GUARD.wrap(llm, sources=DOCS)()
        assert isinstance(stream, GuardedStream)
        return "".join([d async for d in stream])

    guarded = asyncio.run(collect())
    assert guarded == GUARD.check(text, DOCS).output == "Leave is 25 days [doc:a]. Ask [redacted] now [doc:a]."
