"""The demo: a guarded chat endpoint in front of a replayed LLM, driven by recorded conversations.

``guardrail demo`` starts the guarded app with uvicorn on a free loopback port, sends every recorded conversation
through it as an HTTP client (once as JSON, once streamed), and prints what passed, what was changed and what was
blocked, with the reasons. Everything it needs is embedded here: the corpus, the users and their roles (the app's
"auth"), the recorded answers (the "LLM") and the policy.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator
from typing import Any, TextIO

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .guard import Guard
from .middleware import GuardrailMiddleware, attach_context

CORPUS: dict[str, dict[str, Any]] = {
    "hr-12": {"text": "Full-time employees receive 25 days of paid annual leave per calendar year. Unused leave of up "
                      "to 5 days may be carried over to the next year with manager approval.", "roles": ["employee"]},
    "hr-7": {"text": "Parental leave is 16 weeks at full pay for the primary caregiver and 6 weeks for the secondary "
                     "caregiver.", "roles": ["employee"]},
    "it-3": {"text": "Laptops are replaced every three years. Lost devices must be reported to the service desk "
                     "within 24 hours.", "roles": None},
    "fin-9": {"text": "Q3 restructuring: the Berlin office will close in March; 120 roles are affected.",
              "roles": ["finance-leads"]},
}
USERS: dict[str, list[str]] = {"alice": ["employee"], "fran": ["employee", "finance-leads"]}

CONVERSATIONS: list[dict[str, Any]] = [
    {"id": "clean", "user": "alice", "question": "How much annual leave do I get?", "retrieved": ["hr-12"],
     "answer": "You receive 25 days of paid annual leave per year [doc:hr-12]. Up to 5 unused days can be carried "
               "over with your manager's approval [doc:hr-12]."},
    {"id": "exact-quote", "user": "alice", "question": "What is parental leave?", "retrieved": ["hr-7"],
     "answer": 'The policy grants primary caregivers "16 weeks at full pay" [doc:hr-7]. Secondary caregivers get '
               "6 weeks [doc:hr-7]."},
    {"id": "invented-source", "user": "alice", "question": "When are laptops replaced?", "retrieved": ["it-3"],
     "answer": "Laptops are replaced every three years [doc:it-3]. Monitors are replaced every five years "
               "[doc:it-44]."},
    {"id": "unauthorized", "user": "alice", "question": "Any news about the Berlin office?",
     "retrieved": ["hr-12", "fin-9"],
     "answer": "Your leave is unaffected [doc:hr-12]. The Berlin office will close in March [doc:fin-9]."},
    {"id": "authorized", "user": "fran", "question": "What happens to the Berlin office?", "retrieved": ["fin-9"],
     "answer": "The Berlin office will close in March; 120 roles are affected [doc:fin-9]."},
    {"id": "altered-quote", "user": "alice", "question": "Can I carry leave over?", "retrieved": ["hr-12"],
     "answer": 'The handbook says "unused leave of up to 10 days may be carried over" [doc:hr-12].'},
    {"id": "code-name", "user": "alice", "question": "Who handles lost devices?", "retrieved": ["it-3"],
     "answer": "Report lost devices within 24 hours [doc:it-3]. The Project Falcon team replaces them [doc:it-3]."},
    {"id": "uncited", "user": "alice", "question": "What about parental leave?", "retrieved": ["hr-7"],
     "answer": "Hi! Parental leave is 16 weeks for the primary caregiver [doc:hr-7]. Everyone also gets a free gym "
               "membership."},
]

DEMO_POLICY: dict[str, Any] = {
    "name": "demo-enterprise-assistant",
    "citations": {"on_hallucinated": "strip", "on_unauthorized": "block", "coverage": "strip"},
    "quotes": {"min_chars": 12, "on_unverified": "block"},
    "banned_terms": {"terms": ["Project Falcon", "BLUEJAY"], "on_match": "redact"},
    "instructions": {"max_words": 400, "no_emoji": True, "on_violation": "flag"},
    "blocked_message": "Sorry, I can't share that answer.",
    # The demo's client, guarded server and worker share one process (and its GIL): a look that waits for the other
    # thread must not run out of the default 50 ms of wall-clock time and end the answer as a guard error.
    "budget_ms": 1000,
}


def _conversation(body: Any) -> dict[str, Any] | None:
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not messages or not isinstance(messages[-1], dict):
        return None
    question = messages[-1].get("content")
    return next((c for c in CONVERSATIONS if c["question"] == question), None)


def _completion(answer: str) -> dict[str, Any]:
    return {"id": "chatcmpl-replay", "object": "chat.completion", "created": 0, "model": "replay",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}]}


def _deltas(answer: str, size: int = 7) -> list[str]:
    return [answer[i:i + size] for i in range(0, len(answer), size)]


async def _sse(answer: str, pause: float = 0.0) -> AsyncIterator[bytes]:
    base = {"id": "chatcmpl-replay", "object": "chat.completion.chunk", "created": 0, "model": "replay"}
    first = {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
    yield f"data: {json.dumps(first)}\n\n".encode()
    for piece in _deltas(answer):
        if pause:
            await asyncio.sleep(pause)
        chunk = {**base, "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        yield f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()
    last = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode()


def replay(body: Any, pause: float = 0.0) -> Response:
    """The replayed LLM: the recorded answer to the last user message, as JSON or as a stream."""
    conversation = _conversation(body)
    if conversation is None:
        return JSONResponse({"error": {"message": "no recorded answer for this question", "type": "not_found"}},
                            status_code=404)
    if body.get("stream"):
        return StreamingResponse(_sse(conversation["answer"], pause), media_type="text/event-stream")
    return JSONResponse(_completion(conversation["answer"]))


def create_upstream() -> Starlette:
    """An OpenAI-compatible model server that replays the recorded answers (no guard: it stands for the LLM)."""
    async def chat(request: Request) -> Response:
        return replay(json.loads(await request.body() or b"{}"))

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def create_app(guard: Guard | None = None) -> Starlette:
    """The guarded demo chat endpoint: retrieval and auth are looked up server-side, the answer is replayed."""
    async def chat(request: Request) -> Response:
        body = json.loads(await request.body() or b"{}")
        conversation = _conversation(body)
        user = request.headers.get("x-demo-user", "alice")  # stands for the app's authentication
        if conversation is not None:
            docs = [{"id": doc, **CORPUS[doc]} for doc in conversation["retrieved"]]
            attach_context(request, sources=docs, roles=USERS.get(user, []))
        return replay(body)

    guard = guard or Guard.from_dict(DEMO_POLICY)
    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])],
                     middleware=[Middleware(GuardrailMiddleware, guard=guard)])


class BackgroundServer:
    """A uvicorn server on a free loopback port, in a thread (for the demo and the end-to-end tests)."""

    def __init__(self, app: Any):
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="auto"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def _read_stream(lines: Any) -> tuple[str, str | None]:
    text, reason = [], None
    for line in lines:
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        for choice in json.loads(line[6:])["choices"]:
            text.append(choice.get("delta", {}).get("content") or "")
            reason = choice.get("finish_reason") or reason
    return "".join(text), reason


def run_demo(out: TextIO | None = None, workdir: str | None = None) -> int:
    """Run the demo and print its table, then score the sampled turns and print the monitor's report; return the exit
    status. The queue and the results live in ``workdir`` (a temporary directory by default)."""
    import tempfile

    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="guardrail-demo-") as tmp:
            return run_demo(out, tmp)
    out = out or sys.stdout
    queue_url, results_url = f"sqlite:///{workdir}/queue.db", f"sqlite:///{workdir}/results.db"
    guard = Guard.from_dict({**DEMO_POLICY, "sampling": {"rate": 1.0, "queue": queue_url}})
    status = _conversations(guard, out)
    _monitor(guard, queue_url, results_url, out)
    return status


def _monitor(guard: Guard, queue_url: str, results_url: str, out: TextIO) -> None:
    """Drain the sampled turns through an in-process worker and print the report."""
    from .judges import load_judge
    from .monitor.queues import open_queue
    from .monitor.report import build_report, text_report
    from .monitor.results import open_results
    from .monitor.worker import Worker

    sampler = guard.sampler
    assert sampler is not None
    sampler.close()
    stats = sampler.stats()
    queue, results = open_queue(queue_url), open_results(results_url)
    try:
        worker = Worker(queue, results, load_judge("lexical"))
        done = worker.run(once=True)
        report = build_report(results)
    finally:
        queue.close()
        results.close()
    print(f"\nThe monitor: {stats['enqueued']} turns sampled into {queue_url} (rate 1.0 in the demo), scored by an "
          f"in-process worker ({done.scored} scored, {done.errors} errors) into {results_url} (a temporary "
          "directory, removed when the demo ends):\n", file=out)
    print(text_report(report), file=out)
    print("\nIn production: `guardrail worker --queue URL --results URL` on any machine, "
          "`guardrail report --results URL --gate 'citation_recall.low>=0.8'` as a release gate.", file=out)


def _conversations(guard: Guard, out: TextIO) -> int:
    """Send every recorded conversation through the guarded endpoint, JSON and streamed, and print the table."""
    import httpx

    rows: list[tuple[str, ...]] = []
    with BackgroundServer(create_app(guard)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        for conversation in CONVERSATIONS:
            request = {"model": "replay", "messages": [{"role": "user", "content": conversation["question"]}]}
            headers = {"x-demo-user": conversation["user"]}
            reply = client.post("/v1/chat/completions", json=request, headers=headers)
            reply.raise_for_status()
            json_text = reply.json()["choices"][0]["message"]["content"]
            with client.stream("POST", "/v1/chat/completions", json={**request, "stream": True},
                               headers=headers) as streamed:
                stream_text, reason = _read_stream(streamed.iter_lines())
            verdict = guard.check(conversation["answer"], [{"id": d, **CORPUS[d]} for d in conversation["retrieved"]],
                                  USERS[conversation["user"]])
            same = stream_text == json_text or (reason == "content_filter" and verdict.decision.value == "blocked")
            rows.append((conversation["id"], conversation["user"], reply.headers.get("x-guardrail-decision", "?"),
                         "content_filter" if reason == "content_filter" else "same" if same else "DIFFERENT",
                         ", ".join(f"{f.label.value}:{f.action.value}" for f in verdict.findings) or "-",
                         json_text))
    _table(rows, out)
    counts = {d: sum(1 for r in rows if r[2] == d) for d in ("pass", "modified", "blocked")}
    print(f"\n{len(rows)} conversations through {server.url}/v1/chat/completions (JSON and streamed): "
          f"{counts['pass']} passed, {counts['modified']} modified, {counts['blocked']} blocked.", file=out)
    return 0 if all(r[3] != "DIFFERENT" for r in rows) else 1


def _table(rows: list[tuple[str, ...]], out: TextIO) -> None:
    head = ("conversation", "user", "decision", "streamed", "findings (label:action)", "what the user received")
    width = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(5)]
    print("  ".join(h.ljust(w) for h, w in zip(head, width, strict=False)) + "  " + head[5], file=out)
    for row in rows:
        shown = row[5] if len(row[5]) <= 90 else row[5][:87] + "..."
        print("  ".join(c.ljust(w) for c, w in zip(row, width, strict=False)) + "  " + shown, file=out)
