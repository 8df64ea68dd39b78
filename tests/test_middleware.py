"""GuardrailMiddleware (CONTRACT section 6): the exact ASGI messages it sends, for JSON, SSE and plain text."""

from __future__ import annotations

import asyncio
import gzip
import json
import sys
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import ACTING, answer, contexts

from guardrail import Guard, GuardrailMiddleware, attach_context
from guardrail._sse import SSEDecoder, content_chunk, encode_done, finish_chunk

POLICY: dict[str, Any] = {
    "citations": {"on_hallucinated": "strip", "on_unauthorized": "block"},
    "banned_terms": {"terms": ["BLUEJAY"], "on_match": "redact"},
    "blocked_message": "Blocked.",
}
GUARD = Guard.from_dict(POLICY)
OPEN_GUARD = Guard.from_dict({**POLICY, "fail_mode": "open"})
DOCS = [{"id": "a", "text": "Leave is 25 days."}, {"id": "s", "text": "Secret.", "roles": ["board"]}]
TEMPLATE = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m"}


def completion(*contents: str | None) -> bytes:
    return json.dumps({
        "id": "c1", "object": "chat.completion", "model": "m",
        "choices": [{"index": i, "message": {"role": "assistant", "content": c}, "finish_reason": "stop"}
                    for i, c in enumerate(contents)],
    }).encode()


def upstream(media: str, bodies: list[bytes], *, status: int = 200, extra: list[tuple[str, str]] | None = None,
             context: dict[str, Any] | None = None) -> Any:
    """A raw ASGI app that attaches the turn's context and sends ``bodies`` as one response."""
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if context is not None:
            attach_context(scope, **context)
        headers = [(b"content-type", media.encode())] + [(k.encode(), v.encode()) for k, v in extra or []]
        if len(bodies) == 1:
            headers.append((b"content-length", str(len(bodies[0])).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        for i, body in enumerate(bodies):
            await send({"type": "http.response.body", "body": body, "more_body": i < len(bodies) - 1})
    return app


def run(app: Any, path: str = "/v1/chat/completions", method: str = "POST", kind: str = "http") -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    scope = {"type": kind, "method": method, "path": path, "headers": [], "query_string": b"", "root_path": ""}
    asyncio.run(app(scope, receive, send))
    return messages


def headers_of(message: dict[str, Any]) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in message["headers"]}


def body_of(messages: list[dict[str, Any]]) -> bytes:
    return b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")


CONTEXT = {"sources": DOCS, "roles": ["employee"]}


# ------------------------------------------------------------------------------------------------------------ JSON


def test_json_pass_sends_the_same_bytes_with_the_decision_header() -> None:
    body = completion("Leave is 25 days [doc:a].")
    messages = run(GuardrailMiddleware(upstream("application/json", [body], extra=[("etag", "x")], context=CONTEXT),
                                       guard=GUARD))
    assert [m["type"] for m in messages] == ["http.response.start", "http.response.body"]
    headers = headers_of(messages[0])
    assert headers["x-guardrail-decision"] == "pass"
    assert headers["content-length"] == str(len(body)) and headers["etag"] == "x"
    assert messages[1] == {"type": "http.response.body", "body": body, "more_body": False}


def test_json_modified_rewrites_content_and_length_and_drops_etag() -> None:
    app = upstream("application/json", [completion("Leave is 25 days [doc:a]. Ask BLUEJAY [doc:a].")],
                   extra=[("etag", "x")], context=CONTEXT)
    messages = run(GuardrailMiddleware(app, guard=GUARD))
    headers = headers_of(messages[0])
    out = json.loads(messages[1]["body"])
    assert out["choices"][0]["message"]["content"] == "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."
    assert headers["x-guardrail-decision"] == "modified"
    assert headers["content-length"] == str(len(messages[1]["body"]))
    assert "etag" not in headers


def test_json_blocked_every_choice_judged() -> None:
    app = upstream("application/json", [completion("Fine [doc:a].", "Secret stuff [doc:s].", None)], context=CONTEXT)
    messages = run(GuardrailMiddleware(app, guard=GUARD))
    out = json.loads(messages[1]["body"])
    assert headers_of(messages[0])["x-guardrail-decision"] == "blocked"
    assert out["choices"][0]["message"]["content"] == "Fine [doc:a]."
    assert out["choices"][1] == {"index": 1, "message": {"role": "assistant", "content": "Blocked."},
                                 "finish_reason": "content_filter"}
    assert out["choices"][2]["message"]["content"] is None  # a tool call: nothing to check
    assert b"[doc:s]" not in messages[1]["body"]


def test_without_attached_context_every_citation_is_invalid() -> None:
    messages = run(GuardrailMiddleware(upstream("application/json", [completion("Leave [doc:a].")]), guard=GUARD))
    assert headers_of(messages[0])["x-guardrail-decision"] == "blocked"  # nothing of substance left


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"choices": []}', b'{"choices": [{"text": "x"}]}',
                                  b'{"choices": [{"message": {"content": ["parts"]}}]}'])
def test_json_of_another_shape_fails_closed_or_open(body: bytes) -> None:
    closed = run(GuardrailMiddleware(upstream("application/json", [body]), guard=GUARD))
    assert closed[0]["status"] == 502 and headers_of(closed[0])["x-guardrail-decision"] == "blocked"
    error = json.loads(closed[1]["body"])["error"]
    assert error["type"] == "guardrail_error" and error["code"] == "upstream_malformed"
    assert headers_of(closed[0])["content-length"] == str(len(closed[1]["body"]))
    opened = run(GuardrailMiddleware(upstream("application/json", [body]), guard=OPEN_GUARD))
    assert opened[1]["body"] == body and headers_of(opened[0])["x-guardrail-decision"] == "pass"


def test_a_completion_nested_past_what_the_scrub_walks_is_an_error_not_a_crash() -> None:
    """With the recursion limit raised, the parser reads a completion nested deeper than the compiled scrub goes:
    that is a malformed upstream (a 502, closed), never a crash or an exception out of the middleware; the pure
    walk, which has no depth of its own, scrubs it."""
    nested = "[" * 3000 + '"Ask BLUEJAY"' + "]" * 3000
    body = ('{"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Fine."}}], '
            f'"usage": {nested}}}').encode()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        messages = run(GuardrailMiddleware(upstream("application/json", [body], context=CONTEXT), guard=GUARD))
    finally:
        sys.setrecursionlimit(limit)
    assert b"BLUEJAY" not in body_of(messages)
    if messages[0]["status"] == 502:
        assert json.loads(body_of(messages))["error"]["code"] == "upstream_malformed"
    else:
        assert messages[0]["status"] == 200 and b"Ask [redacted]" in body_of(messages)


