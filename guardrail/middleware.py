"""GuardrailMiddleware: a pure ASGI middleware that guards chat-completion responses, and ``attach_context``.

On a guarded route (by default every path ending in ``/chat/completions``) the response is read as what it says it
is: an OpenAI chat completion (``application/json``), a stream of chunks (``text/event-stream``) or plain text
(``text/plain``, streamed or not). JSON and unstreamed text are held whole and rewritten; streams go out as the stream
guard releases them. Anything else that succeeds on a guarded route cannot be checked: the policy's fail mode decides
(``closed`` replaces it with a blocked answer, ``open`` lets it through). Non-2xx responses, HEAD, other routes and
non-HTTP scopes pass through untouched. Compression must be applied outside this middleware (add GZip after it, so
that it wraps it): a compressed body on a guarded route cannot be read, and fail mode decides.

Each request gets its own responder object wrapping ``send``; nothing about a request lives on the middleware.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import orjson
from starlette.datastructures import MutableHeaders

from ._sse import (
    DONE,
    SSEDecoder,
    StreamFormatError,
    Utf8Decoder,
    content_chunk,
    encode_done,
    encode_event,
    finish_chunk,
    parse_chunk,
)
from .guard import Guard
from .models import Decision, Source
from .stream import StreamGuard

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]

CONTEXT_KEY = "guardrail.context"
_CHUNK_KEYS = ("id", "object", "created", "model", "system_fingerprint")
DEFAULT_MAX_BODY_BYTES = 4 << 20


@dataclass(slots=True)
class TurnContext:
    """The retrieved sources and the caller's roles of one request, handed over by the endpoint."""

    sources: list[Source] = field(default_factory=list)
    roles: frozenset[str] = frozenset()


def attach_context(
    request: Any, *, sources: Iterable[Source | Mapping[str, Any]] = (), roles: Iterable[str] = ()
) -> None:
    """Give the guard this turn's retrieved sources and the caller's roles (from your auth, never from the request).

    ``request`` is a Starlette/FastAPI ``Request`` (or an ASGI scope). It works from sync endpoints too: the context
    travels in the request scope. Without it, the turn has no sources and every citation is invalid.
    """
    scope = getattr(request, "scope", request)
    context = scope.get(CONTEXT_KEY)
    if context is None:
        context = scope[CONTEXT_KEY] = TurnContext()
    if isinstance(roles, str):
        raise TypeError("roles must be a list of strings, not a string")
    context.sources = [Source.coerce(s) for s in sources]
    context.roles = frozenset(roles)


class GuardrailMiddleware:
    """Guards chat-completion responses with a :class:`~guardrail.Guard`.

    ``app.add_middleware(GuardrailMiddleware, policy="policies/x.yaml")`` or ``guard=Guard.from_policy(...)``;
    ``paths`` chooses the guarded routes (exact paths or ``fnmatch`` patterns); ``max_body_bytes`` caps what is held
    (over it, the fail mode decides).
    """

    def __init__(
        self,
        app: Any,
        guard: Guard | None = None,
        policy: str | Path | None = None,
        paths: Sequence[str] | None = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ):
        if (guard is None) == (policy is None):
            raise TypeError("GuardrailMiddleware needs exactly one of guard= or policy=")
        self.app = app
        self.guard = guard if guard is not None else Guard.from_policy(policy)  # type: ignore[arg-type]
        self.paths = tuple(paths) if paths is not None else None
        self.max_body_bytes = max_body_bytes

    def guards(self, path: str) -> bool:
        """Whether responses on ``path`` are guarded."""
        if self.paths is None:
            return path.endswith("/chat/completions")
        return any(path == p or fnmatchcase(path, p) for p in self.paths)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") == "HEAD" or not self.guards(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        context = scope.get(CONTEXT_KEY)
        if context is None:
            context = scope[CONTEXT_KEY] = TurnContext()
        responder = _Responder(self.guard, context, send, self.max_body_bytes)
        await self.app(scope, receive, responder)


