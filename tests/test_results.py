"""The results stores on real engines: sqlite files in tmp_path and a PostgreSQL server (tests/postgres_server.py:
``GUARDRAIL_TEST_POSTGRES_URL``, else a private cluster). Each PostgreSQL test gets a schema of its own."""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from postgres_server import postgres_url  # noqa: F401  (the session fixture)

from guardrail.exceptions import GuardrailError
from guardrail.metrics import TurnSummary
from guardrail.monitor.results import (
    DEFAULT_URL,
    SCHEMA_VERSION,
    ResultRecord,
    ResultsError,
    ResultsStore,
    open_results,
)
from guardrail.monitor.results._base import COUNTS, mask_url

ROOT = Path(__file__).resolve().parent.parent
MARCH_1 = datetime(2026, 3, 1, tzinfo=UTC).timestamp()
DAY = 86_400.0


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs psycopg: pip install -e '.[postgres]'")
        pytest.skip("psycopg is not installed: pip install 'guardrail[postgres]'")
    return psycopg


def with_search_path(url: str, schema: str) -> str:
    """``url`` connecting with ``schema`` first on the search path."""
    return url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty store's URL (nothing created yet) on each engine."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'results.db'}"
        return
    psycopg = _psycopg()
    base = request.getfixturevalue("postgres_url")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def store(url: str) -> Iterator[ResultsStore]:
    opened = open_results(url)
    yield opened
    opened.close()


