"""An OpenAI client talking to `guardrail serve`: the turn's sources and the user's roles go in `extra_body`.

    pip install openai
    GUARDRAIL_API_KEY=secret python examples/client.py
"""

from __future__ import annotations

import os

from openai import OpenAI

from guardrail.demo import CONVERSATIONS, CORPUS, USERS

client = OpenAI(base_url="http://127.0.0.1:8080/v1", api_key=os.environ["GUARDRAIL_API_KEY"])
for conversation in CONVERSATIONS:
    context = {"sources": [{"id": d, **CORPUS[d]} for d in conversation["retrieved"]],
               "roles": USERS[conversation["user"]]}
    reply = client.chat.completions.create(
        model="replay", messages=[{"role": "user", "content": conversation["question"]}],
        extra_body={"guardrail": context},
    )
    choice = reply.choices[0]
    print(f"{conversation['id']:16s} {choice.finish_reason:15s} {choice.message.content}")
