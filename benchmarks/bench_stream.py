"""Benchmark of the stream guard against TARGETS.md: the CPU of a streamed answer against one buffered check of the
same answer, the cost of each chunk, and the memory of an open stream.

    python benchmarks/bench_stream.py [--turns 30] [--rounds 5] [--streams 200] [--seed 20240601] [--breakdown]

For each policy, every typical turn of ``workload.py`` (a ~2 KB answer, 10 sources, 1,000 banned terms) is checked
buffered (one ``Guard.check``) and streamed (a ``StreamGuard`` fed chunks of 3-6 characters, seeded, then
``finish``), interleaved turn by turn so that both share the machine's noise; CPU is ``time.process_time_ns``. The
ratio is the median over turns of streamed / buffered (each turn's medians over the rounds). A chunk's cost is
``perf_counter_ns`` around one ``feed``. Memory: ``--streams`` streams open at once, each fed the first half of its
answer's chunks, measured with ``tracemalloc`` (after a warm-up, so that caches shared between streams are not
counted); "beyond held" takes away the characters each stream holds back (one byte each: the answers are ASCII).

``--breakdown`` also splits a streamed answer's CPU into parts, each measured on its own in the same run: the
chunks fed with every look skipped (what a chunk costs that brings no look), the final check of the whole answer,
the checks run alone on the window of each look that ran them (a turn of the window, as a look builds it, and
``run_checks`` of the checks that act, as a look runs them), and the rest: the looks' own work (which statements
are complete, the holds for terms and copies, the edits, moving the window) and the looks that stop before the
checks. The first three are what any guard that runs the checks once per completed statement on its window would
pay: a floor for this design.

Policies: the typical inline policy (citations with coverage flagged, quotes, banned terms, instructions), whose
copies of invisible sources block (the default ``on_unauthorized``); the same with copies stripped; and with them
only flagged (no words are held for a copy: what holding them costs).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workload import Turn, make_terms, make_turns

import guardrail.stream
from guardrail import Guard, Source
from guardrail.engine import run_checks
from guardrail.stream import StreamGuard

SEED = 20_240_601


def policies(terms: list[str]) -> dict[str, dict[str, Any]]:
    typical: dict[str, Any] = {
        "citations": {"coverage": "flag"},
        "quotes": {},
        "banned_terms": {"terms": terms},
        "instructions": {"max_words": 400, "no_emoji": True},
    }
    return {
        "typical (copies block)": typical,
        "copies strip": {**typical, "citations": {"coverage": "flag", "on_unauthorized": "strip"}},
        "copies flag": {**typical, "citations": {"coverage": "flag", "on_unauthorized": "flag"}},
    }


def chunked(text: str, rng: random.Random) -> list[str]:
    """``text`` in chunks of 3-6 characters."""
    out, i = [], 0
    while i < len(text):
        k = rng.randint(3, 6)
        out.append(text[i:i + k])
        i += k
    return out


class Prepared:
    """A turn as the guard takes it: sources coerced, roles a set, the answer in chunks."""

    def __init__(self, turn: Turn, rng: random.Random):
        self.turn = turn
        self.sources = [Source.coerce(s) for s in turn.sources]
        self.roles = frozenset(turn.roles)
        self.chunks = chunked(turn.output, rng)


def stream_once(guard: Guard, p: Prepared, per_chunk: list[int] | None = None) -> tuple[str, Any]:
    session = StreamGuard(guard.compiled, p.sources, p.roles)
    out = []
    if per_chunk is None:
        for chunk in p.chunks:
            out.append(session.feed(chunk))
    else:
        clock = time.perf_counter_ns
        for chunk in p.chunks:
            start = clock()
            out.append(session.feed(chunk))
            per_chunk.append(clock() - start)
    rest, verdict = session.finish()
    return "".join(out) + rest, verdict


def cpu(guard: Guard, prepared: list[Prepared], rounds: int) -> dict[str, float]:
    buffered: list[list[int]] = [[] for _ in prepared]
    streamed: list[list[int]] = [[] for _ in prepared]
    per_chunk: list[int] = []
    clock = time.process_time_ns
    for r in range(rounds):
        for k, p in enumerate(prepared):
            t = p.turn
            jobs = [0, 1] if (r + k) % 2 else [1, 0]  # alternate which goes first
            for job in jobs:
                if job == 0:
                    start = clock()
                    guard.check(t.output, t.sources, t.roles)
                    buffered[k].append(clock() - start)
                else:
                    start = clock()
                    stream_once(guard, p)
                    streamed[k].append(clock() - start)
        for p in prepared:  # per-chunk wall time, in a separate pass (the clock calls cost CPU themselves)
            stream_once(guard, p, per_chunk)
    b = [statistics.median(x) for x in buffered]
    s = [statistics.median(x) for x in streamed]
    per_chunk.sort()
    return {
        "buffered_us": statistics.median(b) / 1000,
        "streamed_us": statistics.median(s) / 1000,
        "ratio": statistics.median(y / x for x, y in zip(b, s, strict=True)),
        "chunk_p50_us": per_chunk[len(per_chunk) // 2] / 1000,
        "chunk_p99_us": per_chunk[int(len(per_chunk) * 0.99)] / 1000,
        "chunks": len(per_chunk) / rounds / len(prepared),
    }


def memory(guard: Guard, prepared: list[Prepared], streams: int) -> dict[str, float]:
    for p in prepared:  # warm-up: caches of sources and policy fill once, not per stream
        stream_once(guard, p)
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    open_streams = []
    held = 0
    for i in range(streams):
        p = prepared[i % len(prepared)]
        session = StreamGuard(guard.compiled, p.sources, p.roles)
        half = [(c + " ")[:-1] for c in p.chunks[:len(p.chunks) // 2]]  # new strings, as a client's parser makes
        out = sum(len(session.feed(c)) for c in half)
        held += sum(map(len, half)) - out
        open_streams.append(session)
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del open_streams
    per = (current - base) / streams
    return {"mem_per_stream_kb": per / 1024, "peak_per_stream_kb": (peak - base) / streams / 1024,
            "held_chars": held / streams, "beyond_held_kb": (per - held / streams) / 1024}


class _Timed(StreamGuard):
    """A stream guard that adds up the CPU of its looks (``_advance``, the gated ones too)."""

    __slots__ = ("looking",)

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.looking = 0

    def _advance(self) -> str:
        start = time.process_time_ns()
        try:
            return super()._advance()
        finally:
            self.looking += time.process_time_ns() - start


def windows(guard: Guard, p: Prepared) -> list[tuple[str, bool, bool]]:
    """The window of each look of ``p``'s stream that ran the checks (not a re-check of edits), with how the window
    starts (``after_text``, ``continued``)."""
    seen: list[tuple[str, bool, bool]] = []

    def recording(compiled: Any, turn: Any, again: bool = False, acting: bool = False) -> Any:
        if not again:
            seen.append((turn.output, turn.after_text, turn.continued))
        return run_checks(compiled, turn, again, acting)

    guardrail.stream.run_checks = recording  # type: ignore[assignment]
    try:
        stream_once(guard, p)
    finally:
        guardrail.stream.run_checks = run_checks
    return seen


def breakdown(guard: Guard, prepared: list[Prepared], rounds: int) -> dict[str, float]:
    """Where a streamed answer's CPU goes (see the module's docstring); each part the median over turns of its
    median over rounds, in µs, and ``checked``: the number of looks that ran the checks."""
    looks = [windows(guard, p) for p in prepared]
    parts: dict[str, list[list[int]]] = {k: [[] for _ in prepared] for k in ("buffered", "streamed", "chunks",
                                                                             "looks", "finish", "checks")}
    clock = time.process_time_ns
    compiled = guard.compiled
    for _ in range(rounds):
        for k, p in enumerate(prepared):
            t = p.turn
            start = clock()
            guard.check(t.output, t.sources, t.roles)
            parts["buffered"][k].append(clock() - start)
            session = _Timed(compiled, p.sources, p.roles)
            start = clock()
            for chunk in p.chunks:
                session.feed(chunk)
            fed = clock()
            session.finish()
            end = clock()
            parts["streamed"][k].append(end - start)
            parts["finish"][k].append(end - fed)
            parts["looks"][k].append(session.looking)
            parts["chunks"][k].append(fed - start - session.looking)
            start = clock()
            for text, after_text, continued in looks[k]:
                turn = session._turn(text, time.perf_counter() + 10.0)
                turn.after_text, turn.continued = after_text, continued
                run_checks(compiled, turn, acting=True)  # (as a look runs them: those that act)
            parts["checks"][k].append(clock() - start)
    out = {name: statistics.median(statistics.median(x) for x in per_turn) / 1000
           for name, per_turn in parts.items()}
    out["checked"] = statistics.mean(map(len, looks))
    return out


def check_equal(guard: Guard, prepared: list[Prepared]) -> None:
    """The streamed answer is the buffered decision (the property tests' promise, on this workload)."""
    for p in prepared:
        released, verdict = stream_once(guard, p)
        buffered = guard.check(p.turn.output, p.turn.sources, p.turn.roles)
        assert verdict.decision is buffered.decision, (verdict.decision, buffered.decision)
        if buffered.decision.value != "blocked":
            assert released == buffered.output


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--breakdown", action="store_true", help="split a streamed answer's CPU into its parts")
    args = parser.parse_args()
    terms = make_terms(args.seed, 1_000)
    turns = make_turns(args.seed, args.turns, terms)
    rng = random.Random(args.seed)
    prepared = [Prepared(t, rng) for t in turns]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}")
    print(f"{len(turns)} turns of ~{statistics.mean(len(t.output) for t in turns):.0f} chars, "
          f"{len(terms)} banned terms, chunks of 3-6 chars, {args.rounds} rounds\n")
    header = (f"{'policy':24} {'buffered':>9} {'streamed':>9} {'ratio':>6} {'chunks':>6} {'chunk p50':>9} "
              f"{'chunk p99':>9} {'mem/stream':>10} {'held':>6} {'beyond held':>11}")
    print(header)
    print("-" * len(header))
    for name, policy in policies(terms).items():
        guard = Guard.from_dict(policy)
        check_equal(guard, prepared)
        c = cpu(guard, prepared, args.rounds)
        m = memory(guard, prepared, args.streams)
        print(f"{name:24} {c['buffered_us']:7.0f}µs {c['streamed_us']:7.0f}µs {c['ratio']:5.1f}x {c['chunks']:6.0f} "
              f"{c['chunk_p50_us']:7.2f}µs {c['chunk_p99_us']:7.1f}µs {m['mem_per_stream_kb']:8.1f}KB "
              f"{m['held_chars']:6.0f} {m['beyond_held_kb']:9.1f}KB")
    print("\ntargets: ratio ≤ 3x, chunk p50 ≤ 10 µs, memory per open stream ≤ 16 KB beyond the text held back")
    if not args.breakdown:
        return
    print("\nwhere a streamed answer's CPU goes, in buffered checks of it (medians over turns, µs in brackets)")
    header = (f"{'policy':24} {'streamed':>9} {'chunks':>12} {'final check':>12} {'looks':>5} {'their checks':>13} "
              f"{'floor':>6} {'rest of the looks':>17}")
    print(header)
    print("-" * len(header))
    for name, policy in policies(terms).items():
        guard = Guard.from_dict(policy)
        b = breakdown(guard, prepared, args.rounds)
        unit = b["buffered"]
        floor = b["chunks"] + b["finish"] + b["checks"]
        rest = b["looks"] - b["checks"]
        print(f"{name:24} {b['streamed'] / unit:8.1f}x {b['chunks'] / unit:5.2f}x ({b['chunks']:4.0f}) "
              f"{b['finish'] / unit:5.2f}x ({b['finish']:4.0f}) {b['checked']:5.1f} {b['checks'] / unit:5.2f}x "
              f"({b['checks']:5.0f}) {floor / unit:5.2f}x {rest / unit:9.2f}x ({rest:5.0f})")
    print("\nfloor: the chunks, the final check and the looks' checks, what one look a completed statement costs at "
          "least\nwith checks that start from nothing on each window; the rest is the looks' own work")


if __name__ == "__main__":
    main()
