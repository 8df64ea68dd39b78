"""Telemetry through the OpenTelemetry API (CONTRACT section 10): spans, metrics and evaluation events.

The library uses ``opentelemetry-api`` only: with no SDK configured every call here is a no-op, and the guard checks
that first (:func:`active`: one read of the API's global and a type test, ~0.1 µs), so it costs next to nothing.
``guardrail serve``, ``worker`` and ``demo`` configure the SDK from the standard ``OTEL_*`` environment variables
(:func:`configure_from_env`).

- **Spans**: one per guarded response (``apply_guardrail <policy>``, a child of the current span, so it sits under
  the application's server span), never one per chunk. Attributes ``gen_ai.operation.name`` = ``apply_guardrail`` and
  ``guardrail.*``; each finding is a ``guardrail.finding`` span event (check, label, action, offsets).
- **Metrics**: ``guardrail.decisions``, ``guardrail.findings``, ``guardrail.duration`` (s),
  ``guardrail.stream.holdback`` (characters), ``guardrail.samples``, ``guardrail.queue.depth``,
  ``guardrail.worker.lag`` (s), ``guardrail.evaluations``; their attributes are low-cardinality (policy, decision,
  check, label, action, outcome). On the request path nothing reaches the SDK's metric code: counters are
  observable counters over in-process totals, and ``guardrail.duration`` and ``guardrail.stream.holdback`` values
  wait in process until the SDK collects.
- **Cost with the SDK**: the span is what remains (the SDK's ``start_span``/``end``, ~6 µs per finding event); a
  span made after the fact (``Guard.check``) gets all its attributes in one dict at its start.
- **Evaluation events**: the worker emits ``gen_ai.evaluation.result`` log records carrying the trace and span id of
  the evaluated turn's guard span; its own span links to that span.

No output text, source text, quote, banned term or document ID goes into any attribute or event unless the policy
says ``telemetry: {record_content: true}``.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from opentelemetry import context as otel_context
from opentelemetry import metrics, propagate, trace

from . import __version__
from .models import Verdict

if TYPE_CHECKING:
    from ._chat import FieldVerdict

SCOPE = "guardrail"
MAX_FINDING_EVENTS = 32
"""Findings beyond this many are counted in the span's attributes, not each made an event."""
_NO_SDK = trace.ProxyTracerProvider
# The API keeps the global providers in module globals, None until one is set; reading them directly spares the
# environment lookup ``get_tracer_provider`` makes on every call while none is set (most of what the API-only path
# cost). A provider named in the environment is loaded by the API on first use: then, or if the globals are gone in
# some version, ask the API.
_DIRECT_TRACE = hasattr(trace, "_TRACER_PROVIDER") and "OTEL_PYTHON_TRACER_PROVIDER" not in os.environ


def active() -> bool:
    """Whether an SDK is configured (else every span would be a no-op: skip the work of describing it). An exact
    type test: ``isinstance`` against the API's abstract classes costs tens of microseconds when their caches miss."""
    if _DIRECT_TRACE:
        provider = trace._TRACER_PROVIDER
        return provider is not None and type(provider) is not _NO_SDK
    return type(trace.get_tracer_provider()) is not _NO_SDK


_TRACER: tuple[Any, trace.Tracer] | None = None


def tracer() -> trace.Tracer:
    """The guardrail tracer of the current provider."""
    global _TRACER
    provider = trace.get_tracer_provider()
    if _TRACER is None or _TRACER[0] is not provider:
        _TRACER = (provider, provider.get_tracer(SCOPE, __version__))
    return _TRACER[1]


Key = tuple[tuple[str, Any], ...]
"""A metric attribute set as a hashable tuple of its items."""


class _Totals:
    """Cumulative counts kept in process and read by an observable counter when the SDK collects: a counter's
    ``add`` costs several microseconds in the Python SDK; a dict increment under a lock costs a fraction of one."""

    def __init__(self, lock: Any = None) -> None:
        self._lock = lock if lock is not None else threading.Lock()
        self._counts: dict[Key, int] = {}

    def add(self, n: int, attributes: dict[str, Any]) -> None:
        key = tuple(attributes.items())
        with self._lock:
            self._counts[key] = self._counts.get(key, 0) + n

    def observe(self, options: Any = None) -> list[metrics.Observation]:
        with self._lock:
            return [metrics.Observation(v, dict(k)) for k, v in self._counts.items()]


