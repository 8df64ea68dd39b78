"""Benchmark of the results stores: ``put`` throughput in batches and ``summaries()`` over many rows, per engine.

    python benchmarks/bench_results.py [--rows 100000] [--batch 100] [--runs 5] [--engines sqlite,postgres]

Each engine gets a fresh store: a sqlite file in a temporary directory (WAL, ``synchronous=FULL``) and a schema of its
own on PostgreSQL: the server at ``GUARDRAIL_TEST_POSTGRES_URL``, else a private cluster started here with its
durability settings left on (``fsync``, ``synchronous_commit``; see tests/postgres_server.py); PostgreSQL is skipped
when neither psycopg nor a server is available. Rows look like the worker's: a summary from ``TurnSummary``, a ~1.5 KB
``detail``, 3 policies over 30 days, 5 % errors. Reported: the median time of one ``put`` of ``--batch`` records and
the rows per second over the whole load; then, the table settled (``VACUUM ANALYZE`` on PostgreSQL), ``--runs``
interleaved rounds of: ``summaries()`` (all rows, one policy, one week), the same turns decoded from the ``summary``
JSON instead of the integer columns (the alternative the schema did not take; ``JSON/cols`` is the median of the
per-round ratios), ``errors()``, ``judges()``, ``count()``; medians.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import orjson  # noqa: E402

from guardrail.metrics import TurnSummary  # noqa: E402
from guardrail.monitor.results import ResultRecord, ResultsStore, open_results  # noqa: E402
from guardrail.monitor.results._base import day_of  # noqa: E402

START = 1_772_323_200.0  # 2026-03-01T00:00:00Z
DAYS = 30
POLICIES = ("support", "sales", "hr")


def make_records(n: int, seed: int = 7) -> list[ResultRecord]:
    """``n`` records like the worker's, shuffled in time as a queue delivers them."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        created = START + rng.random() * DAYS * 86_400
        decision = rng.choices(("pass", "modified", "blocked"), (0.8, 0.15, 0.05))[0]
        policy = POLICIES[i % 3]
        if rng.random() < 0.05:
            out.append(ResultRecord(f"s-{i:08d}", f"r-{i}", created, policy, "sha256:" + "0" * 64, decision, "error",
                                    "lexical", "1", {}, {}, error="JudgeFailure", scored_at=created + 5))
            continue
        statements = rng.randint(1, 8)
        supported = rng.randint(0, statements)
        citations = rng.randint(0, statements * 2)
        summary = TurnSummary(decision, supported, statements, rng.randint(0, citations), citations,
                              rng.randint(0, 1), statements, 0, supported, statements, rng.random() < 0.03, policy,
                              None, ("banned_term",) if decision != "pass" else (), 0).to_dict()
        detail = {
            "statements": [{"start": k * 80, "end": k * 80 + 79, "text": "Employees get 25 days of paid leave. " * 2,
                            "recall": 1, "contradicted": False} for k in range(statements)],
            "citations": [{"id": f"doc:hr-{k}", "statement": k % statements, "verdict": "FULLY_SUPPORTS",
                           "evidence": {"start": 10, "end": 60}} for k in range(citations)],
            "scores": {"citation_recall": supported / statements, "citation_precision": 1.0},
        }
        out.append(ResultRecord(f"s-{i:08d}", f"r-{i}", created, policy, "sha256:" + "0" * 64, decision, "ok",
                                "lexical", "1", summary, detail, traceparent=f"00-{i:032x}-{i:016x}-01",
                                scored_at=created + 5))
    return out


def json_summaries(store: ResultsStore) -> list[TurnSummary]:
    """The alternative: every turn decoded from the ``summary`` JSON (what the integer columns avoid)."""
    conn: Any = vars(store)["_conn"]
    sql = "SELECT summary{cast}, policy, created FROM guardrail_results WHERE status = 'ok' ORDER BY created, sample_id"
    rows = conn.execute(sql.format(cast="::text" if "Postgres" in type(store).__name__ else "")).fetchall()
    out = []
    for text, policy, created in rows:
        values = orjson.loads(text)
        values["policy"], values["day"] = policy, day_of(created)
        out.append(TurnSummary.from_dict(values))
    return out