def test_body_in_pieces_is_held_whole() -> None:
    body = completion("Ask BLUEJAY [doc:a].")
    messages = run(GuardrailMiddleware(upstream("application/json", [body[:7], body[7:30], body[30:]],
                                                context=CONTEXT), guard=GUARD))
    assert [m["type"] for m in messages] == ["http.response.start", "http.response.body"]
    assert b"BLUEJAY" not in messages[1]["body"]


def test_over_the_size_cap_fails_closed_or_open() -> None:
    body = completion("Leave [doc:a]. " * 50)
    closed = run(GuardrailMiddleware(upstream("application/json", [body], context=CONTEXT), guard=GUARD,
                                     max_body_bytes=100))
    assert headers_of(closed[0])["x-guardrail-decision"] == "blocked"
    assert closed[0]["status"] == 502 and json.loads(body_of(closed))["error"]["code"] == "upstream_too_large"
    opened = run(GuardrailMiddleware(upstream("application/json", [body[:60], body[60:]], context=CONTEXT),
                                     guard=OPEN_GUARD, max_body_bytes=100))
    assert body_of(opened) == body


# ----------------------------------------------------------------------------------------------- pass-through


@pytest.mark.parametrize(("status", "method", "path", "kind"), [
    (500, "POST", "/v1/chat/completions", "http"),
    (404, "POST", "/v1/chat/completions", "http"),
    (200, "HEAD", "/v1/chat/completions", "http"),
    (200, "POST", "/v1/embeddings", "http"),
])
def test_untouched_responses(status: int, method: str, path: str, kind: str) -> None:
    body = completion("Ask about leave.")
    app = upstream("application/json", [body], status=status)
    assert run(GuardrailMiddleware(app, guard=GUARD), path, method, kind) == run(app, path, method, kind)
    if status == 200:  # (other routes and HEAD: whatever they say)
        app = upstream("application/json", [completion("Ask BLUEJAY.")], status=status)
        assert run(GuardrailMiddleware(app, guard=GUARD), path, method, kind) == run(app, path, method, kind)


@pytest.mark.parametrize("status", [400, 404, 429, 500, 302])
def test_an_error_response_is_not_judged_but_never_spells_what_the_caller_may_not_see(status: int) -> None:
    """An upstream's error may quote the prompt, and with it a passage the caller may not see: its body (JSON:
    every string and key; text: all of it) and headers are scrubbed; its status stays, and it gets no decision."""
    error = json.dumps({"error": {"message": "Cannot answer about BLUEJAY; see s: Secret.", "code": "BLUEJAY"}})
    app = upstream("application/json; charset=utf-8", [error.encode()], status=status, context=CONTEXT,
                   extra=[("x-request-id", "BLUEJAY"), ("x-kept", "fine")])
    messages = run(GuardrailMiddleware(app, guard=GUARD))
    assert messages[0]["status"] == status
    headers = headers_of(messages[0])
    assert "x-request-id" not in headers and headers["x-kept"] == "fine" and "x-guardrail-decision" not in headers
    body = body_of(messages)
    assert int(headers["content-length"]) == len(body)
    assert json.loads(body) == {"error": {"message": "Cannot answer about [redacted]; see [redacted]: Secret.",
                                          "code": "[redacted]"}}
    text = run(GuardrailMiddleware(upstream("text/plain", [b"no BLUEJAY ", b"here"], status=status,
                                            context=CONTEXT), guard=GUARD))
    assert body_of(text) == b"no [redacted] here" and text[0]["status"] == status


def test_a_compressed_error_body_is_scrubbed_or_dropped() -> None:
    """A review got a gzip error body through (a client decompresses it): gzip and deflate are decompressed, scrubbed
    and sent identity-encoded; another coding, a body that does not decompress whole or holds over
    ``max_body_bytes`` (a bomb) goes without its body, as one too big to hold does."""
    error = b'{"error": {"message": "BLUEJAY"}}'

    def sent(coding: str, squeezed: bytes) -> list[dict[str, Any]]:
        app = upstream("application/json", [squeezed], status=500, extra=[("content-encoding", coding)],
                       context=CONTEXT)
        return run(GuardrailMiddleware(app, guard=GUARD, max_body_bytes=100_000))

    for coding, squeezed in [("gzip", gzip.compress(error)), ("Deflate", zlib.compress(error)),
                             ("identity, gzip", gzip.compress(error))]:
        messages = sent(coding, squeezed)
        headers = headers_of(messages[0])
        assert "content-encoding" not in headers and headers["content-length"] == str(len(body_of(messages)))
        assert json.loads(body_of(messages)) == {"error": {"message": "[redacted]"}}
    for coding, squeezed in [("br", b"BLUEJAY"), ("gzip", error), ("gzip", gzip.compress(error)[:-8]),
                             ("gzip", gzip.compress(error) * 2), ("gzip", gzip.compress(b" " * 10_000_000)),
                             ("gzip, br", gzip.compress(error))]:
        messages = sent(coding, squeezed)
        assert messages[0]["status"] == 500 and body_of(messages) == b""
        assert "content-encoding" not in headers_of(messages[0])


def test_an_error_response_too_big_to_scrub() -> None:
    """Over ``max_body_bytes``, its status and headers go without the body."""
    big = b'{"error": {"message": "' + b"BLUEJAY " * 40 + b'"}}'
    messages = run(GuardrailMiddleware(upstream("application/json", [big[:100], big[100:]], status=500,
                                                context=CONTEXT), guard=GUARD, max_body_bytes=200))
    assert messages[0]["status"] == 500 and body_of(messages) == b""
    assert headers_of(messages[0])["content-length"] == "0"


def test_websocket_and_lifespan_scopes_pass_through() -> None:
    seen = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    middleware = GuardrailMiddleware(app, guard=GUARD)
    for kind in ("websocket", "lifespan"):
        asyncio.run(middleware({"type": kind, "path": "/v1/chat/completions"}, None, None))
    assert seen == ["websocket", "lifespan"]


def test_paths_choose_the_guarded_routes() -> None:
    middleware = GuardrailMiddleware(upstream("text/plain", [b"x"]), guard=GUARD, paths=["/chat", "/api/*/ask"])
    assert middleware.guards("/chat") and middleware.guards("/api/hr/ask")
    assert not middleware.guards("/v1/chat/completions") and not middleware.guards("/chat/x")


