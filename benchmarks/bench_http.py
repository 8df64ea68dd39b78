"""HTTP benchmark of the middleware: the same endpoint with and without GuardrailMiddleware, one uvicorn worker on
loopback, driven by wrk; plus the stream guard's cost per chunk and its delay before the first released text.

    python benchmarks/bench_http.py [--seconds 5] [--rounds 3]

Needs Debian's ``wrk`` (``apt-get install wrk``). Each round runs the unguarded and the guarded server one after
the other (alternating which goes first), so their ratio is measured under the same noise. The middleware's own cost
is 1/rps(guarded) - 1/rps(unguarded) - the guard's check time on the same answer, measured in this process.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from http_app import CHUNKS, POLICY, TURN  # noqa: E402

from guardrail import Guard  # noqa: E402
from guardrail._chat import ChunkStream  # noqa: E402
from guardrail._scrub import Scrubber  # noqa: E402
from guardrail._sse import SSEDecoder, parse_chunk  # noqa: E402
from guardrail.models import Source  # noqa: E402
from guardrail.stream import StreamGuard  # noqa: E402

LUA = 'wrk.method = "POST"\nwrk.body = "{}"\nwrk.headers["Content-Type"] = "application/json"\n'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(app: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", f"http_app:{app}", "--app-dir", str(HERE), "--port", str(port),
         "--workers", "1", "--log-level", "warning", "--no-access-log"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{app} did not start: {proc.stderr.read().decode() if proc.stderr else ''}")


def wrk(port: int, seconds: float, script: str) -> dict[str, float]:
    out = subprocess.run(
        ["wrk", "-t1", "-c8", f"-d{max(1, round(seconds))}s", "--latency", "-s", script, f"http://127.0.0.1:{port}/v1/chat/completions"],
        capture_output=True, text=True, check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    latency = {p: _ms(re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)", out, re.M)) for p in ("50", "99")}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"wrk saw {errors.group(1)} error responses")
    return {"rps": rps, "p50_ms": latency["50"], "p99_ms": latency["99"]}


def _ms(m: re.Match[str] | None) -> float:
    assert m is not None
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def check_time_us(guard: Guard, runs: int = 400) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        guard.check(TURN.output, TURN.sources, TURN.roles)
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


def stream_costs(guard: Guard, runs: int = 40) -> dict[str, float]:
    """Per-chunk cost of the stream guard alone and of the whole SSE path (decode, parse, guard), and the hold-back
    before the first released text."""
    deltas = []
    decoder = SSEDecoder()
    for chunk in CHUNKS:
        for event in decoder.feed(chunk):
            info = parse_chunk(event.data)
            if info is not None:
                deltas.append(info.content.get(0, ""))
    per_chunk, sse_per_chunk = [], []
    sources = [Source.coerce(s) for s in TURN.sources]
    roles = frozenset(TURN.roles)
    for _ in range(runs):
        session = StreamGuard(guard.compiled, sources, frozenset(TURN.roles))
        for delta in deltas:
            start = time.perf_counter_ns()
            session.feed(delta)
            per_chunk.append(time.perf_counter_ns() - start)
        session.finish()
        sse = ChunkStream(lambda: StreamGuard(guard.compiled, sources, roles),
                          Scrubber(guard.compiled, sources, roles), blocked_message="", fail_closed=True)
        for chunk in CHUNKS:
            start = time.perf_counter_ns()
            sse.feed(chunk)
            sse_per_chunk.append(time.perf_counter_ns() - start)
        sse.close()
    session = StreamGuard(guard.compiled, sources, frozenset(TURN.roles))
    fed = 0
    for delta in deltas:
        fed += len(delta)
        if session.feed(delta):
            break
    first_statement = len(guard.check(TURN.output, TURN.sources, TURN.roles).output.split(". ")[0]) + 1
    return {
        "chunk_p50_us": statistics.median(per_chunk) / 1000,
        "chunk_p99_us": sorted(per_chunk)[int(len(per_chunk) * 0.99)] / 1000,
        "sse_chunk_p50_us": statistics.median(sse_per_chunk) / 1000,
        "first_release_after_chars": fed,
        "first_statement_chars": first_statement,
        "chunks": len(deltas),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("bench_http: needs wrk (apt-get install wrk)")
    guard = Guard.from_dict(POLICY)
    check_us = check_time_us(guard)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}")
    print(f"answer: {len(TURN.output)} chars, {len(TURN.sources)} sources, {len(POLICY['banned_terms']['terms'])} "
          f"banned terms; guard.check p50 {check_us:.1f} µs (in this process)\n")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(LUA)
        script = fh.name
    results: dict[str, list[dict[str, float]]] = {}
    for kind in ("json", "sse"):
        servers = {name: serve(f"{name}_{kind}") for name in ("plain", "empty", "guarded")}
        try:
            for _name, (_, port) in servers.items():
                wrk(port, 1, script)  # warm up
            for r in range(args.rounds):
                order = ["plain", "empty", "guarded"] if r % 2 == 0 else ["guarded", "empty", "plain"]
                for name in order:
                    results.setdefault(f"{name}_{kind}", []).append(wrk(servers[name][1], args.seconds, script))
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:  # uvicorn waits for open streams to close
                    proc.kill()
                    proc.wait()
    os.unlink(script)
    print(f"{'endpoint':14s} {'req/s':>9s} {'p50 ms':>8s} {'p99 ms':>8s}   (median of {args.rounds} rounds of "
          f"{args.seconds:g} s, wrk -t1 -c8)")
    med: dict[str, dict[str, float]] = {}
    for name, runs in results.items():
        med[name] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{name:14s} {med[name]['rps']:9.0f} {med[name]['p50_ms']:8.2f} {med[name]['p99_ms']:8.2f}")
    empty_us = check_time_us(Guard.from_dict({}))
    for kind in ("json", "sse"):
        plain, empty, guarded = med[f"plain_{kind}"], med[f"empty_{kind}"], med[f"guarded_{kind}"]
        added = (1 / guarded["rps"] - 1 / plain["rps"]) * 1e6
        plumbing = (1 / empty["rps"] - 1 / plain["rps"]) * 1e6
        print(f"\n{kind}: guarded/unguarded throughput {guarded['rps'] / plain['rps']:.2f}x; time added per request "
              f"{added:.0f} µs (the guard's check alone: {check_us:.0f} µs in this process)")
        print(f"{kind}: the middleware with an empty policy adds {plumbing:.0f} µs per request, of which the empty "
              f"check is {empty_us:.0f} µs: plumbing {plumbing - empty_us:.0f} µs (target ≤ 30)")
    costs = stream_costs(guard)
    print(f"\nstream guard per chunk ({costs['chunks']} chunks of ~16 chars): p50 {costs['chunk_p50_us']:.1f} µs, "
          f"p99 {costs['chunk_p99_us']:.1f} µs (target p50 ≤ 10); whole SSE path per chunk (decode, parse, guard, "
          f"re-encode): p50 {costs['sse_chunk_p50_us']:.1f} µs")
    print(f"first text released after {costs['first_release_after_chars']} characters; the first statement is "
          f"{costs['first_statement_chars']} characters (target: at most one statement)")


if __name__ == "__main__":
    main()
