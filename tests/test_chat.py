"""The leaks around the text (CONTRACT sections 2 and 6): logprobs, every visible field, comments, surrogates, errors,
the log and ``on_verdict``; through the middleware's ASGI messages."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_middleware import body_of, headers_of, run, upstream
from test_properties import ACTING, SOURCES, TERMS, answer, contexts, invisible_ids

from guardrail import Decision, Guard, GuardrailMiddleware, Source, attach_context
from guardrail._scrub import Scrubber
from guardrail._sse import SSEDecoder
from guardrail.middleware import VerdictInfo

POLICY: dict[str, Any] = {
    "citations": {"on_hallucinated": "strip", "on_unauthorized": "block"},
    "banned_terms": {"terms": ["BLUEJAY", "Project Falcon"], "on_match": "redact"},
    "blocked_message": "Blocked.",
}
GUARD = Guard.from_dict(POLICY)
DOCS = [{"id": "a", "text": "Leave is 25 days."}, {"id": "s", "text": "Secret.", "roles": ["board"]}]
CONTEXT = {"sources": DOCS, "roles": ["employee"]}


def entry(token: str, *alternatives: str) -> dict[str, Any]:
    """A logprob entry as OpenAI sends it (the bytes spell the token too)."""
    return {"token": token, "logprob": -0.1, "bytes": list(token.encode()),
            "top_logprobs": [{"token": t, "logprob": -2.0, "bytes": list(t.encode())} for t in (token, *alternatives)]}


def completion(*choices: dict[str, Any], **extra: Any) -> bytes:
    return json.dumps({
        "id": "chatcmpl-9", "object": "chat.completion", "created": 1733000000, "model": "gpt-4o",
        "system_fingerprint": "fp_1", "service_tier": "default",
        "choices": [{"index": i, "finish_reason": "stop", "logprobs": None, **c} for i, c in enumerate(choices)],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12}, **extra,
    }).encode()


def chunk(text: str | None = None, *, field: str = "content", tokens: list[dict[str, Any]] | None = None,
          finish: str | None = None, index: int = 0, role: str | None = None) -> bytes:
    """A chunk shaped like OpenAI's own: service_tier, usage null, obfuscation, logprobs."""
    delta: dict[str, Any] = {}
    if role:
        delta["role"] = role
    if text is not None:
        delta[field] = text
    logprobs = None if tokens is None else {"content" if field == "content" else "refusal": tokens,
                                            "refusal" if field == "content" else "content": None}
    obj = {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1733000000, "model": "gpt-4o",
           "service_tier": "default", "system_fingerprint": "fp_1",
           "choices": [{"index": index, "delta": delta, "logprobs": logprobs, "finish_reason": finish}],
           "usage": None, "obfuscation": "Zx9"}
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def guarded(guard: Guard, media: str, bodies: list[bytes], context: dict[str, Any] | None = None,
            **options: Any) -> list[dict[str, Any]]:
    return run(GuardrailMiddleware(upstream(media, bodies, context=CONTEXT if context is None else context),
                                   guard=guard, **options))


def events(raw: bytes) -> list[Any]:
    decoder = SSEDecoder(comments=True)
    return decoder.feed(raw) + decoder.close()


