"""Telemetry (CONTRACT section 10) with the real OpenTelemetry SDK: guard spans under the real ASGI instrumentation's
server span, attributes, finding events and metrics; trace continuity from a request to the worker's evaluation
events; no content unless the policy opts in; and a real OTLP/HTTP export to a receiver that decodes the protobuf."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry import trace
from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.util._once import Once
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from test_chat import chunk, completion
from test_middleware import run, upstream

from guardrail import Guard, GuardrailMiddleware
from guardrail.demo import BackgroundServer
from guardrail.judges import load_judge
from guardrail.monitor import records
from guardrail.monitor.queues import open_queue
from guardrail.monitor.results import open_results
from guardrail.monitor.worker import Worker
from guardrail.proxy import create_proxy

ROOT = Path(__file__).resolve().parent.parent
DOCS = [{"id": "hr-12", "text": "Employees receive 25 days of paid annual leave per year.", "roles": ["employee"]},
        {"id": "fin-9", "text": "The Berlin office will close in March.", "roles": ["finance"]}]
CONTEXT = {"sources": DOCS, "roles": ["employee"]}
POLICY = {"name": "obs", "citations": {"coverage": "flag"}, "banned_terms": {"terms": ["BLUEJAY"]},
          "blocked_message": "Blocked."}
SECRETS = ["BLUEJAY", "hr-12", "fin-9", "Berlin", "25 days of paid", "Employees receive", "Ask", "secret"]


class Otel:
    """The SDK, installed as the global providers for one test, with in-memory exporters."""

    def __init__(self) -> None:
        self.spans = InMemorySpanExporter()
        self.reader = InMemoryMetricReader()
        self.logs = InMemoryLogRecordExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.spans))
        self.meter_provider = MeterProvider(metric_readers=[self.reader])
        self.logger_provider = LoggerProvider()
        self.logger_provider.add_log_record_processor(SimpleLogRecordProcessor(self.logs))

    def guard_spans(self) -> list[Any]:
        return [s for s in self.spans.get_finished_spans() if s.name.startswith("apply_guardrail")]

    def points(self, name: str) -> list[tuple[dict[str, Any], Any]]:
        data = self.reader.get_metrics_data()
        out = []
        for rm in data.resource_metrics if data else []:
            for sm in rm.scope_metrics:
                for metric in sm.metrics:
                    if metric.name == name:
                        out += [(dict(p.attributes), getattr(p, "value", getattr(p, "count", None)))
                                for p in metric.data.data_points]
        return out


def _reset() -> None:
    import opentelemetry._logs._internal as logs_api
    import opentelemetry.metrics._internal as metrics_api

    trace._TRACER_PROVIDER_SET_ONCE = Once()
    trace._TRACER_PROVIDER = None
    metrics_api._METER_PROVIDER_SET_ONCE = Once()
    metrics_api._METER_PROVIDER = None
    logs_api._LOGGER_PROVIDER_SET_ONCE = Once()
    logs_api._LOGGER_PROVIDER = None


@pytest.fixture
def otel() -> Iterator[Otel]:
    from opentelemetry import metrics
    from opentelemetry._logs import set_logger_provider

    _reset()
    sdk = Otel()
    trace.set_tracer_provider(sdk.tracer_provider)
    metrics.set_meter_provider(sdk.meter_provider)
    set_logger_provider(sdk.logger_provider)
    try:
        yield sdk
    finally:
        _reset()


def instrumented(guard: Guard, media: str, bodies: list[bytes]) -> Any:
    return OpenTelemetryMiddleware(GuardrailMiddleware(upstream(media, bodies, context=CONTEXT), guard=guard))


def exported_values(otel: Otel) -> list[str]:
    """Every string an exporter would carry: span attributes and event attributes, log attributes and bodies,
    metric point attributes."""
    out: list[str] = []

    def add(attrs: Any) -> None:
        for value in (attrs or {}).values():
            out.extend(str(v) for v in (value if isinstance(value, list | tuple) else [value]))

    for span in otel.spans.get_finished_spans():
        add(span.attributes)
        for event in span.events:
            add(event.attributes)
    for log in otel.logs.get_finished_logs():
        add(log.log_record.attributes)
        out.append(str(log.log_record.body or ""))
    for name in ("guardrail.decisions", "guardrail.findings", "guardrail.duration", "guardrail.evaluations",
                 "guardrail.samples", "guardrail.stream.holdback"):
        for attrs, _ in otel.points(name):
            add(attrs)
    return out


def test_guard_spans_sit_under_the_asgi_server_span(otel: Otel) -> None:
    guard = Guard.from_dict(POLICY)
    clean = completion({"message": {"content": "Leave is 25 days [doc:hr-12]."}})
    run(instrumented(guard, "application/json", [clean]))
    run(instrumented(guard, "application/json", [completion({"message": {"content": "Ask BLUEJAY [doc:hr-12]."}})]))
    stream = b"".join(chunk(t) for t in ("Leave is 25 days [doc:hr-12]. ", "Berlin closes ", "[doc:fin-9].")) \
        + chunk(finish="stop") + b"data: [DONE]\n\n"
    run(instrumented(guard, "text/event-stream", [stream[i:i + 40] for i in range(0, len(stream), 40)]))
    spans = otel.spans.get_finished_spans()
    guards = otel.guard_spans()
    assert len(guards) == 3  # one per response, never one per chunk
    servers = {s.context.span_id: s for s in spans if s.kind == trace.SpanKind.SERVER}
    for g in guards:
        assert g.parent is not None and g.parent.span_id in servers  # a child of the instrumentation's span
        assert g.attributes["gen_ai.operation.name"] == "apply_guardrail"
        assert g.attributes["guardrail.policy.name"] == "obs"
        assert g.attributes["guardrail.policy.digest"] == guard.digest
    assert [g.attributes["guardrail.decision"] for g in guards] == ["pass", "modified", "blocked"]
    modified, blocked = guards[1], guards[2]
    assert modified.attributes["guardrail.findings.BANNED_TERM"] == 1
    (event,) = [e for e in modified.events if e.name == "guardrail.finding"]
    assert dict(event.attributes) == {"guardrail.check": "banned_terms", "guardrail.label": "BANNED_TERM",
                                      "guardrail.action": "redact", "guardrail.start": 4, "guardrail.end": 11,
                                      "guardrail.choice": 0, "guardrail.field": "content"}
    assert blocked.attributes["guardrail.stream.chunks"] == 3
    assert blocked.attributes["guardrail.stream.held_chars_max"] > 0
    assert "guardrail.stream.first_release_s" in blocked.attributes
    decisions = {attrs["guardrail.decision"]: value for attrs, value in otel.points("guardrail.decisions")}
    assert decisions == {"pass": 1, "modified": 1, "blocked": 1}
    assert {a["guardrail.label"] for a, _ in otel.points("guardrail.findings")} >= {"BANNED_TERM",
                                                                                   "UNAUTHORIZED_SOURCE"}
    assert sum(v for _, v in otel.points("guardrail.duration")) == 3
    assert not any(secret in value for value in exported_values(otel) for secret in SECRETS)


def test_record_content_puts_the_text_on_the_span(otel: Otel) -> None:
    guard = Guard.from_dict({**POLICY, "telemetry": {"record_content": True}})
    run(instrumented(guard, "application/json", [completion({"message": {"content": "Ask BLUEJAY [doc:hr-12]."}})]))
    (span,) = otel.guard_spans()
    (content,) = [e for e in span.events if e.name == "guardrail.content"]
    assert content.attributes["guardrail.output"] == "Ask BLUEJAY [doc:hr-12]."
    assert content.attributes["guardrail.delivered"] == "Ask [redacted] [doc:hr-12]."


def test_direct_checks_and_streams_have_their_spans(otel: Otel) -> None:
    guard = Guard.from_dict(POLICY)
    tracer = trace.get_tracer("app")
    with tracer.start_as_current_span("request") as parent:
        guard.check("Ask BLUEJAY [doc:hr-12].", DOCS, ["employee"])
        stream = guard.stream(DOCS, ["employee"])
        for piece in ("Leave is ", "25 days [doc:hr-12]. ", "More [doc:hr-12]."):
            stream.feed(piece)
        stream.finish()
    check, streamed = otel.guard_spans()
    for span in (check, streamed):
        assert span.parent is not None and span.parent.span_id == parent.get_span_context().span_id
    assert check.attributes["guardrail.response.kind"] == "check"
    assert streamed.attributes["guardrail.response.kind"] == "stream"
    assert streamed.attributes["guardrail.stream.chunks"] == 3


def test_durations_wait_for_the_collection_within_a_bound(otel: Otel, monkeypatch: pytest.MonkeyPatch) -> None:
    from guardrail import telemetry

    monkeypatch.setattr(telemetry._Deferred, "HELD", 3)  # per attribute set; beyond it, recorded at once
    guard = Guard.from_dict(POLICY)
    for _ in range(5):
        guard.check("Ask BLUEJAY [doc:hr-12].", DOCS, ["employee"])
    assert [v for _, v in otel.points("guardrail.duration")] == [5]  # 3 held until the collection, 2 at once
    guard.check("Leave is 25 days [doc:hr-12].", DOCS, ["employee"])
    assert [v for _, v in otel.points("guardrail.duration")] == [6]
    assert [a for a, _ in otel.points("guardrail.duration")] == [{"guardrail.policy": "obs"}]


def test_without_an_sdk_nothing_is_recorded() -> None:
    from guardrail import telemetry

    assert not telemetry.active()
    guard = Guard.from_dict(POLICY)
    messages = run(GuardrailMiddleware(upstream("application/json", [completion({"message": {"content": "Hi."}})],
                                                context=CONTEXT), guard=guard))
    assert messages[0]["status"] == 200


def test_the_trace_continues_from_the_request_to_the_evaluation(otel: Otel, tmp_path: Path) -> None:
    guard = Guard.from_dict({**POLICY, "sampling": {"rate": 1.0, "queue": "memory://trace-test"}})
    trace_id, parent_id = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"

    async def chat(request: Request) -> Response:
        from guardrail import attach_context

        attach_context(request, **CONTEXT)
        return Response(completion({"message": {"content": "Employees receive 25 days of paid annual leave per "
                                                           "year [doc:hr-12]."}}), media_type="application/json")

    app = Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])
    app.add_middleware(GuardrailMiddleware, guard=guard)
    with BackgroundServer(app) as server:
        reply = httpx.post(server.url + "/v1/chat/completions", json={},
                           headers={"traceparent": f"00-{trace_id}-{parent_id}-01"})
        assert reply.status_code == 200
    assert guard.sampler is not None
    guard.sampler.close()
    (span,) = otel.guard_spans()
    assert f"{span.context.trace_id:032x}" == trace_id and f"{span.parent.span_id:016x}" == parent_id
    queue = open_queue("memory://trace-test")
    with open_results(f"sqlite:///{tmp_path}/r.db") as results:
        (lease,) = queue.lease(10, 60)
        record = records.decode(lease.payload)
        assert record["traceparent"] == f"00-{trace_id}-{span.context.span_id:016x}-01"
        queue.release([lease.id])
        assert Worker(queue, results, load_judge("lexical")).step() == 1
    events = [log.log_record for log in otel.logs.get_finished_logs()
              if log.log_record.event_name == "gen_ai.evaluation.result"]
    assert {e.attributes["gen_ai.evaluation.name"] for e in events} == {
        "citation_recall", "citation_precision", "delivered_citation_recall"}
    for e in events:
        assert e.trace_id == span.context.trace_id and e.span_id == span.context.span_id  # attached to the guard span
    recall = next(e for e in events if e.attributes["gen_ai.evaluation.name"] == "citation_recall")
    assert recall.attributes["gen_ai.evaluation.score.value"] == 1.0
    assert recall.attributes["gen_ai.evaluation.score.label"] == "pass"
    (evaluate,) = [s for s in otel.spans.get_finished_spans() if s.name.startswith("evaluate")]
    assert [link.context.span_id for link in evaluate.links] == [span.context.span_id]
    assert {a["gen_ai.evaluation.name"] for a, _ in otel.points("guardrail.evaluations")} >= {"citation_recall"}
    assert otel.points("guardrail.worker.lag")
    assert not any(secret in value for value in exported_values(otel) for secret in SECRETS[:6])


def test_the_proxy_continues_an_incoming_traceparent(otel: Otel) -> None:
    async def model(request: Request) -> Response:
        return Response(completion({"message": {"content": "Leave is 25 days [doc:hr-12]."}}),
                        media_type="application/json")

    up_app = Starlette(routes=[Route("/v1/chat/completions", model, methods=["POST"])])
    trace_id = "0af7651916cd43dd8448eb211c80319c"
    with BackgroundServer(up_app) as up, BackgroundServer(create_proxy(Guard.from_dict(POLICY), up.url + "/v1",
                                                                       api_key="k")) as proxy:
        reply = httpx.post(proxy.url + "/v1/chat/completions", json={"guardrail": CONTEXT, "messages": []},
                           headers={"authorization": "Bearer k", "traceparent": f"00-{trace_id}-b7ad6b7169203331-01"})
        assert reply.status_code == 200
    (span,) = otel.guard_spans()
    assert f"{span.context.trace_id:032x}" == trace_id


# ------------------------------------------------------------------------------------------- OTLP over the wire


class Receiver:
    """An OTLP/HTTP receiver on loopback that decodes what it is sent (the protobuf of opentelemetry-proto)."""

    def __init__(self) -> None:
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
        from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        self.spans: list[Any] = []
        self.metrics: list[Any] = []
        self.logs: list[Any] = []
        self.lock = threading.Lock()
        kinds = {"/v1/traces": (ExportTraceServiceRequest, self.spans),
                 "/v1/metrics": (ExportMetricsServiceRequest, self.metrics),
                 "/v1/logs": (ExportLogsServiceRequest, self.logs)}

        async def receive(request: Request) -> Response:
            message_type, sink = kinds[request.url.path]
            message = message_type()
            message.ParseFromString(await request.body())
            with self.lock:
                sink.append(message)
            return Response(b"", media_type="application/x-protobuf")

        self.app = Starlette(routes=[Route(path, receive, methods=["POST"]) for path in kinds])


def test_a_real_otlp_http_export_of_the_demo() -> None:
    receiver = Receiver()
    with BackgroundServer(receiver.app) as collector:
        env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url, "OTEL_SERVICE_NAME": "demo-under-test",
               "OTEL_METRIC_EXPORT_INTERVAL": "500"}
        proc = subprocess.run([sys.executable, "-m", "guardrail.cli", "demo"], capture_output=True, text=True,
                              timeout=180, cwd=ROOT, env=env)
        assert proc.returncode == 0, proc.stderr
    spans = [span for req in receiver.spans for rs in req.resource_spans for ss in rs.scope_spans for span in ss.spans]
    def kind(span: Any) -> str:
        return next(kv.value.string_value for kv in span.attributes if kv.key == "guardrail.response.kind")

    guard_spans = [s for s in spans if s.name.startswith("apply_guardrail") and kind(s) != "check"]
    assert len(guard_spans) == 16  # the demo's 16 responses (its own Guard.check calls have spans of their own)
    attributes = {kv.key: kv.value for kv in guard_spans[0].attributes}
    assert attributes["gen_ai.operation.name"].string_value == "apply_guardrail"
    services = {kv.value.string_value for req in receiver.spans for rs in req.resource_spans
                for kv in rs.resource.attributes if kv.key == "service.name"}
    assert services == {"demo-under-test"}
    names = {m.name for req in receiver.metrics for rm in req.resource_metrics for sm in rm.scope_metrics
             for m in sm.metrics}
    assert {"guardrail.decisions", "guardrail.findings", "guardrail.duration", "guardrail.samples",
            "guardrail.evaluations"} <= names
    events = [r for req in receiver.logs for rl in req.resource_logs for sl in rl.scope_logs for r in sl.log_records
              if r.event_name == "gen_ai.evaluation.result"]
    assert events and all(len(r.trace_id) == 16 and len(r.span_id) == 8 for r in events)
    guard_ids = {(s.trace_id, s.span_id) for s in guard_spans}
    assert {(r.trace_id, r.span_id) for r in events} <= guard_ids  # each evaluation sits on its turn's guard span


def test_an_unreachable_collector_never_fails_the_demo() -> None:
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_BSP_EXPORT_TIMEOUT": "1000"}
    proc = subprocess.run([sys.executable, "-m", "guardrail.cli", "demo"], capture_output=True, text=True,
                          timeout=180, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "16 turns sampled" in proc.stdout


def test_log_lines_carry_the_trace_id(otel: Otel, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.INFO, logger="guardrail")
    guard = Guard.from_dict(POLICY)
    run(instrumented(guard, "application/json", [completion({"message": {"content": "Ask BLUEJAY [doc:hr-12]."}})]))
    (span,) = otel.guard_spans()
    (line,) = [r.getMessage() for r in caplog.records if r.name == "guardrail"]
    assert line.endswith(f"trace_id={span.context.trace_id:032x}")
    assert json.dumps(line).count("BLUEJAY") == 0


def test_a_responses_kind_is_one_of_a_few_whatever_its_content_type_says(otel: Otel) -> None:
    """The span names the response's kind from a closed set: the upstream writes the content type, and a made-up
    one may spell anything."""
    guard = Guard.from_dict(POLICY)
    body = completion({"message": {"content": "Leave is 25 days [doc:hr-12]."}})
    for media in ("application/json", "application/x-bluejay", "text/plain"):
        run(instrumented(guard, media, [body]))
    kinds = [s.attributes["guardrail.response.kind"] for s in otel.spans.get_finished_spans()
             if s.name.startswith("apply_guardrail")]
    assert kinds == ["json", "other", "text"]
    assert not [v for v in exported_values(otel) if "bluejay" in v.lower()]


def test_the_services_log_no_upstream_status_line() -> None:
    """httpx logs each request with the status line the upstream wrote, reason phrase and all: the services'
    logging (``guardrail serve``, ``guardrail worker``) keeps only its warnings."""
    code = ("import logging\n"
            "from guardrail._log import configure_cli_logging\n"
            "configure_cli_logging()\n"
            "logging.getLogger('httpx').info('HTTP Request: POST /v1 \"HTTP/1.1 200 BLUEJAY\"')\n"
            "logging.getLogger('guardrail').info('request=r1 decision=modified')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "request=r1" in proc.stderr and "BLUEJAY" not in proc.stderr
