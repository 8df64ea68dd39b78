"""The guarding proxy (``guardrail serve``, CONTRACT section 7) over real HTTP: uvicorn on loopback, a fake upstream.

Its limits (how many upstream requests at once), its key check, the paths it forwards unguarded, and its own
errors, all in OpenAI's error shape.
"""

from __future__ import annotations

import asyncio
import base64
import json
import math
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from guardrail import Guard
from guardrail.demo import BackgroundServer
from guardrail.proxy import create_proxy

KEY = "proxy-key-123"
UPSTREAM_KEY = "upstream-key-456"
AUTH = {"authorization": f"Bearer {KEY}"}
GUARD = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}, "blocked_message": "Blocked."})


class FakeUpstream:
    """An OpenAI-compatible model server that remembers what reached it."""

    def __init__(self) -> None:
        self.hits: list[dict[str, Any]] = []
        self.release_stream = threading.Event()

        async def chat(request: Request) -> Response:
            self.hits.append(await self._seen(request))
            return JSONResponse({"object": "chat.completion", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Ask BLUEJAY."}}]})

        async def models(request: Request) -> Response:
            self.hits.append(await self._seen(request))
            return JSONResponse({"object": "list", "data": [{"id": "m1", "object": "model"}],
                                 "seen": self.hits[-1]}, headers={"x-request-id": "req-1", "openai-version": "v"})

        async def teapot(request: Request) -> Response:
            self.hits.append(await self._seen(request))
            return Response(b"short and stout", status_code=418, media_type="text/plain")

        async def stream(request: Request) -> Response:
            self.hits.append(await self._seen(request))

            async def body() -> Any:
                yield b"data: first\n\n"
                for _ in range(500):  # the rest only once the client has the first part: the proxy must not buffer
                    if self.release_stream.is_set():
                        break
                    await asyncio.sleep(0.01)
                yield b"data: second\n\n"

            return StreamingResponse(body(), media_type="text/event-stream")

        async def echo(request: Request) -> Response:
            seen = await self._seen(request)
            self.hits.append(seen)
            return JSONResponse(seen, status_code=201 if request.method == "PUT" else 200)

        self.app = Starlette(routes=[
            Route("/v1/chat/completions", chat, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/teapot", teapot, methods=["GET", "POST"]),
            Route("/v1/stream", stream, methods=["GET"]),
            Route("/{rest:path}", echo, methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        ])

    @staticmethod
    async def _seen(request: Request) -> dict[str, Any]:
        body = await request.body()
        return {"method": request.method, "raw_path": request.scope["raw_path"].decode(),
                "query": request.scope["query_string"].decode(), "authorization": request.headers.get("authorization"),
                "content_type": request.headers.get("content-type"), "body": base64.b64encode(body).decode(),
                "x_custom": request.headers.get("x-custom")}

    def chat_hits(self) -> int:
        return sum(1 for h in self.hits if "chat" in h["raw_path"].lower())


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[str, FakeUpstream]]:
    fake = FakeUpstream()
    with BackgroundServer(fake.app) as server:
        yield server.url, fake


@pytest.fixture(scope="module")
def proxy(upstream: tuple[str, FakeUpstream]) -> Iterator[str]:
    with BackgroundServer(create_proxy(GUARD, upstream[0] + "/v1", api_key=KEY,
                                       upstream_api_key=UPSTREAM_KEY)) as server:
        yield server.url


def assert_openai_error(reply: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"] == "application/json"
    body = reply.json()
    assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "code"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["type"], str)
    if code is not None:
        assert body["error"]["code"] == code
    return dict(body["error"])


# ---------------------------------------------------------------------------------------- forwarding, unguarded


def test_models_are_forwarded_with_the_upstream_key(proxy: str, upstream: tuple[str, FakeUpstream]) -> None:
    reply = httpx.get(proxy + "/v1/models?limit=2&after=m%200", headers=AUTH)
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["data"] == [{"id": "m1", "object": "model"}]
    seen = body["seen"]
    assert (seen["method"], seen["raw_path"], seen["query"]) == ("GET", "/v1/models", "limit=2&after=m%200")
    assert seen["authorization"] == f"Bearer {UPSTREAM_KEY}"  # the upstream's key, never the proxy's
    assert "x-guardrail-decision" not in reply.headers
    assert reply.headers["x-request-id"] == "req-1" and reply.headers["openai-version"] == "v"


def test_embeddings_post_is_forwarded_byte_for_byte(proxy: str, upstream: tuple[str, FakeUpstream]) -> None:
    payload = b'{"model": "e5", "input": ["BLUEJAY", "caf\xc3\xa9"]}'
    reply = httpx.post(proxy + "/v1/embeddings", content=payload,
                       headers={**AUTH, "content-type": "application/json", "x-custom": "kept"})
    assert reply.status_code == 200
    seen = reply.json()
    assert (seen["method"], seen["raw_path"]) == ("POST", "/v1/embeddings")
    assert base64.b64decode(seen["body"]) == payload  # untouched: forwarded paths are not guarded
    assert seen["content_type"] == "application/json"
    assert seen["x_custom"] == "kept"
    assert seen["authorization"] == f"Bearer {UPSTREAM_KEY}"


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE", "OPTIONS"])
def test_other_methods_are_forwarded_as_they_are(proxy: str, method: str) -> None:
    blob = bytes(range(256))
    reply = httpx.request(method, proxy + "/v1/files/file-1%2Fa?purpose=x", content=blob,
                          headers={**AUTH, "content-type": "application/octet-stream"})
    assert reply.status_code == (201 if method == "PUT" else 200)
    seen = reply.json()
    assert (seen["method"], seen["raw_path"], seen["query"]) == (method, "/v1/files/file-1%2Fa", "purpose=x")
    assert base64.b64decode(seen["body"]) == blob
    assert seen["content_type"] == "application/octet-stream"


def test_the_upstream_status_and_body_come_back(proxy: str) -> None:
    reply = httpx.post(proxy + "/v1/teapot", headers=AUTH)
    assert (reply.status_code, reply.content, reply.headers["content-type"]) == (
        418, b"short and stout", "text/plain; charset=utf-8")


def test_forwarded_responses_stream(proxy: str, upstream: tuple[str, FakeUpstream]) -> None:
    fake = upstream[1]
    fake.release_stream.clear()
    started = time.monotonic()
    with httpx.Client(timeout=10) as client, client.stream("GET", proxy + "/v1/stream", headers=AUTH) as reply:
        assert reply.status_code == 200
        parts = reply.iter_bytes()
        first = next(parts)
        assert first == b"data: first\n\n"  # arrived while the upstream still holds the rest (for 5 s)
        assert time.monotonic() - started < 3
        fake.release_stream.set()
        rest = first + b"".join(parts)
    assert rest == b"data: first\n\ndata: second\n\n"


def test_no_upstream_key_means_no_authorization_upstream(upstream: tuple[str, FakeUpstream]) -> None:
    with BackgroundServer(create_proxy(GUARD, upstream[0] + "/v1", api_key=KEY)) as server:
        seen = httpx.get(server.url + "/v1/anything", headers=AUTH).json()
    assert seen["authorization"] is None  # the proxy's own key never leaves it


def test_chat_completions_stay_guarded(proxy: str, upstream: tuple[str, FakeUpstream]) -> None:
    reply = httpx.post(proxy + "/v1/chat/completions", json={"model": "m", "messages": []}, headers=AUTH)
    assert reply.headers["x-guardrail-decision"] == "modified"
    assert reply.json()["choices"][0]["message"]["content"] == "Ask [redacted]."
    assert upstream[1].hits[-1]["authorization"] == f"Bearer {UPSTREAM_KEY}"


def test_an_encoded_slash_still_reaches_the_guarded_route(proxy: str) -> None:
    reply = httpx.post(proxy + "/v1/chat%2Fcompletions", json={"model": "m", "messages": []}, headers=AUTH)
    assert reply.headers.get("x-guardrail-decision") == "modified"


@pytest.mark.parametrize("path", ["/v1/chat/completions/", "/v1//chat/completions", "/v1/Chat/Completions",
                                  "/v1/chat/completions/chatcmpl-1", "/v1/x/%2e%2e/chat/completions",
                                  "/v1/chat/%2e/completions", "/v1/chat%2Fcompletions/"])
def test_other_spellings_of_chat_completions_are_never_forwarded(proxy: str, upstream: tuple[str, FakeUpstream],
                                                                  path: str) -> None:
    before = upstream[1].chat_hits()
    reply = httpx.post(proxy + path, json={"model": "m", "messages": []}, headers=AUTH)
    assert reply.status_code in (400, 404)
    assert_openai_error(reply, reply.status_code)
    assert upstream[1].chat_hits() == before


# ------------------------------------------------------------------------------------------------------ the key


@pytest.mark.parametrize("value", [f"bearer {KEY}", f"BEARER {KEY}", f"BeArEr {KEY}", f"Bearer   {KEY}"])
def test_the_bearer_scheme_is_case_insensitive(proxy: str, value: str) -> None:
    headers = {"authorization": value}
    assert httpx.get(proxy + "/v1/models", headers=headers).status_code == 200
    chat = httpx.post(proxy + "/v1/chat/completions", json={"model": "m", "messages": []}, headers=headers)
    assert chat.status_code == 200 and chat.headers["x-guardrail-decision"] == "modified"


@pytest.mark.parametrize("value", [None, "", "Bearer", f"Bearer Bearer {KEY}", f"Basic {KEY}", KEY, f"Bearer {KEY}x",
                                   f"Bearer {KEY[:-1]}", f"Token {KEY}", "Bearer proxy-key-12\u00e9"])
@pytest.mark.parametrize(("method", "path"), [("GET", "/v1/models"), ("POST", "/v1/embeddings"),
                                              ("POST", "/v1/chat/completions"), ("DELETE", "/v1/files/f")])
def test_every_forwarded_path_needs_the_key(proxy: str, upstream: tuple[str, FakeUpstream], value: str | None,
                                            method: str, path: str) -> None:
    before = len(upstream[1].hits)
    headers = {} if value is None else {"authorization": value.encode("utf-8")}
    reply = httpx.request(method, proxy + path, json={}, headers=headers)
    assert_openai_error(reply, 401, "invalid_api_key")
    assert len(upstream[1].hits) == before  # never an open relay


def test_a_non_ascii_key_is_compared_as_utf8(upstream: tuple[str, FakeUpstream]) -> None:
    key = "schlüssel-ключ"
    with BackgroundServer(create_proxy(GUARD, upstream[0] + "/v1", api_key=key)) as server:
        raw = f"Bearer {key}".encode()  # a client sends the key's UTF-8 bytes
        assert httpx.get(server.url + "/v1/models", headers={"authorization": raw}).status_code == 200


@pytest.mark.parametrize("key", ["", " ", "   ", "\t\n"])
def test_a_blank_key_refuses_to_start(key: str) -> None:
    with pytest.raises(ValueError, match="non-blank API key"):
        create_proxy(GUARD, "http://127.0.0.1:1/v1", api_key=key)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"max_connections": 0}, "max_connections"), ({"max_connections": -5}, "max_connections"),
    ({"max_connections": 1.5}, "max_connections"), ({"max_connections": True}, "max_connections"),
    ({"timeout": 0}, "timeout"), ({"timeout": -1.0}, "timeout"), ({"timeout": math.inf}, "timeout"),
    ({"timeout": math.nan}, "timeout"),
])
def test_bad_limits_are_value_errors(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        create_proxy(GUARD, "http://127.0.0.1:1/v1", api_key=KEY, **kwargs)


@pytest.mark.parametrize("upstream_url", ["localhost:8000", "ftp://h/v1", "/v1", "http://"])
def test_a_bad_upstream_url_is_a_value_error(upstream_url: str) -> None:
    with pytest.raises(ValueError, match="upstream"):
        create_proxy(GUARD, upstream_url, api_key=KEY)


# ------------------------------------------------------------------------------------------ the proxy's own errors


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/", 404, "unknown_url"),
    ("GET", "/models", 404, "unknown_url"),
    ("POST", "/chat/completions", 404, "unknown_url"),
    ("GET", "/v2/models", 404, "unknown_url"),
    ("GET", "/v1", 404, "unknown_url"),
    ("POST", "/healthz", 405, "method_not_allowed"),
    ("GET", "/v1/chat/completions", 405, "method_not_allowed"),
    ("PUT", "/v1/chat/completions", 405, "method_not_allowed"),
    ("TRACE", "/v1/models", 405, "method_not_allowed"),
])
def test_routing_errors_are_openai_json(proxy: str, upstream: tuple[str, FakeUpstream], method: str, path: str,
                                        status: int, code: str) -> None:
    before = len(upstream[1].hits)
    reply = httpx.request(method, proxy + path, headers=AUTH)
    err = assert_openai_error(reply, status, code)
    assert err["type"] == "invalid_request_error"
    if status == 405:
        assert reply.headers["allow"]
    assert len(upstream[1].hits) == before