def strings(value: Any) -> list[str]:
    """Every string a client can read in a JSON value, including the text that ``bytes`` arrays spell."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if k == "bytes" and isinstance(v, list):
                out.append(bytes(v).decode("utf-8", "replace"))
            else:
                out.extend(strings(v))
        return out
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def readable(raw: bytes) -> list[str]:
    out = []
    for ev in events(raw):
        data = getattr(ev, "data", None)
        if data is None or data == "[DONE]":
            continue
        out.extend(strings(json.loads(data)))
    return out


def deltas(raw: bytes, field: str = "content") -> str:
    out = []
    for ev in events(raw):
        data = getattr(ev, "data", None)
        if data and data != "[DONE]" and "choices" in (obj := json.loads(data)):
            out += [c.get("delta", {}).get(field) or "" for c in obj["choices"]]
    return "".join(out)


# ------------------------------------------------------------------------------------------------------ logprobs


def test_json_logprobs_dropped_when_the_text_changes_and_kept_when_it_does_not() -> None:
    body = completion(
        {"message": {"role": "assistant", "content": "Ask BLUEJAY [doc:a]."},
         "logprobs": {"content": [entry("Ask"), entry(" BLUE"), entry("JAY"), entry(" [doc:a].")], "refusal": None}},
        {"message": {"role": "assistant", "content": "Leave is 25 days [doc:a]."},
         "logprobs": {"content": [entry("Leave is 25 days [doc:a].")], "refusal": None}},
        {"message": {"role": "assistant", "content": "The secret [doc:s]."},
         "logprobs": {"content": [entry("The secret [doc:s].")], "refusal": None}},
    )
    out = json.loads(body_of(guarded(GUARD, "application/json", [body])))
    first, second, third = out["choices"]
    assert first["message"]["content"] == "Ask [redacted] [doc:a]." and first["logprobs"] is None
    assert second["logprobs"] == {"content": [entry("Leave is 25 days [doc:a].")], "refusal": None}
    assert third == {"index": 2, "finish_reason": "content_filter", "logprobs": None,
                     "message": {"role": "assistant", "content": "Blocked."}}
    assert not any("BLUEJAY" in s or "doc:s" in s for s in strings(out))


def test_json_top_logprobs_never_carry_a_banned_term_or_an_invisible_id() -> None:
    tokens = [entry("Ask", "BLUEJAY"), entry(" the", " BLUE"), entry(" BLUE", " s"), entry(" bird", "JAY", " x"),
              entry(" [doc:a].")]
    body = completion({"message": {"role": "assistant", "content": "Ask the BLUE bird [doc:a]."},
                       "logprobs": {"content": tokens, "refusal": None}})
    messages = guarded(GUARD, "application/json", [body])
    out = json.loads(body_of(messages))
    assert headers_of(messages[0])["x-guardrail-decision"] == "pass"
    kept = out["choices"][0]["logprobs"]["content"]
    assert [e["token"] for e in kept] == ["Ask", " the", " BLUE", " bird", " [doc:a]."]
    # "BLUEJAY" alone; " s", the invisible source's ID as a whole token; "JAY" after the chosen " BLUE" spells the
    # term with the text before it. " BLUE" alone is no term.
    assert [[a["token"] for a in e["top_logprobs"]] for e in kept] == [
        ["Ask"], [" the", " BLUE"], [" BLUE"], [" bird", " x"], [" [doc:a]."]]


def test_stream_logprobs_travel_with_their_text() -> None:
    raw = b"".join([
        chunk("", role="assistant", tokens=[]),
        chunk("Leave is ", tokens=[entry("Leave"), entry(" is ")]),
        chunk("25 days [doc:a]. ", tokens=[entry("25 days [doc:a]. ")]),
        chunk("Ask BLUE", tokens=[entry("Ask BLUE")]),
        chunk("JAY [doc:a].", tokens=[entry("JAY [doc:a].", " BLUEJAY")]),
        chunk(finish="stop"),
        b"data: [DONE]\n\n",
    ])
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert deltas(out) == "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."
    sent = [json.loads(ev.data)["choices"] for ev in events(out) if ev.data != "[DONE]"]
    tokens = [e["token"] for choices in sent for c in choices if c.get("logprobs")
              for e in c["logprobs"].get("content") or []]
    # The first sentence's tokens go out with it (held chunks carry theirs); from the edit on, none.
    assert tokens == ["Leave", " is ", "25 days [doc:a]. "]
    assert not any("BLUEJAY" in s.upper().replace(" ", "") for s in readable(out))


def test_stream_released_unchanged_is_the_upstreams_own_bytes() -> None:
    terms_only = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}})
    pieces = [chunk("", role="assistant", tokens=[]), chunk("Leave is 25 days. ", tokens=[entry("Leave is 25 days. ")]),
              b": ping\n\n", chunk("Laptops last three years.", tokens=[entry("Laptops last three years.")]),
              chunk(finish="stop")]
    raw = b"".join(pieces) + b"data: [DONE]\n\n"
    assert body_of(guarded(terms_only, "text/event-stream", [raw])) == raw


def test_stream_blocked_sends_no_tokens_of_what_it_blocked() -> None:
    raw = b"".join([
        chunk("Leave is 25 days [doc:a]. ", tokens=[entry("Leave is 25 days [doc:a]. ")]),
        chunk("The secret ", tokens=[entry("The secret ")]),
        chunk("[doc:s].", tokens=[entry("[doc:s].")]),
        chunk(finish="stop"),
        b"data: [DONE]\n\n",
    ])
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert not any("secret" in s or "doc:s" in s for s in readable(out))
    last = [json.loads(ev.data) for ev in events(out) if ev.data != "[DONE]"][-1]["choices"][0]
    assert last == {"index": 0, "delta": {"content": "Blocked."}, "logprobs": None, "finish_reason": "content_filter"}
    assert out.endswith(b"data: [DONE]\n\n")


# ------------------------------------------------------------------------------------------ every visible field


@pytest.mark.parametrize("field", ["refusal", "reasoning_content", "reasoning"])
def test_json_every_visible_text_field_is_guarded(field: str) -> None:
    body = completion({"message": {"role": "assistant", "content": None, field: "Ask BLUEJAY [doc:a]."}})
    messages = guarded(GUARD, "application/json", [body])
    assert json.loads(body_of(messages))["choices"][0]["message"][field] == "Ask [redacted] [doc:a]."
    assert headers_of(messages[0])["x-guardrail-decision"] == "modified"
    blocked = completion({"message": {"role": "assistant", "content": "Leave is 25 days [doc:a].",
                                      field: "It is in [doc:s]."}})
    choice = json.loads(body_of(guarded(GUARD, "application/json", [blocked])))["choices"][0]
    assert choice["message"] == {"role": "assistant", "content": "Blocked."}  # a block in any field blocks it all
    assert choice["finish_reason"] == "content_filter"


@pytest.mark.parametrize("field", ["refusal", "reasoning_content", "reasoning"])
def test_stream_every_visible_text_field_is_guarded(field: str) -> None:
    raw = chunk("I can't share ", field=field) + chunk("BLUEJAY plans [doc:a].", field=field) + \
        chunk(finish="stop") + b"data: [DONE]\n\n"
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert deltas(out, field) == "I can't share [redacted] plans [doc:a]."
    assert "BLUEJAY" not in out.decode()


def test_the_text_parts_of_a_content_list_are_checked_as_one_text() -> None:
    # A client renders the parts joined: a term or an invisible ID split across them is found, as in one string.
    image = {"type": "image_url", "image_url": {"url": "x"}}
    parts = [{"type": "text", "text": "Leave is 25 days [doc:a]. Ask BLUE"}, image,
             {"type": "text", "text": "JAY [doc:a]."}]
    messages = guarded(GUARD, "application/json", [completion({"message": {"role": "assistant", "content": parts}})])
    assert messages[0]["status"] == 200 and headers_of(messages[0])["x-guardrail-decision"] == "modified"
    content = json.loads(body_of(messages))["choices"][0]["message"]["content"]
    assert content == [{"type": "text", "text": "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."}, image,
                       {"type": "text", "text": ""}]  # the edited text whole in the first part, every part in place
    split_id = [{"type": "text", "text": "It is in [doc:"}, {"type": "text", "text": "s]."}]
    out = json.loads(body_of(guarded(GUARD, "application/json",
                                     [completion({"message": {"role": "assistant", "content": split_id}})])))
    assert out["choices"][0]["message"]["content"] == "Blocked."
    # A stream: the text parts of every chunk's content list are one text too.
    for pieces, expected in [(parts, "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."), (split_id, "Blocked.")]:
        raw = b"".join(chunk_of({"content": [p]}) for p in pieces) + chunk(finish="stop") + b"data: [DONE]\n\n"
        sent = readable_chunks(body_of(guarded(GUARD, "text/event-stream", [raw])))
        content = [c["delta"].get("content") or [] for data in sent for c in data["choices"]]
        assert "".join(p if isinstance(p, str) else p.get("text", "") for c in content for p in c) == expected
    # A content that is a string in one chunk and a list in another is no stream a client reads one way.
    raw = chunk_of({"content": [parts[0]]}) + chunk("JAY [doc:a].") + chunk(finish="stop") + b"data: [DONE]\n\n"
    data = [ev.data for ev in events(body_of(guarded(GUARD, "text/event-stream", [raw])))]
    assert json.loads(data[-2])["error"]["code"] == "upstream_malformed" and data[-1] == "[DONE]"


def chunk_of(delta: dict[str, Any]) -> bytes:
    obj = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
           "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def test_refusal_parts_and_audio_transcripts_are_guarded() -> None:
    parts = [{"type": "refusal", "refusal": "No BLUEJAY talk."}]
    message = {"role": "assistant", "content": parts, "audio": {"id": "au_1", "data": "AAAA",
                                                                "transcript": "Ask BLUEJAY [doc:a]."}}
    out = json.loads(body_of(guarded(GUARD, "application/json", [completion({"message": message})])))
    got = out["choices"][0]["message"]
    assert got["content"] == [{"type": "refusal", "refusal": "No [redacted] talk."}]
    assert got["audio"] == {"id": "au_1", "data": "AAAA", "transcript": "Ask [redacted] [doc:a]."}
    raw = (b'data: {"id":"c","choices":[{"index":0,"delta":{"audio":{"transcript":"Ask BLUE"}}}]}\n\n'
           b'data: {"id":"c","choices":[{"index":0,"delta":{"audio":{"transcript":"JAY [doc:a]."}}}]}\n\n'
           + chunk(finish="stop") + b"data: [DONE]\n\n")
    streamed = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert "".join(c["delta"].get("audio", {}).get("transcript", "") for d in readable_chunks(streamed)
                   for c in d["choices"]) == "Ask [redacted] [doc:a]."


def test_tool_call_arguments_only_when_the_policy_lists_them() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"q": "BLUEJAY"}'}}
    body = completion({"message": {"role": "assistant", "content": None, "tool_calls": [call]},
                       "finish_reason": "tool_calls"})
    assert body_of(guarded(GUARD, "application/json", [body])) == body
    with_tools = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}, "fields": ["tool_calls"]})
    out = json.loads(body_of(guarded(with_tools, "application/json", [body])))
    assert out["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == '{"q": "[redacted]"}'


def test_stream_tool_call_arguments_when_listed() -> None:
    def tool_chunk(arguments: str) -> bytes:
        obj = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [
            {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": arguments}}]},
             "finish_reason": None}]}
        return b"data: " + json.dumps(obj).encode() + b"\n\n"

    raw = tool_chunk('{"q": "BLUE') + tool_chunk('JAY"}') + chunk(finish="tool_calls") + b"data: [DONE]\n\n"
    with_tools = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}, "fields": ["tool_calls"]})
    out = body_of(guarded(with_tools, "text/event-stream", [raw]))
    args = "".join(tc["function"].get("arguments", "") for data in readable_chunks(out)
                   for c in data["choices"] for tc in c.get("delta", {}).get("tool_calls", []))
    assert args == '{"q": "[redacted]"}'
    assert body_of(guarded(GUARD, "text/event-stream", [raw])).count(b"BLUE") == 1  # unlisted: untouched


TOOLS = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}, "fields": ["tool_calls"]})


@pytest.mark.parametrize("index", [[0], {"BLUEJAY": 0}, "BLUEJAY\nrequest=forged", True, 0.5])
def test_a_tool_call_index_that_is_no_integer_is_a_malformed_upstream(index: Any) -> None:
    # It keys the stream's state (a list cannot) and names the field in the log, on_verdict and spans.
    call = {"index": index, "id": "t", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    obj = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
           "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}
    raw = chunk("Hi. ") + b"data: " + json.dumps(obj).encode() + b"\n\n" + chunk(finish="stop") + b"data: [DONE]\n\n"
    data = [ev.data for ev in events(body_of(guarded(TOOLS, "text/event-stream", [raw])))]
    assert data[-1] == "[DONE]"
    error = json.loads(data[-2])["error"]
    assert error["code"] == "upstream_malformed" and "BLUEJAY" not in error["message"]
    body = completion({"message": {"role": "assistant", "content": None, "tool_calls": [call]}})
    messages = guarded(TOOLS, "application/json", [body])
    assert messages[0]["status"] == 502
    error = json.loads(body_of(messages))["error"]
    assert error["code"] == "upstream_malformed" and "BLUEJAY" not in error["message"]


def readable_chunks(raw: bytes) -> list[dict[str, Any]]:
    return [json.loads(ev.data) for ev in events(raw) if getattr(ev, "data", "[DONE]") != "[DONE]"]


# ------------------------------------------------------------------------------------------------------- streams


def test_comments_and_textless_events_go_out_at_once_even_while_text_is_held() -> None:
    holding = Guard.from_dict({**POLICY, "instructions": {"max_words": 50, "on_violation": "block"}})
    middleware = GuardrailMiddleware(lambda s, r, send: None, guard=holding)
    responder_out: list[bytes] = []

    async def main() -> None:
        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            attach_context(scope, **CONTEXT)
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/event-stream")]})
            for body in (chunk("Leave is 25 days [doc:a]. "), b": ping\n\n", chunk("More [doc:a]."),
                         b'data: {"id":"c","choices":[],"usage":{"total_tokens":3}}\n\n', chunk(finish="stop"),
                         b"data: [DONE]\n\n"):
                await send({"type": "http.response.body", "body": body, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                responder_out.append(message["body"])

        middleware.app = app
        await middleware({"type": "http", "method": "POST", "path": "/v1/chat/completions", "headers": []},
                         None, send)

    asyncio.run(main())
    # Held whole (a blocking word limit): the comment and the usage chunk come out while the text waits.
    assert responder_out[0] == b": ping\n\n"
    assert b'"usage":{"total_tokens":3}' in responder_out[1]
    assert deltas(b"".join(responder_out)) == "Leave is 25 days [doc:a]. More [doc:a]."


def test_keepalive_comments_while_the_whole_output_is_held() -> None:
    holding = Guard.from_dict({**POLICY, "instructions": {"max_words": 50, "on_violation": "block"},
                               "keepalive_s": 0.05})

    async def slow(scope: dict[str, Any], receive: Any, send: Any) -> None:
        attach_context(scope, **CONTEXT)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})
        await send({"type": "http.response.body", "body": chunk("Leave is 25 days [doc:a]."), "more_body": True})
        await asyncio.sleep(0.4)
        await send({"type": "http.response.body", "body": chunk(finish="stop") + b"data: [DONE]\n\n",
                    "more_body": False})

    messages = run(GuardrailMiddleware(slow, guard=holding))
    bodies = [m["body"] for m in messages if m["type"] == "http.response.body"]
    assert bodies.count(b": keep-alive\n\n") >= 3
    assert deltas(b"".join(bodies)) == "Leave is 25 days [doc:a]."
    assert messages[-1]["more_body"] is False and bodies[-1].endswith(b"data: [DONE]\n\n")


def test_a_surrogate_pair_split_across_events_is_joined() -> None:
    raw = (b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Leave \\ud83d"},"finish_reason":null}]}\n\n'
           b'data: {"id":"c","choices":[{"index":0,"delta":{"content":"\\ude00 is 25 days [doc:a]."},'
           b'"finish_reason":null}]}\n\n' + chunk(finish="stop") + b"data: [DONE]\n\n")
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert deltas(out) == "Leave \U0001f600 is 25 days [doc:a]."
    out.decode("utf-8")  # valid UTF-8 throughout


def test_a_lone_surrogate_in_json_does_not_crash() -> None:
    body = b'{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Ask BLUEJAY \\ud83d"}}]}'
    out = body_of(guarded(GUARD, "application/json", [body]))
    assert json.loads(out)["choices"][0]["message"]["content"] == "Ask [redacted] \ud83d"


# ------------------------------------------------------------------------------------------------ failure signals


def test_upstream_error_event_is_forwarded_with_terms_redacted() -> None:
    raw = chunk("Leave is ") + b'data: {"error": {"message": "BLUEJAY overloaded, see s", "type": "server_error"}}\n\n'
    messages = guarded(GUARD, "text/event-stream", [raw])
    out = body_of(messages)
    kinds = [json.loads(ev.data) if ev.data != "[DONE]" else "[DONE]" for ev in events(out)]
    assert kinds == [{"error": {"message": "[redacted] overloaded, see [redacted]", "type": "server_error"}},
                     "[DONE]"]


def test_an_upstream_error_never_repeats_invisible_text() -> None:
    # an upstream that echoes its prompt (the retrieved passages) in its error message
    secret = "The merger with Initech closes next spring and the Berlin office goes"
    docs = [*DOCS, {"id": "m", "text": secret + " with it.", "roles": ["board"]}]
    message = f"context too long: ... {secret.upper()} ... (4097 tokens)"
    raw = chunk("Leave is ") + b'data: {"error": {"message": ' + json.dumps(message).encode() + b'}}\n\n'
    out = body_of(guarded(GUARD, "text/event-stream", [raw], {"sources": docs, "roles": ["employee"]}))
    error = next(json.loads(ev.data) for ev in events(out) if ev.data != "[DONE]")["error"]
    assert error["message"] == "context too long: ... [redacted] ... (4097 tokens)"
    # the same through a JSON error body and a field beside the text
    scrubber = Scrubber(GUARD.compiled, [Source.coerce(d) for d in docs], frozenset({"employee"}))
    assert scrubber.scrub(f"note: {secret}.") == "note: [redacted]."
    assert scrubber.scrub("Leave is 25 days, the merger with Initech closes.") == \
        "Leave is 25 days, the merger with Initech closes."  # six words: no copy


def test_a_stream_over_the_size_cap_ends_with_an_error() -> None:
    raw = b"".join(chunk("Leave is 25 days [doc:a]. ") for _ in range(20)) + chunk(finish="stop")
    out = body_of(guarded(GUARD, "text/event-stream", [raw[i:i + 100] for i in range(0, len(raw), 100)],
                          max_body_bytes=1000))
    data = [ev.data for ev in events(out)]
    assert json.loads(data[-2])["error"]["code"] == "upstream_too_large" and data[-1] == "[DONE]"
    text = body_of(guarded(GUARD, "text/plain", [b"Leave is 25 days [doc:a]. " * 10] * 10, max_body_bytes=1000))
    assert text.endswith(b"[guardrail error: upstream_too_large]")


def test_blocked_json_keeps_the_completions_metadata() -> None:
    body = completion({"message": {"role": "assistant", "content": "The secret [doc:s]."}})
    out = json.loads(body_of(guarded(GUARD, "application/json", [body])))
    original = json.loads(body)
    for key in ("id", "object", "created", "model", "system_fingerprint", "usage", "service_tier"):
        assert out[key] == original[key]
    assert out["choices"][0]["finish_reason"] == "content_filter"


CATASTROPHIC = Guard.from_dict({"instructions": {"must_not_match": ["(a|aa)+$"], "on_violation": "strip"},
                                "budget_ms": 5})
EVIL = "a" * 40 + "!"


def test_a_guard_error_is_a_502_error_not_a_content_block() -> None:
    messages = guarded(CATASTROPHIC, "application/json", [completion({"message": {"content": EVIL}})])
    assert messages[0]["status"] == 502
    error = json.loads(body_of(messages))["error"]
    assert error["type"] == "guardrail_error" and error["code"] == "guard_error"
    assert "a" * 10 not in error["message"]
    opened = Guard.from_dict({**CATASTROPHIC.policy.model_dump(by_alias=True, exclude_none=True), "fail_mode": "open"})
    passed = guarded(opened, "application/json", [completion({"message": {"content": EVIL}})])
    assert passed[0]["status"] == 200 and headers_of(passed[0])["x-guardrail-decision"] == "pass"


def test_a_guard_error_in_a_stream_ends_with_an_error_event() -> None:
    raw = chunk(EVIL[:20]) + chunk(EVIL[20:]) + chunk(finish="stop") + b"data: [DONE]\n\n"
    out = body_of(guarded(CATASTROPHIC, "text/event-stream", [raw]))
    data = [ev.data for ev in events(out)]
    assert data[-1] == "[DONE]"
    assert json.loads(data[-2])["error"]["code"] == "guard_error"
    assert "content_filter" not in out.decode()


# ------------------------------------------------------------------------------------ the log and on_verdict


def test_one_log_line_per_non_pass_decision_without_content(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="guardrail")
    body = completion({"message": {"content": "Leave is 25 days [doc:a]."}},
                      {"message": {"content": "Ask BLUEJAY [doc:a]."}},
                      {"message": {"content": "The secret [doc:s]."}})
    app = upstream("application/json", [body], context=CONTEXT)

    async def main() -> None:
        async def send(message: dict[str, Any]) -> None:
            pass

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": "POST", "path": "/v1/chat/completions",
                 "headers": [(b"x-request-id", b"req-42")]}
        await GuardrailMiddleware(app, guard=GUARD)(scope, receive, send)

    asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records if r.name == "guardrail"]
    assert len(lines) == 2
    assert lines[0] == ("request=req-42 policy=default choice=1 field=content decision=modified "
                        "labels=BANNED_TERM actions=redact offsets=4-11")
    assert lines[1].startswith("request=req-42 policy=default choice=2 field=content decision=blocked "
                               "labels=UNAUTHORIZED_SOURCE")
    assert [r.levelname for r in caplog.records] == ["INFO", "WARNING"]
    assert not any("BLUEJAY" in line or "doc:s" in line or "secret" in line for line in lines)


@pytest.mark.parametrize("index", ["BLUEJAY s\nrequest=forged decision=pass", True, [0]])
def test_a_choice_index_that_is_no_integer_never_reaches_the_log(index: Any,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="guardrail")
    body = json.loads(completion({"message": {"role": "assistant", "content": "Ask BLUEJAY [doc:a]."}}))
    body["choices"][0]["index"] = index
    seen: list[VerdictInfo] = []
    messages = guarded(GUARD, "application/json", [json.dumps(body).encode()],
                       on_verdict=lambda verdict, info: seen.append(info))
    assert messages[0]["status"] == 502
    assert json.loads(body_of(messages))["error"]["code"] == "upstream_malformed"
    assert [(i.choice, i.error) for i in seen] == [(None, "upstream_malformed")]
    lines = [r.getMessage() for r in caplog.records if r.name == "guardrail"]
    assert lines and not any("BLUEJAY" in line or "forged" in line for line in lines)


def test_guard_errors_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="guardrail")
    guarded(GUARD, "text/event-stream", [chunk("Leave is ")])  # truncated
    (line,) = [r.getMessage() for r in caplog.records if r.name == "guardrail"]
    assert "decision=blocked error=upstream_truncated labels=GUARD_ERROR" in line


def test_on_verdict_gets_every_verdict_sync_or_async() -> None:
    seen: list[tuple[str, VerdictInfo]] = []

    async def record(verdict: Any, info: VerdictInfo) -> None:
        seen.append((verdict.decision.value, info))

    body = completion({"message": {"content": "Leave is 25 days [doc:a].", "refusal": "No BLUEJAY [doc:a]."}})
    run(GuardrailMiddleware(upstream("application/json", [body], context=CONTEXT), guard=GUARD, on_verdict=record))
    assert [(d, i.choice, i.field, i.error) for d, i in seen] == [("pass", 0, "content", None),
                                                                  ("modified", 0, "refusal", None)]
    broken: list[Any] = []
    run(GuardrailMiddleware(upstream("application/json", [b"nope"]), guard=GUARD,
                            on_verdict=lambda v, i: broken.append((v.decision.value, i.error))))
    assert broken == [("blocked", "upstream_malformed")]

    def explode(verdict: Any, info: Any) -> None:
        raise RuntimeError("audit store down")

    messages = run(GuardrailMiddleware(upstream("application/json", [body], context=CONTEXT), guard=GUARD,
                                       on_verdict=explode))
    assert messages[0]["status"] == 200  # the application's callback never breaks the response


# ------------------------------------------------------------------------------------------------- the scrubber


def test_scrubber_finds_terms_and_invisible_ids_as_whole_tokens() -> None:
    sources = [Source.coerce(s) for s in SOURCES]
    scrubber = Scrubber(Guard.from_dict({"banned_terms": {"terms": TERMS}}).compiled, sources, frozenset({"employee"}))
    assert scrubber.scrub("ask bluejay about fin-9 and sealed") == "ask [redacted] about [redacted] and [redacted]"
    assert scrubber.scrub("fin-90, xfin-9, fin-9-b, hr-12") == "fin-90, xfin-9, fin-9-b, hr-12"
    assert scrubber.carries("the BLUE" + "JAY", after=8) and not scrubber.carries("BLUEJAY then", after=8)


# ------------------------------------------------------------------------------------------------------ property

PROPERTY_GUARD = Guard.from_dict(ACTING)
TERM_FINDER = Guard.from_dict({"banned_terms": {"terms": TERMS, "on_match": "flag"}})
ALTERNATIVES = [*TERMS, "fin-9", "sealed", " the", "BLUE", "hr-12"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(content=answer(), refusal=st.one_of(st.none(), answer()), ctx=contexts,
       sizes=st.lists(st.integers(1, 25), min_size=1, max_size=8), data=st.data())
def test_any_chunking_with_logprobs_refusals_and_comments_releases_the_buffered_decision(
    content: str, refusal: str | None, ctx: Any, sizes: list[int], data: st.DataObject
) -> None:
    roles, sources = ctx
    texts = {"content": content, **({"refusal": refusal} if refusal is not None else {})}
    pieces: list[bytes] = [chunk("", role="assistant", tokens=[])]
    comments = 0
    for name, text in texts.items():
        pos, k = 0, 0
        while pos < len(text):
            piece = text[pos:pos + sizes[k % len(sizes)]]
            alts = data.draw(st.lists(st.sampled_from(ALTERNATIVES), max_size=2))
            pieces.append(chunk(piece, field=name, tokens=[entry(piece, *alts)]))
            if data.draw(st.integers(0, 4)) == 0:
                pieces.append(b": ping\n\n")
                comments += 1
            pos += len(piece)
            k += 1
    pieces += [chunk(finish="stop"), b"data: [DONE]\n\n"]
    raw = b"".join(pieces)
    cut = data.draw(st.integers(1, 97))
    bodies = [raw[i:i + cut] for i in range(0, len(raw), cut)]
    out = body_of(guarded(PROPERTY_GUARD, "text/event-stream", bodies, {"sources": sources, "roles": roles}))
    got = events(out)
    assert sum(1 for ev in got if not hasattr(ev, "data")) == comments
    assert got[-1].data == "[DONE]"
    verdicts = {name: PROPERTY_GUARD.check(text, sources, roles) for name, text in texts.items()}
    if any(v.decision is Decision.BLOCKED for v in verdicts.values()):
        reasons = [c.get("finish_reason") for d in readable_chunks(out) for c in d["choices"]]
        assert "content_filter" in reasons
    else:
        for name, verdict in verdicts.items():
            assert deltas(out, name) == verdict.output
    hidden = invisible_ids(ctx)
    for text in readable(out):
        assert not TERM_FINDER.check(text).findings, text
        assert not any(f"[doc:{h}]" in text for h in hidden)
    for d in readable_chunks(out):
        for c in d["choices"]:
            for e in (c.get("logprobs") or {}).get("content") or []:
                for alt in e["top_logprobs"]:
                    assert alt["token"] not in hidden and not TERM_FINDER.check(alt["token"]).findings


# ------------------------------------------------------------------------------ what travels beside the text


def test_json_logprobs_that_do_not_match_their_text_are_not_trusted() -> None:
    body = completion({"message": {"role": "assistant", "content": "Leave is 25 days [doc:a]."},
                       "logprobs": {"content": [{"token": "BLUEJAY s", "logprob": -1, "bytes": None,
                                                 "top_logprobs": []}],
                                    "refusal": [entry("The secret [doc:s]")]}})
    out = json.loads(body_of(guarded(GUARD, "application/json", [body])))
    assert out["choices"][0]["logprobs"] is None  # tokens that spell a term, and tokens of a refusal that is not there
    disguised = completion({"message": {"role": "assistant", "content": "Leave."},
                            "logprobs": {"content": [{"token": "Leave.", "logprob": -1, "bytes": list(b"BLUEJAY"),
                                                      "top_logprobs": []}], "refusal": None}})
    assert json.loads(body_of(guarded(GUARD, "application/json", [disguised])))["choices"][0]["logprobs"] is None


def spelled(token: str, raw: bytes, *alternatives: tuple[str, bytes]) -> dict[str, Any]:
    """A logprob entry whose bytes spell something else than its token."""
    return {"token": token, "logprob": -0.1, "bytes": list(raw),
            "top_logprobs": [{"token": t, "logprob": -2.0, "bytes": list(b)} for t, b in alternatives]}


def test_logprob_bytes_are_read_joined_as_the_tokens_are() -> None:
    """A client can rebuild the text from the entries' bytes, joined: bytes that spell a term across entries (a
    character split between them read whole) are tokens that spell what their text does not; an alternative's bytes
    are read after the chosen bytes before it."""
    zoe = Guard.from_dict({"banned_terms": {"terms": ["Zoë"]}})
    for guard, chosen, dropped in [(GUARD, [spelled("X", b"Project"), spelled("Y", b" Falcon")], True),
                                   (zoe, [spelled("X", b"Zo\xc3"), spelled("Y", b"\xab")], True),
                                   (zoe, [spelled("X", b"Zo"), spelled("Y", b"e")], False)]:
        body = completion({"message": {"role": "assistant", "content": "XY"},
                           "logprobs": {"content": chosen, "refusal": None}})
        out = json.loads(body_of(guarded(guard, "application/json", [body])))
        assert (out["choices"][0]["logprobs"] is None) == dropped
        raw = b"".join([chunk("X", tokens=[chosen[0]]), chunk("Y", tokens=[chosen[1]]), chunk(finish="stop"),
                        b"data: [DONE]\n\n"])
        sent = [e for data in readable_chunks(body_of(guarded(guard, "text/event-stream", [raw])))
                for c in data["choices"] if c.get("logprobs") for e in c["logprobs"]["content"] or []]
        assert sent == chosen[:1] if dropped else sent == chosen  # (the tokens before those that spell it go out)
    alternative = [spelled("X", b"Project"), spelled("Y", b"Y", ("Z", b" Falcon"), ("W", b" Fal"))]
    body = completion({"message": {"role": "assistant", "content": "XY"},
                       "logprobs": {"content": alternative, "refusal": None}})
    kept = json.loads(body_of(guarded(GUARD, "application/json", [body])))["choices"][0]["logprobs"]["content"]
    assert [[a["token"] for a in e["top_logprobs"]] for e in kept] == [[], ["W"]]
    raw = b"".join([chunk("X", tokens=alternative[:1]), chunk("Y", tokens=alternative[1:]), chunk(finish="stop"),
                    b"data: [DONE]\n\n"])
    sent = [e for data in readable_chunks(body_of(guarded(GUARD, "text/event-stream", [raw])))
            for c in data["choices"] if c.get("logprobs") for e in c["logprobs"]["content"] or []]
    assert [[a["token"] for a in e["top_logprobs"]] for e in sent] == [[], ["W"]]


def test_other_strings_of_a_completion_are_scrubbed() -> None:
    body = completion({"message": {"role": "assistant", "content": "Leave is 25 days [doc:a].", "annotations": [
        {"type": "url_citation", "url_citation": {"title": "s BLUEJAY notes", "url": "https://x.invalid/s"}}]},
        "text": "BLUEJAY s"}, model="s")
    messages = guarded(GUARD, "application/json", [body])
    raw = body_of(messages).decode()
    assert "BLUEJAY" not in raw and '"s"' not in raw and "/s\"" not in raw
    got = json.loads(raw)
    assert got["choices"][0]["message"]["content"] == "Leave is 25 days [doc:a]."  # guarded text keeps its own rules
    assert got["model"] == "[redacted]"


def test_response_headers_never_spell_what_the_caller_may_not_see() -> None:
    body = completion({"message": {"role": "assistant", "content": "Leave is 25 days [doc:a]."}})
    app = upstream("application/json; note=BLUEJAY", [body], context=CONTEXT,
                   extra=[("x-request-id", "BLUEJAY-7"), ("openai-model", "s"), ("x-kept", "fine")])
    messages = run(GuardrailMiddleware(app, guard=GUARD))
    headers = headers_of(messages[0])
    assert "x-request-id" not in headers and "openai-model" not in headers and headers["x-kept"] == "fine"
    assert headers["content-type"] == "application/json"


def test_stream_comments_textless_events_and_message_chunks_are_scrubbed() -> None:
    raw = (b": BLUEJAY ping\n\n"
           b'data: {"id":"c","choices":[],"usage":{"total_tokens":3},"note":"BLUEJAY s"}\n\n'
           b'data: {"id":"c","choices":[{"index":0,"message":{"content":"BLUEJAY s."}}]}\n\n'
           b'event: error\ndata: {"message": "BLUEJAY s"}\n\n')
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    text = out.decode()
    assert "BLUEJAY" not in text and '"s"' not in text and " s." not in text
    assert text.startswith(": [redacted] ping\n\n")


def test_what_one_turn_remembers_never_scrubs_another() -> None:
    """Scrubbed strings are remembered across turns only when too few words to hold a copy: a string that copies
    one turn's invisible passage is scrubbed there, and left alone in a turn where that ID's passage says
    something else (same invisible ID, same terms: the memo shared by both)."""
    guard = Guard.from_dict({"citations": {}})
    secret = "the merger with Initech closes on Friday and nobody may know"
    first = Scrubber(guard.compiled, [Source("fin-9", secret, ("finance",))], frozenset({"employee"}))
    second = Scrubber(guard.compiled, [Source("fin-9", "Budgets are reviewed every quarter.", ("finance",))],
                      frozenset({"employee"}))
    copied = "the merger with Initech closes on Friday and nobody"
    few = "about fin-9 and completions"  # too few words for a copy, longer than 2n - 1 characters
    assert first.scrub(copied) == "[redacted]" and first.carries(copied)
    assert second.scrub(copied) is copied and not second.carries(copied)
    assert first.scrub(few) == "about [redacted] and completions" == second.scrub(few)
    assert second.carries(few) and first.scrub("chat.completion.chunk") == "chat.completion.chunk"


def test_an_invisible_source_with_an_empty_id_scrubs_nothing_of_itself() -> None:
    """An ID that is empty is in every string and names nothing: a hidden source that has one leaves the strings
    beside the text as they are (it once put the replacement at every position of them)."""
    guard = Guard.from_dict({"citations": {}})
    sources = [Source("", "Quarterly figures.", ("finance",)), Source("fin-9", "x", ("finance",))]
    scrubber = Scrubber(guard.compiled, sources, frozenset({"employee"}))
    for text in ("!", "gpt-4o", "chat.completion.chunk", ""):
        assert scrubber.scrub(text) is text and not scrubber.carries(text)
    assert scrubber.scrub("see fin-9") == "see [redacted]"


def test_a_short_string_of_characters_that_expand_into_words_is_looked_at_for_copies() -> None:
    """One character can be several words once normalised ("⒈" is "1."): a string under 2n - 1 characters may
    still copy n words of an invisible passage, and is never remembered for other turns as clean."""
    guard = Guard.from_dict({"citations": {}})
    secret = [Source("hr-1", "1 1 1 1 1 1 1 1 tail words here", ("finance",))]
    assert guard.check("⒈⒈⒈⒈⒈⒈⒈⒈", secret, ["employee"]).decision is Decision.BLOCKED
    scrubber = Scrubber(guard.compiled, secret, frozenset({"employee"}))
    assert scrubber.carries("⒈⒈⒈⒈⒈⒈⒈⒈") and scrubber.scrub("⒈⒈⒈⒈⒈⒈⒈⒈") == "[redacted]"


@pytest.mark.parametrize("spelled", ["fin\u20119", "fin\\-9", "fin&#45;9", "fin\u200b-9", "f\u200bin-9"])
def test_an_invisible_id_spelled_as_a_renderer_shows_it_is_scrubbed(spelled: str) -> None:
    """What the citations check reads as the ID (look-alike hyphens, zero-width characters, escapes, character
    references) is scrubbed from the strings beside the text too (a logprob token, an error message)."""
    guard = Guard.from_dict({"citations": {}})
    sources = [Source("fin-9", "The Berlin office will close in March.", ("finance",))]
    assert guard.check(f"See {spelled} now.", sources, ["employee"]).decision is Decision.BLOCKED
    scrubber = Scrubber(guard.compiled, sources, frozenset({"employee"}))
    assert scrubber.scrub(f"see {spelled} now") == "see [redacted] now"
    assert scrubber.carries(spelled)


# ------------------------------------------------------------------- found by an attacker's review of the proxy


def test_every_other_string_of_a_completion_is_scrubbed_wherever_it_stands() -> None:
    """Tool-call names and ids, a part's annotations and URLs, an image part, keys, what logprobs carry beside their
    tokens, an alternative that is no object and one whose bytes spell a term, and a "message" outside the choices:
    none is guarded text, so each is scrubbed (the walk once left whole subtrees alone)."""
    body = completion(
        {"message": {"role": "assistant", "content": [
            {"type": "text", "text": "Leave is 25 days [doc:a].", "annotations": [{"title": "BLUEJAY"}]},
            {"type": "image_url", "image_url": {"url": "https://x.invalid/s"}}],
            "tool_calls": [{"id": "call s", "type": "function", "function": {"name": "BLUEJAY", "arguments": "{}"}}],
            "function_call": {"name": "BLUEJAY", "arguments": "{}"}, "audio": {"id": "BLUEJAY", "data": "AAAA"}},
         "logprobs": {"content": [{"token": "Leave is 25 days [doc:a].", "logprob": -1, "note": "BLUEJAY",
                                   "top_logprobs": ["BLUEJAY", {"token": "x", "bytes": list(b"BLUEJAY")}]}],
                      "note": "Project Falcon", "refusal": None}},
        x={"message": {"content": "Project Falcon"}, "delta": {"content": "BLUEJAY"}}, BLUEJAY=1)
    out = json.loads(body_of(guarded(GUARD, "application/json", [body])))
    assert not [s for s in strings(out) if "BLUEJAY" in s or "Project Falcon" in s or s.endswith("/s") or " s" in s]
    assert not [k for k in _keys(out) if "BLUEJAY" in k]
    message = out["choices"][0]["message"]
    assert message["content"][0]["text"] == "Leave is 25 days [doc:a]."  # guarded text keeps its own rules
    assert message["tool_calls"][0]["function"] == {"name": "[redacted]", "arguments": "{}"}
    assert message["audio"] == {"id": "[redacted]", "data": "AAAA"}  # the audio itself is left alone
    assert out["x"] == {"message": {"content": "[redacted]"}, "delta": {"content": "[redacted]"}}


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for key, item in value.items() for k in (key, *_keys(item))]
    if isinstance(value, list):
        return [k for item in value for k in _keys(item)]
    return []


def test_stream_tool_call_names_and_event_names_are_scrubbed() -> None:
    call = {"index": 0, "id": "call s", "type": "function", "function": {"name": "BLUEJAY", "arguments": "{}"}}
    raw = (b'event: BLUEJAY\ndata: {"id":"c","choices":[],"usage":{"total_tokens":3}}\n\n'
           b'event: s\ndata: ' + json.dumps({"id": "c", "choices": [{"index": 0, "delta": {
               "tool_calls": [call]}}]}).encode() + b'\n\n' + chunk("Leave is 25 days [doc:a].") + chunk(finish="stop")
           + b"data: [DONE]\n\n")
    out = body_of(guarded(GUARD, "text/event-stream", [raw])).decode()
    assert "BLUEJAY" not in out and "event: s\n" not in out and "call s" not in out
    assert "event: [redacted]\n" in out


def test_stream_logprobs_whose_tokens_spell_what_their_text_does_not_are_dropped() -> None:
    """The tokens of a chunk released unchanged are the upstream's word that they spell its text: tokens that
    spell an invisible ID or a banned term (alone, across chunks, or in their bytes) take the field's logprobs away
    from there on, as in a completion."""
    for tokens in ([[{"token": " s", "logprob": -1}]],  # an invisible ID as a whole token, with text ". "
                   [[{"token": "BLUE", "logprob": -1}], [{"token": "JAY", "logprob": -1}]],  # a term across chunks
                   [[{"token": ". ", "logprob": -1, "bytes": list(b"BLUEJAY")}]]):  # a term in the bytes
        pieces = [chunk("", role="assistant", tokens=[])]
        pieces += [chunk(". " if k == 0 else "Leave is 25 days [doc:a]. ", tokens=t) for k, t in enumerate(tokens)]
        raw = b"".join([*pieces, chunk(finish="stop"), b"data: [DONE]\n\n"])
        out = body_of(guarded(GUARD, "text/event-stream", [raw]))
        assert not [s for s in readable(out) if "BLUEJAY" in s or s == " s"], tokens
        assert "BLUE" not in out.decode() or "JAY" not in out.decode()


def test_stream_logprobs_are_kept_after_a_first_chunk_without_them() -> None:
    """OpenAI's first chunk carries the role, empty content and no logprobs; the rest carry theirs."""
    raw = b"".join([
        chunk("", role="assistant"),
        chunk("Leave is ", tokens=[entry("Leave"), entry(" is ")]),
        chunk("25 days [doc:a].", tokens=[entry("25 days [doc:a].")]),
        chunk(finish="stop"),
        b"data: [DONE]\n\n",
    ])
    out = body_of(guarded(GUARD, "text/event-stream", [raw]))
    sent = [json.loads(ev.data)["choices"] for ev in events(out) if ev.data != "[DONE]"]
    tokens = [e["token"] for choices in sent for c in choices if c.get("logprobs")
              for e in c["logprobs"].get("content") or []]
    assert tokens == ["Leave", " is ", "25 days [doc:a]."]


