"""CPU time of the server process per JSON request under wrk: the same endpoint unguarded, with the middleware around
an empty policy, and with the typical policy, one uvicorn worker each on loopback.

    python benchmarks/bench_http_cpu.py [--seconds 4] [--rounds 3]

Needs Debian's ``wrk``. Requests per second mix the server's time with wrk's (both share this machine's two
cores); the server's own CPU time (user + system, from ``/proc/PID/stat``) over a run, divided by the requests
served, is what one request costs it. The servers run one after the other, in an order alternating by round; the
medians of the rounds are printed, and the differences: the middleware's plumbing (empty policy - plain) and the
guard's whole cost per request (typical policy - plain).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENDPOINTS = ("plain_json", "empty_json", "guarded_json")
LUA = 'wrk.method = "POST"\nwrk.body = "{}"\nwrk.headers["Content-Type"] = "application/json"\n'


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: int, script: str) -> int:
    out = subprocess.run(["wrk", "-t1", "-c8", f"-d{seconds}s", "-s", script, url], capture_output=True, text=True,
                         check=True).stdout
    found = re.search(r"(\d+) requests in", out)
    if found is None:
        raise RuntimeError(f"wrk said: {out}")
    return int(found.group(1))


def measure(name: str, port: int, seconds: int, script: str) -> float:
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", f"http_app:{name}", "--app-dir", str(HERE),
                               "--port", str(port), "--log-level", "warning", "--no-access-log"])
    try:
        url = f"http://127.0.0.1:{port}/v1/chat/completions"
        for _ in range(100):
            try:
                wrk(url, 1, script)  # warm up (and wait for the server)
                break
            except subprocess.CalledProcessError:
                time.sleep(0.1)
        before = cpu_seconds(server.pid)
        served = wrk(url, seconds, script)
        return (cpu_seconds(server.pid) - before) / served * 1e6
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("bench_http_cpu: needs wrk (apt-get install wrk)")
    results: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
    with tempfile.TemporaryDirectory() as tmp:
        script = str(Path(tmp) / "post.lua")
        Path(script).write_text(LUA)
        for r in range(args.rounds):
            order = ENDPOINTS if r % 2 == 0 else ENDPOINTS[::-1]
            for name in order:
                results[name].append(measure(name, 8800 + ENDPOINTS.index(name), args.seconds, script))
    med = {name: statistics.median(values) for name, values in results.items()}
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}")
    for name in ENDPOINTS:
        print(f"{name:14s} server CPU per request {med[name]:7.1f} µs   rounds: "
              + ", ".join(f"{v:.1f}" for v in results[name]))
    print(f"middleware plumbing (empty policy - plain): {med['empty_json'] - med['plain_json']:.1f} µs (target ≤ 30)")
    print(f"the guard's whole cost (typical policy - plain): {med['guarded_json'] - med['plain_json']:.1f} µs")


if __name__ == "__main__":
    main()
