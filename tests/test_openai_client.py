"""The leaks, as the official ``openai`` client sees them: through ``guardrail serve``'s app over real HTTP (uvicorn on
loopback), in front of a fake model server that answers each scenario as OpenAI would."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from guardrail import Guard
from guardrail.demo import BackgroundServer
from guardrail.proxy import create_proxy

KEY = "proxy-key-1"
GUARD = Guard.from_dict({"citations": {}, "banned_terms": {"terms": ["BLUEJAY"]}, "blocked_message": "Blocked."})
CONTEXT = {"guardrail": {"sources": [{"id": "a", "text": "Leave is 25 days."},
                                     {"id": "s", "text": "The merger closes in May.", "roles": ["board"]}],
                         "roles": ["employee"]}}
HEAD = {"id": "chatcmpl-7", "created": 1733000000, "model": "gpt-4o", "system_fingerprint": "fp_9",
        "service_tier": "default"}


def entry(token: str, *alternatives: str) -> dict[str, Any]:
    return {"token": token, "logprob": -0.5, "bytes": list(token.encode()),
            "top_logprobs": [{"token": t, "logprob": -1.0, "bytes": list(t.encode())} for t in (token, *alternatives)]}


def chunk(delta: dict[str, Any], tokens: list[Any] | None = None, finish: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "logprobs": None if tokens is None else {"content": tokens,
                                                                                   "refusal": None},
              "finish_reason": finish}
    return "data: " + json.dumps({**HEAD, "object": "chat.completion.chunk", "choices": [choice], "usage": None}) \
        + "\n\n"


def completion(message: dict[str, Any], tokens: list[Any] | None = None) -> dict[str, Any]:
    return {**HEAD, "object": "chat.completion", "usage": {"prompt_tokens": 9, "completion_tokens": 9,
                                                           "total_tokens": 18},
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop",
                         "logprobs": None if tokens is None else {"content": tokens, "refusal": None}}]}


STREAMS = {
    "logprobs": [chunk({"role": "assistant", "content": ""}, []),
                 chunk({"content": "Leave is 25 days [doc:a]. "}, [entry("Leave is 25 days [doc:a]. ")]),
                 chunk({"content": "Ask BLUE"}, [entry("Ask BLUE")]),
                 chunk({"content": "JAY [doc:a]."}, [entry("JAY [doc:a].", " BLUEJAY")]),
                 chunk({}, finish="stop"), "data: [DONE]\n\n"],
    "blocked": [chunk({"role": "assistant", "content": ""}),
                chunk({"content": "Leave is 25 days [doc:a]. "}),
                chunk({"content": "The merger closes in May [doc:s]."}, [entry("The merger closes in May [doc:s].")]),
                chunk({}, finish="stop"), "data: [DONE]\n\n"],
    "refusal": [chunk({"role": "assistant", "refusal": "I cannot discuss "}),
                chunk({"refusal": "BLUEJAY [doc:a]."}), chunk({}, finish="stop"), "data: [DONE]\n\n"],
    "truncated": [chunk({"role": "assistant", "content": ""}), chunk({"content": "Leave is 25 days [doc:a]. Ask"})],
    "upstream-error": [chunk({"role": "assistant", "content": "Leave "}),
                       'data: {"error": {"message": "BLUEJAY shard overloaded", "type": "server_error"}}\n\n'],
}


async def model(request: Request) -> Response:
    body = await request.json()
    scenario = body["messages"][-1]["content"]
    if body.get("stream"):
        return StreamingResponse(iter(STREAMS[scenario]), media_type="text/event-stream")
    if scenario == "malformed":
        return Response(b"<html>oops</html>", media_type="application/json")
    if scenario == "refusal":
        return JSONResponse(completion({"content": None, "refusal": "I cannot discuss BLUEJAY [doc:a]."}))
    tokens = [entry("Ask"), entry(" BLUE", " BLUEJAY"), entry("JAY"), entry(" [doc:a].")]
    return JSONResponse(completion({"content": "Ask BLUEJAY [doc:a]."}, tokens))


@pytest.fixture(scope="module")
def client() -> Iterator[openai.OpenAI]:
    upstream = Starlette(routes=[Route("/v1/chat/completions", model, methods=["POST"])])
    with BackgroundServer(upstream) as up, BackgroundServer(create_proxy(GUARD, up.url + "/v1", api_key=KEY)) as px:
        yield openai.OpenAI(base_url=px.url + "/v1", api_key=KEY, max_retries=0)


def ask(client: openai.OpenAI, scenario: str, **options: Any) -> Any:
    return client.chat.completions.with_raw_response.create(
        model="gpt-4o", messages=[{"role": "user", "content": scenario}], extra_body=CONTEXT, logprobs=True,
        top_logprobs=2, **options)


def test_json_redacted_answer_carries_no_logprobs(client: openai.OpenAI) -> None:
    raw = ask(client, "redact")
    assert raw.headers["x-guardrail-decision"] == "modified"
    assert "BLUEJAY" not in raw.text
    reply = raw.parse()
    assert reply.choices[0].message.content == "Ask [redacted] [doc:a]."
    assert reply.choices[0].logprobs is None
    assert (reply.id, reply.model, reply.system_fingerprint, reply.usage.total_tokens) == \
        ("chatcmpl-7", "gpt-4o", "fp_9", 18)


def test_json_refusal_is_guarded(client: openai.OpenAI) -> None:
    reply = ask(client, "refusal").parse()
    assert reply.choices[0].message.refusal == "I cannot discuss [redacted] [doc:a]."


def test_a_malformed_upstream_is_an_error_not_a_block(client: openai.OpenAI) -> None:
    with pytest.raises(openai.APIStatusError) as caught:
        ask(client, "malformed")
    assert caught.value.status_code == 502
    assert caught.value.body["code"] == "upstream_malformed"  # type: ignore[index]


def test_stream_logprobs_only_with_text_released_unchanged(client: openai.OpenAI) -> None:
    with client.chat.completions.with_streaming_response.create(
            model="gpt-4o", messages=[{"role": "user", "content": "logprobs"}], extra_body=CONTEXT, stream=True,
            logprobs=True) as response:
        raw = b"".join(response.iter_bytes())
    assert b"BLUEJAY" not in raw and b"66,76,85,69,74,65,89" not in raw.replace(b" ", b"")  # nor its bytes
    stream = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "logprobs"}],
                                            extra_body=CONTEXT, stream=True, logprobs=True)
    text, tokens = "", []
    for part in stream:
        for choice in part.choices:
            text += choice.delta.content or ""
            if choice.logprobs and choice.logprobs.content:
                tokens += [t.token for t in choice.logprobs.content]
    assert text == "Leave is 25 days [doc:a]. Ask [redacted] [doc:a]."
    assert tokens == ["Leave is 25 days [doc:a]. "]


def test_stream_blocked_ends_with_the_blocked_message(client: openai.OpenAI) -> None:
    parts = list(client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "blocked"}],
                                                extra_body=CONTEXT, stream=True))
    text = "".join(c.delta.content or "" for p in parts for c in p.choices)
    assert "merger" not in text and "doc:s" not in text
    assert text.endswith("Blocked.")
    assert parts[-1].choices[0].finish_reason == "content_filter"
    assert parts[-1].choices[0].delta.content == "Blocked."


def test_stream_refusal_is_guarded(client: openai.OpenAI) -> None:
    parts = list(client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "refusal"}],
                                                extra_body=CONTEXT, stream=True))
    assert "".join(c.delta.refusal or "" for p in parts for c in p.choices) == "I cannot discuss [redacted] [doc:a]."


@pytest.mark.parametrize(("scenario", "message"), [("truncated", "ended before [DONE]"),
                                                   ("upstream-error", "[redacted] shard overloaded")])
def test_stream_faults_reach_the_client_as_errors(client: openai.OpenAI, scenario: str, message: str) -> None:
    stream = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": scenario}],
                                            extra_body=CONTEXT, stream=True)
    with pytest.raises(openai.APIError) as caught:
        for _ in stream:
            pass
    assert message in str(caught.value)
    assert "BLUEJAY" not in str(caught.value)
