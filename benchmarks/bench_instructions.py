"""Instruction counts (valgrind's callgrind) of the whole inline guard and of a streamed answer, for this checkout
and a baseline commit: figures that this machine's noise does not move, where the timings of two runs minutes
apart differ by a third.

    python benchmarks/bench_instructions.py [--baseline 7b819e1] [--against COMMIT] [--rounds 2]

Needs ``valgrind`` (``apt-get install valgrind``), and for the baseline ``pyahocorasick`` (``pip install
pyahocorasick``: ``7b819e1`` read banned terms with it). Each figure is the difference between a run that does the
work ``--rounds`` times after a warm-up and one that only warms up, divided by the calls: what a call executes once
the policy is compiled and the caches are warm, interpreter and C code alike. ``PYTHONHASHSEED=0`` and the cycle
collector off during the measured work keep them reproducible to a few tenths of a per cent (a full collection
there would add some 2 M instructions to whichever run it fell in; the guard leaves no cyclic garbage to
collect).

- **guard**: ``Guard.check`` on the 61 typical turns of ``workload.py`` (as ``bench_vs_baseline.py``), for this
  checkout and ``--baseline`` (default ``7b819e1``, what stood before issue 11): instructions per check, and their
  ratio, also for the turns the guard passes and those it modifies.
- **stream**: 10 typical answers streamed in chunks of 3-6 characters through ``StreamGuard`` (the typical policy,
  copies of invisible sources blocking, as ``bench_stream.py``), against one buffered check of each: the ratio the
  stream target is about. ``--against`` measures a second commit the same way (the stream's API changed before
  issue 11, so the baseline is not streamed).
- **middleware**: one request through ``GuardrailMiddleware`` in process (``bench_middleware.call``: the ASGI app
  of ``http_app.py``, no sockets) to the bare app, to the middleware with no checks and with the typical policy: the
  middleware's own plumbing is the second less the first (the "≤ 30 µs" target of issue 11), for this checkout and
  ``--against``.

The policies get a latency budget of ten minutes: under valgrind a check runs some 50 times slower, and a look that
ran out of its budget would take another path.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SEED = 20_240_601


def child(root: str, what: str, rounds: int) -> None:
    """One measured run: warm up, then do the work ``rounds`` times (0: warm-up only)."""
    sys.path.insert(0, root)
    sys.path.insert(1, str(HERE))
    import guardrail

    assert Path(guardrail.__file__).resolve().is_relative_to(Path(root).resolve()), guardrail.__file__
    from workload import make_terms, make_turns

    from guardrail import Guard

    terms = make_terms(SEED, 1000)
    policy = {"citations": {"coverage": "flag"}, "quotes": {}, "banned_terms": {"terms": terms},
              "instructions": {"max_words": 400, "no_emoji": True}, "budget_ms": 600_000}
    guard = Guard.from_dict(policy)
    if what.startswith("guard"):
        items = [(t.output, t.sources, t.roles) for t in make_turns(SEED, 61, terms)]
        if what != "guard":  # guard-pass, guard-modified: the turns with that decision
            items = [it for it in items if guard.check(*it).decision.value == what.split("-")[1]]
        for _ in range(2):
            for it in items:
                guard.check(*it)
        gc.disable()
        for _ in range(rounds):
            for it in items:
                guard.check(*it)
        return
    if what.startswith("http-"):  # the middleware in process: one ASGI request to a benchmark endpoint
        import asyncio

        import http_app
        from bench_middleware import call

        app = {"http-plain": http_app.plain_json, "http-empty": http_app.empty_json,
               "http-typical": http_app.guarded_json}[what]

        async def requests(n: int) -> None:
            for _ in range(n):
                await call(app)

        loop = asyncio.new_event_loop()
        loop.run_until_complete(requests(50))
        gc.disable()
        loop.run_until_complete(requests(100 * rounds))
        return
    from guardrail import Source
    from guardrail.stream import StreamGuard

    rng = random.Random(1)
    turns = make_turns(SEED, 10, terms)
    prepared = []
    for t in turns:
        chunks, i = [], 0
        while i < len(t.output):
            k = rng.randint(3, 6)
            chunks.append(t.output[i:i + k])
            i += k
        prepared.append(([Source.coerce(s) for s in t.sources], frozenset(t.roles), t.output, chunks))

    def once() -> None:
        for sources, roles, output, chunks in prepared:
            if what == "buffered":
                guard.check(output, sources, roles)
                continue
            session = StreamGuard(guard.compiled, sources, roles)
            for chunk in chunks:
                session.feed(chunk)
            session.finish()

    once()
    once()
    gc.disable()
    for _ in range(rounds):
        once()


def instructions(root: str, what: str, rounds: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
                          "--child", root, "--what", what, "--rounds", str(rounds)],
                         capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(), check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    assert m is not None, out.stderr[-2000:]
    return int(m.group(1))


def per_call(pool: ThreadPoolExecutor, root: str, what: str, rounds: int, calls: int) -> Callable[[], float]:
    """Instructions one call executes: the difference of two runs (side by side: counts do not depend on what
    else runs), divided by the calls; a function that waits for them."""
    done, warm = pool.submit(instructions, root, what, rounds), pool.submit(instructions, root, what, 0)
    return lambda: (done.result() - warm.result()) / (rounds * calls)


def worktree(commit: str, tmp: str) -> str:
    """A detached worktree of ``commit``, with its C extension built if it has one (as ``pip install`` would)."""
    path = os.path.join(tmp, commit)
    subprocess.run(["git", "worktree", "add", "--detach", path, commit], cwd=REPO, check=True, capture_output=True)
    source = Path(path, "guardrail", "_speedups.c")
    if source.exists():
        target = source.with_name("_speedups" + sysconfig.get_config_var("EXT_SUFFIX"))
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", str(source),
                        "-o", str(target)], check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="7b819e1", help="the commit the guard is compared with")
    parser.add_argument("--against", help="a commit whose guard and streams are measured too")
    parser.add_argument("--rounds", type=int, default=2, help="repetitions of the work in the measured run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--what", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.what, args.rounds)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    tmp = tempfile.mkdtemp(prefix="guardrail-instructions-")
    trees = {"this checkout": str(REPO)}
    try:
        trees[args.baseline] = worktree(args.baseline, tmp)
        if args.against:
            trees[args.against] = worktree(args.against, tmp)
        sizes = {"guard": 61, "guard-pass": 33, "guard-modified": 22}
        print(f"instructions per call (callgrind, PYTHONHASHSEED=0, {args.rounds} rounds); Python "
              f"{sys.version.split()[0]}")
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            guard = {name: {what: per_call(pool, root, what, args.rounds, n) for what, n in sizes.items()}
                     for name, root in trees.items()}
            streams = {name: (per_call(pool, root, "buffered", args.rounds, 10),
                              per_call(pool, root, "stream", args.rounds, 10))
                       for name, root in trees.items() if name != args.baseline}
            requests = {name: [per_call(pool, root, f"http-{app}", args.rounds, 100)
                               for app in ("plain", "empty", "typical")]
                        for name, root in trees.items() if name != args.baseline}
            for what in sizes:
                line = "   ".join(f"{name} {guard[name][what]() / 1e3:8,.1f} k" for name in trees)
                ratio = guard["this checkout"][what]() / guard[args.baseline][what]()
                print(f"  {what:15} {line}   this/{args.baseline} {ratio:.3f}x")
            for name, (buffered_of, streamed_of) in streams.items():
                buffered, streamed = buffered_of(), streamed_of()
                print(f"  stream, {name}: {streamed / 1e6:.2f} M a streamed answer, {buffered / 1e3:,.1f} k a "
                      f"buffered check of it: {streamed / buffered:.1f}x (target ≤ 3x)")
            for name, counts in requests.items():
                plain, empty, typical = (count() for count in counts)
                print(f"  middleware, {name}: {plain / 1e3:,.1f} k a request to the bare app, plumbing "
                      f"{(empty - plain) / 1e3:,.1f} k (no checks), {(typical - plain) / 1e3:,.1f} k with the "
                      f"typical policy")
    finally:
        for root in trees.values():
            if root != str(REPO):
                subprocess.run(["git", "worktree", "remove", "--force", root], cwd=REPO, check=False,
                               capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