class _Deferred:
    """A histogram whose values wait in process until the SDK collects, then go to it all at once (from the
    collecting thread, in a callback of the observable counters): a histogram ``record`` costs ~6 µs in the Python
    SDK, an append to a deque (thread-safe, no lock) a fraction of one. At most ``HELD`` values wait per attribute
    set (a meter provider that never collects): beyond that they are recorded at once, as without the deferral.
    Their exemplars are lost (the request's context is not kept)."""

    HELD = 50_000

    def __init__(self, histogram: Any) -> None:
        self.histogram = histogram
        self._values: dict[Key, deque[float]] = {}

    def record(self, value: float, attributes: dict[str, Any]) -> None:
        self.record_key(value, tuple(attributes.items()))

    def record_key(self, value: float, key: Key) -> None:
        values = self._values.get(key)
        if values is None:
            values = self._values.setdefault(key, deque())  # atomic: one deque per key, whoever comes first
        if len(values) < self.HELD:
            values.append(value)
        else:
            self.histogram.record(value, dict(key))

    def drain(self) -> None:
        for key, values in list(self._values.items()):
            if not values:
                continue
            attributes, record, take = dict(key), self.histogram.record, values.popleft
            try:
                for _ in range(len(values)):  # what arrives meanwhile waits for the next collection
                    record(take(), attributes)
            except IndexError:  # another collection took the rest
                pass


class _Instruments:
    """The metric instruments of one meter provider (counters as observable counters over in-process totals, the
    request path's histograms deferred to collection)."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider
        meter = provider.get_meter(SCOPE, __version__)
        self._lock = threading.Lock()  # the decisions and findings of a response are counted under one acquisition
        self.decisions, self.findings = _Totals(self._lock), _Totals(self._lock)
        self.samples, self.evaluations = _Totals(), _Totals()
        meter.create_observable_counter("guardrail.decisions", [self._collecting(self.decisions)],
                                        description="guarded responses by decision")
        meter.create_observable_counter("guardrail.findings", [self._collecting(self.findings)],
                                        description="findings by check, label, action")
        meter.create_observable_counter("guardrail.samples", [self._collecting(self.samples)],
                                        description="turns offered to the monitor, by outcome")
        meter.create_observable_counter("guardrail.evaluations", [self._collecting(self.evaluations)],
                                        description="evaluation results by name and label")
        duration = meter.create_histogram("guardrail.duration", unit="s", description="time spent guarding")
        holdback = meter.create_histogram("guardrail.stream.holdback", unit="{character}",
                                          description="most characters a stream held back at once")
        # a provider that never calls callbacks (the API's no-op one) would only hold values until the cap
        defer = not isinstance(provider, metrics.NoOpMeterProvider)
        self.duration: Any = _Deferred(duration) if defer else duration
        self.holdback: Any = _Deferred(holdback) if defer else holdback
        self.depth = meter.create_gauge("guardrail.queue.depth", description="samples waiting in the queue")
        self.lag = meter.create_histogram("guardrail.worker.lag", unit="s",
                                          description="from a turn's guard to its stored score")

    def tally(self, decision: Key, findings: dict[Key, int]) -> None:
        """Count one response's decision and its findings (by attribute set)."""
        with self._lock:
            counts = self.decisions._counts
            counts[decision] = counts.get(decision, 0) + 1
            counts = self.findings._counts
            for key, n in findings.items():
                counts[key] = counts.get(key, 0) + n

    def drain(self) -> None:
        """Hand the deferred histogram values to the SDK (when it collects)."""
        for histogram in (self.duration, self.holdback):
            if isinstance(histogram, _Deferred):
                histogram.drain()

    def _collecting(self, totals: _Totals) -> Any:
        def observe(options: Any = None) -> list[metrics.Observation]:
            self.drain()  # every collection calls the callbacks before it reads the histograms
            return totals.observe(options)

        return observe


