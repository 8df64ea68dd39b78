"""The middleware's own cost per JSON request, in process (no server, no network): the same endpoint called
through ASGI without the middleware and with it around an empty policy, interleaved; medians of many rounds.

    python benchmarks/bench_middleware.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from http_app import empty_json, guarded_json, plain_json

SCOPE = {"type": "http", "method": "POST", "path": "/v1/chat/completions", "headers": [], "query_string": b"",
         "root_path": ""}


async def call(app: Any) -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    await app(dict(SCOPE), receive, send)


async def main() -> None:
    apps = {"plain": plain_json, "empty policy": empty_json, "typical policy": guarded_json}
    times: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(30):
        for app in apps.values():
            await call(app)
    for _ in range(40):  # rounds, interleaved
        for name, app in apps.items():
            batch = []
            for _ in range(25):
                start = time.perf_counter_ns()
                await call(app)
                batch.append(time.perf_counter_ns() - start)
            times[name].append(statistics.median(batch) / 1000)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    for name, value in med.items():
        print(f"{name:16s} {value:8.1f} µs per request (median of 40 round medians)")
    print(f"middleware plumbing (empty policy - plain): {med['empty policy'] - med['plain']:.1f} µs (target ≤ 30, "
          "the empty check included)")


if __name__ == "__main__":
    asyncio.run(main())
