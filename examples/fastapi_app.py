"""The same guarded chat endpoint with FastAPI, the model answer replayed in-process (no model server needed).

    python examples/fastapi_app.py
    curl -s localhost:8000/v1/chat/completions -H 'x-user: alice' \\
         -d '{"messages": [{"role": "user", "content": "When are laptops replaced?"}], "stream": true}'
"""

from __future__ import annotations

import os

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import Response

from guardrail import GuardrailMiddleware, attach_context
from guardrail.demo import CONVERSATIONS, CORPUS, USERS, replay

POLICY = os.path.join(os.path.dirname(__file__), "..", "policies", "enterprise-assistant.yaml")

app = FastAPI()
app.add_middleware(GuardrailMiddleware, policy=POLICY)


@app.post("/v1/chat/completions")
async def chat(request: Request) -> Response:
    body = await request.json()
    question = body["messages"][-1]["content"]
    ids = next((c["retrieved"] for c in CONVERSATIONS if c["question"] == question), [])
    attach_context(request, sources=[{"id": doc, **CORPUS[doc]} for doc in ids],
                   roles=USERS.get(request.headers.get("x-user", ""), []))
    return replay(body, pause=0.02)  # the recorded answer, as JSON or as a stream


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=8000)
