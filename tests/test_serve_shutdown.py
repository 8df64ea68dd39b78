"""``guardrail serve`` on SIGTERM (CONTRACT sections 8.3 and 10): the real command in a subprocess, in front of a fake
model server, exporting OTLP/HTTP to a receiver on loopback with batch delays far longer than the test, and sampling
into a sqlite queue. After one request (nothing exported yet) and a SIGTERM, the receiver holds the guard span and
the metrics, the queue holds the turn's sample, whose traceparent names that span, and the process has exited.

The sampler's thread moves a sample to the queue within milliseconds of the offer, so the queue check shows the sample
survives the shutdown, not that the shutdown's flush moved it; the telemetry checks do show the flush (nothing left
the batch processors before the SIGTERM)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from test_chat import completion
from test_telemetry import Receiver

from guardrail.demo import BackgroundServer
from guardrail.monitor import records
from guardrail.monitor.queues import open_queue

KEY = "the-proxy-key"
LONG_MS = "600000"  # ten minutes: nothing leaves a batch processor before shutdown
CONTEXT = {"sources": [{"id": "hr-12", "text": "Employees receive 25 days of paid annual leave per year.",
                        "roles": ["employee"]}], "roles": ["employee"]}
TRACE_ID, PARENT_ID = "5bf92f3577b34da6a3ce929d0e0e4736", "10f067aa0ba902b7"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _spans(receiver: Receiver) -> list[Any]:
    with receiver.lock:
        return [span for req in receiver.spans for rs in req.resource_spans for ss in rs.scope_spans
                for span in ss.spans]


def _metric_names(receiver: Receiver) -> set[str]:
    with receiver.lock:
        return {m.name for req in receiver.metrics for rm in req.resource_metrics for sm in rm.scope_metrics
                for m in sm.metrics}


class Run:
    """What one ``guardrail serve`` run left behind: its exit status and stderr, what the receiver got, the queue."""

    def __init__(self, returncode: int, err: str, receiver: Receiver, queue_url: str):
        self.returncode, self.err, self.receiver, self.queue_url = returncode, err, receiver, queue_url


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Start ``guardrail serve``, send one request, check that nothing was exported yet, SIGTERM it, wait."""
    async def chat(request: Request) -> Response:
        return Response(completion({"message": {"role": "assistant", "content": "Leave is 25 days [doc:hr-12]."}}),
                        media_type="application/json")

    tmp_path = tmp_path_factory.mktemp("serve")
    model_app = Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])
    queue_url = f"sqlite:///{tmp_path / 'queue.db'}"  # an absolute path: sqlite:////...
    policy = tmp_path / "policy.yaml"
    policy.write_text(f"name: shutdown\ncitations:\n  coverage: flag\nsampling:\n  rate: 1.0\n  queue: {queue_url}\n")
    port = _free_port()
    receiver = Receiver()
    with BackgroundServer(receiver.app) as collector, BackgroundServer(model_app) as model:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("GUARDRAIL_", "OTEL_"))},
               "GUARDRAIL_API_KEY": KEY, "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
               "OTEL_SERVICE_NAME": "serve-under-test", "OTEL_BSP_SCHEDULE_DELAY": LONG_MS,
               "OTEL_BLRP_SCHEDULE_DELAY": LONG_MS, "OTEL_METRIC_EXPORT_INTERVAL": LONG_MS}
        process = subprocess.Popen(
            [sys.executable, "-m", "guardrail.cli", "serve", "--policy", str(policy), "--upstream",
             model.url + "/v1", "--port", str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None, process.communicate()[1]
                assert time.monotonic() < deadline, "guardrail serve did not start"
                time.sleep(0.05)
            reply = httpx.post(url + "/v1/chat/completions", json={"guardrail": CONTEXT, "messages": []},
                               headers={"authorization": f"Bearer {KEY}",
                                        "traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"}, timeout=30)
            assert reply.status_code == 200, reply.text
            assert reply.json()["choices"][0]["message"]["content"] == "Leave is 25 days [doc:hr-12]."
            time.sleep(0.3)
            with receiver.lock:  # else the flush at shutdown would be proved by nothing
                assert not receiver.spans and not receiver.metrics, "telemetry left before the shutdown"
            process.send_signal(signal.SIGTERM)
            _, err = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    return Run(process.returncode, err, receiver, queue_url)


def test_serve_exits_cleanly_on_sigterm(run: Run) -> None:
    # uvicorn raises the SIGTERM it handled again once it has shut down; serve ignores that one, so the process
    # ends normally and its atexit handlers run.
    assert run.returncode == 0, f"exit status {run.returncode}; stderr:\n{run.err}"


def test_serve_shuts_down_without_an_error(run: Run) -> None:
    assert run.returncode == 0, run.err
    assert "Traceback" not in run.err and "ERROR" not in run.err, run.err


def test_sigterm_flushes_the_guard_span_and_the_metrics(run: Run) -> None:
    spans = _spans(run.receiver)
    guard_spans = [s for s in spans if s.name == "apply_guardrail shutdown"]
    assert len(guard_spans) == 1, f"spans received: {[s.name for s in spans]}; stderr:\n{run.err}"
    (span,) = guard_spans
    attributes = {kv.key: kv.value for kv in span.attributes}
    assert attributes["gen_ai.operation.name"].string_value == "apply_guardrail"
    assert attributes["guardrail.decision"].string_value == "pass"
    assert span.trace_id.hex() == TRACE_ID and span.parent_span_id.hex() == PARENT_ID  # the incoming trace
    assert {"guardrail.decisions", "guardrail.duration", "guardrail.samples"} <= _metric_names(run.receiver)


def test_sigterm_leaves_the_sample_in_the_queue(run: Run) -> None:
    queue = open_queue(run.queue_url)
    try:
        leases = queue.lease(10, 60)
        assert len(leases) == 1
        record = records.decode(leases[0].payload)
    finally:
        queue.close()
    assert record["policy"] == "shutdown" and record["decision"] == "pass"
    (span,) = [s for s in _spans(run.receiver) if s.name == "apply_guardrail shutdown"]
    assert record["traceparent"] == f"00-{TRACE_ID}-{span.span_id.hex()}-01"  # the sample names the exported span
