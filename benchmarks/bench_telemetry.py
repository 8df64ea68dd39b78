"""What telemetry adds to one guarded response (CONTRACT section 10, TARGETS.md: ≤ 15 µs at p50 with the SDK, batch
span processor and in-memory exporter; ≤ 2 µs with the API alone).

    python benchmarks/bench_telemetry.py [--rounds N] [--profile]

Jobs interleaved in one run (each turn goes through every job, in a shuffled order, so that they share the
machine's noise and each runs after each other one as often):

- ``off``: the guard's work without any telemetry call (``Guard._check`` on the same coerced inputs);
- ``api``: ``Guard.check`` with the API alone (no SDK: the providers are the API's proxies);
- ``sdk``: ``Guard.check`` with the SDK (``TracerProvider`` + ``BatchSpanProcessor`` + ``InMemorySpanExporter``, a
  ``MeterProvider`` with an ``InMemoryMetricReader``);
- after an untimed check of the turn (the caches then hold what they hold in a server, not a hot loop's SDK code),
  the telemetry part alone: as ``Guard.check`` makes it (``check_span``), as the middleware does
  (``parent_from_headers`` + ``start_guard_span`` at the response's start, ``traceparent_of`` + ``end_guard_span`` +
  ``trace_id_of`` at its end), and the **floor**: the SDK's own cost for the same span (same name, attributes and
  finding events, built beforehand, so no guardrail code runs) and for a bare ``start_span(name).end()``.

The global providers are switched between jobs by setting the API's module globals (what ``set_tracer_provider``
sets, without its set-once guard). The whole-guard differences carry the guard's own noise (hundreds of µs a
call: the "paired" column is the median of the call-by-call differences). Then the telemetry calls are timed in a
hot loop on precomputed verdicts (``isolated``: what the SDK costs when its code is in the caches), and the SDK's
floor in a hot loop: a bare span, a span with seven attributes, one histogram record. ``--profile`` prints a
cProfile of the isolated calls.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workload import make_terms, make_turns

from guardrail import Guard, Source, telemetry
from guardrail._chat import FieldVerdict
from guardrail.guard import _roles

SEED = 20_240_601
N_TURNS = 61
POLICY: dict[str, Any] = {"name": "bench", "citations": {"coverage": "flag"}, "quotes": {},
                          "instructions": {"max_words": 400, "no_emoji": True}, "budget_ms": 10_000}


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


def p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[max(0, int(len(s) * 0.99 + 0.5) - 1)]


class Providers:
    """The SDK's providers, and a switch between them and the API's proxies."""

    def __init__(self) -> None:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

        self.exporter = InMemorySpanExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(BatchSpanProcessor(self.exporter, max_queue_size=100_000))
        self.reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.reader])

    def sdk(self, on: bool) -> None:
        import opentelemetry.metrics._internal as metrics_api
        from opentelemetry import trace

        trace._TRACER_PROVIDER = self.tracer_provider if on else None  # type: ignore[attr-defined]
        metrics_api._METER_PROVIDER = self.meter_provider if on else None

    def drain(self) -> None:
        """Export what is queued and forget it (the in-memory exporter keeps every span)."""
        self.tracer_provider.force_flush()
        self.exporter.clear()
        self.reader.get_metrics_data()


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) / 1000


def span_content(guard: Guard, verdict: Any, kind: str = "check") -> tuple[str, dict[str, Any], list[Any]]:
    """What a guard span of this verdict carries (CONTRACT section 10), built here so that the SDK's cost for it can
    be timed without any guardrail code around it."""
    checks = [c.name for c in guard.compiled.checks]
    attrs: dict[str, Any] = {"gen_ai.operation.name": "apply_guardrail", "guardrail.policy.name": guard.policy.name,
                             "guardrail.policy.digest": guard.digest, "guardrail.response.kind": kind,
                             "guardrail.decision": verdict.decision.value, "guardrail.checks": ",".join(checks),
                             "guardrail.findings": len(verdict.findings)}
    events = []
    for f in verdict.findings:
        key = f"guardrail.findings.{f.label.value}"
        attrs[key] = attrs.get(key, 0) + 1
        events.append({"guardrail.check": f.check, "guardrail.label": f.label.value, "guardrail.action": f.action.value,
                       "guardrail.start": f.start, "guardrail.end": f.end, "guardrail.choice": 0,
                       "guardrail.field": "output"})
    return f"apply_guardrail {guard.policy.name}", attrs, events[:telemetry.MAX_FINDING_EVENTS]


WHOLE_JOBS = ("off", "api", "sdk", "sdk: span part (Guard.check)", "sdk: span part (middleware)", "floor: same span",
              "floor: bare span")
HEADERS = [(b"content-type", b"application/json"), (b"x-request-id", b"abc")]


def whole(guard: Guard, turns: list[Any], providers: Providers, rounds: int) -> dict[str, list[float]]:
    """Each turn through every job, in a shuffled order: the whole ``Guard.check`` (off, api, sdk), and, after an
    untimed check of the turn (so that the caches hold what they hold in a server), the telemetry part timed alone:
    ours (``check_span``), the SDK's own cost for the same span (same name, attributes and events, built
    beforehand), and a bare span."""
    prepared = [(t.output, [Source.coerce(s) for s in t.sources], t.roles) for t in turns]
    checks = [c.name for c in guard.compiled.checks]
    contents = [span_content(guard, guard._check(o, list(s), _roles(r))) for o, s, r in prepared]
    tracer = providers.tracer_provider.get_tracer("floor")
    out: dict[str, list[float]] = {m: [] for m in WHOLE_JOBS}

    def once(job: str, output: str, sources: list[Source], roles: list[str], content: Any) -> float:
        providers.sdk(job != "off" and job != "api")
        if job == "off":
            return timed(lambda: guard._check(output, list(sources), _roles(roles)))
        if job in ("api", "sdk"):
            return timed(lambda: guard.check(output, sources, roles))
        started = time.perf_counter()
        if job == "sdk: span part (middleware)":  # the middleware's calls: at the response's start, at its end
            t0 = time.perf_counter_ns()
            span = telemetry.start_guard_span(guard.policy.name, guard.digest, "application/json",
                                              telemetry.parent_from_headers(HEADERS))
            t1 = time.perf_counter_ns()
            fvs = [FieldVerdict(0, "content", guard._check(output, list(sources), _roles(roles)), output)]
            t2 = time.perf_counter_ns()
            telemetry.traceparent_of(span)
            telemetry.end_guard_span(span, guard.policy.name, fvs, checks, started=started)
            telemetry.trace_id_of(None)
            return (t1 - t0 + time.perf_counter_ns() - t2) / 1000
        verdict = guard._check(output, list(sources), _roles(roles))
        if job == "sdk: span part (Guard.check)":
            return timed(lambda: telemetry.check_span(guard.policy.name, guard.digest, checks, output, verdict,
                                                      started))
        name, attrs, events = content
        if job == "floor: bare span":
            return timed(lambda: tracer.start_span(name).end())

        def same_span() -> None:
            span = tracer.start_span(name, attributes=attrs)
            for event in events:
                span.add_event("guardrail.finding", event)
            span.end()

        return timed(same_span)

    rng = random.Random(SEED)
    for r in range(rounds + 2):  # two warm-up rounds
        for i, (output, sources, roles) in enumerate(prepared):
            order = list(WHOLE_JOBS)
            rng.shuffle(order)  # each job follows each other one as often, on average
            for job in order:
                t = once(job, output, sources, roles, contents[i])
                if r >= 2:
                    out[job].append(t)
        providers.sdk(False)
        providers.drain()
    return out


def isolated(guard: Guard, turns: list[Any], providers: Providers, rounds: int) -> dict[str, list[float]]:
    """The telemetry calls alone, on verdicts computed beforehand."""
    policy, digest = guard.policy.name, guard.digest
    checks = [c.name for c in guard.compiled.checks]
    cases = []
    for t in turns:
        verdict = guard._check(t.output, [Source.coerce(s) for s in t.sources], _roles(t.roles))
        cases.append((t.output, verdict, [FieldVerdict(0, "content", verdict, t.output)]))
    headers = [(b"content-type", b"application/json"), (b"x-request-id", b"abc")]

    def api_check() -> None:
        telemetry.active()  # all that Guard.check pays without an SDK

    def check_path(output: str, verdict: Any) -> Callable[[], None]:
        return lambda: telemetry.check_span(policy, digest, checks, output, verdict, time.perf_counter())

    def middleware_path(fvs: list[FieldVerdict]) -> Callable[[], None]:
        def run() -> None:
            if telemetry.active():
                parent = telemetry.parent_from_headers(headers)
                started = time.perf_counter()
                span = telemetry.start_guard_span(policy, digest, "application/json", parent)
                telemetry.traceparent_of(span)
                telemetry.end_guard_span(span, policy, fvs, checks, started=started)
                telemetry.trace_id_of(None)
        return run

    def nothing() -> None:
        pass

    out: dict[str, list[float]] = {"timer (an empty call)": [], "api active()": [], "api middleware": [],
                                   "sdk check_span": [], "sdk middleware": []}
    for r in range(rounds + 2):
        for output, verdict, fvs in cases:
            providers.sdk(False)
            z = timed(nothing)
            a = timed(api_check)
            b = timed(middleware_path(fvs))
            providers.sdk(True)
            c = timed(check_path(output, verdict))
            d = timed(middleware_path(fvs))
            if r >= 2:
                for name, x in zip(out, (z, a, b, c, d), strict=True):
                    out[name].append(x)
        providers.drain()
    providers.sdk(False)
    return out


def floor(providers: Providers, n: int) -> dict[str, list[float]]:
    """The SDK's own cost with the same processor, whatever guardrail does around it."""
    providers.sdk(True)
    tracer = providers.tracer_provider.get_tracer("floor")
    hist = providers.meter_provider.get_meter("floor").create_histogram("floor.duration", unit="s")
    attrs = {"gen_ai.operation.name": "apply_guardrail", "guardrail.policy.name": "bench",
             "guardrail.policy.digest": "sha256:" + "0" * 64, "guardrail.response.kind": "check",
             "guardrail.decision": "pass", "guardrail.checks": "citations,quotes,instructions",
             "guardrail.findings": 0}
    hattrs = {"guardrail.policy": "bench"}
    jobs: dict[str, Callable[[], Any]] = {
        "start_span().end()": lambda: tracer.start_span("apply_guardrail bench").end(),
        "start_span(attributes=7).end()": lambda: tracer.start_span("apply_guardrail bench", attributes=attrs).end(),
        "histogram.record": lambda: hist.record(0.001, hattrs),
    }
    out: dict[str, list[float]] = {name: [] for name in jobs}
    for i in range(n + 200):
        for name, job in jobs.items():
            t = timed(job)
            if i >= 200:
                out[name].append(t)
        if i % 2000 == 1999:
            providers.drain()
    providers.drain()
    providers.sdk(False)
    return out