def bench(name: str, url: str, records: list[ResultRecord], batch: int, runs: int) -> dict[str, Any]:
    store = open_results(url)
    try:
        puts = []
        started = time.perf_counter()
        for k in range(0, len(records), batch):
            t = time.perf_counter()
            store.put(records[k:k + batch])
            puts.append(time.perf_counter() - t)
        load = time.perf_counter() - started
        assert store.count() == len(records)
        if name == "postgres":  # settle the table as autovacuum would (hint bits, statistics) before reading
            vars(store)["_conn"].execute("VACUUM ANALYZE guardrail_results")
        week = (START + 7 * 86_400, START + 14 * 86_400)
        result: dict[str, Any] = {"engine": name, "rows": len(records), "rows_per_s": len(records) / load,
                                  "put_median_ms": statistics.median(puts) * 1e3,
                                  "put_p90_ms": sorted(puts)[int(len(puts) * 0.9)] * 1e3}
        jobs: dict[str, Callable[[], Any]] = {
            "summaries": store.summaries, "summaries_policy": lambda: store.summaries("support"),
            "summaries_week": lambda: store.summaries(None, *week), "json_summaries": lambda: json_summaries(store),
            "errors": store.errors, "judges": store.judges, "count": store.count,
        }
        times: dict[str, list[float]] = {job: [] for job in jobs}
        for _ in range(runs):  # interleaved: the jobs of a round share the machine's noise
            for job, fn in jobs.items():
                started = time.perf_counter()
                fn()
                times[job].append(time.perf_counter() - started)
        for job, values in times.items():
            result[f"{job}_s"] = statistics.median(values)
        turns = store.summaries()
        result["turns"] = len(turns)
        assert json_summaries(store) == turns, "the JSON and the columns disagree"
        result["json_ratio"] = statistics.median(j / c for j, c in zip(times["json_summaries"], times["summaries"],
                                                                        strict=True))
        for job in ("errors", "judges", "count"):
            result[f"{job}_ms"] = result.pop(f"{job}_s") * 1e3
        return result
    finally:
        store.close()


@contextlib.contextmanager
def postgres_store_url() -> Iterator[tuple[str, str]]:
    """A fresh schema's URL and a description of the server; raises LookupError when there is none."""
    try:
        import psycopg
        from postgres_server import Unavailable, server_url
    except ImportError as exc:
        raise LookupError(f"psycopg not installed ({exc})") from None
    try:
        with server_url(durable=True) as base:
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
                settings: dict[str, str] = dict(conn.execute(
                    "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', "
                    "'shared_buffers')").fetchall())
                version = conn.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
            where = "GUARDRAIL_TEST_POSTGRES_URL" if os.environ.get("GUARDRAIL_TEST_POSTGRES_URL") else "a new cluster"
            about = f"PostgreSQL {version} on {where} ({', '.join(f'{k}={v}' for k, v in sorted(settings.items()))})"
            try:
                yield base + ("&" if "?" in base else "?") + f"options=-csearch_path%3D{schema}", about
            finally:
                with psycopg.connect(base, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")
    except Unavailable as exc:
        raise LookupError(str(exc)) from None


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = "?"
    with contextlib.suppress(OSError, ValueError, IndexError):
        kib = int(Path("/proc/meminfo").read_text().split("\n")[0].split()[1])
        memory = f"{kib / 2**20:.0f} GB"
    import sqlite3

    return (f"{platform.node()}: {cpu}, {os.cpu_count()} CPUs, {memory} RAM; {platform.platform()}; "
            f"Python {platform.python_version()}, sqlite {sqlite3.sqlite_version}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--engines", default="sqlite,postgres")
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    made = time.perf_counter()
    records = make_records(args.rows)
    size = sum(len(orjson.dumps(r.detail)) for r in records[:1000]) / 1000
    print(f"{args.rows} records (detail {size:.0f} B on average) made in {time.perf_counter() - made:.1f} s; "
          f"put in batches of {args.batch}; medians of {args.runs} runs\n")
    results = []
    for engine in args.engines.split(","):
        if engine == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                print(f"sqlite: file in {tmp} (WAL, synchronous=FULL)")
                results.append(bench("sqlite", f"sqlite:///{tmp}/results.db", records, args.batch, args.runs))
        elif engine == "postgres":
            try:
                with postgres_store_url() as (url, about):
                    print(f"postgres: {about}")
                    results.append(bench("postgres", url, records, args.batch, args.runs))
            except LookupError as exc:
                print(f"postgres: skipped: {exc}")
        else:
            parser.error(f"unknown engine {engine!r}")
    print(f"\n{'engine':9s} {'put ms (p50/p90)':>17s} {'rows/s':>8s} {'summaries':>10s} {'1 policy':>9s} "
          f"{'1 week':>7s} {'from JSON':>10s} {'JSON/cols':>9s} {'errors':>7s} {'judges':>7s} {'count':>7s}")
    for r in results:
        print(f"{r['engine']:9s} {r['put_median_ms']:8.2f}/{r['put_p90_ms']:<8.2f} {r['rows_per_s']:8.0f} "
              f"{r['summaries_s']:9.3f}s {r['summaries_policy_s']:8.3f}s {r['summaries_week_s']:6.3f}s "
              f"{r['json_summaries_s']:9.3f}s {r['json_ratio']:8.2f}x "
              f"{r['errors_ms']:5.1f}ms {r['judges_ms']:5.1f}ms {r['count_ms']:5.1f}ms")
    print(f"\n({results[0]['turns'] if results else 0} turns with status ok in summaries())")


if __name__ == "__main__":
    main()