_INSTRUMENTS: _Instruments | None = None


class _Off:
    """Instruments while no meter provider is configured: recording does nothing."""

    def add(self, n: Any, attributes: Any = None) -> None:
        pass

    record = set = record_key = tally = add

    def __getattr__(self, name: str) -> Any:
        return self


_OFF: Any = _Off()
def _proxy_meters() -> type:
    """The API's placeholder provider until an SDK is set (a private name, looked up once, with a fallback)."""
    try:
        from opentelemetry.metrics._internal import _ProxyMeterProvider
    except ImportError:  # pragma: no cover
        return metrics.NoOpMeterProvider
    return _ProxyMeterProvider


_PROXY_METERS = _proxy_meters()


def _meters_module() -> Any:
    """The API module that keeps the global meter provider, if it can be read directly (see ``_DIRECT_TRACE``)."""
    try:
        from opentelemetry.metrics import _internal
    except ImportError:  # pragma: no cover
        return None
    if not hasattr(_internal, "_METER_PROVIDER") or "OTEL_PYTHON_METER_PROVIDER" in os.environ:
        return None
    return _internal


_METERS = _meters_module()


def instruments() -> _Instruments:
    """The instruments of the current meter provider, made again when another one is set; no-ops while none is
    (never through the API's proxy: it would keep the first callbacks of an observable counter for good)."""
    global _INSTRUMENTS
    if _METERS is not None:
        provider = _METERS._METER_PROVIDER
        if provider is None:
            return _OFF  # type: ignore[no-any-return]
    else:
        provider = metrics.get_meter_provider()
    if type(provider) is _PROXY_METERS:
        return _OFF  # type: ignore[no-any-return]
    if _INSTRUMENTS is None or _INSTRUMENTS.provider is not provider:
        _INSTRUMENTS = _Instruments(provider)
    return _INSTRUMENTS


# ------------------------------------------------------------------------------------------------------ guard spans


def parent_from_headers(headers: Iterable[tuple[bytes, bytes]]) -> otel_context.Context | None:
    """The context to parent a guard span on: the current one when a span is current (an instrumented server),
    else the W3C ``traceparent`` of the request's headers (``guardrail serve`` continues an incoming trace)."""
    if trace.get_current_span().get_span_context().is_valid:
        return None
    carrier = {k.decode("latin-1"): v.decode("latin-1") for k, v in headers if k in (b"traceparent", b"tracestate")}
    return propagate.extract(carrier) if carrier else None


_SHAPES: dict[tuple[str, str, str], tuple[str, dict[str, Any]]] = {}
_MAX_SHAPES = 256


def _shape(policy: str, digest: str, kind: str) -> tuple[str, dict[str, Any]]:
    """What every span of a policy and response kind shares, made once: its name and its first attributes (never
    mutated: the SDK copies them)."""
    key = (policy, digest, kind)
    shape = _SHAPES.get(key)
    if shape is None:
        if len(_SHAPES) >= _MAX_SHAPES:  # (a closed set of kinds, but any number of policies)
            _SHAPES.clear()
        shape = _SHAPES[key] = (f"apply_guardrail {policy}",
                                {"gen_ai.operation.name": "apply_guardrail", "guardrail.policy.name": policy,
                                 "guardrail.policy.digest": digest, "guardrail.response.kind": kind})
    return shape


def start_guard_span(policy: str, digest: str, kind: str, parent: otel_context.Context | None = None) -> trace.Span:
    """Start the span of one guarded response (``kind``: json, sse, text, other, check, stream)."""
    name, attributes = _shape(policy, digest, kind)
    return tracer().start_span(name, context=parent, attributes=attributes)


def traceparent_of(span: trace.Span | None) -> str | None:
    """The W3C ``traceparent`` of a span, if it is a real one."""
    if span is None:
        return None
    ctx = span.get_span_context()
    if not ctx.is_valid:
        return None
    return f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-{int(ctx.trace_flags):02x}"