class _Responder:
    """Wraps ``send`` for one response: holds, checks and rewrites what the app sends."""

    def __init__(self, guard: Guard, context: TurnContext, send: Any, max_body_bytes: int):
        self.guard = guard
        self.context = context
        self.send = send
        self.max_body_bytes = max_body_bytes
        self.mode = "start"
        self.start: Message | None = None
        self.body: list[bytes] = []
        self.size = 0
        self.sse: _SSEGuard | None = None
        self.text: _TextStream | None = None
        self.decision: Decision | None = None

    @property
    def fail_closed(self) -> bool:
        return self.guard.policy.fail_mode == "closed"

    async def __call__(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            await self._on_start(message)
        elif kind == "http.response.body":
            await self._on_body(message.get("body", b""), message.get("more_body", False))
        else:  # trailers, pathsend, anything newer: not ours to judge
            await self.send(message)

    async def _on_start(self, message: Message) -> None:
        status = message["status"]
        headers = MutableHeaders(scope=message)
        if not 200 <= status < 300 or status == 204:
            self.mode = "pass"
            await self.send(message)
            return
        self.start = message
        encoding = headers.get("content-encoding", "identity").strip().lower()
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if encoding != "identity":
            self.mode = "unreadable"
        elif media == "application/json":
            self.mode = "json"
        elif media in ("text/event-stream", "text/plain") and not self.guard.compiled.acting:
            self.mode = "pass"  # no check can change anything: nothing to hold back
            self.decision = Decision.PASS
            await self._send_start(streaming=False, changed=False)
        elif media == "text/event-stream":
            self.mode = "sse"
            self.sse = _SSEGuard(self.guard, self.context, self.max_body_bytes)
            await self._send_start(streaming=True)
        elif media == "text/plain":
            self.mode = "text"
        else:
            self.mode = "unreadable"
        if self.mode == "unreadable" and not self.fail_closed:
            self.mode = "pass"
            self.decision = Decision.PASS
            await self._send_start(streaming=False, changed=False)

    async def _on_body(self, chunk: bytes, more: bool) -> None:
        mode = self.mode
        if mode == "pass":
            await self.send({"type": "http.response.body", "body": chunk, "more_body": more})
        elif mode == "sse":
            assert self.sse is not None
            out = self.sse.feed(chunk) if chunk else b""
            if not more:
                out += self.sse.close()
                self.decision = self.sse.decision
            if out or not more:
                await self.send({"type": "http.response.body", "body": out, "more_body": more})
        elif mode == "text-stream":
            assert self.text is not None
            out = self.text.feed(chunk)
            if not more:
                out += self.text.close()
                self.decision = self.text.decision
            if out or not more:
                await self.send({"type": "http.response.body", "body": out, "more_body": more})
        elif mode in ("done", "discard"):
            return  # the answer went out already; the rest of the app's body is dropped
        elif mode == "unreadable":
            if not more:
                self.mode = "done"
                await self._send_blocked()
        elif mode == "text" and more and not self.body:
            # The first piece of a streamed plain-text reply: guard it as a stream.
            self.mode = "text-stream"
            self.text = _TextStream(self.guard, self.context)
            await self._send_start(streaming=True)
            await self._on_body(chunk, more)
        else:  # json and unstreamed text: hold the whole body
            self.size += len(chunk)
            self.body.append(chunk)
            if self.size > self.max_body_bytes:
                await self._over_size(more)
                return
            if not more:
                await self._finish_buffered(b"".join(self.body))

    async def _over_size(self, more: bool) -> None:
        """Too big to hold: closed blocks (and drops the rest), open sends it unchecked."""
        if self.fail_closed:
            self.body = []
            self.mode = "discard"
            await self._send_blocked()
            return
        self.mode = "pass"
        self.decision = Decision.PASS
        await self._send_start(streaming=True, changed=False)
        await self.send({"type": "http.response.body", "body": b"".join(self.body), "more_body": more})
        self.body = []

    async def _finish_buffered(self, body: bytes) -> None:
        mode, self.mode = self.mode, "done"
        if mode == "unreadable":
            await self._send_blocked()
            return
        out = _guard_json(self.guard, self.context, body) if mode == "json" \
            else _guard_text(self.guard, self.context, body)
        if out is None:  # not the shape it claims: fail mode decides
            if self.fail_closed:
                await self._send_blocked()
                return
            out = body, Decision.PASS
        new_body, self.decision = out
        await self._send_start(streaming=False, changed=new_body is not body, length=len(new_body))
        await self.send({"type": "http.response.body", "body": new_body, "more_body": False})

    async def _send_blocked(self) -> None:
        """Replace the whole response with the policy's blocked answer, in the shape the route speaks."""
        self.decision = Decision.BLOCKED
        assert self.start is not None
        message = self.guard.policy.blocked_message
        if MutableHeaders(scope=self.start).get("content-type", "").startswith("text/plain"):
            body, media = message.encode(), "text/plain; charset=utf-8"
        else:
            body, media = json.dumps(_blocked_completion(message), ensure_ascii=False).encode(), "application/json"
        headers = MutableHeaders(scope=self.start)
        for name in ("content-encoding", "content-type"):
            if name in headers:
                del headers[name]
        headers["content-type"] = media
        await self._send_start(streaming=False, changed=True, length=len(body))
        await self.send({"type": "http.response.body", "body": body, "more_body": False})

    async def _send_start(self, *, streaming: bool, changed: bool = True, length: int | None = None) -> None:
        assert self.start is not None
        headers = MutableHeaders(scope=self.start)
        if changed or streaming:
            for name in ("content-length", "etag", "content-md5"):
                if name in headers:
                    del headers[name]
            if length is not None:
                headers["content-length"] = str(length)
        if self.decision is not None:
            headers["x-guardrail-decision"] = self.decision.value
        start, self.start = self.start, None
        await self.send(start)


def _blocked_completion(message: str) -> dict[str, Any]:
    return {
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": message},
                     "finish_reason": "content_filter"}],
    }


