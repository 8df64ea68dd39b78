"""Throughput of the sample queues against TARGETS.md (sqlite >= 2,000 samples/s put, Redis >= 10,000/s put
pipelined, lease+ack of the same order).

    python benchmarks/bench_queues.py [--runs 5] [--samples 20000] [--size 4096] [--batch 100] [--json]

Per backend (memory, sqlite in a temporary directory, Redis at ``$GUARDRAIL_TEST_REDIS_URL`` or a ``redis-server``
started here on a loopback port without persistence; Redis is skipped when neither is there): ``put`` of
``--samples`` samples of ``--size`` bytes in batches of ``--batch``, then ``lease(batch)`` + ``ack`` until the
queue is empty, each timed with ``time.perf_counter``, on a fresh queue (a new file, a new stream) every run. The
backends run interleaved, run by run, so that they share the machine's noise. Prints the median and the range of
samples/s per backend and phase, and the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from guardrail.monitor.queues import Queue, open_queue

VISIBILITY = 60.0


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "sqlite": sqlite3.sqlite_version,
            "load": os.getloadavg() if hasattr(os, "getloadavg") else None}


def filesystem(path: str) -> str:
    """The filesystem type ``path`` is on (tmpfs makes sqlite look faster than a disk would)."""
    try:
        out = subprocess.run(["df", "--output=fstype", path], capture_output=True, text=True, timeout=5).stdout
        return out.split()[-1]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "?"


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server() -> Iterator[str | None]:
    """``$GUARDRAIL_TEST_REDIS_URL``, else a redis-server of our own, else None (Redis is then skipped)."""
    url = os.environ.get("GUARDRAIL_TEST_REDIS_URL")
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    try:
        import redis  # noqa: F401
    except ImportError:
        binary = None
    if binary is None:
        yield None
        return
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    directory = tempfile.mkdtemp(prefix="bench-redis-")
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", directory], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not _ping(port):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


def redis_version(url: str) -> str:
    import redis

    client = redis.Redis.from_url(url.partition("?")[0])
    try:
        return str(client.info("server")["redis_version"]) + f" (redis-py {redis.__version__})"
    finally:
        client.close()


def make_payloads(count: int, size: int) -> list[bytes]:
    """JSON-ish samples of ``size`` bytes, all different (a counter in front, random text after)."""
    body = os.urandom(size // 2).hex().encode()
    return [f'{{"v":1,"id":"{i:08d}","x":"'.encode() + body[: max(0, size - 32)] + b'"}' for i in range(count)]


def run_once(queue: Queue, samples: list[bytes], batch: int) -> tuple[float, float]:
    """(put samples/s, lease+ack samples/s) on an empty queue."""
    start = time.perf_counter()
    for i in range(0, len(samples), batch):
        queue.put(samples[i:i + batch])
    put_seconds = time.perf_counter() - start
    got = 0
    start = time.perf_counter()
    while leases := queue.lease(batch, VISIBILITY):
        queue.ack([lease.id for lease in leases])
        got += len(leases)
    lease_seconds = time.perf_counter() - start
    if got != len(samples) or queue.depth() != 0:
        raise RuntimeError(f"{queue.url}: leased {got} of {len(samples)}, depth {queue.depth()} after")
    return len(samples) / put_seconds, len(samples) / lease_seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--samples", type=int, default=20_000, help="samples per run and backend")
    parser.add_argument("--size", type=int, default=4096, help="bytes per sample")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)

    samples = make_payloads(args.samples, args.size)
    figures: dict[str, dict[str, list[float]]] = {}
    info = machine()
    with tempfile.TemporaryDirectory(prefix="bench-queues-") as tmp, redis_server() as redis_url:
        info["tmp_filesystem"] = filesystem(tmp)
        backends: dict[str, Callable[[], str]] = {
            "memory": lambda: f"memory://bench-{uuid.uuid4().hex}",
            "sqlite": lambda: f"sqlite:///{Path(tmp) / f'{uuid.uuid4().hex}.db'}",
        }
        if redis_url:
            info["redis"] = redis_version(redis_url)
            backends["redis"] = lambda: f"{redis_url}{'&' if '?' in redis_url else '?'}stream=bench:{uuid.uuid4().hex}"
        else:
            print("redis: skipped (no $GUARDRAIL_TEST_REDIS_URL, and no redis-server or redis-py here)",
                  file=sys.stderr)
        for new_url in backends.values():  # one untimed warm-up each
            queue = open_queue(new_url())
            run_once(queue, samples[: args.batch * 10], args.batch)
            queue.close()
        for _ in range(args.runs):
            for name, new_url in backends.items():
                queue = open_queue(new_url())
                put_rate, lease_rate = run_once(queue, samples, args.batch)
                if name == "redis":
                    _drop_stream(queue)
                queue.close()
                figures.setdefault(name, {"put": [], "lease_ack": []})
                figures[name]["put"].append(put_rate)
                figures[name]["lease_ack"].append(lease_rate)

    result = {"machine": info, "samples": args.samples, "size": args.size, "batch": args.batch, "runs": args.runs,
              "backends": {name: {phase: {"median": statistics.median(rates), "min": min(rates), "max": max(rates)}
                                  for phase, rates in phases.items()} for name, phases in figures.items()}}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, sqlite {info['sqlite']}, "
          f"tmp on {info['tmp_filesystem']}" + (f", Redis {info['redis']}" if "redis" in info else ""))
    print(f"{args.samples:,} samples of {args.size:,} bytes per run, batches of {args.batch}, {args.runs} runs "
          "(median [min-max] samples/s)")
    print(f"{'backend':<8} {'put':>28} {'lease+ack':>28}")
    for name, phases in result["backends"].items():
        cells = [f"{p['median']:>10,.0f} [{p['min']:,.0f}-{p['max']:,.0f}]" for p in phases.values()]
        print(f"{name:<8} {cells[0]:>28} {cells[1]:>28}")
    return 0


def _drop_stream(queue: Queue) -> None:
    from guardrail.monitor.queues.redis_streams import RedisQueue

    if isinstance(queue, RedisQueue):
        queue._client.delete(queue.stream)


if __name__ == "__main__":
    sys.exit(main())