def trace_id_of(span: trace.Span | None) -> str | None:
    """The hex trace id of a span (or of the current one), for log lines; None without a real span."""
    ctx = (span if span is not None else trace.get_current_span()).get_span_context()
    return f"{ctx.trace_id:032x}" if ctx.is_valid else None


@dataclass(slots=True)
class StreamStats:
    """What a streamed response looked like: its chunks, the most text held back, the time to the first release."""

    chunks: int = 0
    held_max: int = 0
    first_release_s: float | None = None


_RANK = {"pass": 0, "modified": 1, "blocked": 2}
Event = tuple[str, dict[str, Any]]


def _describe(policy: str, verdicts: Iterable[FieldVerdict], checks: Iterable[str], started: float,
              record_content: bool, error: str | None, stream: StreamStats | None,
              recording: bool) -> tuple[dict[str, Any], list[Event]]:
    """Record a guarded response's metrics; return the span attributes that describe it and its span events (both
    empty when the span does not record)."""
    elapsed = time.perf_counter() - started
    decision, rank = "", -1
    kinds: dict[tuple[str, str, str], int] = {}
    events: list[Event] = []
    for fv in verdicts:
        verdict = fv.verdict
        value = verdict.decision._value_
        if _RANK.get(value, 0) > rank:
            decision, rank = value, _RANK.get(value, 0)
        findings = verdict.findings
        if findings:
            choice, field = fv.choice, fv.field
            for f in findings:
                kind = (f.check, f.label._value_, f.action._value_)
                kinds[kind] = kinds.get(kind, 0) + 1
                if recording and len(events) < MAX_FINDING_EVENTS:
                    events.append(("guardrail.finding", {"guardrail.check": kind[0], "guardrail.label": kind[1],
                                                         "guardrail.action": kind[2], "guardrail.start": f.start,
                                                         "guardrail.end": f.end, "guardrail.choice": choice,
                                                         "guardrail.field": field}))
        if recording and record_content:
            events.append(("guardrail.content", {"guardrail.choice": fv.choice, "guardrail.field": fv.field,
                                                 "guardrail.output": fv.text, "guardrail.delivered": verdict.output}))
    if rank < 0:
        decision = "blocked" if error else "pass"
    inst = instruments()
    policy_item = ("guardrail.policy", policy)
    inst.tally((policy_item, ("guardrail.decision", decision)),
               {(policy_item, ("guardrail.check", c), ("guardrail.label", lb), ("guardrail.action", a)): n
                for (c, lb, a), n in kinds.items()})  # one count per kind of finding, not one per finding
    inst.duration.record_key(elapsed, (policy_item,))
    if stream is not None:
        inst.holdback.record_key(stream.held_max, (policy_item,))
    if not recording:
        return {}, events
    attrs: dict[str, Any] = {"guardrail.decision": decision, "guardrail.checks": ",".join(checks),
                             "guardrail.findings": sum(kinds.values())}
    for (_, label, _), n in kinds.items():
        name = "guardrail.findings." + label
        attrs[name] = attrs.get(name, 0) + n
    if error:
        attrs["guardrail.error.code"] = error
        attrs["error.type"] = error
    if stream is not None:
        attrs["guardrail.stream.chunks"] = stream.chunks
        attrs["guardrail.stream.held_chars_max"] = stream.held_max
        if stream.first_release_s is not None:
            attrs["guardrail.stream.first_release_s"] = stream.first_release_s
    return attrs, events


def _finish(span: trace.Span, events: list[Event], error: str | None) -> None:
    for name, attributes in events:
        span.add_event(name, attributes)
    if error:  # a blocked response without an error keeps the status unset
        span.set_status(trace.Status(trace.StatusCode.ERROR, error))
    span.end()


def end_guard_span(span: trace.Span, policy: str, verdicts: Iterable[FieldVerdict], checks: Iterable[str], *,
                   started: float, record_content: bool = False, error: str | None = None,
                   stream: StreamStats | None = None) -> None:
    """Describe the guarded response on its span, record its metrics, end the span."""
    recording = span.is_recording()
    attrs, events = _describe(policy, verdicts, checks, started, record_content, error, stream, recording)
    if recording:
        span.set_attributes(attrs)
        _finish(span, events, error)
    else:
        span.end()


