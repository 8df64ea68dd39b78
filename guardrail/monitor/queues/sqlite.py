"""``sqlite:///RELATIVE/PATH`` or ``sqlite:////ABSOLUTE/PATH``: the embedded default, one file on one machine.

One table, one row per sample waiting or leased::

    samples(id INTEGER PRIMARY KEY AUTOINCREMENT, payload BLOB, enqueued REAL, leased_until REAL NULL,
            attempts INTEGER, worker TEXT NULL)

A row is available when ``leased_until`` is NULL (never leased, or given back) or in the past (its worker died).
:meth:`SqliteQueue.lease` is one ``BEGIN IMMEDIATE`` transaction that marks the oldest available rows as leased
until ``now + visibility`` by this queue object and counts the delivery, so worker processes and threads never get
the same row while its lease lives. ``ack`` deletes rows (ids are never reused: AUTOINCREMENT, so a late ack of an
expired lease cannot hit a newer sample); ``release`` clears the lease of rows this queue object still holds.

The file is in WAL mode with ``synchronous=NORMAL``: a crashed process loses nothing committed, a power cut may lose
the last transactions (samples, not results). Lease deadlines are wall-clock (``time.time()``), shared by the
processes of one machine. Each process (re)opens its own connection, shared by its threads under a lock; a process
that waits longer than ``busy_timeout`` for another's write lock gets :class:`QueueUnavailable`.

Options (query keys or keyword arguments): ``max_depth`` (default unbounded: a ``put`` beyond it is
:class:`QueueFull`), ``busy_timeout`` (seconds, default 5), ``block`` (seconds ``lease`` polls for samples when none
is available, default 0).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .base import (
    Lease,
    QueueError,
    QueueFull,
    QueueUnavailable,
    check_lease_args,
    check_payloads,
    mask_url,
    positive_int,
    positive_seconds,
    resolve_options,
    seconds,
    split_query,
)

OPTIONS = {"max_depth": positive_int, "busy_timeout": positive_seconds, "block": seconds}
DEFAULTS: dict[str, Any] = {"max_depth": None, "busy_timeout": 5.0, "block": 0.0}
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS samples (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    payload BLOB NOT NULL,
    enqueued REAL NOT NULL,
    leased_until REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    worker TEXT
)
"""
LEASE = """
UPDATE samples SET leased_until = :until, attempts = attempts + 1, worker = :worker
WHERE id IN (SELECT id FROM samples WHERE leased_until IS NULL OR leased_until < :now ORDER BY id LIMIT :n)
RETURNING id, payload, attempts
"""
AVAILABLE = "SELECT 1 FROM samples WHERE leased_until IS NULL OR leased_until < ? LIMIT 1"
POLL_INTERVAL = 0.05

logger = logging.getLogger("guardrail.monitor")


def parse_path(url: str) -> Path:
    """The file of a ``sqlite:///`` URL (query removed), relative to the working directory unless absolute."""
    if not url.startswith("sqlite:///"):
        raise QueueError(f"{mask_url(url)}: expected sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH")
    path = url[len("sqlite:///"):]
    if not path or path.endswith("/"):
        raise QueueError(f"{mask_url(url)}: no file name: expected sqlite:///RELATIVE/PATH or "
                         "sqlite:////ABSOLUTE/PATH")
    if path == ":memory:" or path.startswith("file:"):
        raise QueueError(f"{mask_url(url)}: expected a file path (for a queue inside one process use memory://)")
    return Path(path).absolute()