def _guard_json(guard: Guard, context: TurnContext, body: bytes) -> tuple[bytes, Decision] | None:
    """Check every choice of a chat completion; the body to send (the same object when unchanged) and the decision,
    or None when the body is not a chat completion."""
    try:
        obj = orjson.loads(body)
    except (ValueError, RecursionError):
        return None
    choices = obj.get("choices") if isinstance(obj, dict) else None
    if not isinstance(choices, list) or not choices:
        return None
    worst = Decision.PASS
    for choice in choices:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            return None
        content = message.get("content")
        if content is None:  # a tool call: no text to check
            continue
        if not isinstance(content, str):
            return None
        verdict = guard.check(content, context.sources, context.roles)
        if verdict.decision is Decision.BLOCKED:
            message["content"] = guard.policy.blocked_message
            choice["finish_reason"] = "content_filter"
            worst = Decision.BLOCKED
        elif verdict.decision is Decision.MODIFIED:
            message["content"] = verdict.output
            if worst is Decision.PASS:
                worst = Decision.MODIFIED
    if worst is Decision.PASS:
        return body, worst
    return orjson.dumps(obj), worst


def _guard_text(guard: Guard, context: TurnContext, body: bytes) -> tuple[bytes, Decision] | None:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    verdict = guard.check(text, context.sources, context.roles)
    if verdict.decision is Decision.PASS:
        return body, verdict.decision
    return verdict.output.encode(), verdict.decision


class _TextStream:
    """A streamed plain-text reply: UTF-8 decoded incrementally and guarded by a stream guard."""

    def __init__(self, guard: Guard, context: TurnContext):
        self.guard = guard
        self.decoder = Utf8Decoder()
        self.stream = StreamGuard(guard.compiled, context.sources, context.roles)
        self.decision: Decision | None = None
        self.broken = False

    def feed(self, chunk: bytes) -> bytes:
        if self.broken:
            return b""
        try:
            text = self.decoder.decode(chunk)
        except StreamFormatError:
            self.broken = True
            return b""
        return self.stream.feed(text).encode()

    def close(self) -> bytes:
        if not self.broken:
            try:
                self.stream.feed(self.decoder.flush())
            except StreamFormatError:
                self.broken = True
        if self.broken and self.guard.policy.fail_mode == "closed":
            self.stream.blocked = True
        rest, verdict = self.stream.finish()
        self.decision = Decision.BLOCKED if self.stream.blocked else verdict.decision
        if self.stream.blocked:
            message = self.guard.policy.blocked_message
            return (("\n\n" if self.stream.released else "") + message).encode()
        return rest.encode()