def test_compressed_body_cannot_be_checked() -> None:
    body = gzip.compress(completion("Ask BLUEJAY [doc:a]."))
    app = upstream("application/json", [body], extra=[("content-encoding", "gzip")], context=CONTEXT)
    closed = run(GuardrailMiddleware(app, guard=GUARD))
    headers = headers_of(closed[0])
    assert headers["x-guardrail-decision"] == "blocked" and "content-encoding" not in headers
    assert closed[0]["status"] == 502 and json.loads(body_of(closed))["error"]["code"] == "upstream_compressed"
    assert run(GuardrailMiddleware(app, guard=OPEN_GUARD))[1]["body"] == body


def test_another_media_type_on_a_guarded_route_is_a_guard_error() -> None:
    app = upstream("application/octet-stream", [b"BLUEJAY"])
    closed = run(GuardrailMiddleware(app, guard=GUARD))
    assert headers_of(closed[0])["x-guardrail-decision"] == "blocked" and b"BLUEJAY" not in body_of(closed)
    assert closed[0]["status"] == 502 and json.loads(body_of(closed))["error"]["code"] == "upstream_unsupported"
    assert body_of(run(GuardrailMiddleware(app, guard=OPEN_GUARD))) == b"BLUEJAY"


# ------------------------------------------------------------------------------------------------------ plain text


def test_plain_text_buffered() -> None:
    messages = run(GuardrailMiddleware(upstream("text/plain; charset=utf-8", [b"Ask BLUEJAY now [doc:a]."],
                                                context=CONTEXT), guard=GUARD))
    assert messages[1]["body"] == b"Ask [redacted] now [doc:a]."
    assert headers_of(messages[0])["content-length"] == str(len(messages[1]["body"]))


def test_plain_text_streamed_releases_checked_text() -> None:
    pieces = [b"Leave is 25 days [doc:a]. Ask ", b"BLUE", b"JAY [doc:a]. Thanks", b"!"]
    messages = run(GuardrailMiddleware(upstream("text/plain", pieces, context=CONTEXT), guard=GUARD))
    assert "content-length" not in headers_of(messages[0])
    assert body_of(messages) == b"Leave is 25 days [doc:a]. Ask [redacted] [doc:a]. Thanks!"
    assert messages[-1]["more_body"] is False


def test_invalid_utf8_plain_text_fails_closed() -> None:
    messages = run(GuardrailMiddleware(upstream("text/plain", [b"Leave [doc:a].\xff", b" more"], context=CONTEXT),
                                       guard=GUARD))
    assert body_of(messages) == b"[guardrail error: upstream_malformed]"  # plain text has no error frame


def test_plain_text_in_a_charset_other_than_utf8_or_ascii_cannot_be_checked() -> None:
    """A client decodes plain text by its charset (a review got UTF-7's ``+AEI-LUEJAY`` and UTF-16's bytes, valid
    UTF-8 that spells nothing, through): text the guard would read otherwise is unsupported, buffered or streamed;
    ASCII must be ASCII (a client reads ``\\u00e9BLUEJAY`` as two U+FFFD and the term)."""
    for media, bodies in [("text/plain; charset=utf-7", [b"Ask +AEI-LUEJAY now."]),
                          ("text/plain; charset=UTF-16LE", ["Ask BLUEJAY now.".encode("utf-16-le")]),
                          ("text/plain; charset='utf-7'", [b"Ask +AEI-LUEJAY ", b"now, the plan is ready."]),
                          ("text/plain; charset=x-BLUEJAY", [b"Ask"])]:
        app = upstream(media, bodies, context=CONTEXT)
        closed = run(GuardrailMiddleware(app, guard=GUARD))
        assert closed[0]["status"] == 502 and json.loads(body_of(closed))["error"]["code"] == "upstream_unsupported"
        assert b"BLUEJAY" not in body_of(closed)
        assert body_of(run(GuardrailMiddleware(app, guard=OPEN_GUARD))) == b"".join(bodies)
    for media in ("text/plain; charset=US-ASCII", 'text/plain; charset="utf8"'):
        for bodies in ([b"Ask BLUEJAY now."], [b"Ask BLUEJAY ", b"now, the plan is ready."]):
            out = body_of(run(GuardrailMiddleware(upstream(media, bodies, context=CONTEXT), guard=GUARD)))
            assert out.startswith(b"Ask [redacted] now")
    for bodies in (["caf\u00e9BLUEJAY now.".encode()], [b"Ask now, the plan is ", "caf\u00e9BLUEJAY".encode()]):
        out = body_of(run(GuardrailMiddleware(upstream("text/plain; charset=ascii", bodies, context=CONTEXT),
                                              guard=GUARD)))
        assert b"BLUEJAY" not in out and b"upstream_malformed" in out


# ------------------------------------------------------------------------------------------------------------ SSE


def sse(*texts: str, finish: str | None = "stop", done: bool = True) -> bytes:
    out = b"".join(content_chunk(TEMPLATE, 0, t) for t in texts)
    if finish:
        out += finish_chunk(TEMPLATE, 0, finish)
    return out + (encode_done() if done else b"")


def released(messages: list[dict[str, Any]]) -> tuple[str, list[str | None], bool]:
    """The text the client receives, the finish reasons it sees and whether it saw [DONE]."""
    text, reasons, done, _ = seen(messages)
    return text, reasons, done


def seen(messages: list[dict[str, Any]]) -> tuple[str, list[str | None], bool, list[dict[str, Any]]]:
    """The text the client receives, the finish reasons, whether it saw [DONE] and the error events it got."""
    decoder = SSEDecoder()
    events = decoder.feed(body_of(messages)) + decoder.close()
    text, reasons, done, errors = [], [], False, []
    for event in events:
        if event.data == "[DONE]":
            done = True
            continue
        obj = json.loads(event.data)
        if "error" in obj:
            errors.append(obj["error"])
            continue
        for choice in obj["choices"]:
            text.append(choice.get("delta", {}).get("content") or "")
            if choice.get("finish_reason"):
                reasons.append(choice["finish_reason"])
    return "".join(text), reasons, done, errors


