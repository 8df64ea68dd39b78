"""The monitor and telemetry, measured in one run (TARGETS.md): what sampling and spans add to the request path, and
what scoring costs off it.

- enqueue: ``Sampler.offer`` on the request path (a hash and a put into the bounded buffer), p50 and p99;
- telemetry: the whole guard on a typical turn with no SDK (API only), and with the SDK (batch span processor,
  in-memory exporter, a metric reader), interleaved; the differences are what spans and metrics add;
- audit: ``guardrail audit --judge lexical`` over 1,000 typical turns, end to end in process (check + scoring);
- worker: samples through a sqlite queue and results store with the lexical judge, per second.

    python benchmarks/bench_monitor.py
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workload import make_terms, make_turns

from guardrail import Guard, Source
from guardrail.monitor.sampler import Sampler

POLICY: dict[str, Any] = {
    "name": "bench",
    "citations": {"on_hallucinated": "strip", "on_unauthorized": "block", "coverage": "flag"},
    "quotes": {"on_unverified": "flag"},
    "instructions": {"max_words": 600, "no_emoji": True},
    "budget_ms": 10_000,
}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))]


class NullQueue:
    url = "null://"

    def put(self, payloads: Any) -> None:
        pass

    def close(self) -> None:
        pass


def bench_enqueue(guard: Guard, turns: list[Any]) -> None:
    sampler = Sampler(guard.compiled, guard.digest, queue=NullQueue(), rate=1.0, buffer=1_000_000)  # type: ignore[arg-type]
    prepared = [(t.output, [Source.coerce(s) for s in t.sources], frozenset(t.roles)) for t in turns]
    verdicts = [guard.check(o, s, r) for o, s, r in prepared]
    times = []
    for round_ in range(20):
        for i, ((output, sources, roles), verdict) in enumerate(zip(prepared, verdicts, strict=True)):
            start = time.perf_counter_ns()
            sampler.offer(output, sources, roles, verdict, request_id=f"r{round_}-{i}")
            times.append(time.perf_counter_ns() - start)
    sampler.close()
    print(f"enqueue (Sampler.offer on the request path): p50 {pct(times, .5) / 1000:.2f} µs, "
          f"p99 {pct(times, .99) / 1000:.2f} µs over {len(times)} offers (target p50 ≤ 20 µs, never blocks)")


def bench_telemetry(guard: Guard, turns: list[Any]) -> None:
    from opentelemetry import metrics, trace
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    prepared = [(t.output, [Source.coerce(s) for s in t.sources], t.roles) for t in turns]

    def run_once() -> list[float]:
        out = []
        for output, sources, roles in prepared:
            start = time.perf_counter_ns()
            guard.check(output, sources, roles)
            out.append(time.perf_counter_ns() - start)
        return out

    for _ in range(3):
        run_once()
    api_only = []
    for _ in range(10):
        api_only += run_once()
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(InMemorySpanExporter(), max_queue_size=100_000))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[InMemoryMetricReader()]))
    for _ in range(3):
        run_once()
    sdk = []
    for _ in range(10):
        sdk += run_once()
    provider.shutdown()
    a, b = statistics.median(api_only), statistics.median(sdk)
    print(f"guard, typical turn, telemetry off (API only): p50 {a / 1000:.1f} µs, p99 {pct(api_only, .99) / 1000:.1f}")
    print(f"guard, typical turn, SDK on (batch spans + metrics): p50 {b / 1000:.1f} µs, p99 {pct(sdk, .99) / 1000:.1f}")
    print(f"telemetry added per response: {(b - a) / 1000:+.1f} µs at p50 (target ≤ 15 µs); measured in one run, "
          "API-only first")


def bench_audit(turns: list[Any]) -> None:
    from guardrail.audit import audit_records

    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp) / "policy.yaml"
        policy.write_text("name: bench\ncitations:\n  coverage: flag\nquotes: {on_unverified: flag}\n"
                          "budget_ms: 10000\n")
        items = [(i, {"id": i, "output": t.output, "sources": t.sources, "roles": t.roles})
                 for i, t in enumerate(turns, 1)]
        start = time.perf_counter()
        rows = list(audit_records(str(policy), "lexical", items))
        elapsed = time.perf_counter() - start
    statements = sum(r[1][1]["statements"] for r in rows if not isinstance(r[1], str))
    print(f"audit --judge lexical over {len(rows)} typical turns ({statements} statements to support): "
          f"{elapsed:.2f} s in one process, {len(rows) / elapsed:.0f} turns/s")


def bench_worker(guard: Guard, turns: list[Any]) -> None:
    from guardrail.judges import load_judge
    from guardrail.monitor import records
    from guardrail.monitor.queues import open_queue
    from guardrail.monitor.results import open_results
    from guardrail.monitor.worker import Worker

    with tempfile.TemporaryDirectory() as tmp:
        queue = open_queue(f"sqlite:///{tmp}/q.db")
        results = open_results(f"sqlite:///{tmp}/r.db")
        payloads = []
        for i, t in enumerate(turns):
            sources = [Source.coerce(s) for s in t.sources]
            verdict = guard.check(t.output, sources, t.roles)
            payloads.append(records.encode(records.build_record(
                guard.compiled, guard.digest, t.output, sources, frozenset(t.roles), verdict, request_id=str(i))))
        queue.put(payloads)
        start = time.perf_counter()
        stats = Worker(queue, results, load_judge("lexical"), batch=64).run(once=True)
        elapsed = time.perf_counter() - start
        queue.close()
        results.close()
    print(f"worker (sqlite queue -> lexical -> sqlite results): {stats.scored} samples in {elapsed:.2f} s, "
          f"{stats.scored / elapsed:.0f} samples/s on one core")


def main() -> None:
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.2f}")
    terms = make_terms(7, 1000)
    turns = make_turns(11, 200, terms)
    guard = Guard.from_dict({**POLICY, "banned_terms": {"terms": terms, "on_match": "redact"}})
    bench_enqueue(guard, turns)
    bench_audit(make_turns(13, 1000, terms))
    bench_worker(guard, make_turns(17, 1000, terms))
    bench_telemetry(guard, turns)  # last: it installs the SDK for the rest of the process


if __name__ == "__main__":
    main()
