"""End to end over real HTTP: uvicorn on loopback, httpx as the client; the middleware, the proxy and the demo."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from guardrail import Guard, GuardrailMiddleware, attach_context
from guardrail.demo import CONVERSATIONS, DEMO_POLICY, BackgroundServer, create_app, create_upstream, run_demo
from guardrail.proxy import create_proxy

KEY = "test-key-123"
DOCS = [{"id": "a", "text": "Leave is 25 days."}, {"id": "s", "text": "Secret.", "roles": ["board"]}]
GUARD = Guard.from_dict({"citations": {}, "banned_terms": {"terms": ["BLUEJAY"]}, "blocked_message": "Blocked."})


def ask(question: str, **extra: Any) -> dict[str, Any]:
    return {"model": "replay", "messages": [{"role": "user", "content": question}], **extra}


def read_stream(reply: httpx.Response) -> tuple[str, list[str], bool]:
    text, reasons, done = [], [], False
    for line in reply.iter_lines():
        if line == "data: [DONE]":
            done = True
        elif line.startswith("data: "):
            for choice in json.loads(line[6:])["choices"]:
                text.append(choice.get("delta", {}).get("content") or "")
                if choice.get("finish_reason"):
                    reasons.append(choice["finish_reason"])
    return "".join(text), reasons, done


@pytest.fixture(scope="module")
def demo_server() -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app()) as server:
        yield server


def conversation(name: str) -> dict[str, Any]:
    return next(c for c in CONVERSATIONS if c["id"] == name)


@pytest.mark.parametrize(("name", "decision"), [("clean", "pass"), ("invented-source", "modified"),
                                                ("unauthorized", "blocked"), ("code-name", "modified")])
def test_middleware_over_http_json_and_stream(demo_server: BackgroundServer, name: str, decision: str) -> None:
    c = conversation(name)
    guard = Guard.from_dict(DEMO_POLICY)
    expected = guard.check(c["answer"], [{"id": d, **_corpus(d)} for d in c["retrieved"]], _roles(c["user"]))
    with httpx.Client(base_url=demo_server.url, headers={"x-demo-user": c["user"]}) as client:
        reply = client.post("/v1/chat/completions", json=ask(c["question"]))
        assert reply.status_code == 200
        assert reply.headers["x-guardrail-decision"] == decision == expected.decision.value
        assert int(reply.headers["content-length"]) == len(reply.content)
        assert reply.json()["choices"][0]["message"]["content"] == expected.output
        with client.stream("POST", "/v1/chat/completions", json=ask(c["question"], stream=True)) as streamed:
            assert streamed.headers["content-type"].startswith("text/event-stream")
            text, reasons, done = read_stream(streamed)
    assert done
    if decision == "blocked":
        assert reasons == ["content_filter"] and "[doc:fin-9]" not in text
    else:
        assert (text, reasons) == (expected.output, ["stop"])


def _corpus(doc: str) -> dict[str, Any]:
    from guardrail.demo import CORPUS

    return CORPUS[doc]


def _roles(user: str) -> list[str]:
    from guardrail.demo import USERS

    return USERS[user]


def test_sync_and_async_endpoints_attach_context_in_starlette_and_fastapi() -> None:
    def sync_chat(request: Request) -> Response:  # runs in the threadpool
        attach_context(request, sources=DOCS, roles=["staff"])
        return JSONResponse(_completion("Leave is 25 days [doc:a]. Ask BLUEJAY [doc:a]."))

    starlette_app = Starlette(routes=[Route("/v1/chat/completions", sync_chat, methods=["POST"])])
    starlette_app.add_middleware(GuardrailMiddleware, guard=GUARD)

    fastapi_app = FastAPI()

    @fastapi_app.post("/v1/chat/completions")
    async def chat(request: Request) -> dict[str, Any]:
        attach_context(request, sources=DOCS, roles=["staff"])
        return _completion("Leave is 25 days [doc:a]. The secret [doc:s].")

    fastapi_app.add_middleware(GuardrailMiddleware, guard=GUARD)
    with BackgroundServer(starlette_app) as one, BackgroundServer(fastapi_app) as two:
        first = httpx.post(one.url + "/v1/chat/completions", json={})
        second = httpx.post(two.url + "/v1/chat/completions", json={})
    assert first.json()["choices"][0]["message"]["content"] == "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."
    assert first.headers["x-guardrail-decision"] == "modified"
    assert second.headers["x-guardrail-decision"] == "blocked"
    assert second.json()["choices"][0] == {"index": 0, "finish_reason": "content_filter",
                                           "message": {"role": "assistant", "content": "Blocked."}}


def _completion(text: str) -> dict[str, Any]:
    return {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                                                       "message": {"role": "assistant", "content": text}}]}


def test_client_disconnect_while_buffering_stops_the_upstream_generator() -> None:
    stopped = threading.Event()

    async def slow_json(request: Request) -> Response:
        async def body() -> Any:
            try:
                yield b'{"choices": [{"message": {"content": "'
                for _ in range(200):
                    await asyncio.sleep(0.05)
                    yield b"word "
                yield b'"}}]}'
            finally:
                stopped.set()

        return StreamingResponse(body(), media_type="application/json")

    app = Starlette(routes=[Route("/v1/chat/completions", slow_json, methods=["POST"])])
    app.add_middleware(GuardrailMiddleware, guard=GUARD)
    with BackgroundServer(app) as server:
        with httpx.Client(timeout=0.3) as client, pytest.raises(httpx.ReadTimeout):
            client.post(server.url + "/v1/chat/completions", json={})  # nothing comes back while the body is held
        assert stopped.wait(5), "the upstream generator kept running after the client left"


# ------------------------------------------------------------------------------------------------------ the proxy


class RecordingUpstream:
    """The replay model server, remembering the bodies it received."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        replay = create_upstream()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                body = b""
                while True:
                    message = await receive()
                    body += message.get("body", b"")
                    if not message.get("more_body"):
                        break
                self.bodies.append(json.loads(body or b"{}"))
                sent = False

                async def again() -> dict[str, Any]:
                    nonlocal sent
                    if sent:
                        await asyncio.sleep(3600)
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}

                await replay(scope, again, send)
            else:
                await replay(scope, receive, send)

        self.app = app


