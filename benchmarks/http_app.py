"""The endpoints the HTTP benchmark drives: the same chat endpoint, unguarded and guarded, JSON and SSE.

Each answers every request with the same typical turn (a ~2 KB answer with citations and quotes, 10 sources): the
model is not what is measured. Run by ``bench_http.py`` as ``uvicorn http_app:<name> --app-dir benchmarks``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workload import make_terms, make_turns

from guardrail import Guard, GuardrailMiddleware, attach_context

SEED = 20_240_601
TERMS = make_terms(SEED, 1_000)
TURN = make_turns(SEED, 3, TERMS)[0]
POLICY: dict[str, Any] = {"citations": {"coverage": "flag"}, "quotes": {}, "banned_terms": {"terms": TERMS},
                          "instructions": {"max_words": 400, "no_emoji": True}}
BODY = json.dumps({
    "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": "bench",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": TURN.output}, "finish_reason": "stop"}],
}).encode()
DELTA = 16  # characters per streamed chunk
_BASE = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0, "model": "bench"}
CHUNKS = [
    f"data: {json.dumps({**_BASE, 'choices': [{'index': 0, 'delta': {'content': TURN.output[i:i + DELTA]}}]})}\n\n"
    .encode() for i in range(0, len(TURN.output), DELTA)
] + [f"data: {json.dumps({**_BASE, 'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'stop'}]})}\n\n"
     "data: [DONE]\n\n".encode()]


async def chat_json(request: Request) -> Response:
    await request.body()
    attach_context(request, sources=TURN.sources, roles=TURN.roles)
    return Response(BODY, media_type="application/json")


async def chat_sse(request: Request) -> Response:
    await request.body()
    attach_context(request, sources=TURN.sources, roles=TURN.roles)

    async def chunks() -> Any:
        for chunk in CHUNKS:
            yield chunk

    return StreamingResponse(chunks(), media_type="text/event-stream")


def _app(endpoint: Any, policy: dict[str, Any] | None) -> Starlette:
    app = Starlette(routes=[Route("/v1/chat/completions", endpoint, methods=["POST"])])
    if policy is not None:
        app.add_middleware(GuardrailMiddleware, guard=Guard.from_dict(policy))
    return app


plain_json = _app(chat_json, None)
guarded_json = _app(chat_json, POLICY)
empty_json = _app(chat_json, {})  # the middleware with no checks: its plumbing alone
plain_sse = _app(chat_sse, None)
guarded_sse = _app(chat_sse, POLICY)
empty_sse = _app(chat_sse, {})
