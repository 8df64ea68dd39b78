"""The shared results store: one PostgreSQL database written by workers on many machines (psycopg 3, optional).

- Opening creates the tables if they are missing, under a transaction-scoped advisory lock, so that workers
  starting together do not race on ``CREATE TABLE`` (PostgreSQL's ``IF NOT EXISTS`` is not safe against a
  concurrent create); when the tables exist, opening only reads the schema version (a read-only role can report).
- ``put`` is one transaction: an ``executemany`` (pipelined by psycopg) of ``INSERT ... ON CONFLICT (sample_id) DO
  NOTHING``, rows sorted by sample id, so that concurrent writers of overlapping batches lock rows in the same order
  and never deadlock.
- Timeouts: ``connect_timeout`` (libpq's, whole seconds, at least 2; the URL's own wins) and a ``statement_timeout``
  for the session unless the server, role or URL already sets one.
- A connection that broke (a server restart, a failover) is opened again once and the call repeated: every call is
  safe to repeat, ``put`` being idempotent (its count may then miss rows the lost attempt committed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import orjson

from ._base import SCHEMA_TABLE, SCHEMA_VERSION, R, ResultsError, SqlStore, mask_url, newer_schema, schema

INSTALL_HINT = "pip install 'guardrail[postgres]'"
_LOCK_KEY = 0x6775_6172_6472_6169  # "guardrai": the advisory lock serialising schema creation


def driver() -> ModuleType:
    """psycopg, or a ResultsError telling how to install it."""
    try:
        import psycopg
    except ImportError as exc:
        raise ResultsError(f"a postgresql:// results store needs psycopg 3: {INSTALL_HINT} ({exc})") from None
    return psycopg


class PostgresResults(SqlStore):
    """Results in a PostgreSQL database (tables in the first schema of the connection's ``search_path``)."""

    param = "%s"
    json_param = "%s::jsonb"
    as_text = "::text"

    def __init__(self, url: str, *, connect_timeout: float = 3.0, statement_timeout: float = 30.0) -> None:
        super().__init__(mask_url(url))
        self._psycopg = driver()
        self._conninfo = url
        self.connect_timeout, self.statement_timeout = connect_timeout, statement_timeout
        self._conn: Any = None
        try:
            self._password = urlsplit(url).password
        except ValueError:
            self._password = None
        self._run("open", self._setup)

    def _message(self, exc: BaseException) -> str:
        text = mask_url(str(exc).strip())
        if self._password:
            text = text.replace(self._password, "***")
        return text

    def _connect(self) -> Any:
        psycopg = self._psycopg
        try:
            params = psycopg.conninfo.conninfo_to_dict(self._conninfo)
        except psycopg.Error as exc:
            raise ResultsError(f"results URL {self.url}: {self._message(exc)}") from None
        params.setdefault("connect_timeout", str(max(2, round(self.connect_timeout))))
        params.setdefault("application_name", "guardrail")
        try:
            conn = psycopg.connect(**params, autocommit=True)
        except psycopg.Error as exc:
            raise ResultsError(f"results store {self.url}: cannot connect: {self._message(exc)}") from None
        try:
            conn.execute("SELECT set_config('statement_timeout', %s, false) "
                         "WHERE current_setting('statement_timeout') = '0'",
                         (f"{round(self.statement_timeout * 1000)}ms",))
            psycopg.types.json.set_json_loads(orjson.loads, conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _setup(self) -> None:
        conn = self._conn
        exists = conn.execute("SELECT to_regclass('guardrail_schema') IS NOT NULL "
                              "AND to_regclass('guardrail_results') IS NOT NULL").fetchone()[0]
        if exists:
            self._check_version()
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            conn.execute(SCHEMA_TABLE)
            version = self._check_version()
            for statement in schema("JSONB"):
                conn.execute(statement)
            if version is None:
                conn.execute("INSERT INTO guardrail_schema (version) VALUES (%s) ON CONFLICT DO NOTHING",
                             (SCHEMA_VERSION,))

    def _check_version(self) -> int | None:
        version = self._conn.execute("SELECT MAX(version) FROM guardrail_schema").fetchone()[0]
        if version is not None and version > SCHEMA_VERSION:
            raise newer_schema(self.url, version)
        return version

    def _write(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> int:
        with self._conn.transaction(), self._conn.cursor() as cur:
            cur.executemany(sql, rows)
            return int(cur.rowcount)

    def _read(self, sql: str, params: Sequence[Any], handle: Callable[[Iterable[Sequence[Any]]], R]) -> R:
        with self._conn.cursor() as cur:
            cur.execute(sql, params)
            return handle(cur.fetchall())  # 4x faster than iterating the cursor

    def _load(self, value: Any) -> Any:
        return value  # psycopg has decoded the JSONB already

    def _run(self, what: str, action: Callable[[], R]) -> R:
        psycopg = self._psycopg
        with self._lock:
            if self._closed:
                raise ResultsError(f"results store {self.url} is closed")
            for attempt in range(3):
                try:
                    if self._conn is None or self._conn.closed:
                        self._conn = self._connect()
                    return action()
                except (psycopg.errors.TransactionRollback, psycopg.errors.DeadlockDetected,
                        psycopg.errors.SerializationFailure) as exc:
                    if attempt == 2:
                        raise ResultsError(f"results store {self.url}: {what}: {self._message(exc)}") from None
                except psycopg.OperationalError as exc:
                    if attempt or not self._conn.broken:  # a timeout, or the connection broke twice
                        raise ResultsError(f"results store {self.url}: {what}: {self._message(exc)}") from None
                    self._conn.close()
                except psycopg.Error as exc:
                    raise ResultsError(f"results store {self.url}: {what}: {self._message(exc)}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Close the connection; idempotent."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