class SqliteQueue:
    """A queue in one sqlite file, shared by the threads and processes of one machine."""

    def __init__(self, url: str, **options: Any) -> None:
        base, query = split_query(url)
        settings = resolve_options(url, query, options, OPTIONS, DEFAULTS)
        self.url = mask_url(url)
        self.path = parse_path(base)
        self.max_depth: int | None = settings["max_depth"]
        self.busy_timeout: float = settings["busy_timeout"]
        self.block: float = settings["block"]
        self._closed = False
        self._pid = -1
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._worker = ""
        with self._transaction(write=False):  # open (and create) the file now: a bad path fails here
            pass

    def put(self, payloads: Sequence[bytes]) -> None:
        """Insert the batch in one transaction, or raise and insert none of it."""
        batch = check_payloads(payloads)
        if not batch:
            return
        now = time.time()
        with self._transaction() as db:
            if self.max_depth is not None:
                (depth,) = db.execute("SELECT COUNT(*) FROM samples").fetchone()
                if depth + len(batch) > self.max_depth:
                    raise QueueFull(f"{self.url}: {depth} samples queued, max_depth is {self.max_depth}")
            db.executemany("INSERT INTO samples (payload, enqueued) VALUES (?, ?)", ((p, now) for p in batch))

    def lease(self, n: int, visibility: float) -> list[Lease]:
        """Up to ``n`` available samples, oldest id first, leased until ``now + visibility``."""
        check_lease_args(n, visibility)
        if n == 0:
            return []
        end = time.monotonic() + self.block
        while True:
            now = time.time()
            rows: list[tuple[int, bytes, int]] = []
            # Idle workers poll an empty queue often: looking first (a WAL read, no lock) spares the writers.
            with self._transaction(write=False) as db:
                available = db.execute(AVAILABLE, (now,)).fetchone()
            if available:
                with self._transaction() as db:
                    rows = db.execute(LEASE, {"until": now + visibility, "worker": self._worker, "now": now,
                                              "n": n}).fetchall()
            if rows or time.monotonic() >= end:
                break
            time.sleep(min(POLL_INTERVAL, max(end - time.monotonic(), 0)))
        rows.sort()
        return [Lease(str(row_id), payload, attempts) for row_id, payload, attempts in rows]

    def ack(self, ids: Sequence[str]) -> None:
        """Delete the samples."""
        rows = [(row_id,) for row_id in self._parse_ids(ids)]
        if rows:
            with self._transaction() as db:
                db.executemany("DELETE FROM samples WHERE id = ?", rows)

    def release(self, ids: Sequence[str]) -> None:
        """Clear the leases this queue object still holds on the samples, making them available at once."""
        row_ids = self._parse_ids(ids)
        if row_ids:
            with self._transaction() as db:
                db.executemany("UPDATE samples SET leased_until = NULL, worker = NULL WHERE id = ? AND worker = ?",
                               [(row_id, self._worker) for row_id in row_ids])

    def depth(self) -> int:
        """Rows in the table: samples waiting or leased."""
        with self._transaction(write=False) as db:
            (depth,) = db.execute("SELECT COUNT(*) FROM samples").fetchone()
        return int(depth)

    def close(self) -> None:
        """Close this process's connection."""
        with self._lock:
            self._closed = True
            if self._connection is not None and self._pid == os.getpid():
                self._connection.close()
            self._connection = None

    def __enter__(self) -> SqliteQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SqliteQueue {self.url}>"

    def _parse_ids(self, ids: Sequence[str]) -> list[int]:
        try:
            return [int(row_id) for row_id in ids]
        except ValueError:
            raise QueueError(f"{self.url}: {list(ids)!r} are not all lease ids of a sqlite queue") from None

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """This process's connection inside one transaction (``BEGIN IMMEDIATE`` to write), errors translated."""
        with self._lock:
            db = self._connect()
            try:
                if write:
                    db.execute("BEGIN IMMEDIATE")
                yield db
                if write:
                    db.execute("COMMIT")
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.rollback()
                raise self._translate(exc) from exc
            except BaseException:
                if db.in_transaction:
                    db.rollback()
                raise

    def _connect(self) -> sqlite3.Connection:
        if self._closed:
            raise QueueError(f"{self.url}: the queue is closed")
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        # A connection must not cross a fork: a child process opens its own and leaves the parent's alone.
        self._connection, self._pid = None, os.getpid()
        self._worker = f"{socket.gethostname()}-{self._pid}-{secrets.token_hex(3)}"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise QueueUnavailable(f"{self.url}: cannot open {self.path}: {exc}") from exc
        try:
            (mode,) = db.execute("PRAGMA journal_mode=WAL").fetchone()
            db.execute("PRAGMA synchronous=NORMAL")
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise QueueError(f"{self.url}: the queue file has schema version {version}; this guardrail knows "
                                 f"{SCHEMA_VERSION}: upgrade guardrail")
            if version < SCHEMA_VERSION:
                db.execute("BEGIN IMMEDIATE")
                db.execute(SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            db.close()
            raise self._translate(exc) from exc
        except BaseException:
            db.close()
            raise
        if str(mode).lower() != "wal":
            logger.warning("%s: journal mode is %s, not WAL (the filesystem may not "
                           "support it): workers will block each other", self.url, mode)
        self._connection = db
        return db

    def _translate(self, exc: sqlite3.Error) -> QueueError:
        code = getattr(exc, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_FULL:
            return QueueFull(f"{self.url}: the disk is full: {exc}")
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return QueueUnavailable(f"{self.url}: the database stayed locked for more than {self.busy_timeout:g} s")
        if isinstance(exc, sqlite3.OperationalError):
            return QueueUnavailable(f"{self.url}: {exc}")
        return QueueError(f"{self.url}: {exc}")