def test_a_bad_chat_body_is_an_openai_400(proxy: str) -> None:
    reply = httpx.post(proxy + "/v1/chat/completions", content=b"{", headers=AUTH)
    assert_openai_error(reply, 400, "invalid_json")
    reply = httpx.post(proxy + "/v1/chat/completions", json={"guardrail": {"roles": "admin"}}, headers=AUTH)
    assert_openai_error(reply, 400, "invalid_guardrail_context")


def test_upstream_failures_on_forwarded_paths_are_openai_json() -> None:
    async def slow(request: Request) -> Response:
        await asyncio.sleep(3)
        return JSONResponse({})

    slow_app = Starlette(routes=[Route("/v1/models", slow)])
    with BackgroundServer(slow_app) as model:
        dead = BackgroundServer(slow_app)
        dead_url = dead.url
        dead.sock.close()  # nobody listens there: connections are refused
        with BackgroundServer(create_proxy(GUARD, model.url + "/v1", api_key=KEY, timeout=0.3)) as slow_proxy, \
                BackgroundServer(create_proxy(GUARD, dead_url + "/v1", api_key=KEY)) as dead_proxy:
            assert_openai_error(httpx.get(slow_proxy.url + "/v1/models", headers=AUTH), 504, "upstream_timeout")
            assert_openai_error(httpx.get(dead_proxy.url + "/v1/models", headers=AUTH), 502, "upstream_unreachable")
            assert_openai_error(httpx.post(dead_proxy.url + "/v1/chat/completions", json={}, headers=AUTH), 502,
                                "upstream_unreachable")