@pytest.fixture(scope="module")
def proxy() -> Iterator[tuple[str, RecordingUpstream]]:
    upstream = RecordingUpstream()
    guard = Guard.from_dict(DEMO_POLICY)
    with BackgroundServer(upstream.app) as model, \
            BackgroundServer(create_proxy(guard, model.url + "/v1", api_key=KEY, upstream_api_key="up")) as server:
        yield server.url, upstream


def turn(name: str) -> dict[str, Any]:
    c = conversation(name)
    from guardrail.demo import CORPUS, USERS

    return {"sources": [{"id": d, **CORPUS[d]} for d in c["retrieved"]], "roles": USERS[c["user"]]}


def test_proxy_refuses_callers_without_the_key(proxy: tuple[str, RecordingUpstream]) -> None:
    url, upstream = proxy
    before = len(upstream.bodies)
    for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": KEY}):
        reply = httpx.post(url + "/v1/chat/completions", json=ask("How much annual leave do I get?"), headers=headers)
        assert reply.status_code == 401
        assert reply.json()["error"]["code"] == "invalid_api_key"
    assert len(upstream.bodies) == before  # nothing was forwarded


@pytest.mark.parametrize("name", ["clean", "invented-source", "unauthorized", "altered-quote"])
def test_proxy_guards_json_and_streams(proxy: tuple[str, RecordingUpstream], name: str) -> None:
    url, upstream = proxy
    c = conversation(name)
    context = turn(name)
    expected = Guard.from_dict(DEMO_POLICY).check(c["answer"], context["sources"], context["roles"])
    with httpx.Client(base_url=url, headers={"authorization": f"Bearer {KEY}"}) as client:
        reply = client.post("/v1/chat/completions", json=ask(c["question"], guardrail=context))
        assert reply.status_code == 200
        assert reply.headers["x-guardrail-decision"] == expected.decision.value
        assert reply.json()["choices"][0]["message"]["content"] == expected.output
        assert "guardrail" not in upstream.bodies[-1] and upstream.bodies[-1]["messages"]
        with client.stream("POST", "/v1/chat/completions",
                           json=ask(c["question"], stream=True, guardrail=context)) as streamed:
            text, reasons, done = read_stream(streamed)
    assert done
    if expected.decision.value == "blocked":
        assert reasons == ["content_filter"]
    else:
        assert text == expected.output


def test_proxy_checks_the_guardrail_field(proxy: tuple[str, RecordingUpstream]) -> None:
    url, _ = proxy
    headers = {"authorization": f"Bearer {KEY}"}
    for bad in ({"roles": "admin"}, {"sources": [{"text": "no id"}]}, {"user": "x"}, [1]):
        reply = httpx.post(url + "/v1/chat/completions", json=ask("Q", guardrail=bad), headers=headers)
        assert reply.status_code == 400 and reply.json()["error"]["type"] == "invalid_request_error"
    assert httpx.post(url + "/v1/chat/completions", content=b"{", headers=headers).status_code == 400


def test_proxy_passes_upstream_errors_and_reports_health(proxy: tuple[str, RecordingUpstream]) -> None:
    url, _ = proxy
    reply = httpx.post(url + "/v1/chat/completions", json=ask("not a recorded question"),
                       headers={"authorization": f"Bearer {KEY}"})
    assert reply.status_code == 404 and "x-guardrail-decision" not in reply.headers
    health = httpx.get(url + "/healthz")
    assert health.status_code == 200 and health.json() == {"status": "ok", "policy": "demo-enterprise-assistant"}


def test_proxy_maps_an_unreachable_or_slow_upstream() -> None:
    async def slow(request: Request) -> Response:
        await asyncio.sleep(3)
        return JSONResponse({})

    slow_app = Starlette(routes=[Route("/v1/chat/completions", slow, methods=["POST"])])
    with BackgroundServer(slow_app) as model:
        dead_port = BackgroundServer(slow_app)  # a bound socket nobody serves: the connection is refused
        dead_url = dead_port.url
        dead_port.sock.close()
        with BackgroundServer(create_proxy(GUARD, model.url + "/v1", api_key=KEY, timeout=0.3)) as slow_proxy, \
                BackgroundServer(create_proxy(GUARD, dead_url + "/v1", api_key=KEY)) as dead_proxy:
            headers = {"authorization": f"Bearer {KEY}"}
            timed_out = httpx.post(slow_proxy.url + "/v1/chat/completions", json=ask("Q"), headers=headers)
            refused = httpx.post(dead_proxy.url + "/v1/chat/completions", json=ask("Q"), headers=headers)
    assert timed_out.status_code == 504 and timed_out.json()["error"]["code"] == "upstream_timeout"
    assert refused.status_code == 502 and refused.json()["error"]["code"] == "upstream_unreachable"


def test_proxy_needs_a_key() -> None:
    with pytest.raises(ValueError):
        create_proxy(GUARD, "http://127.0.0.1:1/v1", api_key="")


def test_demo_runs_and_streams_agree_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    assert run_demo() == 0
    out = capsys.readouterr().out
    assert "8 conversations" in out and "3 passed, 3 modified, 2 blocked" in out
    assert "DIFFERENT" not in out
    assert time.monotonic() - started < 30
