"""The :class:`Guard`: a compiled policy, ready to check outputs."""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from . import telemetry
from ._ids import new_request_id
from .compiled import CompiledPolicy, compile_policy
from .engine import evaluate
from .models import Source, Verdict, coerce_sources
from .stream import StreamGuard

if TYPE_CHECKING:
    from .adherence import Instructions
    from .monitor.sampler import Sampler
    from .policy import Policy

SourceLike = Source | Mapping[str, Any]
InstructionsLike: TypeAlias = "Instructions | Sequence[Mapping[str, Any]]"

# Outputs longer than this are checked in a worker thread by ``acheck`` so that the event loop stays responsive.
_OFFLOAD_CHARS = 64_000


class Guard:
    """Checks outputs against one policy. Build it once (compiling is the expensive part) and share it."""

    def __init__(self, compiled: CompiledPolicy, digest: str | None = None):
        self.compiled = compiled
        self.digest = digest or _digest(compiled.policy.model_dump_json(by_alias=True).encode())
        """``sha256:`` of the policy file (or of the validated policy, for a guard built from a mapping)."""
        self._sampler: Any = None

    @classmethod
    def from_policy(cls, path: str | Path) -> Guard:
        """Load, validate and compile a policy file; raise :class:`~guardrail.PolicyError` if it is not valid."""
        from .policy import read_policy_file  # pydantic loads with the first policy, not with the package

        policy, locator = read_policy_file(path)
        return cls(compile_policy(policy, Path(path).resolve().parent, locator), _digest(Path(path).read_bytes()))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base_dir: str | Path | None = None) -> Guard:
        """Build a guard from a policy given as a mapping (the parsed YAML); paths are relative to ``base_dir``."""
        from ._locate import Locator
        from .policy import validate_policy

        locator = Locator("<policy>")
        return cls(compile_policy(validate_policy(data, locator), Path(base_dir) if base_dir else None, locator))

    @property
    def policy(self) -> Policy:
        """The validated policy."""
        return self.compiled.policy

    @property
    def sampler(self) -> Sampler | None:
        """The monitor's sampler for this policy (its ``sampling`` section), built on first use; None without one."""
        if self._sampler is None and self.compiled.policy.sampling is not None:
            from .monitor.sampler import sampler_for

            self._sampler = sampler_for(self.compiled, self.digest)
        return self._sampler

    def offer(self, output: str, sources: Sequence[Source], roles: frozenset[str], verdict: Verdict, *,
              request_id: str | None = None, traceparent: str | None = None, choice: int = 0,
              field: str = "content") -> bool:
        """Offer a complete turn to the monitor (if the policy samples); never blocks, never raises."""
        sampler = self.sampler
        if sampler is None:
            return False
        if request_id is None:
            request_id = new_request_id()
        return sampler.offer(output, sources, roles, verdict, request_id=request_id, traceparent=traceparent,
                             choice=choice, field=field)

    def check(
        self, output: str, sources: Iterable[SourceLike] | None = None, roles: Iterable[str] | None = None, *,
        instructions: InstructionsLike | None = None, prompt: str | None = None,
    ) -> Verdict:
        """Check one output. ``sources`` is the turn's retrieved set (none: every citation is invalid); ``roles``
        are the caller's roles, from the application's authentication. ``instructions`` are the turn's own
        verifiable instructions (a list of ``{"id", ...kwargs}``, or :func:`guardrail.adherence.parse`'s result
        for IFEval's record form and seed 002's constraints), ``prompt`` the user's message for those that need
        it; their results are in ``verdict.instructions``, after them those of the policy's
        ``instructions.rules``."""
        if not isinstance(output, str):
            raise TypeError(f"output must be a str, not {type(output).__name__}")
        compiled = self.compiled if instructions is None else self.for_turn(instructions, prompt)
        if not telemetry.active():
            return evaluate(compiled, output, coerce_sources(sources or ()), _roles(roles))
        started = time.perf_counter()
        verdict = evaluate(compiled, output, coerce_sources(sources or ()), _roles(roles))
        self._span(output, verdict, started)
        return verdict

    def for_turn(self, instructions: InstructionsLike | None, prompt: str | None = None) -> CompiledPolicy:
        """The compiled policy for a turn with its own instructions (the policy's own when it has none). Raise
        :class:`~guardrail.ifeval.InstructionError` for an unknown id or a bad kwarg."""
        if instructions is None:
            return self.compiled
        from .adherence import Instructions, parse

        if not isinstance(instructions, Instructions):
            instructions = parse(instructions, prompt=prompt)
        return self.compiled.with_instructions(instructions)

    def _check(self, output: str, sources: list[Source], roles: frozenset[str],
               compiled: CompiledPolicy | None = None) -> Verdict:
        """:meth:`check` for adapters that make their own span (one per response, not per field)."""
        return evaluate(compiled or self.compiled, output, sources, roles)

    def _span(self, output: str, verdict: Verdict, started: float, kind: str = "check",
              stream: telemetry.StreamStats | None = None) -> None:
        record = self.policy.telemetry is not None and self.policy.telemetry.record_content
        telemetry.check_span(self.policy.name, self.digest, [c.name for c in self.compiled.checks], output, verdict,
                             started, record_content=record, kind=kind, stream=stream)

    async def acheck(
        self, output: str, sources: Iterable[SourceLike] | None = None, roles: Iterable[str] | None = None, *,
        instructions: InstructionsLike | None = None, prompt: str | None = None,
    ) -> Verdict:
        """:meth:`check` for async code. A typical check takes tens of microseconds, less than a thread hop, so it
        runs inline; very long outputs are checked in a worker thread."""
        if isinstance(output, str) and len(output) > _OFFLOAD_CHARS:
            import asyncio  # not at module level: it costs more to import than the rest of guardrail

            return await asyncio.to_thread(self.check, output, sources, roles, instructions=instructions,
                                           prompt=prompt)
        return self.check(output, sources, roles, instructions=instructions, prompt=prompt)

    def stream(self, sources: Iterable[SourceLike] | None = None, roles: Iterable[str] | None = None, *,
               instructions: InstructionsLike | None = None, prompt: str | None = None) -> StreamGuard:
        """A guard for one streamed output: ``feed`` it the deltas, send what it returns, then ``finish`` it.
        Instructions that act hold the stream to its end (they are about the whole output)."""
        return StreamGuard(self.for_turn(instructions, prompt), coerce_sources(sources or ()),
                           _roles(roles), on_finish=self._stream_done)

    def _stream_done(self, stream: StreamGuard, text: str, verdict: Verdict) -> None:
        """A stream's span, once it is over (from its first delta to its verdict)."""
        if telemetry.active() and stream.started is not None:
            first = None if stream.first_release is None else stream.first_release - stream.started
            self._span(text, verdict, stream.started, "stream",
                       telemetry.StreamStats(stream.chunks, stream.held_max, first))

    def wrap(
        self,
        llm: Callable[..., Any],
        *,
        sources: Iterable[SourceLike] | Callable[..., Iterable[SourceLike]] | None = None,
        roles: Iterable[str] | Callable[..., Iterable[str]] | None = None,
        instructions: InstructionsLike | Callable[..., InstructionsLike | None] | None = None,
        prompt: str | Callable[..., str | None] | None = None,
    ) -> Callable[..., Any]:
        """Guard a function that calls the LLM directly.

        ``llm`` is an async function returning the output text, or a function (or an async function) returning an
        async iterator of text deltas. The wrapped function takes the same arguments and returns what ``llm`` does,
        guarded: for text, the text to send (the blocked message if blocked); for a stream, a
        :class:`GuardedStream` that yields the released deltas (awaited first when ``llm`` is an async function).
        ``sources``, ``roles``, the turn's own ``instructions`` and the user's ``prompt`` (as for :meth:`check`)
        are values, or functions of the call's arguments that give them. A bad instruction raises
        :class:`~guardrail.ifeval.InstructionError` when the wrapped function is called, before the LLM is.
        """

        def given(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            return value(*args, **kwargs) if callable(value) else value

        def guarded(*args: Any, **kwargs: Any) -> Any:
            turn_instructions, turn_prompt = given(instructions, args, kwargs), given(prompt, args, kwargs)
            compiled = self.for_turn(turn_instructions, turn_prompt)  # (a bad instruction: before the LLM's call)
            result = llm(*args, **kwargs)
            coerced = coerce_sources(given(sources, args, kwargs) or ())
            role_set = _roles(given(roles, args, kwargs))

            def streamed(deltas: Any) -> GuardedStream:
                stream = StreamGuard(compiled, coerced, role_set, on_finish=self._stream_done)
                return GuardedStream(stream, deltas,
                                     on_done=lambda text, verdict: self.offer(text, coerced, role_set, verdict))

            if hasattr(result, "__aiter__"):
                return streamed(result)

            async def text() -> str | GuardedStream:
                output = await result
                if hasattr(output, "__aiter__"):  # an async function that returns a stream: awaited, it is guarded
                    return streamed(output)
                verdict = await self.acheck(output, coerced, role_set, instructions=turn_instructions,
                                            prompt=turn_prompt)
                self.offer(output, coerced, role_set, verdict)
                return verdict.output

            return text()

        return functools.wraps(llm)(guarded)

    def __repr__(self) -> str:
        names = ", ".join(check.name for check in self.compiled.checks) or "no checks"
        return f"<Guard {self.policy.name!r}: {names}>"


def _digest(data: bytes) -> str:
    import hashlib

    return "sha256:" + hashlib.sha256(data).hexdigest()


def _roles(roles: Iterable[str] | None) -> frozenset[str]:
    if isinstance(roles, str):
        raise TypeError("roles must be a list of strings, not a string")
    role_set = frozenset(roles or ())
    if not all(isinstance(r, str) for r in role_set):
        raise TypeError("roles must be strings")
    return role_set


class GuardedStream:
    """The released deltas of a guarded LLM stream. After iteration, :attr:`verdict` holds the verdict on the whole
    output and :attr:`blocked` says whether the stream was cut (show the policy's blocked message then)."""

    def __init__(self, guard: StreamGuard, deltas: AsyncIterator[str] | AsyncIterable[str],
                 on_done: Callable[[str, Verdict], Any] | None = None):
        self._guard = guard
        self._deltas = deltas
        self._on_done = on_done
        self.verdict: Verdict | None = None

    @property
    def blocked(self) -> bool:
        """Whether the guard cut the stream."""
        return self._guard.blocked

    async def __aiter__(self) -> AsyncIterator[str]:
        async for delta in self._deltas:
            if not isinstance(delta, str):
                raise TypeError(f"the stream must yield str deltas, not {type(delta).__name__}")
            released = self._guard.feed(delta)
            if released:
                yield released
            if self._guard.blocked:
                close = getattr(self._deltas, "aclose", None)
                if close is not None:
                    await close()  # stop the generation nobody will see
                break
        rest, self.verdict = self._guard.finish()
        if self._on_done is not None:
            self._on_done(self._guard.text, self.verdict)
        if rest:
            yield rest
