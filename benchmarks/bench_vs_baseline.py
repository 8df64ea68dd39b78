"""The whole inline guard on the typical turn against the code of a baseline commit (default ``7b819e1``, what
stood before issue 11), measured side by side in one run.

    python benchmarks/bench_vs_baseline.py [--rounds 40] [--terms 1000] [--baseline 7b819e1]

A git worktree of the baseline commit is made in a temporary directory (``git worktree add --detach``) and removed
at the end. Two child processes each import one version of the package (the worktree's, or this checkout's, first on
``sys.path``) and build the same guard (citations with coverage ``flag``, quotes, banned terms, instructions
``max_words: 400`` and ``no_emoji``, as ``bench_guard.py``'s whole guard) over the same seeded workload turns
(``workload.py`` of this checkout). The parent runs them in alternating rounds, one child at a time, the order
swapped every round, so that both share the machine's noise; each round calls ``Guard.check`` once on every turn.
Both children are pinned to the same CPU (``--cpu``, by default the last one this process may use; ``-1``: not
pinned): on this 2-core VM the two cores run at different speeds from minute to minute, and a child on the faster
one moved the ratio by ±5 % between runs; on one core the runs agree within ~2 %.
Each round starts with one call that is not timed (the round's first turn): the two versions take turns on one
CPU, and the first call after the other version's process ran found the caches and predictors full of that
process; it was two thirds of the faster version's slowest 1 % and none of the slower one's, so the p99 ratio
measured the switch (0.54-0.62 in six runs where the calls after it gave ~0.51). ``--cold`` times that call too.
It prints p50/p99 in µs for each and the ratios new/old (targets: p50 ≤ 0.5, p99 ≤ 0.6).
``--repeat N`` checks each turn N times in a row and times only the last call: the turn on warm caches and branch
predictors, which a server interleaving different requests does not give it (the default, 1, times each turn once
a round, after 60 others).
The baseline reads banned terms with ``pyahocorasick`` (``pip install pyahocorasick``), which this checkout no
longer needs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SEED = 20_240_601
N_TURNS = 61


def child(root: str, terms: int, warmup: int, cpu: int, repeat: int, cold: bool) -> None:
    """One version's timer: reads a round number per line on stdin, answers with that round's samples."""
    if cpu >= 0:
        os.sched_setaffinity(0, {cpu})
    sys.path.insert(0, root)
    sys.path.insert(1, str(HERE))
    import guardrail

    assert Path(guardrail.__file__).resolve().is_relative_to(Path(root).resolve()), guardrail.__file__
    from workload import make_terms, make_turns

    from guardrail import Guard

    all_terms = make_terms(SEED, terms)
    turns = make_turns(SEED, N_TURNS, all_terms)
    policy = {
        "citations": {"coverage": "flag"},
        "quotes": {},
        "banned_terms": {"terms": all_terms},
        "instructions": {"max_words": 400, "no_emoji": True},
    }
    guard = Guard.from_dict(policy)
    items = [(t.output, t.sources, t.roles) for t in turns]
    for _ in range(warmup):
        for out, src, roles in items:
            guard.check(out, src, roles)
    decisions = Counter(guard.check(*item).decision.value for item in items)
    clock = time.perf_counter_ns
    sys.stdout.write(json.dumps({"ready": True, "decisions": decisions}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if not line.strip():
            break
        samples = []
        if not cold:
            guard.check(*items[0])  # (not timed: the first call after the other version's process, see above)
        for out, src, roles in items:
            for _ in range(repeat - 1):
                guard.check(out, src, roles)
            t0 = clock()
            guard.check(out, src, roles)
            samples.append((clock() - t0) / 1000)
        sys.stdout.write(json.dumps(samples) + "\n")
        sys.stdout.flush()


def p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[max(0, math.ceil(0.99 * len(s)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of one call per turn (61 turns) per version")
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--baseline", default="7b819e1")
    parser.add_argument("--warmup", type=int, default=3, help="warm-up rounds per version")
    parser.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)),
                        help="the CPU both versions run on (-1: not pinned)")
    parser.add_argument("--repeat", type=int, default=1, help="calls in a row per turn, the last one timed")
    parser.add_argument("--cold", action="store_true", help="time each round's first call too")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.terms, args.warmup, args.cpu, args.repeat, args.cold)
        return
    tmp = tempfile.mkdtemp(prefix="guardrail-baseline-")
    base = os.path.join(tmp, "tree")
    subprocess.run(["git", "worktree", "add", "--detach", base, args.baseline], cwd=REPO, check=True,
                   capture_output=True)
    procs: dict[str, subprocess.Popen[str]] = {}
    try:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPATH", None)
        for name, root in (("old", base), ("new", str(REPO))):
            procs[name] = subprocess.Popen(
                [sys.executable, __file__, "--child", root, "--terms", str(args.terms), "--warmup", str(args.warmup),
                 "--cpu", str(args.cpu), "--repeat", str(args.repeat), *(["--cold"] if args.cold else [])],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=tmp)
        decisions = {}
        for name, proc in procs.items():
            assert proc.stdout is not None
            decisions[name] = json.loads(proc.stdout.readline())["decisions"]
        samples: dict[str, list[float]] = {name: [] for name in procs}
        order = ["old", "new"]
        for r in range(args.rounds):
            for name in order if r % 2 == 0 else reversed(order):
                proc = procs[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{r}\n")
                proc.stdin.flush()
                samples[name].extend(json.loads(proc.stdout.readline()))
    finally:
        for proc in procs.values():
            if proc.stdin is not None:
                try:
                    proc.stdin.write("\n")
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
            proc.wait(timeout=60)
        subprocess.run(["git", "worktree", "remove", "--force", base], cwd=REPO, check=False, capture_output=True)
        try:
            os.rmdir(tmp)
        except OSError:
            pass
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    warm = f" (each the last of {args.repeat} in a row)" if args.repeat > 1 else ""
    warm += "; each round's first call timed too" if args.cold else "; a call before each round not timed"
    print(f"whole inline guard, typical turn ({N_TURNS} turns), {args.terms:,} terms; {args.rounds} alternating "
          f"rounds, {len(samples['new'])} calls timed each{warm}; baseline {args.baseline}; {os.cpu_count()} cores "
          f"({'both on CPU ' + str(args.cpu) if args.cpu >= 0 else 'not pinned'}), "
          f"Python {sys.version.split()[0]}, load average {load}")
    for name in ("old", "new"):
        xs = samples[name]
        print(f"  {name:3}  p50 {statistics.median(xs):8.1f} µs   p99 {p99(xs):8.1f} µs   decisions "
              f"{dict(sorted(decisions[name].items()))}")
    r50 = statistics.median(samples["new"]) / statistics.median(samples["old"])
    r99 = p99(samples["new"]) / p99(samples["old"])
    print(f"  new/old  p50 {r50:.3f}x (target ≤ 0.5: {'met' if r50 <= 0.5 else 'NOT met'})   "
          f"p99 {r99:.3f}x (target ≤ 0.6: {'met' if r99 <= 0.6 else 'NOT met'})")


if __name__ == "__main__":
    main()