def sql(url: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on the store's database, behind its back."""
    if url.startswith("sqlite:"):
        conn = sqlite3.connect(url[len("sqlite:///"):], isolation_level=None)
        try:
            return conn.execute(statement.replace("%s", "?"), params).fetchall()
        finally:
            conn.close()
    with _psycopg().connect(url, autocommit=True) as pg:
        cur = pg.execute(statement, params)
        return cur.fetchall() if cur.description else []


def record(sample_id: str = "s1", *, created: float = MARCH_1 + 3600, policy: str = "support",
           decision: str = "pass", status: str = "ok", judge: tuple[str, str] = ("lexical", "1"),
           summary: dict[str, Any] | None = None, **kwargs: Any) -> ResultRecord:
    if summary is None:
        summary = {} if status == "error" else TurnSummary(decision, supported=1, statements=2).to_dict()
    return ResultRecord(sample_id=sample_id, request_id=f"req-{sample_id}", created=created, policy=policy,
                        policy_digest="sha256:" + "ab" * 32, decision=decision, status=status, judge_name=judge[0],
                        judge_version=judge[1], summary=summary, detail=kwargs.pop("detail", {"statements": []}),
                        **kwargs)


# The contract, on both engines.

def test_every_field_round_trips(store: ResultsStore) -> None:
    summary = TurnSummary("modified", 1, 2, 3, 4, 5, 6, 7, 8, 9, True, "support", None, ("banned_term",), 2)
    detail = {
        "statements": [{"text": "Les congés sont de 25 jours — 有薪假期 📅", "start": 0, "end": 41, "recall": 1}],
        "citations": [{"id": "doc:hr-1", "verdict": "FULLY_SUPPORTS", "evidence": {"start": 3, "end": 9}}],
        "ключ": "עברית, Ελληνικά, e\u0301", "score": 0.8333333333333334, "none": None, "flag": False,
        "nested": {"deep": [[], {}, [1, [2, ["three"]]]]},
    }
    original = record("sample-ü-1", created=MARCH_1 + 0.123456, decision="modified", summary=summary.to_dict(),
                      detail=detail, error=None, traceparent="00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                      scored_at=MARCH_1 + 60.5)
    assert store.put([original]) == 1
    assert store.get("sample-ü-1") == original
    assert store.get("missing") is None
    failed = record("s2", status="error", error="JudgeFailure: timeout ⏱", traceparent=None)
    store.put([failed])
    assert store.get("s2") == failed
    assert store.count() == 2


def test_text_postgres_cannot_hold_becomes_the_replacement_character(store: ResultsStore) -> None:
    store.put([record("s1", detail={"out": "a\x00b", "lone": "x\ud800y", "k\x00": ["\udfff"]}, error="bad\x00")])
    got = store.get("s1")
    assert got is not None
    assert got.detail == {"out": "a\ufffdb", "lone": "x\ufffdy", "k\ufffd": ["\ufffd"]}
    assert got.error == "bad\ufffd"


def test_put_is_idempotent_by_sample_id(store: ResultsStore) -> None:
    a, b = record("a"), record("b")
    assert store.put([a, b]) == 2
    assert store.put([a]) == 0
    assert store.put([dataclasses.replace(a, decision="blocked"), record("c"), record("c")]) == 1
    assert store.put([]) == 0
    assert store.count() == 3
    stored = store.get("a")
    assert stored is not None and stored.decision == "pass"  # the first write wins


def test_summaries_carry_every_count(store: ResultsStore) -> None:
    turn = TurnSummary("blocked", 1, 2, 3, 4, 5, 6, 7, 8, 9, True, "ignored", "ignored", ("quote", "term"), 11)
    store.put([record("s1", decision="blocked", summary=turn.to_dict()), record("s2", summary={})])
    assert store.summaries() == [
        dataclasses.replace(turn, policy="support", day="2026-03-01"),
        TurnSummary("pass", policy="support", day="2026-03-01"),
    ]


def test_summaries_filter_by_policy_since_until_and_set_the_utc_day(store: ResultsStore) -> None:
    midnight = MARCH_1 + DAY  # 2026-03-02T00:00:00Z
    store.put([
        record("late", created=midnight - 0.001),
        record("midnight", created=midnight),
        record("other", created=midnight + 10, policy="sales"),
        record("failed", created=midnight + 20, status="error"),
        record("next", created=midnight + DAY, decision="modified"),
    ])
    days = [(t.policy, t.day, t.decision) for t in store.summaries()]
    assert days == [("support", "2026-03-01", "pass"), ("support", "2026-03-02", "pass"),
                    ("sales", "2026-03-02", "pass"), ("support", "2026-03-03", "modified")]
    assert len(store.summaries(policy="support")) == 3
    assert store.summaries(policy="nobody") == []
    assert [t.day for t in store.summaries(since=midnight)] == ["2026-03-02", "2026-03-02", "2026-03-03"]
    assert [t.day for t in store.summaries(until=midnight)] == ["2026-03-01"]
    assert [t.policy for t in store.summaries("sales", since=midnight, until=midnight + DAY)] == ["sales"]
    assert store.summaries(since=midnight + DAY, until=midnight + DAY) == []


def test_errors_are_counted_apart_from_summaries(store: ResultsStore) -> None:
    store.put([record("ok"), record("e1", status="error", judge=("onnx", "2")),
               record("e2", status="error", policy="sales", created=MARCH_1 + DAY)])
    assert len(store.summaries()) == 1
    assert store.errors() == 2
    assert store.errors(policy="sales") == 1
    assert store.errors(since=MARCH_1 + DAY) == 1
    assert store.errors(until=MARCH_1) == 0
    assert store.judges() == [("lexical", "1")]  # the judges behind the summaries


def test_judges_are_distinct_and_sorted(store: ResultsStore) -> None:
    store.put([record("a", judge=("onnx", "2")), record("b", judge=("lexical", "1")),
               record("c", judge=("onnx", "2")), record("d", judge=("onnx", "1"), policy="sales")])
    assert store.judges() == [("lexical", "1"), ("onnx", "1"), ("onnx", "2")]
    assert store.judges(policy="sales") == [("onnx", "1")]
    assert store.judges(since=MARCH_1 + DAY) == []


def test_a_newer_schema_is_refused(url: str) -> None:
    open_results(url).close()
    sql(url, "INSERT INTO guardrail_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(ResultsError, match=rf"schema version {SCHEMA_VERSION + 1}, newer than this guardrail knows "
                                           rf"\({SCHEMA_VERSION}\): upgrade guardrail"):
        open_results(url)


def test_the_schema_is_recorded_once(url: str) -> None:
    for _ in range(3):
        open_results(url).close()
    assert sql(url, "SELECT version FROM guardrail_schema") == [(SCHEMA_VERSION,)]
    indexes = {"guardrail_results_policy_created", "guardrail_results_created"}
    if url.startswith("sqlite:"):
        found = {n for (n,) in sql(url, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    else:
        found = {n for (n,) in sql(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'guardrail_results'")}
    assert indexes <= found


def test_two_stores_on_one_url(url: str) -> None:
    first = open_results(url)
    first.put([record("a")])
    second = open_results(url)
    assert second.count() == 1
    assert second.put([record("a"), record("b")]) == 1
    assert first.count() == 2 and first.get("b") is not None
    first.close()
    second.close()


WRITER = """
import random, sys
from guardrail.monitor.results import ResultRecord, open_results
url, first = sys.argv[1], int(sys.argv[2])
ids = list(range(first, first + 100))
random.Random(first).shuffle(ids)
print("ready", flush=True)
sys.stdin.readline()
store = open_results(url)
new = 0
for k in range(0, 100, 10):
    new += store.put([ResultRecord(f"s{i:04d}", "r", 1.7e9 + i, "p", "d", "pass", "ok", "lexical", "1",
                                   {"supported": 1, "statements": 1}, {"i": i}) for i in ids[k:k + 10]])
print(new, flush=True)
"""


def test_concurrent_writers_store_each_sample_once(url: str) -> None:
    # Four processes open the store at once (racing to create it) and put overlapping, shuffled batches.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, url, str(first)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
               for first in (0, 30, 60, 90)]
    for w in writers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    for w in writers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    outputs = [w.communicate(timeout=120) for w in writers]
    assert [w.returncode for w in writers] == [0] * 4, [err for _, err in outputs]
    with open_results(url) as store:
        assert sum(int(out) for out, _ in outputs) == 190  # ids 0..189, each new exactly once
        assert store.count() == 190
        assert sorted(t.decision for t in store.summaries()) == ["pass"] * 190
        assert {store.get(f"s{i:04d}") is not None for i in range(190)} == {True}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(-1e9, 1e9, allow_nan=False)
    | st.text(st.characters(codec="utf-8", exclude_characters="\x00")),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8).filter(lambda k: "\x00" not in k),
                                                                inner, max_size=4),
    max_leaves=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(detail=st.dictionaries(st.text(max_size=8).filter(lambda k: "\x00" not in k), JSON, max_size=5))
def test_any_json_detail_round_trips(store: ResultsStore, detail: dict[str, Any]) -> None:
    sample_id = uuid.uuid4().hex
    store.put([record(sample_id, detail=detail)])
    got = store.get(sample_id)
    assert got is not None and got.detail == detail


# sqlite only.

def test_sqlite_default_path_is_made_in_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert DEFAULT_URL == "sqlite:///.guardrail/results.db"
    with open_results(DEFAULT_URL) as store:
        store.put([record()])
    path = tmp_path / ".guardrail" / "results.db"
    assert path.is_file()
    assert sql(f"sqlite:///{path}", "PRAGMA journal_mode") == [("wal",)]


def test_sqlite_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("not a database, " * 100)
    with pytest.raises(ResultsError, match=r"results store sqlite:///.*notes\.db: open: file is not a database"):
        open_results(f"sqlite:///{tmp_path / 'notes.db'}")
    (tmp_path / "file").write_text("")
    with pytest.raises(ResultsError, match=r"cannot open .*file/results\.db"):
        open_results(f"sqlite:///{tmp_path / 'file' / 'results.db'}")


# URLs, records, errors.

@pytest.mark.parametrize(("bad", "message"), [
    ("redis://localhost:6379/0", r"unsupported results URL 'redis://localhost:6379/0': use sqlite:///PATH or "
                                 r"postgresql://USER:PASSWORD@HOST:PORT/DB"),
    ("mysql://admin:secret@db:3306/x", r"unsupported results URL 'mysql://admin:\*\*\*@db:3306/x'"),
    (".guardrail/results.db", r"unsupported results URL '\.guardrail/results\.db'"),
    ("sqlite://host/results.db", r"names a host: use sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH"),
    ("sqlite:///", r"names no file: use e\.g\. sqlite:///\.guardrail/results\.db"),
    ("sqlite:///data/", r"names no file"),
    ("sqlite:///results.db?mode=ro", r"a sqlite URL takes no query"),
])
def test_bad_urls(bad: str, message: str) -> None:
    with pytest.raises(ResultsError, match=message) as caught:
        open_results(bad)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(("bad", "message"), [
    ("postgresql://admin:secret@127.0.0.1:notaport/db", r"postgresql://admin:\*\*\*@127\.0\.0\.1:notaport/db: .*port"),
    ("postgres://admin:secret@127.0.0.1/db?bogus=1", r"postgres://admin:\*\*\*@127\.0\.0\.1/db\?bogus=1: .*bogus"),
    ("postgresql://127.0.0.1/db?password=secret&x=1", r"password=\*\*\*&x=1"),
])
def test_bad_postgres_urls_mask_the_password(bad: str, message: str) -> None:
    _psycopg()
    with pytest.raises(ResultsError, match=message) as caught:
        open_results(bad)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(("url", "masked"), [
    ("postgresql://u:p%40ss@h:5432/db", "postgresql://u:***@h:5432/db"),
    ("postgresql://u@h/db", "postgresql://u@h/db"),
    ("postgresql://h/db?user=u&password=pw", "postgresql://h/db?user=u&password=***"),
    ("postgresql://u:@h/db", "postgresql://u:***@h/db"),
    ("sqlite:////var/lib/results.db", "sqlite:////var/lib/results.db"),
])
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_missing_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(ResultsError, match=r"needs psycopg 3: pip install 'guardrail\[postgres\]'"):
        open_results("postgresql://u:secret@127.0.0.1:5432/db")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("where", ["refused", "black hole"])
def test_an_unreachable_postgres_fails_fast(where: str) -> None:
    _psycopg()
    host = f"127.0.0.1:{_closed_port()}" if where == "refused" else "192.0.2.1:5432"  # TEST-NET-1: routed nowhere
    started = time.monotonic()
    with pytest.raises(ResultsError, match=r"results store postgresql://guard:\*\*\*@.*: cannot connect") as caught:
        open_results(f"postgresql://guard:secret@{host}/results")
    assert time.monotonic() - started < 5
    assert "secret" not in str(caught.value)
    assert isinstance(caught.value, GuardrailError)


@pytest.mark.parametrize(("change", "message"), [
    ({"decision": "allowed"}, r"sample s1: decision 'allowed' is not one of \('pass', 'modified', 'blocked'\)"),
    ({"status": "failed"}, r"sample s1: status 'failed' is not one of \('ok', 'error'\)"),
    ({"created": float("nan")}, r"sample s1: created must be a finite number of seconds"),
    ({"scored_at": "now"}, r"sample s1: scored_at must be a finite number"),
    ({"sample_id": ""}, r"a result needs a sample_id"),
    ({"detail": ["not", "an", "object"]}, r"sample s1: detail must be a JSON object"),
])
def test_bad_records(change: dict[str, Any], message: str) -> None:
    values = dataclasses.asdict(record("s1"))
    with pytest.raises(ResultsError, match=message):
        ResultRecord(**{**values, **change})


@pytest.mark.parametrize(("summary", "message"), [
    ({"supported": "3"}, r"sample s1: summary\['supported'\] must be a count \(an integer >= 0\), not '3'"),
    ({"statements": -1}, r"summary\['statements'\] must be a count"),
    ({"labels": "term"}, r"sample s1: summary\['labels'\] must be a list of strings"),
])
def test_bad_summaries_store_nothing(store: ResultsStore, summary: dict[str, Any], message: str) -> None:
    with pytest.raises(ResultsError, match=message):
        store.put([record("s0"), record("s1", summary=summary)])
    assert store.count() == 0


def test_a_closed_store_says_so(url: str) -> None:
    store = open_results(url)
    store.close()
    store.close()
    with pytest.raises(ResultsError, match=r"results store .* is closed"):
        store.count()


def test_every_summary_field_has_a_column() -> None:
    # A field added to TurnSummary without a column is read from the summary JSON (slower): add a column and bump
    # SCHEMA_VERSION (with a migration) when that happens.
    # The gold fields are only ever given by check/audit records, never stored by a worker; a sample's instruction
    # results are read from the summary JSON, only for the rows that have some.
    names = {f.name for f in dataclasses.fields(TurnSummary)}
    offline = {"should_refuse", "refused", "fields", "gold_ids", "cited_ids", "cited_gold"}
    assert names - offline == {*COUNTS, "decision", "invalid", "labels", "policy", "day", "instructions"}


# PostgreSQL only.

@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:  # noqa: F811
    psycopg = _psycopg()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(postgres_url, schema)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def test_postgres_reconnects_after_the_connection_broke(pg_url: str) -> None:
    with open_results(pg_url) as store:
        conn = vars(store)["_conn"]
        store.put([record("a")])
        pid = conn.info.backend_pid
        sql(pg_url, "SELECT pg_terminate_backend(%s)", (pid,))
        assert store.put([record("a"), record("b")]) == 1
        assert store.count() == 2
        assert vars(store)["_conn"].info.backend_pid != pid


def test_postgres_session_has_timeouts(pg_url: str) -> None:
    with open_results(pg_url) as store:
        conn = vars(store)["_conn"]
        assert conn.execute("SHOW statement_timeout").fetchone() == ("30s",)
        assert conn.execute("SHOW application_name").fetchone() == ("guardrail",)
        assert conn.info.get_parameters()["connect_timeout"] == "3"
    longer = pg_url.replace("?options=", "?connect_timeout=7&options=-cstatement_timeout%3D5s%20")
    with open_results(longer) as store:
        conn = vars(store)["_conn"]
        assert conn.execute("SHOW statement_timeout").fetchone() == ("5s",)  # the URL's own settings win
        assert conn.info.get_parameters()["connect_timeout"] == "7"


def test_postgres_read_only_role_can_report(pg_url: str) -> None:
    with open_results(pg_url) as store:
        store.put([record("a")])
    schema = pg_url.rsplit("%3D", 1)[1]
    role, password = f"reader_{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    sql(pg_url, f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    try:
        sql(pg_url, f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        sql(pg_url, f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}")
        parts = urlsplit(pg_url)
        netloc = f"{role}:{password}@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
        reader = urlunsplit(parts._replace(netloc=netloc))
        with open_results(reader) as store:
            assert len(store.summaries()) == 1
            with pytest.raises(ResultsError, match="permission denied"):
                store.put([record("b")])
    finally:  # revoked one by one: DROP OWNED BY would need membership of the role, which CREATEROLE lacks
        sql(pg_url, f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}")
        sql(pg_url, f"REVOKE ALL ON SCHEMA {schema} FROM {role}")
        sql(pg_url, f"DROP ROLE {role}")


def test_postgres_columns_are_typed(pg_url: str) -> None:
    open_results(pg_url).close()
    types = dict(sql(pg_url, "SELECT column_name, data_type FROM information_schema.columns "
                             "WHERE table_name = 'guardrail_results' AND table_schema = current_schema()"))
    assert types["summary"] == types["detail"] == types["labels"] == "jsonb"
    assert types["created"] == types["scored_at"] == "double precision"
    assert {types[c] for c in COUNTS} == {"integer"}
    assert types["invalid"] == "boolean"


def test_writers_in_opposite_orders_never_deadlock(pg_url: str) -> None:
    # Overlapping batches in opposite orders from two connections in threads: rows are inserted sorted.
    import threading

    stores = [open_results(pg_url) for _ in range(2)]
    ids = [f"s{i:03d}" for i in range(200)]
    failures: list[BaseException] = []

    def write(store: ResultsStore, order: list[str]) -> None:
        try:
            for k in range(0, 200, 50):
                store.put([record(i) for i in order[k:k + 50]])
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    reverse = list(reversed(ids))
    random.Random(1).shuffle(reverse)
    threads = [threading.Thread(target=write, args=(s, o)) for s, o in zip(stores, (ids, reverse), strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert stores[0].count() == 200
    for s in stores:
        s.close()