def test_sse_stream_modified_keeps_the_chunk_format() -> None:
    body = sse("Leave is ", "25 days [doc:a]. Ask BLU", "EJAY [doc:a].")
    messages = run(GuardrailMiddleware(upstream("text/event-stream", [body[:50], body[50:]], context=CONTEXT),
                                       guard=GUARD))
    assert messages[0]["type"] == "http.response.start" and "content-length" not in headers_of(messages[0])
    assert all(m["more_body"] for m in messages[1:-1]) and messages[-1]["more_body"] is False
    assert released(messages) == ("Leave is 25 days [doc:a]. Ask [redacted] [doc:a].", ["stop"], True)


def test_sse_blocked_ends_with_content_filter_then_done() -> None:
    body = sse("Leave is 25 days [doc:a]. ", "The secret [doc:s]. ", "More text.")
    messages = run(GuardrailMiddleware(upstream("text/event-stream", [body], context=CONTEXT), guard=GUARD))
    text, reasons, done = released(messages)
    assert "[doc:s]" not in text and "secret" not in text
    assert reasons == ["content_filter"] and done
    assert text == "Leave is 25 days [doc:a].Blocked."  # the last chunk carries the blocked message
    assert body_of(messages).endswith(b"data: [DONE]\n\n")


@pytest.mark.parametrize("body", [b"data: {not json}\n\n", b"data: [1]\n\n", b"\xff\xfe\n\n"])
def test_broken_sse_fails_closed(body: bytes) -> None:
    messages = run(GuardrailMiddleware(upstream("text/event-stream", [sse("Leave [doc:a]. ", finish=None,
                                                                          done=False), body], context=CONTEXT),
                                       guard=GUARD))
    text, reasons, done, errors = seen(messages)
    assert reasons == [] and done and text == ""  # the held text never goes out
    assert [e["code"] for e in errors] == ["upstream_malformed"] and errors[0]["type"] == "guardrail_error"


def test_truncated_sse_fails_closed_or_open() -> None:
    body = sse("Leave is 25 days [doc:a]. More [doc:a]", finish=None, done=False)
    _, reasons, done, errors = seen(run(GuardrailMiddleware(upstream("text/event-stream", [body], context=CONTEXT),
                                                            guard=GUARD)))
    assert reasons == [] and done and [e["code"] for e in errors] == ["upstream_truncated"]
    text, reasons, done = released(run(GuardrailMiddleware(upstream("text/event-stream", [body], context=CONTEXT),
                                                           guard=OPEN_GUARD)))
    assert text == "Leave is 25 days [doc:a]. More [doc:a]" and not done


@pytest.mark.parametrize(("broken", "code"), [(b"", "upstream_too_large"), (b"data: ping\n\n", "upstream_malformed"),
                                              (b": \xff\n\n", "upstream_malformed")])
def test_a_broken_sse_stream_fail_open_sends_the_rest_as_it_comes(broken: bytes, code: str) -> None:
    """Over the size cap, an event that is not JSON, a line that is not UTF-8: closed ends the stream with the error;
    open flags it, releases what is held and sends the rest of the upstream's stream unchecked, [DONE] too (as a
    JSON reply over the cap passes whole)."""
    sentences = [f"Sentence {i} is fine [doc:a]. " for i in range(12)]
    events = [content_chunk(TEMPLATE, 0, s) for s in sentences]
    events[6:6] = [broken] if broken else []
    end = finish_chunk(TEMPLATE, 0, "stop") + encode_done()
    body = b"".join(events) + end
    # (a line that is not UTF-8 breaks the decoder: from the chunk that brings it on, the bytes go as they come)
    bodies = [*events, end] if broken.startswith(b":") else [body[i:i + 90] for i in range(0, len(body), 90)]
    cap = 700 if not broken else 1 << 20
    _, _, done, errors = seen(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT),
                                                      guard=GUARD, max_body_bytes=cap)))
    assert done and [e["code"] for e in errors] == [code]
    flagged: list[tuple[Any, str | None]] = []
    out = body_of(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT), guard=OPEN_GUARD,
                                          max_body_bytes=cap, on_verdict=lambda v, i: flagged.append((v, i.error)))))
    assert out.endswith(b"data: [DONE]\n\n") and b"error" not in out
    decoder = SSEDecoder()
    chunks = [json.loads(ev.data) for ev in decoder.feed(out.replace(b"\xff", b"")) + decoder.close()
              if ev.data.startswith("{")]
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == "".join(sentences)
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"][0].get("finish_reason")] == ["stop"]
    assert [(v.decision.value, v.findings[0].action.value) for v, err in flagged if err == code] == [("pass", "flag")]


PROPERTY_GUARD = Guard.from_dict(ACTING)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=answer(), ctx=contexts, pieces=st.lists(st.integers(1, 30), min_size=1, max_size=10),
       cuts=st.lists(st.integers(1, 64), min_size=1, max_size=8))
def test_any_chunking_of_the_sse_bytes_releases_the_buffered_decision(
    text: str, ctx: Any, pieces: list[int], cuts: list[int]
) -> None:
    roles, sources = ctx
    deltas, pos, k = [], 0, 0
    while pos < len(text):
        deltas.append(text[pos:pos + pieces[k % len(pieces)]])
        pos += pieces[k % len(pieces)]
        k += 1
    raw = sse(*deltas)
    chunks, pos, k = [], 0, 0
    while pos < len(raw):
        chunks.append(raw[pos:pos + cuts[k % len(cuts)]])
        pos += cuts[k % len(cuts)]
        k += 1
    app = upstream("text/event-stream", chunks or [b""], context={"sources": sources, "roles": roles})
    out, reasons, done = released(run(GuardrailMiddleware(app, guard=PROPERTY_GUARD)))
    expected = PROPERTY_GUARD.check(text, sources, roles)
    assert done
    if expected.decision.value == "blocked":
        assert reasons == ["content_filter"]
    else:
        assert (out, reasons) == (expected.output, ["stop"])


def test_concurrent_streams_never_mix() -> None:
    middleware_app = GuardrailMiddleware(_echo_stream_app, guard=GUARD)

    async def one(n: int) -> str:
        messages: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": str(n).encode(), "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            messages.append(message)

        await middleware_app({"type": "http", "method": "POST", "path": "/v1/chat/completions", "headers": []},
                             receive, send)
        return released(messages)[0]

    async def main() -> list[str]:
        return await asyncio.gather(*(one(n) for n in range(40)))

    for n, text in enumerate(asyncio.run(main())):
        if n % 3 == 0:
            assert text == "Blocked."  # its own caller may not see [doc:s]: blocked, and nobody else's text leaks in
        else:
            assert text == f"Answer {n} is here [doc:a]. Number {n} again [doc:a]."