def test_a_key_written_twice_goes_out_as_the_guard_read_it() -> None:
    """JSON that names a key twice is read as its last value by the guard's parser and perhaps as its first by the
    client's: a completion, an event and an error body with one go out as parsed (one key, the value checked),
    never as written."""
    body = (b'{"id": "c", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop", '
            b'"message": {"role": "assistant", "content": "BLUEJAY is go. See s.", "content": "All fine."}}]}')
    out = body_of(guarded(GUARD, "application/json", [body]))
    assert b"BLUEJAY" not in out and out.count(b'"content"') == 1
    assert json.loads(out)["choices"][0]["message"]["content"] == "All fine."
    event = (b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "BLUEJAY now. ", '
             b'"\\u0063ontent": "Fine. "}}]}\n\n')
    raw = event + chunk(finish="stop") + b"data: [DONE]\n\n"
    streamed = body_of(guarded(GUARD, "text/event-stream", [raw]))
    assert b"BLUEJAY" not in streamed and deltas(streamed) == "Fine. "
    error = b'{"error": {"message": "BLUEJAY", "message": "busy"}}'
    app = upstream("application/json", [error], status=500, context=CONTEXT)
    assert json.loads(body_of(run(GuardrailMiddleware(app, guard=GUARD)))) == {"error": {"message": "busy"}}


