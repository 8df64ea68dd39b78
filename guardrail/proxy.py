"""The OpenAI-compatible guarding proxy behind ``guardrail serve``.

``POST /v1/chat/completions`` is forwarded to the upstream model server (vLLM, Ollama, a hosted API) and its answer,
JSON or streamed, goes back through :class:`~guardrail.GuardrailMiddleware`. The calling application sends the turn's
retrieved sources and its user's roles in the request body's ``guardrail`` field (``extra_body`` in OpenAI clients),
which is removed before forwarding. Because the roles then come from the caller, the proxy admits only callers that
present its own key (``Authorization: Bearer ...``): the application, never its end users.

Every other path under ``/v1/`` (``GET /v1/models``, ``POST /v1/embeddings``, ...) is forwarded unguarded: same
method, query string, body and content type, the upstream's key in place of the proxy's (which is still required),
and the answer streams back with its status. Spellings of the chat-completions path that the upstream might route
to the same endpoint (``/v1/chat/completions/``, ``/v1//chat/completions``, other letter cases, dot segments) are
refused, never forwarded around the guard. Errors of the proxy itself are JSON in OpenAI's error shape.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ._scrub import Scrubber
from .guard import Guard
from .middleware import GuardrailMiddleware, attach_context, note_upstream_failure
from .models import coerce_sources

CHAT_PATH = "/v1/chat/completions"
DEFAULT_MAX_CONNECTIONS = 1000
DEFAULT_TIMEOUT = 120.0
CONNECT_TIMEOUT = 10.0

# Response headers of the upstream worth passing on from chat completions; the rest describe the upstream's own
# connection, or the body before the guard rewrote it.
_PASSED_HEADERS = ("content-type", "x-request-id", "openai-processing-ms", "openai-model")
# Headers never relayed on forwarded paths: hop-by-hop ones, the caller's credentials, and what httpx or uvicorn set
# for the new connection (the body is relayed decoded, so its length and encoding are the new connection's too).
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
                         "transfer-encoding", "upgrade", "content-length", "content-encoding"})
_NOT_FORWARDED = _HOP_BY_HOP | {"host", "authorization", "cookie", "accept-encoding", "expect"}
_NOT_RELAYED = _HOP_BY_HOP | {"date", "server", "set-cookie"}
_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def error(status: int, message: str, kind: str, code: str | None = None,
          headers: dict[str, str] | None = None) -> JSONResponse:
    """An error in the shape OpenAI clients read: ``{"error": {"message", "type", "code"}}``."""
    return JSONResponse({"error": {"message": message, "type": kind, "code": code}}, status_code=status,
                        headers=headers)


def create_proxy(
    guard: Guard,
    upstream: str,
    *,
    api_key: str,
    upstream_api_key: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Starlette:
    """The proxy app.

    ``upstream`` is the model server's base URL (``http://host:port/v1``): ``/v1/X`` on the proxy is ``upstream/X``.
    ``api_key`` is the key callers must present (``Authorization: Bearer KEY``, the scheme in any case; surrounding
    whitespace is ignored, a blank key is a :class:`ValueError`); ``upstream_api_key`` is sent to the upstream, if
    given. At most ``max_connections`` requests are in flight to the upstream at once (more wait for a free connection,
    up to ``timeout``); ``timeout`` (seconds) is how long the proxy waits for the upstream's next bytes (connecting: at
    most 10 s) before answering 504.
    """
    if not isinstance(api_key, str) or not api_key.strip():
        raise ValueError("the proxy needs a non-blank API key: it trusts the roles its callers send")
    if isinstance(max_connections, bool) or not isinstance(max_connections, int) or max_connections < 1:
        raise ValueError(f"max_connections must be a whole number of at least 1, not {max_connections!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not (0 < timeout < math.inf):
        raise ValueError(f"timeout must be a number of seconds above 0, not {timeout!r}")
    try:
        base = httpx.URL(upstream.rstrip("/"))
    except (httpx.InvalidURL, TypeError):
        raise ValueError(f"the upstream must be an http:// or https:// URL, not {upstream!r}") from None
    if base.scheme not in ("http", "https") or not base.host:
        raise ValueError(f"the upstream must be an http:// or https:// URL, not {upstream!r}")
    base_url = str(base).rstrip("/")
    key_digest = hashlib.sha256(api_key.strip().encode("utf-8")).digest()
    upstream_auth = f"Bearer {upstream_api_key.strip()}" if upstream_api_key and upstream_api_key.strip() else None
    limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        client_timeout = httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout))
        async with httpx.AsyncClient(timeout=client_timeout, limits=limits, transport=transport) as client:
            app.state.upstream_client = client
            yield

    def authorized(request: Request) -> bool:
        scheme, _, token = request.headers.get("authorization", "").strip().partition(" ")
        presented = hashlib.sha256(token.strip().encode("latin-1")).digest()  # headers arrive decoded as latin-1
        # the digests have one length, so comparing them takes the same time whatever the key presented
        return hmac.compare_digest(presented, key_digest) and scheme.lower() == "bearer"

    async def send(request: Request, build: Callable[[httpx.AsyncClient], httpx.Request],
                   relay: Callable[[httpx.Response], Response]) -> Response:
        client: httpx.AsyncClient = request.app.state.upstream_client
        try:
            reply = await client.send(build(client), stream=True)
        except httpx.PoolTimeout:
            return error(503, f"all {max_connections} connections to the model server stayed busy for {timeout:g} s",
                         "upstream_error", "upstream_busy")
        except httpx.TimeoutException:
            return error(504, "the model server did not answer in time", "upstream_error", "upstream_timeout")
        except httpx.HTTPError as exc:
            return error(502, f"the model server is unreachable ({exc.__class__.__name__})", "upstream_error",
                         "upstream_unreachable")
        return relay(reply)

    async def chat(request: Request) -> Response:
        if not authorized(request):
            return _unauthorized()
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):
            return error(400, "the request body is not JSON", "invalid_request_error", "invalid_json")
        if not isinstance(body, dict):
            return error(400, "the request body must be a JSON object", "invalid_request_error", "invalid_json")
        turn = body.pop("guardrail", None)
        turn = {} if turn is None else turn
        problem = _context_problem(turn)
        if problem:
            return error(400, f"guardrail: {problem}", "invalid_request_error", "invalid_guardrail_context")
        instructions = None
        if any(key in turn for key in _INSTRUCTION_KEYS):
            from .adherence import from_record
            from .ifeval import InstructionError, MissingDependencyError

            try:
                instructions = from_record({**turn, "prompt": turn["prompt"] if turn.get("prompt") is not None
                                            else _last_user_message(body)})
            except (InstructionError, MissingDependencyError) as exc:
                # The message may quote the request (an unknown id, a bad value): never what the caller may not see.
                message = Scrubber(guard.compiled, coerce_sources(turn.get("sources") or ()),
                                   frozenset(turn.get("roles") or ())).scrub(f"guardrail: {exc}")
                return error(400, message, "invalid_request_error", "invalid_guardrail_instructions")
        attach_context(request, sources=turn.get("sources") or (), roles=turn.get("roles") or (),
                       instructions=instructions)
        headers = {"accept-encoding": "identity"}
        if upstream_auth:
            headers["authorization"] = upstream_auth

        def relay(reply: httpx.Response) -> Response:
            response = StreamingResponse(_relay(reply, scope=request.scope), status_code=reply.status_code,
                                         background=BackgroundTask(reply.aclose))
            # The bytes the upstream wrote (a value need not be latin-1 text: re-encoding it would fail).
            response.raw_headers = [(k.lower(), v) for k, v in reply.headers.raw
                                    if k.lower().decode("latin-1") in _PASSED_HEADERS]
            return response

        return await send(request, lambda c: c.build_request("POST", base_url + "/chat/completions", json=body,
                                                             headers=headers), relay)

    async def forward(request: Request) -> Response:
        if not authorized(request):
            return _unauthorized()
        path: str = request.scope["path"]  # percent-decoded, as the router saw it
        refusal = _refusal(path, request.method)
        if refusal is not None:
            return refusal
        url = base_url + "/" + _rest_of(request.scope, path)
        query = request.scope.get("query_string", b"")
        if query:
            url += "?" + query.decode("latin-1")
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in _NOT_FORWARDED]
        headers.append(("accept-encoding", "identity"))
        if upstream_auth:
            headers.append(("authorization", upstream_auth))
        body = await request.body()

        def relay(reply: httpx.Response) -> Response:
            response = StreamingResponse(_relay(reply, abort=True), status_code=reply.status_code,
                                         background=BackgroundTask(reply.aclose))
            response.raw_headers = [(k.lower(), v) for k, v in reply.headers.raw
                                    if k.lower().decode("latin-1") not in _NOT_RELAYED]
            return response

        return await send(request, lambda c: c.build_request(request.method, url, content=body or None,
                                                             headers=headers), relay)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "policy": guard.policy.name})

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: _http_error,
        Exception: _server_error,
    }
    app = Starlette(
        routes=[Route(CHAT_PATH, chat, methods=["POST"]), Route("/healthz", healthz, methods=["GET"]),
                Route("/v1/{path:path}", forward, methods=_METHODS)],
        middleware=[Middleware(GuardrailMiddleware, guard=guard, paths=[CHAT_PATH])],
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # an API answers 404 for a path it does not serve, not a redirect
    return app


def _unauthorized() -> JSONResponse:
    return error(401, "missing or wrong API key (send Authorization: Bearer <the proxy's key>)",
                 "invalid_request_error", "invalid_api_key", headers={"www-authenticate": "Bearer"})


def _refusal(path: str, method: str) -> JSONResponse | None:
    """Why ``path`` under ``/v1/`` is not forwarded, if it is not: it would reach chat completions unguarded."""
    segments = path.split("/")[2:]
    if any(s in (".", "..") for s in segments):
        return error(400, f"the path {path!r} has '.' or '..' segments", "invalid_request_error", "invalid_path")
    normal = "/".join(s for s in segments if s).lower()
    if normal == "chat/completions" and path == CHAT_PATH:
        return error(405, f"method {method} is not allowed on {CHAT_PATH} (use POST)", "invalid_request_error",
                     "method_not_allowed", headers={"allow": "POST"})
    if normal == "chat/completions" or normal.startswith("chat/completions/"):
        return error(404, f"Invalid URL ({method} {path}): chat completions are guarded at {CHAT_PATH} only",
                     "invalid_request_error", "unknown_url")
    return None


def _rest_of(scope: Mapping[str, Any], path: str) -> str:
    """The path after ``/v1/``, encoded as the caller sent it (``%2F`` in an ID stays one segment)."""
    raw = scope.get("raw_path") or b""
    if raw.startswith(b"/v1/"):
        try:
            return str(raw[4:].decode("ascii"))
        except UnicodeDecodeError:
            pass
    return quote(path[4:], safe="/:@!$&'()*+,;=~")


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no route, wrong method) in OpenAI's shape."""
    assert isinstance(exc, HTTPException)
    status, method, path = exc.status_code, request.method, request.url.path
    headers = dict(exc.headers or {})
    if status == 404:
        return error(404, f"Invalid URL ({method} {path}): this proxy serves /v1/... and /healthz",
                     "invalid_request_error", "unknown_url", headers)
    if status == 405:
        return error(405, f"method {method} is not allowed on {path}", "invalid_request_error", "method_not_allowed",
                     headers)
    return error(status, str(exc.detail), "invalid_request_error" if status < 500 else "server_error", None, headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return error(500, f"the guardrail proxy failed on this request ({exc.__class__.__name__}; see its log)",
                 "server_error", "internal_error")


class UpstreamBrokeOff(Exception):
    """The upstream's body ended early on a forwarded path: the connection to the caller is cut, not ended cleanly,
    so that the caller sees the body is incomplete."""


async def _relay(reply: httpx.Response, abort: bool = False,
                 scope: MutableMapping[str, Any] | None = None) -> AsyncIterator[bytes]:
    try:
        async for chunk in reply.aiter_bytes():  # decoded: the guard reads text, not gzip
            yield chunk
    except httpx.HTTPError as exc:
        if abort:
            raise UpstreamBrokeOff(f"{exc.__class__.__name__}: {exc}") from None
        if scope is not None:  # the guard hears of it, and its fail mode decides (else a cut body could pass)
            if isinstance(exc, httpx.DecodingError):
                note_upstream_failure(scope, "upstream_malformed", "the model server's body could not be decoded "
                                                                   f"({exc.__class__.__name__})")
            elif isinstance(exc, httpx.TimeoutException):
                note_upstream_failure(scope, "upstream_timeout", "the model server stopped sending in the middle of "
                                                                 "its answer")
            else:
                note_upstream_failure(scope, "upstream_truncated", "the model server broke off its answer "
                                                                   f"({exc.__class__.__name__})")


_INSTRUCTION_KEYS = ("instructions", "instruction_id_list", "kwargs", "constraints", "prompt")


def _last_user_message(body: dict[str, Any]) -> str | None:
    """The text of the request's last user message: the prompt, unless the context gives its own."""
    messages = body.get("messages")
    for message in reversed(messages if isinstance(messages, list) else []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(p["text"] for p in content
                                  if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str))
            return content if isinstance(content, str) else None
    return None


def _context_problem(turn: Any) -> str | None:
    if not isinstance(turn, dict):
        return "must be an object with 'sources' and 'roles'"
    unknown = set(turn) - {"sources", "roles", *_INSTRUCTION_KEYS}
    if unknown:
        return f"unknown field {sorted(unknown)[0]!r}"
    sources, roles = turn.get("sources") or [], turn.get("roles") or []
    if not isinstance(sources, list) or not all(_is_source(s) for s in sources):
        return "sources must be a list of {id, text, roles} objects (roles: a list of strings or null)"
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        return "roles must be a list of strings"
    return None


def _is_source(value: Any) -> bool:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        return False
    if not isinstance(value.get("text", ""), str):
        return False
    roles = value.get("roles")
    return roles is None or (isinstance(roles, list) and all(isinstance(r, str) for r in roles))