async def _echo_stream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    n = int((await receive())["body"])
    roles = ["employee"]
    attach_context(scope, sources=DOCS, roles=roles)
    cited = "s" if n % 3 == 0 else "a"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
    for piece in (f"Answer {n} ", f"is here [doc:{cited}]. Num", f"ber {n} again [doc:a]."):
        await asyncio.sleep(0)
        await send({"type": "http.response.body", "body": content_chunk(TEMPLATE, 0, piece), "more_body": True})
    await send({"type": "http.response.body", "body": finish_chunk(TEMPLATE, 0, "stop") + encode_done(),
                "more_body": False})


def test_policy_path_and_guard_are_exclusive(tmp_path: Any) -> None:
    with pytest.raises(TypeError):
        GuardrailMiddleware(_echo_stream_app)
    with pytest.raises(TypeError):
        GuardrailMiddleware(_echo_stream_app, guard=GUARD, policy="x.yaml")
    path = tmp_path / "p.yaml"
    path.write_text("banned_terms:\n  terms: [BLUEJAY]\n")
    assert GuardrailMiddleware(_echo_stream_app, policy=str(path)).guard.policy.banned_terms is not None



def _mutable_headers_oracle(raw: list[tuple[bytes, bytes]], scrubber: Any, *, streaming: bool, changed: bool,
                            length: int | None, decision: Any) -> list[tuple[bytes, bytes]]:
    """What the middleware did before it rewrote raw headers itself: Starlette's ``MutableHeaders``."""
    from starlette.datastructures import MutableHeaders

    message = {"headers": list(raw)}
    headers = MutableHeaders(scope=message)
    if scrubber.active:
        for name, value in list(headers.items()):
            if scrubber.carries(value):
                del headers[name]
                if name == "content-type":
                    headers[name] = value.split(";")[0].strip()
    if changed or streaming:
        for name in ("content-length", "etag", "content-md5"):
            if name in headers:
                del headers[name]
        if length is not None:
            headers["content-length"] = str(length)
    if decision is not None:
        headers["x-guardrail-decision"] = decision.value
    return [tuple(h) for h in message["headers"]]  # type: ignore[misc]


_HEADER_NAMES = st.sampled_from([b"content-type", b"content-length", b"etag", b"content-md5", b"x-request-id",
                                 b"x-guardrail-decision", b"x-model", b"x-bluejay"])
_HEADER_VALUES = st.sampled_from([b"application/json", b"application/json; charset=BLUEJAY", b"12", b"s",
                                  b"req-s-1", b"BLUEJAY", b"m", b"a b s c", b"caf\xe9"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_HEADER_NAMES, _HEADER_VALUES), max_size=8), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.integers(0, 99)), st.sampled_from([None, "pass", "modified", "blocked"]),
       st.booleans())
def test_rewritten_headers_are_what_mutable_headers_made(raw: list[tuple[bytes, bytes]], streaming: bool,
                                                         changed: bool, length: int | None, decision: str | None,
                                                         hidden: bool) -> None:
    """The raw header rewrite sends exactly what Starlette's ``MutableHeaders`` made of the same headers: order,
    duplicates, what a banned term or an invisible ID removes, and the content type kept without its parameters."""
    from guardrail._scrub import Scrubber
    from guardrail.middleware import rewritten_headers
    from guardrail.models import Decision, Source

    sources = [Source("a", "Leave is 25 days.", None), Source("s", "Secret.", ("board",))] if hidden else []
    scrubber = Scrubber(GUARD.compiled, sources, frozenset())
    kept = Decision(decision) if decision is not None else None
    # Where the rewrite does more than MutableHeaders did (tested below): a name that spells a term, a content
    # type whose media type itself does.
    assume(not any(scrubber.carries(k.decode("latin-1")) for k, _ in raw))
    assume(not any(k == b"content-type" and scrubber.carries(v.decode("latin-1").split(";")[0].strip())
                   for k, v in raw))
    assert rewritten_headers(raw, scrubber, streaming=streaming, changed=changed, length=length, decision=kept) \
        == _mutable_headers_oracle(raw, scrubber, streaming=streaming, changed=changed, length=length,
                                   decision=kept)


def test_headers_that_carry_a_secret_go_in_any_case_and_by_name() -> None:
    """What ``MutableHeaders`` missed: a name that is not lower case (an app that does not follow ASGI), a name
    that spells a banned term, a content type whose media type spells one."""
    from guardrail._scrub import Scrubber
    from guardrail.middleware import rewritten_headers
    from guardrail.models import Decision, Source

    scrubber = Scrubber(GUARD.compiled, [Source("a", "Leave.", None), Source("fin-9", "Secret.", ("finance",))],
                        frozenset())
    raw = [(b"Content-Type", b"text/plain; x=fin-9"), (b"X-Request-Id", b"fin-9"), (b"x-\xc9", b"BLUEJAY"),
           (b"x-bluejay-trace", b"1"), (b"x-keep", b"ok")]
    assert rewritten_headers(raw, scrubber, streaming=False, changed=False) == [
        (b"x-keep", b"ok"), (b"content-type", b"text/plain")]
    assert rewritten_headers([(b"content-type", b"BLUEJAY/json")], scrubber, streaming=False, changed=False) == []
    assert rewritten_headers([(b"Content-Length", b"9"), (b"X-Guardrail-Decision", b"x")], scrubber, streaming=True,
                             decision=Decision.PASS) == [(b"x-guardrail-decision", b"pass")]


def test_a_header_is_read_as_utf8_too() -> None:
    """A client decodes header bytes as UTF-8: a review got a fullwidth or zero-width-split term and an invisible ID
    with a non-ASCII hyphen through (read as latin-1, they spell nothing). They go as their ASCII spelling does."""
    from guardrail._scrub import Scrubber
    from guardrail.middleware import rewritten_headers
    from guardrail.models import Source

    scrubber = Scrubber(GUARD.compiled, [Source("a", "Leave.", None), Source("fin-9", "Secret.", ("finance",))],
                        frozenset())
    for value in ("\uff22\uff2c\uff35\uff25\uff2a\uff21\uff39-4", "BLUE\u200bJAY-4", "fin\u20119", "BLUEJAY"):
        raw = [(b"openai-model", value.encode()), (b"x-keep", "caf\u00e9".encode()), (b"x-latin", b"caf\xe9"),
               (b"content-type", b"text/plain; x=" + value.encode()), (value.encode(), b"1")]
        assert rewritten_headers(raw, scrubber, streaming=False, changed=False) == [
            (b"x-keep", "caf\u00e9".encode()), (b"x-latin", b"caf\xe9"), (b"content-type", b"text/plain")]
    app = upstream("application/json", [completion("Leave is 25 days [doc:a].")], context=CONTEXT,
                   extra=[("x-request-id", "\uff22\uff2c\uff35\uff25\uff2a\uff21\uff39"), ("x-kept", "caf\u00e9")])
    assert [k for k, _ in run(GuardrailMiddleware(app, guard=GUARD))[0]["headers"]] == [
        b"content-type", b"x-kept", b"content-length", b"x-guardrail-decision"]