class _Output:
    """The one field of a direct check, shaped as the adapters' ``FieldVerdict``."""

    __slots__ = ("choice", "field", "text", "verdict")

    def __init__(self, text: str, verdict: Verdict) -> None:
        self.choice, self.field, self.text, self.verdict = 0, "output", text, verdict


def check_span(policy: str, digest: str, checks: Iterable[str], output: str, verdict: Verdict, started: float, *,
               record_content: bool = False, kind: str = "check", stream: StreamStats | None = None) -> None:
    """The span of a direct ``Guard.check`` or ``Guard.stream``, made when it is over (it starts at ``started``, a
    ``perf_counter`` reading), with all its attributes at once."""
    name, first = _shape(policy, digest, kind)
    start_time = _ns(started)
    fields: list[Any] = [_Output(output, verdict)]
    attrs, events = _describe(policy, fields, checks, started, record_content, None, stream, True)
    span = tracer().start_span(name, start_time=start_time, attributes={**first, **attrs})
    if span.is_recording():
        _finish(span, events, None)
    else:  # not sampled
        span.end()


def _ns(perf: float) -> int:
    """A ``perf_counter`` reading as wall-clock nanoseconds."""
    return time.time_ns() - int((time.perf_counter() - perf) * 1e9)


# --------------------------------------------------------------------------------------------- monitor telemetry


def sample_outcome(policy: str, outcome: str, n: int = 1) -> None:
    """Count samples ``enqueued`` or ``dropped.<reason>``."""
    instruments().samples.add(n, {"guardrail.policy": policy, "guardrail.outcome": outcome})


def span_context_of(traceparent: str | None) -> trace.SpanContext | None:
    """The span context a W3C ``traceparent`` names, if it is valid."""
    if not traceparent:
        return None
    ctx = trace.get_current_span(propagate.extract({"traceparent": traceparent})).get_span_context()
    return ctx if ctx.is_valid else None


def evaluation_events(record: Mapping[str, Any], scores: Mapping[str, float | None], counts: Mapping[str, str],
                      judge: str) -> None:
    """The worker's span for one evaluated turn, linked to its guard span, and a ``gen_ai.evaluation.result`` event
    per metric, attached to the guard span (its trace and span id). No content: scores, labels and counts."""
    from opentelemetry._logs import get_logger

    policy = str(record.get("policy", ""))
    guard_ctx = span_context_of(record.get("traceparent"))
    links = [trace.Link(guard_ctx, {"guardrail.link": "evaluated turn"})] if guard_ctx else []
    span = tracer().start_span(f"evaluate {policy}", kind=trace.SpanKind.CONSUMER, links=links,
                               attributes={"gen_ai.operation.name": "evaluate", "guardrail.policy.name": policy,
                                           "guardrail.judge": judge})
    logger = get_logger(SCOPE, __version__)
    parent = trace.set_span_in_context(trace.NonRecordingSpan(guard_ctx)) if guard_ctx else None
    inst = instruments()
    for name, value in scores.items():
        label = "unscored" if value is None else ("pass" if value >= 1.0 else "fail")
        attributes: dict[str, Any] = {"gen_ai.evaluation.name": name, "gen_ai.evaluation.score.label": label,
                                      "gen_ai.evaluation.explanation": counts.get(name, ""),
                                      "guardrail.policy": policy, "guardrail.judge": judge}
        if value is not None:
            attributes["gen_ai.evaluation.score.value"] = float(value)
        if record.get("request_id"):
            attributes["gen_ai.response.id"] = str(record["request_id"])
        logger.emit(event_name="gen_ai.evaluation.result", context=parent, attributes=attributes)
        inst.evaluations.add(1, {"guardrail.policy": policy, "gen_ai.evaluation.name": name,
                                 "gen_ai.evaluation.score.label": label})
    created = record.get("time")
    if isinstance(created, int | float):
        inst.lag.record(max(time.time() - float(created), 0.0), {"guardrail.policy": policy})
    span.end()


