"""A stand-in OpenAI-compatible model server that replays recorded answers (clean ones, an invented citation, an
unauthorized citation, an altered quote, a code name), as JSON or as a stream.

    python examples/replay_upstream.py            # on 127.0.0.1:8001, base URL http://127.0.0.1:8001/v1
    GUARDRAIL_API_KEY=secret guardrail serve --policy policies/enterprise-assistant.yaml \\
        --upstream http://127.0.0.1:8001/v1 --port 8080
"""

from __future__ import annotations

import uvicorn

from guardrail.demo import create_upstream

app = create_upstream()

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=8001)
