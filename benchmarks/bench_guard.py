"""Benchmark of the guard core against TARGETS.md: per-check and whole-guard latency, banned-term scaling, output
length scaling, policy compile time and memory, import time.

    python benchmarks/bench_guard.py [--quick] [--profile]

Every latency is ``time.perf_counter_ns`` around one ``Guard.check`` (or one reference call) on a typical turn from
``workload.py``; the jobs of a table section run interleaved (alternating order), so that they share the machine's
noise and their ratios are measured in the same run. The reference is called on an evenly spread subset of the
iterations when it is slow (its ``n`` column says how many). ``--profile`` prints a cProfile of the whole guard.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import Reference
from workload import TICKET_SCHEMA, Turn, make_long_turn, make_terms, make_tickets, make_turns

from guardrail import Guard, Label, Verdict

SEED = 20_240_601
TERM_COUNTS = (10, 1_000, 100_000)
N_TURNS = 61  # a prime, so that jobs run every k-th iteration still see every turn
SCALING_SIZES = (1_000, 10_000, 100_000, 1_000_000)


@dataclass(frozen=True)
class Config:
    iterations: int  # per typical-turn job
    warmup: int
    ref_budget_s: float  # time a slow reference job may take in one section
    ref_skip_s: float  # a reference call slower than this is not run at all
    ref_max_terms: int  # no reference above this many terms (compiling 100,000 regexes takes ~20 s)
    scaling_iterations: int
    scaling_every: tuple[int, ...]  # one job per SCALING_SIZES, run every k-th iteration (0: not run)
    compile_runs: int
    import_runs: int


FULL = Config(2000, 100, 15.0, 60.0, 100_000, 800, (1, 2, 20, 100), 3, 15)
QUICK = Config(300, 20, 1.0, 0.2, 1_000, 100, (1, 2, 20, 0), 1, 3)

PROBLEMS: list[str] = []  # exceptions and GUARD_ERROR findings seen in any run


@dataclass
class Job:
    name: str
    fn: Callable[[Any], Any]
    inputs: Sequence[Any]
    every: int = 1
    samples: list[float] = field(default_factory=list)
    sampled: list[int] = field(default_factory=list)  # the input index of each sample
    decisions: Counter[str] = field(default_factory=Counter)
    calls: int = 0

    def call(self) -> None:
        k = self.calls % len(self.inputs)
        self.calls += 1
        item = self.inputs[k]
        try:
            t0 = time.perf_counter_ns()
            result = self.fn(item)
            t1 = time.perf_counter_ns()
        except Exception as exc:  # a bug: record it with the input, keep going
            PROBLEMS.append(f"{self.name}: input #{k} raised {exc.__class__.__name__}: {exc}")
            return
        self.samples.append((t1 - t0) / 1000)
        self.sampled.append(k)
        if isinstance(result, Verdict):
            self.decisions[result.decision.value] += 1
            for f in result.findings:
                if f.label is Label.GUARD_ERROR:
                    PROBLEMS.append(f"{self.name}: input #{k} GUARD_ERROR ({f.action.value}): {f.message}")


def run(jobs: list[Job], iterations: int, warmup: int) -> None:
    """Warm every job up, then run them interleaved, alternating their order."""
    for job in jobs:
        for _ in range(max(1, warmup // job.every)):
            job.call()
        job.samples.clear()
        job.sampled.clear()
        job.decisions.clear()
    for i in range(iterations):
        for job in jobs if i % 2 == 0 else reversed(jobs):
            if i % job.every == 0:
                job.call()


def ref_every(fn: Callable[[Any], Any], item: Any, iterations: int, cfg: Config) -> int | None:
    """How often a reference job may run within the budget; None when even one call is too slow."""
    fn(item)
    t0 = time.perf_counter()
    fn(item)
    cost = time.perf_counter() - t0
    if cost > cfg.ref_skip_s:
        return None
    return min(max(1, math.ceil(iterations * cost / cfg.ref_budget_s)), max(1, iterations // 3))  # 3 calls at least


def p50(xs: list[float]) -> float:
    return statistics.median(xs) if xs else math.nan


def p99(xs: list[float]) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    return s[max(0, math.ceil(0.99 * len(s)) - 1)]


def fmt(x: float) -> str:
    if math.isnan(x):
        return "—"
    return f"{x:,.1f}" if x < 1000 else f"{x:,.0f}"


def table(title: str, rows: list[tuple[str, Job, Job | None]]) -> None:
    print(f"\n{title}")
    head = (f"{'':34} {'n':>6} {'p50 µs':>10} {'p99 µs':>10} | {'ref n':>6} {'ref p50':>11} {'ref p99':>11}"
            f" {'ref/ours':>8}")
    print(head)
    print("-" * len(head))
    for label, ours, ref in rows:
        line = f"{label:34} {len(ours.samples):>6} {fmt(p50(ours.samples)):>10} {fmt(p99(ours.samples)):>10} |"
        if ref is None or not ref.samples:
            line += f" {'—':>6} {'—':>11} {'—':>11} {'—':>8}"
        else:
            ratio = p50(ref.samples) / p50(ours.samples)
            line += (f" {len(ref.samples):>6} {fmt(p50(ref.samples)):>11} {fmt(p99(ref.samples)):>11}"
                     f" {ratio:>7.1f}x")
        print(line)


def solo_table(title: str, rows: list[tuple[str, Job]]) -> None:
    """Jobs of ours run interleaved among themselves only; the slowest input shows how much of p99 is the input."""
    print(f"\n{title}")
    head = f"{'':34} {'n':>6} {'p50 µs':>10} {'p99 µs':>10} {'slowest input p50':>18} {'p50 vs first':>13}"
    print(head)
    print("-" * len(head))
    first = p50(rows[0][1].samples)
    for label, job in rows:
        by_input: dict[int, list[float]] = {}
        for k, x in zip(job.sampled, job.samples, strict=True):
            by_input.setdefault(k, []).append(x)
        slowest = max(p50(xs) for xs in by_input.values())
        print(f"{label:34} {len(job.samples):>6} {fmt(p50(job.samples)):>10} {fmt(p99(job.samples)):>10} "
              f"{fmt(slowest):>18} {p50(job.samples) / first:>12.2f}x")


def sections(terms: list[str] | None = None, *names: str) -> dict[str, Any]:
    """A policy dict with the named sections (all inline ones when none is named), as in the typical turn."""
    every = {
        "citations": {"coverage": "flag"},
        "quotes": {},
        "banned_terms": {"terms": terms or []},
        "instructions": {"max_words": 400, "no_emoji": True},
    }
    return {name: every[name] for name in names or every}


def ours(name: str, policy: dict[str, Any], inputs: Sequence[Turn]) -> Job:
    guard = Guard.from_dict(policy)
    return Job(name, lambda t: guard.check(t.output, t.sources, t.roles), inputs)


def reference(name: str, policy: dict[str, Any], inputs: Sequence[Turn], iterations: int, cfg: Config,
              prefilter: bool = False) -> Job | None:
    if len((policy.get("banned_terms") or {}).get("terms", ())) > cfg.ref_max_terms:
        return None
    ref = Reference(policy, prefilter)

    def fn(t: Turn) -> Any:
        return ref.check(t.output, t.sources, t.roles)

    every = ref_every(fn, inputs[0], iterations, cfg)
    return None if every is None else Job(name, fn, inputs, every)


def live(*jobs: Job | None) -> list[Job]:
    return [j for j in jobs if j is not None]


# ------------------------------------------------------------------------------------------------ sections


def bench_checks(turns: list[Turn], terms: list[str], cfg: Config) -> None:
    n = cfg.iterations
    k1 = terms[:1000]
    rows: list[tuple[str, Job, Job | None]] = [("empty guard (no sections)", ours("empty", {}, turns), None)]
    for name in ("citations", "quotes", "instructions"):
        label = "citations (coverage: flag)" if name == "citations" else name
        rows.append((label, ours(name, sections(k1, name), turns),
                     reference(f"ref {name}", sections(k1, name), turns, n, cfg)))
    run(live(*(j for _, o, r in rows for j in (o, r))), n, cfg.warmup)
    table("Checks on the typical turn (one section each; ref = reference.py)", rows)

    from guardrail import text

    cache = getattr(text, "normalize_source", None)
    if cache is None or not hasattr(cache, "cache_clear"):
        return
    guard = Guard.from_dict(sections(k1, "quotes"))

    def cold(t: Turn) -> Verdict:
        cache.cache_clear()  # inside the timed call: a few µs, included
        return guard.check(t.output, t.sources, t.roles)

    cold_job = Job("quotes cold", cold, turns)
    ref = reference("ref quotes", sections(k1, "quotes"), turns, n, cfg)
    run(live(cold_job, ref), n, cfg.warmup)
    table("Quotes with the source-normalisation cache cleared before each call (the reference never caches)",
          [("quotes, cold source cache", cold_job, ref)])


def bench_terms(turns: list[Turn], terms: list[str], cfg: Config) -> None:
    n = cfg.iterations
    jobs = [ours(f"terms {count}", sections(terms[:count], "banned_terms"), turns) for count in TERM_COUNTS]
    labels = [f"banned_terms, {count:,} terms" for count in TERM_COUNTS]
    run(jobs, n, cfg.warmup)
    rows = list(zip(labels, jobs, strict=True))
    solo_table("Banned terms alone (ours only, 10 / 1,000 / 100,000 terms interleaved)", rows)
    ratio = p50(jobs[-1].samples) / p50(jobs[0].samples)
    ratio99 = p99(jobs[-1].samples) / p99(jobs[0].samples)
    print(f"banned-term cost 100,000 / 10 terms: p50 {ratio:.2f}x, p99 {ratio99:.2f}x "
          f"(target ≤ 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")

    refs = [reference(f"ref terms {c}", sections(terms[:c], "banned_terms"), turns, n, cfg) for c in TERM_COUNTS]
    pres = [reference(f"ref-pre terms {c}", sections(terms[:c], "banned_terms"), turns, n, cfg, prefilter=True)
            for c in TERM_COUNTS]
    run(live(*jobs, *refs, *pres), n, cfg.warmup)
    table("Banned terms with the reference in the same run (ref: one (?<!\\w)TERM(?!\\w) regex per term, re.I)",
          list(zip(labels, jobs, refs, strict=True)))
    table("Same run (ref-pre: the same regexes behind a substring prefilter on the term's first word)",
          list(zip(labels, jobs, pres, strict=True)))
    print(f"  100,000 / 10 terms in this run: p50 {p50(jobs[-1].samples) / p50(jobs[0].samples):.2f}x "
          "(the reference's large regex sets evict the automaton from the CPU caches between our calls)")


def bench_whole(turns: list[Turn], terms: list[str], tickets: list[str], cfg: Config) -> None:
    n = cfg.iterations
    jobs = [ours(f"whole {count}", sections(terms[:count]), turns) for count in TERM_COUNTS]
    labels = [f"whole guard, {count:,} terms" for count in TERM_COUNTS]
    run(jobs, n, cfg.warmup)
    solo_table("Whole inline guard on the typical turn, ours only (citations+coverage, quotes, banned_terms, "
               "instructions)", list(zip(labels, jobs, strict=True)))
    for label, job in zip(labels, jobs, strict=True):
        print(f"  decisions, {label}: {dict(job.decisions)}")
    a, b = p50(jobs[1].samples), p99(jobs[1].samples)
    print(f"whole guard at 1,000 terms: p50 {a:,.1f} µs (target ≤ 100: {'met' if a <= 100 else 'NOT met'}), "
          f"p99 {b:,.1f} µs (target ≤ 500: {'met' if b <= 500 else 'NOT met'})")

    refs = [reference(f"ref whole {count}", sections(terms[:count]), turns, n, cfg) for count in TERM_COUNTS]
    run(live(*jobs, *refs), n, cfg.warmup)
    table("Whole inline guard with the reference in the same run", list(zip(labels, jobs, refs, strict=True)))

    schema = {"schema": {"json_schema": TICKET_SCHEMA}}
    guard = Guard.from_dict(schema)
    job = Job("schema", lambda t: guard.check(t), tickets)
    ref = Reference(schema)
    ref_job = Job("ref schema", lambda t: ref.check(t, [], []), tickets)
    run([job, ref_job], n, cfg.warmup)
    table("Schema on ~1 KB JSON tickets (1 in 8 invalid, 1 in 5 fenced)", [("schema", job, ref_job)])
    print(f"  decisions: {dict(job.decisions)}")


def bench_scaling(terms: list[str], cfg: Config) -> None:
    policy = {**sections(terms[:1000]), "budget_ms": 100_000}
    guard = Guard.from_dict(policy)
    jobs = []
    for size, every in zip(SCALING_SIZES, cfg.scaling_every, strict=True):
        if not every:
            continue
        turn = make_long_turn(SEED + size, size, terms)
        jobs.append(Job(f"{size}", lambda t: guard.check(t.output, t.sources, t.roles), [turn], every))
    run(jobs, cfg.scaling_iterations, max(cfg.scaling_every))
    print("\nOutput length scaling (whole guard, 1,000 terms, budget_ms 100000)")
    head = f"{'output':>10} {'chars':>10} {'n':>5} {'p50 µs':>12} {'p99 µs':>12} {'µs/KB':>8} {'vs 1 KB':>8}"
    print(head)
    print("-" * len(head))
    base = None
    for job in jobs:
        chars = len(job.inputs[0].output)
        per_kb = p50(job.samples) / (chars / 1000)
        base = base or per_kb
        print(f"{int(job.name):>10,} {chars:>10,} {len(job.samples):>5} {fmt(p50(job.samples)):>12} "
              f"{fmt(p99(job.samples)):>12} {per_kb:>8,.1f} {per_kb / base:>7.2f}x   {dict(job.decisions)}")


def vm_kb(field_name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1])
    return 0


def child_compile(count: int) -> None:
    """In a fresh process: the time and resident memory that compiling ``count`` terms takes."""
    terms = make_terms(SEED, count)
    Guard.from_dict({"banned_terms": {"terms": ["warm-up"]}})  # one-time lazy imports belong to the import time
    gc.collect()
    rss0 = vm_kb("VmRSS")
    t0 = time.perf_counter()
    guard = Guard.from_dict({"banned_terms": {"terms": terms}})
    seconds = time.perf_counter() - t0
    gc.collect()
    rss1 = vm_kb("VmRSS")
    assert guard.check("nothing banned here").decision.value == "pass"
    print(json.dumps({"seconds": seconds, "rss_before_mb": rss0 / 1024, "rss_added_mb": (rss1 - rss0) / 1024,
                      "peak_mb": vm_kb("VmHWM") / 1024}))


def bench_compile(cfg: Config) -> None:
    runs = []
    for _ in range(cfg.compile_runs):
        out = subprocess.run([sys.executable, __file__, "--child-compile", "100000"], capture_output=True, text=True,
                             check=True)
        runs.append(json.loads(out.stdout))
    sec = statistics.median(r["seconds"] for r in runs)
    mb = statistics.median(r["rss_added_mb"] for r in runs)
    print(f"\nPolicy compile, 100,000 terms (fresh process, median of {len(runs)}): {sec:.3f} s "
          f"(target < 1 s: {'met' if sec < 1 else 'NOT met'}), resident memory added {mb:.1f} MB "
          f"(target < 100 MB: {'met' if mb < 100 else 'NOT met'}); process RSS before "
          f"{statistics.median(r['rss_before_mb'] for r in runs):.1f} MB, peak "
          f"{statistics.median(r['peak_mb'] for r in runs):.1f} MB; runs: {[round(r['seconds'], 3) for r in runs]}")


IMPORTS = ("import guardrail", "import guardrail.cli", "from guardrail import Guard",
           "from guardrail import Guard; Guard.from_dict({})")


def bench_import(cfg: Config) -> None:
    """Fresh-process import times. ``import guardrail`` is lazy, so what a service pays is ``from guardrail import
    Guard`` (and building its first guard); the target is judged on that."""
    times: dict[str, list[float]] = {stmt: [] for stmt in IMPORTS}
    for _ in range(cfg.import_runs):
        for stmt in IMPORTS:
            code = f"import time; t = time.perf_counter_ns(); {stmt}; print(time.perf_counter_ns() - t)"
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            times[stmt].append(int(out) / 1e6)
    print(f"\nImport in a fresh process (median of {cfg.import_runs}; target ≤ 150 ms)")
    for stmt, ms in times.items():
        med = statistics.median(ms)
        print(f"  {stmt:52} {med:7.1f} ms  ({'met' if med <= 150 else 'NOT met'}; min {min(ms):.1f}, "
              f"max {max(ms):.1f})")


def profile(turns: list[Turn], terms: list[str], iterations: int) -> None:
    import cProfile
    import pstats

    guard = Guard.from_dict(sections(terms[:1000]))
    for t in turns:
        guard.check(t.output, t.sources, t.roles)
    prof = cProfile.Profile()
    prof.enable()
    for i in range(iterations):
        t = turns[i % len(turns)]
        guard.check(t.output, t.sources, t.roles)
    prof.disable()
    print(f"cProfile of the whole guard, 1,000 terms, {iterations} typical turns (times include profiling overhead)")
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    repo = Path(__file__).resolve().parent.parent

    def git(*cmd: str) -> str:
        return subprocess.run(["git", *cmd], cwd=repo, capture_output=True, text=True).stdout.strip()

    dirty = " (guardrail/ modified)" if git("status", "--porcelain", "--untracked-files=no", "guardrail") else ""
    return (f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d %H:%M %Z')}, commit {git('rev-parse', '--short', 'HEAD')}{dirty}, {load()}")


def load() -> str:
    return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations, skip slow reference runs (~20 s)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the whole guard and stop")
    parser.add_argument("--child-compile", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_compile:
        child_compile(args.child_compile)
        return
    cfg = QUICK if args.quick else FULL
    started = time.perf_counter()
    terms = make_terms(SEED, max(TERM_COUNTS))
    turns = make_turns(SEED, N_TURNS, terms)
    if args.profile:
        profile(turns, terms, 3000)
        return
    tickets = make_tickets(SEED, N_TURNS)
    print(f"guard core benchmark{' (--quick)' if args.quick else ''}: {machine()}")
    print(f"typical turn: {N_TURNS} turns, answer {statistics.mean(len(t.output) for t in turns):,.0f} chars on "
          f"average, {len(turns[0].sources)} sources of "
          f"{statistics.mean(len(s['text']) for t in turns for s in t.sources):,.0f} chars; tickets "
          f"{statistics.mean(len(t) for t in tickets):,.0f} chars; {cfg.iterations} iterations per job")
    bench_checks(turns, terms, cfg)
    bench_terms(turns, terms, cfg)
    bench_whole(turns, terms, tickets, cfg)
    bench_scaling(terms, cfg)
    bench_compile(cfg)
    bench_import(cfg)
    print(f"\nexceptions / GUARD_ERROR findings: {len(PROBLEMS)}")
    for line in list(dict.fromkeys(PROBLEMS))[:20]:
        print(f"  {line}")
    print(f"total time {time.perf_counter() - started:.0f} s, {load()}")


if __name__ == "__main__":
    main()