class BrokenTransport(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise RuntimeError("a bug")


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/embeddings"])
def test_a_crash_inside_the_proxy_is_an_openai_500(path: str) -> None:
    with BackgroundServer(create_proxy(GUARD, "http://127.0.0.1:1/v1", api_key=KEY,
                                       transport=BrokenTransport())) as server:
        reply = httpx.post(server.url + path, json={"model": "m", "messages": []}, headers=AUTH)
    err = assert_openai_error(reply, 500, "internal_error")
    assert err["type"] == "server_error" and "a bug" not in err["message"]  # no internals to the caller


# --------------------------------------------------------------------------------------------------- the limits


class Gate:
    """An upstream whose chat completions wait until ``wanted`` requests are in flight at once (or 5 s passed), or,
    with ``hold``, each for that many seconds; it counts the requests in flight."""

    def __init__(self, wanted: int = 0, hold: float | None = None):
        self.wanted = wanted
        self.in_flight = 0
        self.most = 0
        self.enough: asyncio.Event | None = None

        async def chat(request: Request) -> Response:
            await request.body()
            if self.enough is None:
                self.enough = asyncio.Event()
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
            if self.in_flight >= self.wanted and hold is None:
                self.enough.set()
            try:
                await asyncio.wait_for(self.enough.wait(), 5 if hold is None else hold)
            except TimeoutError:
                pass
            finally:
                self.in_flight -= 1
            return JSONResponse({"object": "chat.completion", "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Fine."}}]})

        async def trickle(request: Request) -> Response:
            async def body() -> Any:
                for _ in range(10):
                    yield b"."
                    await asyncio.sleep(0.2)

            return StreamingResponse(body(), media_type="text/plain")

        self.app = Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"]),
                                     Route("/v1/trickle", trickle)])