def test_an_upstream_error_event_is_scrubbed_keys_too_and_never_breaks_the_stream() -> None:
    keyed = b'data: {"error": {"message": "failed", "details": {"BLUEJAY": 1, "s": 2}}}\n\n'
    out = body_of(guarded(GUARD, "text/event-stream", [keyed])).decode()
    assert "BLUEJAY" not in out and '"s"' not in out and out.rstrip().endswith("data: [DONE]")
    deep = '{"error": ' + '{"a": ' * 900 + '"BLUEJAY"' + "}" * 900 + "}"
    out = body_of(guarded(GUARD, "text/event-stream", [f"data: {deep}\n\n".encode()])).decode()
    assert "BLUEJAY" not in out and out.rstrip().endswith("data: [DONE]")


def test_no_keepalive_after_the_stream_ended_while_the_upstream_lingers() -> None:
    ticking = Guard.from_dict({**POLICY, "keepalive_s": 0.05})

    async def lingering(scope: dict[str, Any], receive: Any, send: Any) -> None:
        attach_context(scope, **CONTEXT)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})
        await send({"type": "http.response.body", "body": chunk("Leave is 25 days [doc:a].") + chunk(finish="stop")
                    + b"data: [DONE]\n\n", "more_body": True})
        await asyncio.sleep(0.4)  # the upstream has said [DONE] but keeps the body open
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    bodies = [m["body"] for m in run(GuardrailMiddleware(lingering, guard=ticking))
              if m["type"] == "http.response.body"]
    done = next(i for i, b in enumerate(bodies) if b.endswith(b"data: [DONE]\n\n"))
    assert b": keep-alive\n\n" not in bodies[done:]
