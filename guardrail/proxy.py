"""The OpenAI-compatible guarding proxy behind ``guardrail serve``.

``POST /v1/chat/completions`` is forwarded to the upstream model server (vLLM, Ollama, a hosted API) and its answer,
JSON or streamed, goes back through :class:`~guardrail.GuardrailMiddleware`. The calling application sends the turn's
retrieved sources and its user's roles in the request body's ``guardrail`` field (``extra_body`` in OpenAI clients),
which is removed before forwarding. Because the roles then come from the caller, the proxy admits only callers that
present its own key (``Authorization: Bearer ...``): the application, never its end users.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .guard import Guard
from .middleware import GuardrailMiddleware, attach_context

# Response headers of the upstream worth passing on; the rest describe the upstream's own connection.
_PASSED_HEADERS = ("content-type", "x-request-id", "openai-processing-ms", "openai-model")


def error(status: int, message: str, kind: str, code: str | None = None) -> JSONResponse:
    """An error in the shape OpenAI clients read: ``{"error": {"message", "type", "code"}}``."""
    return JSONResponse({"error": {"message": message, "type": kind, "code": code}}, status_code=status)


def create_proxy(
    guard: Guard,
    upstream: str,
    *,
    api_key: str,
    upstream_api_key: str | None = None,
    timeout: float = 120.0,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Starlette:
    """The proxy app. ``upstream`` is the model server's base URL (``http://host:port/v1``); ``api_key`` is the
    key callers must present; ``upstream_api_key`` is sent to the upstream, if given."""
    if not api_key:
        raise ValueError("the proxy needs an API key: it trusts the roles its callers send")
    target = upstream.rstrip("/") + "/chat/completions"
    expected = f"Bearer {api_key}".encode()
    state: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with httpx.AsyncClient(timeout=httpx.Timeout(timeout, connect=10.0), transport=transport) as client:
            state["client"] = client
            yield

    async def chat(request: Request) -> Response:
        presented = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(presented, expected):
            return error(401, "missing or wrong API key", "invalid_request_error", "invalid_api_key")
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):
            return error(400, "the request body is not JSON", "invalid_request_error")
        if not isinstance(body, dict):
            return error(400, "the request body must be a JSON object", "invalid_request_error")
        turn = body.pop("guardrail", None) or {}
        problem = _context_problem(turn)
        if problem:
            return error(400, f"guardrail: {problem}", "invalid_request_error")
        attach_context(request, sources=turn.get("sources") or (), roles=turn.get("roles") or ())
        headers = {"accept-encoding": "identity"}
        if upstream_api_key:
            headers["authorization"] = f"Bearer {upstream_api_key}"
        client = state["client"]
        try:
            reply = await client.send(client.build_request("POST", target, json=body, headers=headers), stream=True)
        except httpx.TimeoutException:
            return error(504, "the model server did not answer in time", "upstream_error", "upstream_timeout")
        except httpx.HTTPError as exc:
            return error(502, f"the model server is unreachable ({exc.__class__.__name__})", "upstream_error",
                         "upstream_unreachable")
        passed = {k: v for k, v in reply.headers.items() if k.lower() in _PASSED_HEADERS}
        return StreamingResponse(_relay(reply), status_code=reply.status_code, headers=passed,
                                 background=BackgroundTask(reply.aclose))

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "policy": guard.policy.name})

    return Starlette(
        routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/healthz", healthz, methods=["GET"])],
        middleware=[Middleware(GuardrailMiddleware, guard=guard, paths=["/v1/chat/completions"])],
        lifespan=lifespan,
    )


async def _relay(reply: httpx.Response) -> AsyncIterator[bytes]:
    try:
        async for chunk in reply.aiter_bytes():  # decoded: the guard reads text, not gzip
            yield chunk
    except httpx.HTTPError:
        return  # the upstream broke off: the guard sees a truncated body and its fail mode decides


def _context_problem(turn: Any) -> str | None:
    if not isinstance(turn, dict):
        return "must be an object with 'sources' and 'roles'"
    unknown = set(turn) - {"sources", "roles"}
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
