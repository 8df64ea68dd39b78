"""A guarded Starlette chat endpoint in front of an OpenAI-compatible model server.

    python examples/replay_upstream.py &                    # a stand-in model server on :8001
    python examples/starlette_app.py                        # this app on :8000
    curl -s localhost:8000/v1/chat/completions -H 'x-user: alice' \\
         -d '{"messages": [{"role": "user", "content": "How much annual leave do I get?"}]}'

The endpoint retrieves the passages the user may see (here: a lookup), calls the model, and hands the passages and
the user's roles to the guard with ``attach_context``. The middleware checks the answer on its way out, JSON or
streamed.
"""

from __future__ import annotations

import os

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from guardrail import GuardrailMiddleware, attach_context
from guardrail.demo import CONVERSATIONS, CORPUS, USERS

MODEL = os.environ.get("MODEL_URL", "http://127.0.0.1:8001/v1")
POLICY = os.path.join(os.path.dirname(__file__), "..", "policies", "enterprise-assistant.yaml")


def retrieve(question: str) -> list[dict]:
    """Stands for your retriever: the passages found for the question, each with the roles that may see it."""
    ids = next((c["retrieved"] for c in CONVERSATIONS if c["question"] == question), [])
    return [{"id": doc, **CORPUS[doc]} for doc in ids]


async def chat(request: Request) -> Response:
    body = await request.json()
    roles = USERS.get(request.headers.get("x-user", ""), [])  # stands for your authentication
    attach_context(request, sources=retrieve(body["messages"][-1]["content"]), roles=roles)
    client = httpx.AsyncClient(timeout=60)
    reply = await client.send(client.build_request("POST", f"{MODEL}/chat/completions", json=body), stream=True)

    async def relay():
        try:
            async for chunk in reply.aiter_bytes():
                yield chunk
        finally:
            await reply.aclose()
            await client.aclose()

    return StreamingResponse(relay(), status_code=reply.status_code, media_type=reply.headers.get("content-type"))


app = Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])
app.add_middleware(GuardrailMiddleware, policy=POLICY)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=8000)
