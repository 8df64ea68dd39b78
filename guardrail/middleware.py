"""GuardrailMiddleware: a pure ASGI middleware that guards chat-completion responses, and ``attach_context``.

On a guarded route (by default every path ending in ``/chat/completions``) the response is read as what it says it
is: an OpenAI chat completion (``application/json``), a stream of chunks (``text/event-stream``) or plain text
(``text/plain``, streamed or not; read as a completion or as events when it is one, as OpenAI's client reads it).
JSON and unstreamed text are held whole and rewritten; streams go out as the stream guard releases them
(:mod:`guardrail._chat` does the rewriting; this module moves bytes and reports). Non-2xx responses are not
judged, but what the caller may not see is scrubbed from their headers and body (an error may quote the prompt, and
with it a passage); HEAD, other routes and non-HTTP scopes pass through untouched.
Compression must be applied outside this middleware (add GZip after it, so that it wraps it).

What cannot be checked is a ``GUARD_ERROR``, and under ``fail_mode: closed`` it is an error, not a content block
(CONTRACT section 6): a buffered response becomes a 502 with ``{"error": {"message", "type": "guardrail_error",
"code"}}``; a stream ends with an error event, then ``[DONE]``. Under ``open`` the response passes unchecked.

Each request gets its own responder object wrapping ``send``; nothing about a request lives on the middleware.
"""

from __future__ import annotations

import asyncio
import codecs
import email.message
import inspect
import json
import re
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import telemetry
from ._chat import (
    ChunkStream,
    FieldVerdict,
    ShapeError,
    guard_completion,
    guard_error,
    parse_json,
    scrub_body,
    scrub_strings,
    worst,
)
from ._ids import new_request_id
from ._log import log_verdict, logger, logs
from ._scrub import Scrubber
from ._sse import StreamFormatError, Utf8Decoder, dumps, encode_comment, has_duplicate_keys
from .guard import Guard
from .models import Action, Decision, Finding, Label, Source, Verdict, coerce_sources
from .stream import StreamGuard

if TYPE_CHECKING:
    from .adherence import Instructions
    from .compiled import CompiledPolicy

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]

CONTEXT_KEY = "guardrail.context"
DEFAULT_MAX_BODY_BYTES = 4 << 20


@dataclass(slots=True)
class TurnContext:
    """The retrieved sources and the caller's roles of one request, handed over by the endpoint."""

    sources: list[Source] = field(default_factory=list)
    roles: frozenset[str] = frozenset()
    instructions: Instructions | None = None
    request_id: str = ""
    traceparent: str | None = None
    upstream_failure: tuple[str, str] | None = None
    """``(code, message)`` when the body the app sends is cut short by its own upstream (see
    :func:`note_upstream_failure`)."""


@dataclass(frozen=True, slots=True)
class VerdictInfo:
    """Where a verdict given to ``on_verdict`` belongs: the request, the choice and field (None for a response that
    could not be read at all), and the code of the guard error, if the verdict is one."""

    request_id: str
    path: str
    policy: str
    choice: int | None = None
    field: str | None = None
    error: str | None = None


OnVerdict = Callable[[Verdict, VerdictInfo], Any]


def attach_context(
    request: Any, *, sources: Iterable[Source | Mapping[str, Any]] = (), roles: Iterable[str] = (),
    instructions: Instructions | Sequence[Mapping[str, Any]] | None = None, prompt: str | None = None,
) -> None:
    """Give the guard this turn's retrieved sources and the caller's roles (from your auth, never from the request),
    and optionally the turn's own verifiable instructions (a list of ``{"id", ...kwargs}`` or
    :func:`guardrail.adherence.parse`'s result) with the user's ``prompt`` for those that need it.

    ``request`` is a Starlette/FastAPI ``Request`` (or an ASGI scope). It works from sync endpoints too: the context
    travels in the request scope. Without it, the turn has no sources and every citation is invalid. A bad
    instruction raises :class:`~guardrail.ifeval.InstructionError` here, in the endpoint.
    """
    scope = getattr(request, "scope", request)
    context = scope.get(CONTEXT_KEY)
    if context is None:
        context = scope[CONTEXT_KEY] = TurnContext()
    if isinstance(roles, str):
        raise TypeError("roles must be a list of strings, not a string")
    context.sources = coerce_sources(sources)
    context.roles = frozenset(roles)
    if instructions is not None:
        from .adherence import Instructions, parse

        context.instructions = instructions if isinstance(instructions, Instructions) else \
            parse(instructions, prompt=prompt)