def report(title: str, times: dict[str, list[float]], base: str | None = None) -> None:
    """p50 and p99 of each job; with a base, what each adds to it: the difference of the p50s and p99s, and the
    median of the differences call by call (the calls of one iteration are paired: same input, same moment)."""
    print(f"\n{title}")
    print(f"{'':34} {'n':>7} {'p50 µs':>9} {'p99 µs':>9} {'added p50':>10} {'added p99':>10} {'paired p50':>11}")
    for name, xs in times.items():
        added = ""
        if base is not None and name != base:
            paired = p50([x - y for x, y in zip(xs, times[base], strict=True)])
            added = f"{p50(xs) - p50(times[base]):>+10.1f} {p99(xs) - p99(times[base]):>+10.1f} {paired:>+11.1f}"
        print(f"{name:34} {len(xs):>7} {p50(xs):>9.1f} {p99(xs):>9.1f} {added}")


def profile(guard: Guard, turns: list[Any], providers: Providers) -> None:
    prof = cProfile.Profile()
    prof.enable()
    isolated(guard, turns, providers, 20)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(35)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds over the 61 typical turns (default 30)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the isolated SDK calls and stop")
    args = parser.parse_args()
    terms = make_terms(SEED, 1000)
    turns = make_turns(SEED, N_TURNS, terms)
    guard = Guard.from_dict({**POLICY, "banned_terms": {"terms": terms}})
    providers = Providers()
    if args.profile:
        profile(guard, turns, providers)
        return
    print(f"telemetry benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.2f}; {N_TURNS} typical turns x {args.rounds} rounds")
    started = time.perf_counter()
    w = whole(guard, turns, providers, args.rounds)
    report("whole guard, typical turn (Guard.check), modes interleaved", {k: w[k] for k in WHOLE_JOBS[:3]}, base="off")
    report("the telemetry part alone, timed after an untimed check of the turn (caches as in a server)",
           {k: w[k] for k in WHOLE_JOBS[3:]}, base="floor: same span")
    iso = isolated(guard, turns, providers, args.rounds * 2)
    report("telemetry calls alone (added per response: the 'added' columns, over an empty timed call)", iso,
           base="timer (an empty call)")
    report("SDK floor, same BatchSpanProcessor", floor(providers, 20_000))
    z = p50(iso["timer (an empty call)"])
    a = p50(iso["api active()"]) - z
    c, m, f = (p50(w[k]) for k in ("sdk: span part (Guard.check)", "sdk: span part (middleware)", "floor: same span"))
    print(f"\nadded per response at p50: API only {a:.2f} µs (target ≤ 2); SDK {c:.1f} µs via Guard.check, {m:.1f} µs "
          f"via the middleware (target ≤ 15), of which the SDK's own cost for the same span is {f:.1f} µs; "
          f"{time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