def test_headers_given_as_a_generator_all_reach_the_client() -> None:
    """ASGI lets an app give the headers as any iterable: the guard reads them once, and sends them all."""
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        attach_context(scope, **CONTEXT)
        pairs = [(b"content-type", b"application/json"), (b"set-cookie", b"k=v"), (b"x-request-id", b"r1")]
        await send({"type": "http.response.start", "status": 200, "headers": (h for h in pairs)})
        await send({"type": "http.response.body", "body": completion("Leave is 25 days [doc:a].")})

    sent = run(GuardrailMiddleware(app, guard=GUARD))
    names = [k for k, _ in sent[0]["headers"]]
    assert {b"content-type", b"set-cookie", b"x-request-id", b"x-guardrail-decision"} <= set(names)


def test_an_error_body_is_scrubbed_as_a_client_reads_it() -> None:
    """A second attacker's review: a completion-shaped error (nothing in it was checked: all of it is scrubbed),
    JSON sent as text (OpenAI's client parses an error's text as JSON: its escapes are read), SSE, and text that is
    not UTF-8."""
    def out(media: str, body: bytes, status: int = 500) -> bytes:
        return body_of(run(GuardrailMiddleware(upstream(media, [body], status=status, context=CONTEXT), guard=GUARD)))

    shaped = completion("BLUEJAY is the code; see s.")
    assert json.loads(out("application/json", shaped))["choices"][0]["message"]["content"] == \
        "[redacted] is the code; see [redacted]."
    escaped = b'{"error": {"message": "code \\u0042LUEJAY, see \\u0073"}}'
    for media in ("text/plain", "text/html", ""):
        assert json.loads(out(media, escaped)) == {"error": {"message": "code [redacted], see [redacted]"}}
    events = out("text/event-stream", b'data: {"error": {"message": "\\u0042LUEJAY"}}\n\n')
    assert events == b'data: {"error":{"message":"[redacted]"}}\n\n'
    assert out("text/plain; charset=latin-1", "BLUEJAY caf\u00e9".encode("latin-1")) == \
        "[redacted] caf\u00e9".encode("latin-1")
    assert out("text/plain", b"BLUEJAY \xff") == "[redacted] \ufffd".encode()


def test_an_error_body_is_read_by_its_charset_json_too() -> None:
    """A review got UTF-7 JSON (``+AEI-LUEJAY``: valid UTF-8 JSON that spells nothing) through: an error body is
    read as a client decodes it, by its charset, and written back in it; in a charset Python does not know, dropped."""
    def out(media: str, body: bytes) -> bytes:
        return body_of(run(GuardrailMiddleware(upstream(media, [body], status=400, context=CONTEXT), guard=GUARD)))

    utf7 = out("application/json; charset=utf-7", b'{"error": {"message": "+AEI-LUEJAY, see +AHM-"}}')
    assert json.loads(utf7.decode("utf-7")) == {"error": {"message": "[redacted], see [redacted]"}}
    utf16 = out("application/json; charset=UTF-16", '{"error": "\\u0042LUEJAY"}'.encode("utf-16"))
    assert json.loads(utf16.decode("utf-16")) == {"error": "[redacted]"}
    assert b"BLUEJAY" not in out("text/plain; charset=us-ascii", "caf\u00e9BLUEJAY".encode())
    fine = b'{"error": {"message": "fine +AEI-"}}'
    assert out("application/json; charset=utf-7", fine) == fine
    assert out("application/json; charset=x-BLUEJAY", b'{"error": "BLUEJAY"}') == b""


def test_a_choice_with_both_a_message_and_a_delta_is_malformed() -> None:
    """A client may read either; the guard reads one: such a response is not guarded, it is an error."""
    body = json.dumps({"id": "c", "choices": [{"index": 0, "message": {"content": "Fine."},
                                               "delta": {"content": "BLUEJAY"}}]}).encode()
    messages = run(GuardrailMiddleware(upstream("application/json", [body], context=CONTEXT), guard=GUARD))
    assert messages[0]["status"] == 502 and json.loads(body_of(messages))["error"]["code"] == "upstream_malformed"
    event = json.dumps({"id": "c", "choices": [{"index": 0, "delta": {"content": "Fine. "},
                                                "message": {"content": "BLUEJAY"}}]})
    streamed = body_of(run(GuardrailMiddleware(upstream("text/event-stream", [f"data: {event}\n\n".encode()],
                                                        context=CONTEXT), guard=GUARD)))
    assert b"BLUEJAY" not in streamed and b'"code":"upstream_malformed"' in streamed


def test_json_that_is_not_plain_utf8_goes_out_as_parsed() -> None:
    """UTF-16 JSON read by the lenient parser: its bytes are no UTF-8 text to count keys in, so what was checked is
    sent as parsed (a first-wins reader would otherwise see the first of a key written twice)."""
    text = ('{"id": "c", "choices": [{"index": 0, "message": {"content": "BLUEJAY here.", "content": "Fine."}}], '
            '"x": "\u2200", "y": "\u2200"}')
    messages = run(GuardrailMiddleware(upstream("application/json", [text.encode("utf-16-le")], context=CONTEXT),
                                       guard=GUARD))
    out = body_of(messages)
    assert b"BLUEJAY" not in out and json.loads(out)["choices"][0]["message"]["content"] == "Fine."