def run_concurrently(url: str, n: int) -> list[int]:
    async def main() -> list[int]:
        limits = httpx.Limits(max_connections=n + 10, max_keepalive_connections=n + 10)
        async with httpx.AsyncClient(limits=limits, timeout=30) as client:
            replies = await asyncio.gather(*(
                client.post(url + "/v1/chat/completions", json={"model": "m", "messages": []}, headers=AUTH)
                for _ in range(n)))
        return [r.status_code for r in replies]

    return asyncio.run(main())


def test_more_than_a_hundred_upstream_requests_in_flight_by_default() -> None:
    gate = Gate(wanted=150)
    with BackgroundServer(gate.app) as model, BackgroundServer(create_proxy(GUARD, model.url + "/v1",
                                                                            api_key=KEY)) as server:
        statuses = run_concurrently(server.url, 150)
    assert statuses == [200] * 150
    assert gate.most == 150  # httpx's default pool would have held it at 100


def test_max_connections_caps_the_upstream_requests_in_flight() -> None:
    gate = Gate(hold=0.3)
    with BackgroundServer(gate.app) as model, BackgroundServer(create_proxy(GUARD, model.url + "/v1", api_key=KEY,
                                                                            max_connections=5)) as server:
        statuses = run_concurrently(server.url, 12)
    assert statuses == [200] * 12
    assert gate.most == 5