def queue_depth(depth: int, queue: str) -> None:
    instruments().depth.set(depth, {"guardrail.queue": queue})


# ---------------------------------------------------------------------------------------------------- the SDK setup


def configure_from_env(service: str = "guardrail") -> bool:
    """Set up the SDK from the ``OTEL_*`` environment (for ``serve``, ``worker``, ``demo``); whether anything exports.

    ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or a signal's own ``..._TRACES_/METRICS_/LOGS_ENDPOINT``) alone turns OTLP/HTTP
    export of traces, metrics and logs on; ``OTEL_{TRACES,METRICS,LOGS}_EXPORTER`` chooses ``otlp``, ``console`` or
    ``none``; ``OTEL_SDK_DISABLED=true`` turns it all off; ``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES`` name
    the service. Nothing is configured (and nothing exported) when nothing is set. Exports go through batch
    processors with bounded queues, so an unreachable collector never slows a response.
    """
    env = os.environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true" or active():
        return False
    endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT")

    def exporter(signal: str) -> str:
        chosen = env.get(f"OTEL_{signal.upper()}_EXPORTER", "").strip().lower()
        if chosen:
            return chosen.split(",")[0]
        return "otlp" if endpoint or env.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT") else "none"

    kinds = {signal: exporter(signal) for signal in ("traces", "metrics", "logs")}
    if all(kind == "none" for kind in kinds.values()):
        return False
    protocol = env.get("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
    if "otlp" in kinds.values() and protocol != "http/protobuf":
        raise RuntimeError(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol}: guardrail exports OTLP over HTTP (http/protobuf)")
    from opentelemetry.sdk.resources import Resource

    resource = Resource.create({} if env.get("OTEL_SERVICE_NAME") else {"service.name": service})
    if kinds["traces"] != "none":
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

        provider = TracerProvider(resource=resource)
        provider.add_span_processor(BatchSpanProcessor(_otlp("trace") if kinds["traces"] == "otlp"
                                                       else ConsoleSpanExporter()))
        trace.set_tracer_provider(provider)
    if kinds["metrics"] != "none":
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import ConsoleMetricExporter, PeriodicExportingMetricReader

        reader = PeriodicExportingMetricReader(_otlp("metric") if kinds["metrics"] == "otlp"
                                               else ConsoleMetricExporter())
        metrics.set_meter_provider(MeterProvider(resource=resource, metric_readers=[reader]))
    if kinds["logs"] != "none":
        from opentelemetry._logs import set_logger_provider
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import BatchLogRecordProcessor, ConsoleLogRecordExporter

        logs = LoggerProvider(resource=resource)
        logs.add_log_record_processor(BatchLogRecordProcessor(_otlp("log") if kinds["logs"] == "otlp"
                                                              else ConsoleLogRecordExporter()))
        set_logger_provider(logs)
    import atexit

    atexit.register(shutdown)
    return True


def _otlp(signal: str) -> Any:
    try:
        if signal == "trace":
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            return OTLPSpanExporter(timeout=5)
        if signal == "metric":
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter

            return OTLPMetricExporter(timeout=5)
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter

        return OTLPLogExporter(timeout=5)
    except ImportError:
        raise RuntimeError("OTLP export needs the otlp extra: pip install 'guardrail[otlp]'") from None


def flush(timeout_ms: int = 5000) -> None:
    """Export what the SDK holds (at SIGTERM and shutdown); a no-op without an SDK."""
    from opentelemetry._logs import get_logger_provider

    for provider in (trace.get_tracer_provider(), metrics.get_meter_provider(), get_logger_provider()):
        force = getattr(provider, "force_flush", None)
        if force is not None:
            try:
                force(timeout_ms)
            except Exception:  # a collector that is down never stops a shutdown
                pass


def shutdown() -> None:
    """Flush and stop the SDK's exporters."""
    from opentelemetry._logs import get_logger_provider

    flush()
    for provider in (trace.get_tracer_provider(), metrics.get_meter_provider(), get_logger_provider()):
        stop = getattr(provider, "shutdown", None)
        if stop is not None:
            try:
                stop()
            except Exception:
                pass