def test_plain_text_that_is_a_completion_or_a_stream_of_events_is_read_as_one() -> None:
    """OpenAI's client parses a reply as JSON, or as events when it streams, whatever its media type: plain text that
    is a chat completion, or a stream of events, is guarded as one, its JSON escapes read (an attacker's review got
    \\u0042LUEJAY through as text)."""
    body = b'{"id": "c", "choices": [{"index": 0, "message": {"content": "The code is \\u0042LUEJAY."}}]}'
    out = json.loads(body_of(run(GuardrailMiddleware(upstream("text/plain", [body], context=CONTEXT), guard=GUARD))))
    assert out["choices"][0]["message"]["content"] == "The code is [redacted]."
    events = [b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "Code \\u0042LUE"}}]}\n\n',
              b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "JAY now."}}]}\n\n',
              b'data: {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n',
              b"data: [DONE]\n\n"]
    streamed = body_of(run(GuardrailMiddleware(upstream("text/plain", events, context=CONTEXT), guard=GUARD)))
    text = "".join(json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
                   for line in streamed.decode().split("\n\n") if line.startswith("data: {"))
    assert text == "Code [redacted] now."
    plain = [b"data", b": the numbers are in. BLUEJAY too."]  # (text that starts so, but is no event)
    assert body_of(run(GuardrailMiddleware(upstream("text/plain", plain, context=CONTEXT), guard=GUARD))) == \
        b"data: the numbers are in. [redacted] too."


def test_plain_text_is_read_as_a_completion_or_events_however_it_starts_and_is_sent() -> None:
    """A review got escaped terms and IDs through in plain text that OpenAI's client reads as a completion (sent in
    pieces, after a BOM, in UTF-16) or as events (after a comment or a field line, or unstreamed)."""
    def texts(body: bytes) -> str:
        if body.lstrip().startswith(b"{"):
            return "".join(c["message"]["content"] for c in json.loads(body)["choices"])
        events = [json.loads(e[6:]) for e in body.decode().split("\n\n") if e.startswith("data: {")]
        return "".join(c["delta"].get("content") or "" for e in events for c in e["choices"])

    body = b'{"id": "c", "choices": [{"index": 0, "message": {"content": "Code \\u0042LUEJAY, see \\u0073."}}]}'
    utf16 = json.dumps(json.loads(body)).encode("utf-16-be")
    events = b"".join([b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "Code \\u0042LUE"}}]}\n\n',
                       b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "JAY now."}}]}\n\n',
                       b"data: [DONE]\n\n"])
    for bodies in ([body[:20], body[20:]], [b"\xef\xbb\xbf" + body], [b"  \r\n", body], [utf16],
                   [utf16[:3], utf16[3:]], [b" \n" * 2100, body], [b" " * 5000, body]):
        out = body_of(run(GuardrailMiddleware(upstream("text/plain", bodies, context=CONTEXT), guard=GUARD)))
        assert texts(out) == "Blocked."  # (the invisible ID blocks the choice)
    for bodies in ([b": hi\n\n", events], [b"\xef\xbb\xbfretry: 10\r\nid: 7\n: x\n", events], [events],
                   [b"event: message\n", events[:30], events[30:]], [b":", b" hi\n", events], [b"\n"] * 20 + [events],
                   [b"foo: bar\n", events], [b"x-trace:", b" 1\n", events], [b"data:\n" + events]):
        out = body_of(run(GuardrailMiddleware(upstream("text/plain", bodies, context=CONTEXT), guard=GUARD)))
        assert texts(out) == "Code [redacted] now.", bodies
    for bodies in ([b"Note: ", b"the code is BLUEJAY. Thanks!"], [b"idle: the code is ", b"BLUEJAY."],
                   [b"{the code} is BLUEJAY."], [b"{the code} ", b"is BLUEJAY."]):
        messages = run(GuardrailMiddleware(upstream("text/plain", bodies, context=CONTEXT), guard=GUARD))
        assert body_of(messages) == b"".join(bodies).replace(b"BLUEJAY", b"[redacted]")


def test_a_charset_or_a_coding_a_client_may_read_otherwise_is_not_guessed() -> None:
    """Found by an attacker's review: the guard took the first "charset=" anywhere in the header (a client, through
    the standard library's email parser, the parameter; ``charset*=`` too), and the first content-encoding header
    of two (a client applies both). A charset named unclearly is read by no one: the text is unreadable, an error
    goes without its body; any coding on a 2xx reply is ``upstream_compressed``."""
    for media in ("text/plain; xcharset=utf-8; charset=utf-16-le", "text/plain; format=charset=utf-8; charset=utf-7",
                  "text/plain; charset*=utf-8''utf-7"):
        messages = run(GuardrailMiddleware(upstream(media, [b"Ask +AEI-LUEJAY now."], context=CONTEXT), guard=GUARD))
        assert messages[0]["status"] == 502 and json.loads(body_of(messages))["error"]["code"] == "upstream_unsupported"
        error = run(GuardrailMiddleware(upstream(media.replace("text/plain", "application/json"),
                                                 [b'{"error": {"message": "+AEI-LUEJAY"}}'], status=400,
                                                 context=CONTEXT), guard=GUARD))
        assert error[0]["status"] == 400
        if "charset*=" in media:  # (clear: read as UTF-7, scrubbed, written back in it)
            assert json.loads(body_of(error).decode("utf-7")) == {"error": {"message": "[redacted]"}}
        else:
            assert body_of(error) == b""
    app = upstream("text/plain", [b"Ask BLUEJAY now."], context=CONTEXT)

    async def two_codings(scope: Any, receive: Any, send: Any) -> None:
        async def coded(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message["headers"], (b"content-encoding", b"identity"),
                                      (b"content-encoding", b"deflate")]
            await send(message)
        await app(scope, receive, coded)

    messages = run(GuardrailMiddleware(two_codings, guard=GUARD))
    assert messages[0]["status"] == 502 and json.loads(body_of(messages))["error"]["code"] == "upstream_compressed"


def test_a_plain_text_error_is_scrubbed_whole_a_term_across_its_lines_too() -> None:
    """Lines of events are scrubbed each on its own (their JSON as JSON): a review got a term across a line break
    through in a body with one ``data:`` line; such a body whose lines together carry what each alone does not goes
    without it."""
    guard = Guard.from_dict({"banned_terms": {"terms": ["Project Falcon"]}})

    def out(body: bytes) -> bytes:
        return body_of(run(GuardrailMiddleware(upstream("text/plain", [body], status=500, context=CONTEXT),
                                               guard=guard)))

    assert out(b"about Project\nFalcon, sorry") == b"about [redacted], sorry"
    assert out(b"data: upstream trace\nthe code name is Project\nFalcon") == b""
    assert out(b'data: {"m": "Project Falcon"}\nProject Falcon\nfine') == \
        b'data: {"m":"[redacted]"}\n[redacted]\nfine'