def test_a_pool_that_stays_full_is_an_openai_503() -> None:
    gate = Gate()
    with BackgroundServer(gate.app) as model, BackgroundServer(create_proxy(GUARD, model.url + "/v1", api_key=KEY,
                                                                            max_connections=1, timeout=1)) as server:

        async def main() -> httpx.Response:
            async with httpx.AsyncClient(timeout=30) as client:
                # the one connection trickles a byte every 0.2 s for 2 s: busy, but never timing out
                async with client.stream("GET", server.url + "/v1/trickle", headers=AUTH) as first:
                    second = await client.get(server.url + "/v1/models", headers=AUTH)
                    await first.aread()
                return second

        second = asyncio.run(main())
    assert_openai_error(second, 503, "upstream_busy")


# ------------------------------------------------------------------ an upstream that errs, breaks off or stalls


class RawUpstream:
    """A model server written on a socket, to answer what a well-behaved one never would: each request gets the
    next of ``replies``, a list of ``(bytes, seconds)`` steps written in turn, pausing after each, then the
    connection is closed (cutting a body that promised more)."""

    def __init__(self) -> None:
        self.replies: list[list[tuple[bytes, float]]] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: Any = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        await reader.readexactly(length)
        for data, pause in self.replies.pop(0):
            writer.write(data)
            await writer.drain()
            await asyncio.sleep(pause)
        writer.close()

    def __enter__(self) -> str:
        self.thread.start()

        async def start() -> Any:
            return await asyncio.start_server(self._serve, "127.0.0.1", 0)

        self.server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    def __exit__(self, *exc: Any) -> None:
        async def stop() -> None:
            self.server.close()
            for task in asyncio.all_tasks():  # (answers still pausing: the test has what it needs)
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def _head(status: str, media: str, length: int | None = None) -> bytes:
    size = f"content-length: {length}\r\n" if length is not None else "transfer-encoding: chunked\r\n"
    return f"HTTP/1.1 {status}\r\ncontent-type: {media}\r\n{size}connection: close\r\n\r\n".encode()


def _piece(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _ask(url: str, stream: bool = False) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": stream,
            "guardrail": {"sources": [{"id": "fin-9", "text": "Secret.", "roles": ["exec"]}], "roles": ["staff"]}}
    return httpx.post(url + "/v1/chat/completions", json=body, headers=AUTH, timeout=30)