def note_upstream_failure(scope: Scope, code: str, message: str) -> None:
    """Tell the guard that the body the app is sending ends early because its own upstream failed (a read timeout:
    ``upstream_timeout``; a connection cut: ``upstream_truncated``): the response ends as a guard error with that
    code (fail closed) instead of passing what came as if it were whole. The proxy calls it; so may an app that
    relays a model's body itself."""
    context = scope.get(CONTEXT_KEY)
    if context is None:
        context = scope[CONTEXT_KEY] = TurnContext()
    if context.upstream_failure is None:
        context.upstream_failure = (code, message)


class GuardrailMiddleware:
    """Guards chat-completion responses with a :class:`~guardrail.Guard`.

    ``app.add_middleware(GuardrailMiddleware, policy="policies/x.yaml")`` or ``guard=Guard.from_policy(...)``;
    ``paths`` chooses the guarded routes (exact paths or ``fnmatch`` patterns); ``max_body_bytes`` caps what one
    response may bring, buffered or streamed (over it, the fail mode decides); ``on_verdict(verdict, info)`` (a
    function or a coroutine function) receives every verdict, for the application's own audit trail: one per guarded
    field of each choice, and one for a response that could not be read. Its errors are logged, never raised into
    the response.
    """

    def __init__(
        self,
        app: Any,
        guard: Guard | None = None,
        policy: str | Path | None = None,
        paths: Sequence[str] | None = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        on_verdict: OnVerdict | None = None,
    ):
        if (guard is None) == (policy is None):
            raise TypeError("GuardrailMiddleware needs exactly one of guard= or policy=")
        self.app = app
        self.guard = guard if guard is not None else Guard.from_policy(policy)  # type: ignore[arg-type]
        self.paths = tuple(paths) if paths is not None else None
        self.max_body_bytes = max_body_bytes
        self.on_verdict = on_verdict

    def guards(self, path: str) -> bool:
        """Whether responses on ``path`` are guarded."""
        if self.paths is None:
            return path.endswith("/chat/completions")
        return any(path == p or fnmatchcase(path, p) for p in self.paths)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, self._on_lifespan(send))
            return
        if scope["type"] != "http" or scope.get("method") == "HEAD" or not self.guards(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        context = scope.get(CONTEXT_KEY)
        if context is None:
            context = scope[CONTEXT_KEY] = TurnContext()
        context.request_id, context.traceparent = _request_ids(scope)
        responder = _Responder(self, context, scope.get("path", ""), send)
        if telemetry.active():
            responder.parent = telemetry.parent_from_headers(scope.get("headers") or ())
            responder.telemetry = True
        try:
            await self.app(scope, receive, responder)
        finally:
            responder.stop_keepalive()
            await responder.report()


    def _on_lifespan(self, send: Any) -> Any:
        """``send`` for the lifespan scope: at shutdown, the sampler's buffer goes to the queue first."""
        async def lifespan_send(message: Message) -> None:
            if message["type"] in ("lifespan.shutdown.complete", "lifespan.shutdown.failed"):
                sampler = self.guard._sampler
                if sampler is not None:
                    await asyncio.to_thread(sampler.close)
                await asyncio.to_thread(telemetry.flush)
            await send(message)

        return lifespan_send


_SNIFF = 4096  # the most of a streamed plain-text reply held to tell what it is (a longer preamble: events)
_BOM = b"\xef\xbb\xbf"
_PREAMBLE = re.compile(rb"(?:[ \t]*|:[^\r\n]*|(?!data:)[\w.-]+:[^\r\n]*|event|id|retry)(?:\r\n|\r|\n)")
"""A line an SSE reader passes over before the first event: blank, a comment, a field other than ``data`` (one it
does not know too: ``x-trace: 1``)."""
_DATA = re.compile(rb"data(?::[ \t]*)?(?:[{\[]|\r|\n)")  # a chat-completion event's first line (or an empty one)
_OPEN_FIELD = re.compile(rb"[\w.-]*(?::[^\r\n]*)?")  # a line that may still be one of those, or a data line


def _json_like(head: bytes) -> bool:
    """Whether a body that starts with ``head`` may be a JSON object as a client's JSON reader detects it: ``{``
    after a UTF-8 BOM and whitespace, or UTF-16 or UTF-32 (a BOM, NUL bytes)."""
    return head.removeprefix(_BOM).lstrip()[:1] == b"{" or json.detect_encoding(head[:4]) not in ("utf-8", "utf-8-sig")


def _sniff(head: bytes, more: bool) -> str | None:
    """What a plain-text reply that starts with ``head`` is as OpenAI's client reads it, whatever the media type
    says: ``"json"`` (held whole: a completion, if it is one), ``"events"`` (a ``data:`` line of JSON after lines an
    SSE reader passes over) or ``"text"``; None while the rest (``more``) may still tell."""
    if more and len(head) < 4:  # (a JSON reader tells UTF-16 and UTF-32 from the first four bytes)
        return None
    if not head.removeprefix(_BOM).strip():  # (blank so far: a completion may follow, held whole at the limit)
        return None if more and len(head) < _SNIFF else "json"
    if _json_like(head):
        return "json"
    pos = len(_BOM) if head.startswith(_BOM) else 0
    while (line := _PREAMBLE.match(head, pos)) is not None:
        pos = line.end()
    rest = head[pos:]
    if _DATA.match(rest):
        return "events"
    open_line = b"\n" not in rest and b"\r" not in rest and (rest[:1] == b":" or _OPEN_FIELD.fullmatch(rest))
    if not open_line or not more:
        return "text"
    return None if len(head) < _SNIFF else "events"


def _as_completion(body: bytes) -> tuple[list[Any] | None, bool]:
    """:func:`~guardrail._chat.parse_json` of a body sent as plain text when it is a JSON chat completion (an object
    with a list of choices), else ``(None, False)``."""
    if not _json_like(body):
        return None, False
    parsed, strict = parse_json(body)
    if parsed is None or not isinstance(parsed[0], dict) or not isinstance(parsed[0].get("choices"), list):
        return None, False
    return parsed, strict


def _declared_charset(content_type: str) -> str | None:
    """The codec of the charset ``content_type`` declares, as a client reads it (httpx: the standard library's
    email parser, ``charset*=`` too), UTF-8 when it names none; None when that is unclear: "charset" written more
    than once (a client may take another), or a charset Python does not know."""
    if "charset" not in content_type.lower():
        return "utf-8"
    message = email.message.Message()
    message["content-type"] = content_type
    found = message.get_content_charset(None)
    if found is None or content_type.lower().count("charset") != 1:
        return None
    try:
        return codecs.lookup(found).name
    except LookupError:
        return None


def _text_charset(content_type: str) -> str | None:
    """The codec plain text is read with: its charset when that is UTF-8 or ASCII, else None: a client decodes by
    the charset (UTF-7, UTF-16), and that reading is not what the guard would check."""
    name = _declared_charset(content_type)
    return name if name in ("utf-8", "ascii") else None


def _codings(raw: Headers) -> list[str]:
    """The content codings of a response other than ``identity``, of every content-encoding header (a client applies
    them all)."""
    return [c for key, value in raw if key.lower() == b"content-encoding"
            for c in (c.strip() for c in value.decode("latin-1").lower().split(",")) if c not in ("", "identity")]


def _inflated(body: bytes, limit: int) -> bytes | None:
    """``body`` decompressed (gzip or zlib), or None when it is not one whole such stream or holds over ``limit``
    bytes (decompressed no further: a few kilobytes may hold gigabytes)."""
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error:
        return None
    return out if inflater.eof and not inflater.unused_data and len(out) <= limit else None


_KINDS = {"application/json": "json", "text/event-stream": "sse", "text/plain": "text"}
"""A response's kind for its span, from its media type: a closed set (the upstream writes the header)."""
_TRACEPARENT = re.compile(r"[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")


def _request_ids(scope: Scope) -> tuple[str, str | None]:
    """The request id (``x-request-id``, else a new one) and the W3C ``traceparent`` of the request, if valid."""
    request_id, traceparent = None, None
    for name, value in scope.get("headers") or ():
        if name == b"x-request-id" and request_id is None:
            text = value.decode("latin-1").strip()
            if text and len(text) <= 200 and text.isprintable():
                request_id = text
        elif name == b"traceparent" and traceparent is None:
            text = value.decode("latin-1").strip().lower()
            if _TRACEPARENT.fullmatch(text):
                traceparent = text
    return request_id or new_request_id(), traceparent


class _Responder:
    """Wraps ``send`` for one response: holds, checks and rewrites what the app sends."""

    __slots__ = ("body", "charset", "compiled", "context", "ended", "error", "guard", "last_sent", "lock", "mode",
                 "owner", "parent", "path", "scrubber", "send", "size", "span", "start", "started", "stream",
                 "telemetry", "text", "ticker", "traceparent", "verdicts")

    def __init__(self, owner: GuardrailMiddleware, context: TurnContext, path: str, send: Any):
        self.owner = owner
        self.guard = owner.guard
        self.context = context
        self.path = path
        self.send = send
        self.mode = "start"
        self.start: Message | None = None
        self.body: list[bytes] = []
        self.size = 0
        self.stream: ChunkStream | None = None
        self.text: _TextStream | None = None
        self.charset = "utf-8"  # of plain text
        self.verdicts: list[FieldVerdict] = []
        self.error: tuple[str, str] | None = None  # (code, message) of a guard error
        self.lock: asyncio.Lock | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.last_sent = 0.0
        self.ended = False
        self.telemetry = False
        self.parent: Any = None
        self.span: Any = None
        self.started = 0.0
        self.traceparent: str | None = None
        self.scrubber: Scrubber | None = None
        self.compiled: CompiledPolicy = self.guard.compiled  # with the turn's own instructions, from the start

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

    # ------------------------------------------------------------------------------------------------- the start

    async def _on_start(self, message: Message) -> None:
        status = message["status"]
        raw = message["headers"] = list(message.get("headers") or ())  # (ASGI allows any iterable: read it once)
        if not 200 <= status < 300 or status == 204:
            if not self._scrubber().active:  # (nothing to look for: the usual error passes as it came)
                self.mode = "pass"
                await self.send(message)
                return
            self.mode = "error"  # not judged, but scrubbed: held whole (see _finish_error)
            self.start = message
            return
        self.start = message
        media = _header(raw, b"content-type", "").split(";")[0].strip().lower()
        if self.telemetry:
            self.started = time.perf_counter()
            self.span = telemetry.start_guard_span(self.guard.policy.name, self.guard.digest,
                                                   _KINDS.get(media, "other"), self.parent)
        compiled = self.compiled = self.guard.compiled.with_instructions(self.context.instructions)
        if _codings(raw):
            self.mode = "unreadable"
            self.error = ("upstream_compressed", "the response is compressed (put compression outside the guard)")
        elif media == "application/json":
            self.mode = "json"
        elif media in ("text/event-stream", "text/plain") and not compiled.acting:
            self.mode = "pass"  # no check can change anything: nothing to hold back
            await self._send_start(streaming=False, changed=False, decision=Decision.PASS)
        elif media == "text/event-stream":
            await self._start_sse()
        elif media == "text/plain":
            charset = _text_charset(_header(raw, b"content-type", ""))
            if charset is None:
                self.mode = "unreadable"
                self.error = ("upstream_unsupported", "the text's charset is not UTF-8 or ASCII")
            else:
                self.mode, self.charset = "text", charset
        else:
            self.mode = "unreadable"
            self.error = ("upstream_unsupported", "the response is not a chat completion, a stream or plain text")
        if self.mode == "unreadable" and not self.fail_closed:
            self.mode = "pass"
            await self._send_start(streaming=False, changed=False, decision=Decision.PASS)

    async def _start_sse(self) -> None:
        self.mode = "sse"
        compiled = self.compiled
        policy = compiled.policy
        sources, roles = self.context.sources, self.context.roles
        self.stream = ChunkStream(lambda: StreamGuard(compiled, sources, roles), self._scrubber(),
                                  blocked_message=policy.blocked_message, fail_closed=self.fail_closed,
                                  tool_calls="tool_calls" in policy.fields, max_bytes=self.owner.max_body_bytes)
        await self._send_start(streaming=True)
        self._start_keepalive(policy.keepalive_s)

    def _scrubber(self) -> Scrubber:
        if self.scrubber is None:
            self.scrubber = Scrubber(self.guard.compiled, self.context.sources, self.context.roles)
        return self.scrubber

    # -------------------------------------------------------------------------------------------------- the body

    async def _on_body(self, chunk: bytes, more: bool) -> None:
        mode = self.mode
        if mode == "pass":
            await self.send({"type": "http.response.body", "body": chunk, "more_body": more})
        elif mode == "sse":
            assert self.stream is not None
            out = self.stream.feed(chunk) if chunk else b""
            if not more:
                failure = self.context.upstream_failure
                out += self.stream.broken_off(*failure) if failure else self.stream.close()
            if out or not more:
                await self._stream_body(out, more)
        elif mode == "text-stream":
            assert self.text is not None
            out = self.text.feed(chunk)
            if not more:
                failure = self.context.upstream_failure
                if failure and not self.text.broken:
                    self.text.broken, self.text.error = True, failure
                out += self.text.close()
                self.verdicts = [FieldVerdict(0, "text", self.text.verdict, self.text.stream.text)] \
                    if self.text.verdict else []
                self.error = self.text.error
            if out or not more:
                await self.send({"type": "http.response.body", "body": out, "more_body": more})
        elif mode in ("done", "discard"):
            return  # the answer went out already; the rest of the app's body is dropped
        elif mode == "error":
            self.size += len(chunk)
            self.body.append(chunk)
            if self.size > self.owner.max_body_bytes:  # too big to scrub: the status and headers go, the body not
                self.body, self.mode = [], "discard"
                await self._send_start(streaming=False, length=0)
                await self.send({"type": "http.response.body", "body": b"", "more_body": False})
            elif not more:
                await self._finish_error(b"".join(self.body))
        elif mode == "unreadable":
            if not more:
                self.mode = "done"
                await self._send_error()
        elif mode == "text":
            # Plain text is guarded as what OpenAI's client reads, whatever the media type says: a completion, a
            # stream of events (their JSON escapes with them), else text; held until its start tells which.
            head = b"".join([*self.body, chunk])
            kind = _sniff(head, more)
            if kind is None:
                self.body = [head]
                return
            self.body = []
            if kind == "events":
                await self._start_sse()
            elif kind == "json" or not more:
                self.mode = "whole"  # (held whole: a completion, if it is one, or text that came in one piece)
            else:
                self.mode = "text-stream"
                self.text = _TextStream(self.compiled, self.context, self.owner.max_body_bytes,
                                        self.charset == "ascii")
                await self._send_start(streaming=True)
            await self._on_body(head, more)
        else:  # json and whole text: hold the whole body
            self.size += len(chunk)
            self.body.append(chunk)
            if self.size > self.owner.max_body_bytes:
                await self._over_size(more)
                return
            if not more:
                await self._finish_buffered(b"".join(self.body))

    async def _stream_body(self, out: bytes, more: bool) -> None:
        assert self.lock is not None
        async with self.lock:
            if not more or (self.stream is not None and self.stream.finished):  # ([DONE] went out: no keep-alive)
                self.ended = True
            self.last_sent = asyncio.get_running_loop().time()
            await self.send({"type": "http.response.body", "body": out, "more_body": more})

    async def _over_size(self, more: bool) -> None:
        """Too big to hold: closed answers an error (and drops the rest), open sends it unchecked."""
        if self.fail_closed:
            self.body = []
            self.mode = "discard"
            self.error = ("upstream_too_large", f"the response is over {self.owner.max_body_bytes} bytes")
            await self._send_error()
            return
        self.mode = "pass"
        await self._send_start(streaming=True, changed=False, decision=Decision.PASS)
        await self.send({"type": "http.response.body", "body": b"".join(self.body), "more_body": more})
        self.body = []

    async def _finish_buffered(self, body: bytes) -> None:
        mode, self.mode = self.mode, "done"
        if self.context.upstream_failure is not None and self.fail_closed:  # (open: what came is checked)
            self.error = self.context.upstream_failure
            await self._send_error()
            return
        try:
            # (plain text that is a chat completion is read as one: OpenAI's client parses it, escapes and all)
            parsed = parse_json(body) if mode == "json" else _as_completion(body)
            if mode == "json" or parsed[0] is not None:
                new_body = self._guard_json(body, parsed)
            else:
                new_body = self._guard_text(body)
        except ShapeError as exc:
            self.error = ("upstream_malformed", f"the response is not a chat completion ({exc})")
            if self.fail_closed:
                await self._send_error()
                return
            new_body = body
        errors = [guard_error(v.verdict) for v in self.verdicts]
        found = next((e for e in errors if e is not None), None)
        if found is not None:
            self.error = ("guard_error", found.message)
            await self._send_error()
            return
        decision = worst([v.verdict.decision for v in self.verdicts])
        await self._send_start(streaming=False, changed=new_body is not body, length=len(new_body),
                               decision=decision)
        await self.send({"type": "http.response.body", "body": new_body, "more_body": False})

    async def _finish_error(self, body: bytes) -> None:
        """A non-2xx response, whole: its body and headers without what the caller may not see. A client decompresses
        a body: gzip and deflate are scrubbed decompressed and go identity-encoded, a body in another coding (or one
        that does not decompress within ``max_body_bytes``) goes empty. One the upstream broke off is, fail closed,
        the guard's error."""
        self.mode = "done"
        assert self.start is not None
        if self.context.upstream_failure is not None and self.fail_closed:
            self.error = self.context.upstream_failure
            await self._send_error()
            return
        raw = self.start["headers"]
        codings = _codings(raw)
        readable: bytes | None = body
        if codings:
            self.start["headers"] = _without(raw, (b"content-encoding",))
            inflatable = len(codings) == 1 and codings[0] in ("gzip", "x-gzip", "deflate")
            readable = _inflated(body, self.owner.max_body_bytes) if inflatable else None
        charset = _declared_charset(_header(raw, b"content-type", ""))
        new_body = b"" if readable is None or charset is None else scrub_body(readable, self._scrubber(), charset)
        await self._send_start(streaming=False, changed=new_body is not body, length=len(new_body))
        await self.send({"type": "http.response.body", "body": new_body, "more_body": False})

    def _guard_json(self, body: bytes, read: tuple[list[Any] | None, bool]) -> bytes:
        """``body`` (``read``: its :func:`~guardrail._chat.parse_json`) guarded as a chat completion."""
        # (strict: plain UTF-8, as orjson reads it; else what was checked goes out as parsed: UTF-16, say)
        parsed, strict = read
        if parsed is None:
            raise ShapeError("not JSON")
        obj = parsed[0]
        guard, context, compiled = self.guard, self.context, self.compiled
        sources, roles = context.sources, context.roles
        policy = guard.policy
        try:
            self.verdicts, changed = guard_completion(
                obj, lambda text: guard._check(text, sources, roles, compiled), self._scrubber(),
                policy.blocked_message, tool_calls="tool_calls" in policy.fields)
            # A key written twice is read as its last value here, and perhaps as its first by the client: what was
            # checked goes out as parsed.
            changed = changed or not strict or has_duplicate_keys(body, obj)
        except RecursionError:  # (what a raised recursion limit let the parser read, the scrub need not)
            raise ShapeError("nested too deeply") from None
        return dumps(obj) if changed else body

    def _guard_text(self, body: bytes) -> bytes:
        try:
            text = body.decode(self.charset)
        except UnicodeDecodeError:
            raise ShapeError(f"not {self.charset} text") from None
        verdict = self.guard._check(text, self.context.sources, self.context.roles, self.compiled)
        self.verdicts = [FieldVerdict(0, "text", verdict, text)]
        if verdict.decision is Decision.PASS:
            return body
        return verdict.output.encode()

    # ------------------------------------------------------------------------------------------ what goes out

    async def _send_error(self) -> None:
        """Answer a guard error (fail closed): a 502 in OpenAI's error shape, whatever the route speaks."""
        assert self.start is not None and self.error is not None
        code, message = self.error
        body = dumps({"error": {"message": message, "type": "guardrail_error", "code": code}})
        self.start["status"] = 502
        self.start["headers"] = [*_without(self.start.get("headers") or (), (b"content-encoding", b"content-type")),
                                 (b"content-type", b"application/json")]
        await self._send_start(streaming=False, changed=True, length=len(body), decision=Decision.BLOCKED)
        await self.send({"type": "http.response.body", "body": body, "more_body": False})

    async def _send_start(self, *, streaming: bool, changed: bool = True, length: int | None = None,
                          decision: Decision | None = None) -> None:
        assert self.start is not None
        start, self.start = self.start, None
        start["headers"] = rewritten_headers(start.get("headers") or (), self._scrubber(), streaming=streaming,
                                             changed=changed, length=length, decision=decision)
        await self.send(start)

    # ----------------------------------------------------------------------------------------------- keep-alive

    def _start_keepalive(self, interval: float) -> None:
        self.lock = asyncio.Lock()
        self.last_sent = asyncio.get_running_loop().time()
        self.ticker = asyncio.get_running_loop().create_task(self._tick(interval))

    async def _tick(self, interval: float) -> None:
        """While text is held, an SSE comment every ``interval`` seconds of silence keeps proxies from cutting."""
        assert self.lock is not None
        loop = asyncio.get_running_loop()
        try:
            while not self.ended:
                await asyncio.sleep(max(self.last_sent + interval - loop.time(), 0.0))
                async with self.lock:
                    if self.ended or loop.time() - self.last_sent < interval:
                        continue
                    self.last_sent = loop.time()
                    await self.send({"type": "http.response.body", "body": encode_comment(" keep-alive"),
                                     "more_body": True})
        except Exception:  # the client went away: the response ends elsewhere
            return

    def stop_keepalive(self) -> None:
        self.ended = True
        if self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    # ------------------------------------------------------------------------------------------------ reporting

    async def report(self) -> None:
        """Log and hand over the verdicts of this response, once it is complete (or cut off)."""
        if self.stream is not None:
            self.verdicts, self.error = self.stream.verdicts, self.stream.error
        policy = self.guard.policy
        rid = self.context.request_id
        self.traceparent = telemetry.traceparent_of(self.span)
        if self.span is not None:
            self._end_span()
        reports: list[tuple[Verdict, int | None, str | None, str | None]] = [
            (fv.verdict, fv.choice, fv.field, "guard_error" if guard_error(fv.verdict) is not None else None)
            for fv in self.verdicts]
        if self.error is not None and not any(err for *_, err in reports):
            code, message = self.error
            closed = self.fail_closed and code != "upstream_error"
            finding = Finding("guard", Label.GUARD_ERROR, Action.BLOCK if closed else Action.FLAG, 0, 0, message)
            verdict = Verdict(Decision.BLOCKED if closed else Decision.PASS, "", [finding])
            reports.append((verdict, None, None, code))
        self._offer()
        callback = self.owner.on_verdict
        trace_id: str | None = ""
        for verdict, choice, field_name, err in reports:
            if logs(verdict, err):
                if trace_id == "":  # (looked up for the first line written)
                    trace_id = telemetry.trace_id_of(self.span)
                log_verdict(policy.name, verdict, request_id=rid, choice=choice, field=field_name, error=err,
                            trace_id=trace_id)
            if callback is not None:
                info = VerdictInfo(rid, self.path, policy.name, choice, field_name, err)
                try:
                    result = callback(verdict, info)
                    if inspect.isawaitable(result):
                        await result
                except Exception:
                    logger.exception("request=%s: on_verdict raised", rid)


    def _end_span(self) -> None:
        stats = None
        if self.stream is not None:
            stats = self.stream.stats(self.started)
        elif self.text is not None:
            s = self.text.stream
            first = None if s.first_release is None or s.started is None else s.first_release - s.started
            stats = telemetry.StreamStats(s.chunks, s.held_max, first)
        settings = self.guard.policy.telemetry
        telemetry.end_guard_span(self.span, self.guard.policy.name, self.verdicts,
                                 [c.name for c in self.guard.compiled.checks], started=self.started,
                                 record_content=settings is not None and settings.record_content,
                                 error=self.error[0] if self.error else None, stream=stats)
        self.span = None

    def _offer(self) -> None:
        """Offer each choice's text to the monitor (when the policy samples): after the response, never raising."""
        if self.guard.compiled.policy.sampling is None or self.error is not None:
            return
        context = self.context
        for fv in self.verdicts:
            if fv.field in ("content", "text"):
                self.guard.offer(fv.text, context.sources, context.roles, fv.verdict, request_id=context.request_id,
                                 traceparent=self.traceparent or context.traceparent, choice=fv.choice,
                                 field=fv.field)


class _TextStream:
    """A streamed plain-text reply: UTF-8 (``ascii_only``: ASCII) decoded incrementally, guarded by a stream guard.
    What breaks it (too big, not the text it says) ends it fail closed with an error line; fail open, what is held
    goes out checked and the rest as it comes, unchecked, as a body over the size cap does."""

    def __init__(self, compiled: CompiledPolicy, context: TurnContext, max_bytes: int, ascii_only: bool = False):
        self.policy = compiled.policy
        self.max_bytes = max_bytes
        self.ascii_only = ascii_only
        self.size = 0
        self.decoder = Utf8Decoder()
        self.stream = StreamGuard(compiled, context.sources, context.roles)
        self.verdict: Verdict | None = None
        self.error: tuple[str, str] | None = None
        self.broken = False
        self.unchecked = False  # fail open, after a break: the rest goes as it comes

    def feed(self, chunk: bytes) -> bytes:
        if self.unchecked:
            return chunk
        if self.broken:
            return b""
        self.size += len(chunk)
        if self.size > self.max_bytes:
            return self._break(chunk, "upstream_too_large", f"the stream is over {self.max_bytes} bytes")
        if self.ascii_only and not chunk.isascii():
            return self._break(chunk, "upstream_malformed", "the text is not ASCII")
        try:
            text = self.decoder.decode(chunk)
        except StreamFormatError as exc:
            return self._break(chunk, "upstream_malformed", str(exc))
        return self.stream.feed(text).encode()

    def _break(self, chunk: bytes, code: str, message: str) -> bytes:
        self.broken, self.error = True, (code, message)
        if self.policy.fail_mode == "closed":
            return b""
        out = self.close()
        assert self.verdict is not None
        if self.stream.blocked or guard_error(self.verdict) is not None:
            return out  # (a block, or a check that failed, ends it)
        self.unchecked = True
        return out + chunk

    def close(self) -> bytes:
        if self.verdict is not None:  # (closed already, at a break)
            return b""
        if not self.broken:
            try:
                self.stream.feed(self.decoder.flush())
            except StreamFormatError as exc:
                self.broken, self.error = True, ("upstream_malformed", str(exc))
        closed = self.policy.fail_mode == "closed"
        if self.broken and closed:
            # Plain text has no error frame: the stream ends with a line that says the answer could not be checked.
            self.stream.blocked = True
            self.stream.finish()
            assert self.error is not None
            return self._error_line()
        rest, self.verdict = self.stream.finish()
        err = guard_error(self.verdict)
        if err is not None:
            self.error = ("guard_error", err.message)
            return self._error_line()
        if self.stream.blocked:
            message = self.policy.blocked_message
            return (("\n\n" if self.stream.released else "") + message).encode()
        return rest.encode()

    def _error_line(self) -> bytes:
        assert self.error is not None
        return (("\n\n" if self.stream.released else "") + f"[guardrail error: {self.error[0]}]").encode()


# ---------------------------------------------------------------------------------------------------- headers

Headers = Iterable[tuple[bytes, bytes]]
_UNSIZED = (b"content-length", b"etag", b"content-md5")  # what no longer holds once the body is not the app's


def rewritten_headers(raw: Headers, scrubber: Scrubber, *, streaming: bool, changed: bool = True,
                      length: int | None = None, decision: Decision | None = None) -> list[tuple[bytes, bytes]]:
    """The response's headers as the guard sends them: no header whose name or value spells a banned term or an
    invisible ID (an echoed request id, a model; a content type that does keeps its media type, if that spells
    nothing), no length or digest of a body that changed or streams (a new ``content-length`` if the new body's
    ``length`` is known), and the decision.

    Raw ASGI headers, as Starlette's ``MutableHeaders`` would leave them (``tests/test_middleware.py`` holds the
    two to that): names that are set replace their first entry and lose the others, or come last. Unlike it,
    a name is matched in any case (ASGI asks for lower case; an app may not comply)."""
    out = list(raw)
    # (first, in one call, whether any name or value carries anything: most responses' do not)
    texts = [part.decode("latin-1") for header in out for part in header] if scrubber.active else []
    if texts and not "".join(texts).isascii():  # (bytes that are UTF-8: a client's reading of them too)
        texts += [text for header in out for part in header for text in _readings(part)[1:]]
    if texts and scrub_strings(texts, scrubber):
        for key, value in list(out):
            if any(scrubber.carries(text) for text in (*_readings(value), *_readings(key))):
                name = key.lower()
                out = [h for h in out if h[0].lower() != name]
                media = value.split(b";")[0].strip()
                if name == b"content-type" and not any(scrubber.carries(text) for text in _readings(media)):
                    _put(out, b"content-type", media)
    if changed or streaming:
        out = _without(out, _UNSIZED)
        if length is not None:
            out.append((b"content-length", str(length).encode("latin-1")))
    if decision is not None:
        _put(out, b"x-guardrail-decision", decision.value.encode("latin-1"))
    return out


def _readings(part: bytes) -> tuple[str, ...]:
    """A header's name or value as the guard reads it (latin-1) and, when it is UTF-8 and not ASCII, as a client
    that decodes UTF-8 does (a fullwidth term, an ID with a non-ASCII hyphen)."""
    text = part.decode("latin-1")
    if part.isascii():
        return (text,)
    try:
        return text, part.decode("utf-8")
    except UnicodeDecodeError:
        return (text,)


def _header(raw: Headers, name: bytes, default: str) -> str:
    """The first value of header ``name`` (lower case; matched in any case), else ``default``."""
    for key, value in raw:
        if key.lower() == name:
            return value.decode("latin-1")
    return default


def _without(raw: Headers, names: tuple[bytes, ...]) -> list[tuple[bytes, bytes]]:
    """The headers but those named ``names`` (lower case; matched in any case)."""
    return [h for h in raw if h[0].lower() not in names]


def _put(raw: list[tuple[bytes, bytes]], name: bytes, value: bytes) -> None:
    """Set header ``name`` (lower case; matched in any case): its first entry takes the value and the others go; a
    new name comes last."""
    found = [i for i, (key, _) in enumerate(raw) if key.lower() == name]
    for i in reversed(found[1:]):
        del raw[i]
    if found:
        raw[found[0]] = (name, value)
    else:
        raw.append((name, value))