def test_a_finish_chunk_without_a_delta_carries_the_rest() -> None:
    """Found in review: the rest of a choice went into a delta the chunk did not have, and was lost (an upstream
    may write its finish chunk as ``{"index": 0, "finish_reason": "stop"}``)."""
    finish = b'data: ' + json.dumps({**TEMPLATE, "choices": [{"index": 0, "finish_reason": "stop"}]}).encode() + b"\n\n"
    bodies = [content_chunk(TEMPLATE, 0, "Leave is 25 days [doc:a]. More is held"), finish, encode_done()]
    text, reasons, done, errors = seen(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT),
                                                               guard=GUARD)))
    assert (text, reasons, done, errors) == ("Leave is 25 days [doc:a]. More is held", ["stop"], True, [])


def test_a_chunk_that_breaks_the_stream_fail_open_takes_none_of_its_text_twice() -> None:
    """A chunk whose second choice is malformed: fail open, it goes out as it came after the held text, and its
    first choice's text (which a guard would have taken) is neither lost nor sent twice."""
    broken = b"data: " + json.dumps({**TEMPLATE, "choices": [{"index": 0, "delta": {"content": " Third [doc:a]."}},
                                                             {"index": 1, "delta": "no object"}]}).encode() + b"\n\n"
    bodies = [content_chunk(TEMPLATE, 0, "First [doc:a]. Second"), broken, finish_chunk(TEMPLATE, 0, "stop"),
              encode_done()]
    out = body_of(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT), guard=OPEN_GUARD)))
    chunks = [json.loads(ev.data) for ev in SSEDecoder().feed(out) if ev.data.startswith("{")]
    text = "".join(c["delta"].get("content") or "" for ch in chunks for c in ch["choices"]
                   if c.get("index") == 0 and isinstance(c.get("delta"), dict))
    assert text == "First [doc:a]. Second Third [doc:a]."


@pytest.mark.parametrize(("bodies", "cap", "code"), [
    ([b"Leave is 25 days [doc:a]. " * 4] * 8, 300, "upstream_too_large"),
    ([b"Leave is 25 days [doc:a]. Mo", b"re \xff text [doc:a].", b" The end."], 1 << 20, "upstream_malformed"),
])
def test_a_broken_plain_text_stream_fail_open_sends_the_rest_as_it_comes(bodies: list[bytes], cap: int,
                                                                        code: str) -> None:
    """As a stream of events does (and a JSON reply over the cap): fail open, what is held goes out checked, the
    error is flagged, and the rest goes as it comes, unchecked; fail closed, the text ends with the error line."""
    flagged: list[tuple[Any, str | None]] = []
    out = body_of(run(GuardrailMiddleware(upstream("text/plain", bodies, context=CONTEXT), guard=OPEN_GUARD,
                                          max_body_bytes=cap, on_verdict=lambda v, i: flagged.append((v, i.error)))))
    assert out == b"".join(bodies)
    assert [(v.decision.value, v.findings[-1].action.value) for v, err in flagged if err == code] == [("pass", "flag")]
    closed = body_of(run(GuardrailMiddleware(upstream("text/plain", bodies, context=CONTEXT), guard=GUARD,
                                             max_body_bytes=cap)))
    assert closed.endswith(f"[guardrail error: {code}]".encode())


def test_a_choice_blocked_stays_blocked_when_the_stream_breaks_after_it_fail_open() -> None:
    """Found by an attacker's review of the fail-open fix: a choice blocked for a term, then one malformed event,
    sent the rest of the upstream's stream unchecked, the blocked choice's later text with it. Once anything was
    blocked, a break ends the stream (what other choices hold goes out, nothing after the break)."""
    guard = Guard.from_dict({**POLICY, "banned_terms": {"terms": ["BLUEJAY"], "on_match": "block"},
                             "fail_mode": "open"})
    malformed = b"data: " + json.dumps({**TEMPLATE, "choices": [{"index": "0", "delta": {"content": "and "}}]}
                                       ).encode() + b"\n\n"
    bodies = [content_chunk(TEMPLATE, 0, "BLUEJAY is the name. "), malformed,
              content_chunk(TEMPLATE, 0, "BLUEJAY again, per [doc:s]. "), finish_chunk(TEMPLATE, 0, "stop"),
              encode_done()]
    out = body_of(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT), guard=guard)))
    assert b"BLUEJAY" not in out and b"doc:s" not in out
    assert b'"finish_reason":"content_filter"' in out and out.endswith(b"data: [DONE]\n\n")


@pytest.mark.parametrize("empty", [{"content": None}, {"audio": None}, {"tool_calls": None}, {"audio": "x"}])
def test_a_finish_chunk_whose_field_is_null_takes_the_rest_without_a_crash(empty: dict[str, Any]) -> None:
    """Found by an attacker's review: the rest of a content list (an audio transcript, tool-call arguments) was
    added to the finish chunk's field with setdefault, which returns the null the chunk had: AttributeError, the
    app crashed mid-stream and the held end of the answer was lost."""
    guard = Guard.from_dict({**POLICY, "fields": ["tool_calls"]})
    name = next(iter(empty))
    first = {"content": [{"type": "text", "text": "Leave is 25 days [doc:a]. More is held"}],
             "audio": {"transcript": "Leave is 25 days [doc:a]. More is held"},
             "tool_calls": [{"index": 0, "function": {"name": "f", "arguments": '{"q": "Leave is 25 days"'}}]}[name]
    chunks = [{**TEMPLATE, "choices": [{"index": 0, "delta": {name: first}}]},
              {**TEMPLATE, "choices": [{"index": 0, "delta": empty, "finish_reason": "stop"}]}]
    bodies = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks] + [encode_done()]
    out = body_of(run(GuardrailMiddleware(upstream("text/event-stream", bodies, context=CONTEXT), guard=guard)))
    events = [json.loads(ev.data) for ev in SSEDecoder().feed(out) if ev.data.startswith("{")]
    deltas = [c["choices"][0].get("delta") or {} for c in events if c.get("choices")]
    text = "".join(
        "".join(p.get("text", "") for p in d.get("content") or []) if name == "content"
        else (d.get("audio") or {}).get("transcript", "") if name == "audio" and isinstance(d.get("audio"), dict)
        else "".join(c["function"].get("arguments", "") for c in d.get("tool_calls") or []) if name == "tool_calls"
        else "" for d in deltas)
    want = {"content": "Leave is 25 days [doc:a]. More is held", "audio": "Leave is 25 days [doc:a]. More is held",
            "tool_calls": '{"q": "Leave is 25 days"'}[name]
    assert text == want and out.endswith(b"data: [DONE]\n\n")