def test_an_upstream_error_goes_back_without_what_the_caller_may_not_see() -> None:
    error = b'{"error": {"message": "Cannot answer about BLUEJAY; see fin-9.", "type": "invalid_request_error"}}'
    raw = RawUpstream()
    raw.replies = [[(_head("429 Too Many Requests", "application/json", len(error)) + error, 0)]]
    with raw as url, BackgroundServer(create_proxy(GUARD, url + "/v1", api_key=KEY)) as proxy:
        reply = _ask(proxy.url)
    assert reply.status_code == 429
    assert reply.json() == {"error": {"message": "Cannot answer about [redacted]; see [redacted].",
                                      "type": "invalid_request_error"}}


def test_an_upstream_error_it_breaks_off_is_an_error_of_the_guard_not_a_truncated_body() -> None:
    """An error body held to be scrubbed (the turn has a source the caller may not see) that the upstream cuts
    short goes out as the guard's own error with its cause, never as the upstream's status with half its body."""
    error = b'{"error": {"message": "Cannot answer about BLUEJAY; see fin-9.", "type": "server_error"}}'
    raw = RawUpstream()
    raw.replies = [
        [(_head("500 Internal Server Error", "application/json", len(error) + 10) + error, 0)],  # a length not reached
        [(_head("503 Service Unavailable", "application/json") + _piece(error[:30]), 0)],  # chunked, cut
    ]
    with raw as url, BackgroundServer(create_proxy(GUARD, url + "/v1", api_key=KEY)) as proxy:
        replies = [_ask(proxy.url), _ask(proxy.url)]
    for reply in replies:
        assert_openai_error(reply, 502, "upstream_truncated")
        assert "BLUEJAY" not in reply.text and "fin-9" not in reply.text


def test_an_answer_the_upstream_breaks_off_or_stalls_in_is_an_error_not_an_answer() -> None:
    """A body cut short (a promised length not reached, a chunked body without its end) or stalled past the
    proxy's timeout ends as a guard error with its cause, in each shape: it used to pass as a whole answer."""
    whole = json.dumps({"object": "chat.completion", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "All fine."}}]}).encode()
    sse = b'data: {"choices": [{"index": 0, "delta": {"content": "Leave is 25 days. "}}]}\n\n'
    raw = RawUpstream()
    raw.replies = [
        [(_head("200 OK", "application/json", len(whole) + 10) + whole, 0)],  # complete JSON, a longer length
        [(_head("200 OK", "text/plain") + _piece(b"The answer is: do "), 0)],  # chunked, cut
        [(_head("200 OK", "text/event-stream") + _piece(sse), 2.0)],  # stalls past the timeout
        [(_head("200 OK", "application/json") + _piece(whole[:20]), 2.0)],
    ]
    with raw as url, BackgroundServer(create_proxy(GUARD, url + "/v1", api_key=KEY, timeout=0.5)) as proxy:
        cut_json = _ask(proxy.url)
        cut_text = _ask(proxy.url)
        stalled_stream = _ask(proxy.url, stream=True)
        stalled_json = _ask(proxy.url)
    assert_openai_error(cut_json, 502, "upstream_truncated")
    assert cut_text.status_code == 200 and cut_text.text.endswith("[guardrail error: upstream_truncated]")
    assert '"code": "upstream_timeout"' in stalled_stream.text.replace('":"', '": "')
    assert stalled_stream.text.rstrip().endswith("data: [DONE]")
    assert_openai_error(stalled_json, 502, "upstream_timeout")


def test_header_values_that_are_no_latin1_text_are_relayed_as_written() -> None:
    """An upstream header in UTF-8 (a snowman in an x-request-id) made the proxy answer 500: its bytes go on."""
    whole = json.dumps({"object": "chat.completion", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "All fine."}}]}).encode()
    head = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-request-id: req-\xe2\x98\x83\r\n"
            b"content-length: " + str(len(whole)).encode() + b"\r\nconnection: close\r\n\r\n")
    raw = RawUpstream()
    raw.replies = [[(head + whole, 0)]]
    with raw as url, BackgroundServer(create_proxy(GUARD, url + "/v1", api_key=KEY)) as proxy:
        reply = _ask(proxy.url)
        assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == "All fine."
        assert reply.headers.raw[[k.lower() for k, _ in reply.headers.raw].index(b"x-request-id")][1] == \
            b"req-\xe2\x98\x83"