class _SSEGuard:
    """A stream of OpenAI chat-completion chunks: each choice's text goes through its own stream guard, and comes
    out in chunks of the same shape; a blocked choice ends with ``finish_reason: "content_filter"``."""

    def __init__(self, guard: Guard, context: TurnContext, max_event_bytes: int):
        self.guard = guard
        self.context = context
        self.decoder = SSEDecoder(max_event_bytes=max_event_bytes)
        self.streams: dict[int, StreamGuard] = {}
        self.ended: set[int] = set()  # choices whose finish chunk went out
        self.template: dict[str, Any] = {}
        self.broken = False
        self.done = False
        self.decision: Decision = Decision.PASS

    def feed(self, chunk: bytes) -> bytes:
        if self.broken or self.done:
            return b""
        try:
            events = self.decoder.feed(chunk)
        except StreamFormatError:
            return self._break()
        out = []
        for event in events:
            out.append(self._event(event.data))
            if self.broken or self.done:
                break
        return b"".join(out)

    def close(self) -> bytes:
        if self.broken or self.done:
            return b""
        try:
            events = self.decoder.close()
        except StreamFormatError:
            return self._break()
        out = b"".join(self._event(event.data) for event in events)
        if not self.done:  # the upstream stopped without [DONE]
            out += self._break() if self.guard.policy.fail_mode == "closed" else self._end_all()
        return out

    def _break(self) -> bytes:
        """A broken stream (not SSE, not JSON, invalid UTF-8, truncated): fail mode decides."""
        self.broken = True
        if self.guard.policy.fail_mode == "closed":
            out = b"".join(self._end(i, blocked=True) for i in list(self.streams) if i not in self.ended)
            if not self.streams:
                out += finish_chunk(self.template, 0, "content_filter")
            self.decision = Decision.BLOCKED
            return out + encode_done()
        return self._end_all()

    def _event(self, data: str) -> bytes:
        if data.strip() == DONE:
            self.done = True
            return self._end_all() + encode_done()
        try:
            info = parse_chunk(data)
        except StreamFormatError:
            return self._break()
        if info is None:
            return b""
        obj = info.obj
        if not self.template:
            self.template = obj
        choices = obj.get("choices") or []
        if not info.content and not info.finish_reason:
            return encode_event(data)  # no choice text (a usage chunk, say): as it came
        changed = False
        tail = b""
        for position, choice in enumerate(choices):
            index = choice.get("index", position)
            delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
            if index in self.ended:  # blocked earlier: nothing more of this choice goes out
                changed = True
                choice["delta"] = {}
                choice.pop("finish_reason", None)
                continue
            stream = self.streams.get(index)
            if stream is None:
                stream = self.streams[index] = StreamGuard(self.guard.compiled, self.context.sources,
                                                           self.context.roles)
            text = info.content.get(index, "")
            released = stream.feed(text) if text else ""
            if stream.blocked:
                changed = True
                delta.pop("content", None)
                choice.pop("finish_reason", None)
                tail += self._end(index, blocked=True)
                continue
            if info.finish_reason.get(index) is not None:
                rest, verdict = stream.finish()
                self.ended.add(index)
                if stream.blocked:
                    self._note(Decision.BLOCKED)
                    choice["finish_reason"] = "content_filter"
                    changed = True
                else:
                    self._note(verdict.decision)
                    released += rest
            if released != text:
                changed = True
                if released:
                    delta["content"] = released
                else:
                    delta.pop("content", None)
        if not changed:
            return encode_event(data) + tail  # the upstream's own bytes
        if all(not _carries(choice) for choice in choices) and set(obj) <= {*_CHUNK_KEYS, "choices"}:
            return tail
        return encode_event(json.dumps(obj, ensure_ascii=False, separators=(",", ":"))) + tail

    def _end(self, index: int, *, blocked: bool) -> bytes:
        self.ended.add(index)
        if blocked:
            self._note(Decision.BLOCKED)
            return finish_chunk(self.template, index, "content_filter")
        return b""

    def _end_all(self) -> bytes:
        """Release what each unfinished choice still holds (a stream without ``finish_reason``)."""
        out = []
        for index, stream in self.streams.items():
            if index in self.ended:
                continue
            rest, verdict = stream.finish()
            self.ended.add(index)
            if stream.blocked:
                self._note(Decision.BLOCKED)
                out.append(finish_chunk(self.template, index, "content_filter"))
            else:
                self._note(verdict.decision)
                if rest:
                    out.append(content_chunk(self.template, index, rest))
        return b"".join(out)

    def _note(self, decision: Decision) -> None:
        rank = {Decision.PASS: 0, Decision.MODIFIED: 1, Decision.BLOCKED: 2}
        if rank[decision] > rank[self.decision]:
            self.decision = decision



def _carries(choice: Any) -> bool:
    """Whether a rewritten choice still says anything (text, a role, tool calls, a finish reason)."""
    if not isinstance(choice, dict):
        return True
    delta = choice.get("delta") or {}
    return bool(delta) or choice.get("finish_reason") is not None

