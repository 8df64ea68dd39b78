"""The embedded results store: one sqlite file, in WAL mode, shared by the worker processes of one machine.

Several processes may write at once: each ``put`` is one ``BEGIN IMMEDIATE`` transaction (it takes the write lock
up front, so two writers never deadlock upgrading a read lock), and a writer waits up to ``timeout`` seconds for the
lock (sqlite's busy timeout). Readers never wait for writers (WAL). ``synchronous=FULL``: a committed result survives
a power cut, since the worker acknowledges the sample to the queue right after ``put``. The file must be on a local
disk (WAL needs shared memory between the processes).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from ._base import SCHEMA_TABLE, SCHEMA_VERSION, R, ResultsError, SqlStore, newer_schema, schema

DEFAULT_PATH = ".guardrail/results.db"


def parse_sqlite_url(url: str) -> Path:
    """The file of ``sqlite:///RELATIVE/PATH`` (from the current directory) or ``sqlite:////ABSOLUTE/PATH``."""
    rest = url[len("sqlite://"):]
    if not rest.startswith("/"):
        raise ResultsError(f"results URL {url!r} names a host: use sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH")
    path = rest[1:]
    if "?" in path or "#" in path:
        raise ResultsError(f"results URL {url!r}: a sqlite URL takes no query or fragment")
    if not path or path.endswith("/"):
        raise ResultsError(f"results URL {url!r} names no file: use e.g. sqlite:///{DEFAULT_PATH}")
    return Path(path).absolute()


def _locked(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


class SqliteResults(SqlStore):
    """Results in a sqlite file; ``timeout``: how long a writer waits for another's transaction."""

    param = json_param = "?"

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        super().__init__(url)
        self.path = parse_sqlite_url(url)
        self.timeout = timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise ResultsError(f"results store {url}: cannot open {self.path}: {exc}") from None
        try:
            self._run("open", self._setup)
        except BaseException:
            self._conn.close()
            raise

    def _setup(self) -> None:
        conn = self._conn
        deadline = time.monotonic() + self.timeout
        while True:  # switching to WAL needs a moment alone with the file: another process may be opening it too
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if not _locked(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        conn.execute("PRAGMA synchronous=FULL")
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                   "AND name IN ('guardrail_schema', 'guardrail_results')")}
        if len(tables) == 2:
            self._check_version()
            return
        conn.execute("BEGIN IMMEDIATE")  # one creator at a time; the others then find the tables
        try:
            conn.execute(SCHEMA_TABLE)
            version = self._check_version()
            for statement in schema("TEXT"):
                conn.execute(statement)
            if version is None:
                conn.execute("INSERT INTO guardrail_schema (version) VALUES (?)", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _check_version(self) -> int | None:
        (version,) = self._conn.execute("SELECT MAX(version) FROM guardrail_schema").fetchone()
        if version is not None and version > SCHEMA_VERSION:
            raise newer_schema(self.url, version)
        return version

    def _write(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> int:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            before = conn.total_changes
            conn.executemany(sql, rows)
            new = conn.total_changes - before
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return new

    def _read(self, sql: str, params: Sequence[Any], handle: Callable[[Iterable[Sequence[Any]]], R]) -> R:
        return handle(self._conn.execute(sql, params))

    def _load(self, value: Any) -> Any:
        return orjson.loads(value)

    def _run(self, what: str, action: Callable[[], R]) -> R:
        with self._lock:
            if self._closed:
                raise ResultsError(f"results store {self.url} is closed")
            try:
                return action()
            except sqlite3.Error as exc:
                raise ResultsError(f"results store {self.url}: {what}: {exc}") from None

    def close(self) -> None:
        """Close the file; idempotent."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()
