"""``redis://[:PASSWORD@]HOST:PORT/DB`` (or ``rediss://`` for TLS): a Redis stream shared by workers on many machines.

Each sample is one stream entry ``{p: payload}`` added with ``XADD ... MAXLEN ~ maxlen``; workers form one consumer
group. A queue object is one consumer, named ``HOSTNAME-PID-RANDOM`` (a new name after a fork).

- ``put``: the batch's XADDs in one MULTI/EXEC pipeline: one round trip, all or nothing.
- ``lease``: first ``XAUTOCLAIM`` of entries idle longer than ``visibility`` (leased by a worker that died, or given
  back), then ``XREADGROUP >`` for new ones. ``attempts`` is the group's delivery counter: 1 for a new entry, and
  after ``XAUTOCLAIM`` (which counts a delivery) the count that ``XPENDING`` reports.
- ``ack``: ``XACK`` + ``XDEL`` in one MULTI/EXEC, so the stream holds exactly the samples waiting or leased and
  ``depth`` is ``XLEN``. (The stream therefore belongs to this one group.)
- ``release``: a script that, for each entry this consumer still holds, ``XCLAIM``\\ s it to itself with ``JUSTID``
  (the delivery counter unchanged) and an idle time of ten years: past any visibility timeout, so the next ``lease``
  of any worker reclaims it, counting the next delivery. The entry keeps its id and its place (released entries are
  delivered before new ones, as in the other queues).

The group is created on first use (``XGROUP CREATE ... 0 MKSTREAM``, BUSYGROUP ignored) and again if it vanished (a
restarted server without persistence). An entry trimmed by ``maxlen`` while leased is lost (logged): keep ``maxlen``
far above any backlog. Consumers without pending entries and idle for a day are removed from the group now and then.

Every command has a socket timeout (``connect_timeout`` 2 s, ``timeout`` 5 s); redis-py's own retries are off and a
failed connection is tried once more on a fresh one, so an unreachable server is :class:`QueueUnavailable` within about
one timeout, and the queue works again when the server is back. Options (query keys or keyword arguments): ``stream``
(``guardrail:samples``), ``group`` (``guardrail-workers``), ``maxlen`` (1,000,000), ``block`` (seconds ``lease``
waits for new entries, default 0; below ``timeout``), ``connect_timeout``, ``timeout``, and ``consumer`` (a name
instead of the generated one; one live queue object per name). redis-py is the ``redis`` extra, imported on open.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .base import (
    Lease,
    QueueError,
    QueueFull,
    QueueUnavailable,
    check_lease_args,
    check_payloads,
    mask_url,
    name,
    positive_int,
    positive_seconds,
    resolve_options,
    seconds,
    split_query,
)

INSTALL_HINT = "pip install 'guardrail[redis]'"
OPTIONS = {"stream": name, "group": name, "maxlen": positive_int, "block": seconds, "connect_timeout": positive_seconds,
           "timeout": positive_seconds, "consumer": name}
DEFAULTS: dict[str, Any] = {"stream": "guardrail:samples", "group": "guardrail-workers", "maxlen": 1_000_000,
                            "block": 0.0, "connect_timeout": 2.0, "timeout": 5.0, "consumer": None}
PAYLOAD = b"p"
RELEASED_IDLE_MS = 10 * 365 * 86_400_000
"""The idle time a released entry is given: longer than any visibility timeout, shorter than the epoch (XCLAIM
resets a delivery time before 1970 to now)."""
RECLAIM_CALLS = 8
"""XAUTOCLAIM calls at most per lease (each looks at up to 10 x n pending entries) when it finds too few."""
PRUNE_EVERY = 600.0
DEAD_CONSUMER_IDLE_MS = 86_400_000

# Atomically: only entries still pending for this consumer are given back (not one another worker reclaimed since).
RELEASE = """
local released = 0
for i = 4, #ARGV do
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1)
  if pending[1] and pending[1][2] == ARGV[2] then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'IDLE', ARGV[3], 'JUSTID')
    released = released + 1
  end
end
return released
"""
# Atomically: deleting a consumer that still has pending entries would orphan them, so only idle empty ones go.
PRUNE = """
local removed = 0
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #consumer, 2 do info[consumer[i]] = consumer[i + 1] end
  if info['pending'] == 0 and info['idle'] >= tonumber(ARGV[2]) and (ARGV[3] == '' or info['name'] == ARGV[3]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    removed = removed + 1
  end
end
return removed
"""

logger = logging.getLogger("guardrail.monitor")
T = TypeVar("T")


def _import_redis(url: str) -> Any:
    try:
        import redis
        import redis.backoff
        import redis.retry
    except ImportError as exc:
        raise QueueError(f"{mask_url(url)}: the redis queue needs redis-py, which is not installed: {INSTALL_HINT}") \
            from exc
    return redis


def _check_address(url: str) -> None:
    expected = "expected redis://[[USER]:PASSWORD@]HOST:PORT/DB[?stream=NAME&group=NAME&maxlen=N]"
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number in range
    except ValueError:
        raise QueueError(f"{mask_url(url)}: the port is not a number: {expected}") from None
    if not parts.hostname:
        raise QueueError(f"{mask_url(url)}: no host: {expected}")
    db = parts.path.lstrip("/")
    if parts.path.count("/") > 1 or (db and not db.isdigit()):
        raise QueueError(f"{mask_url(url)}: the database is not a number: {expected}")
    if parts.fragment:
        raise QueueError(f"{mask_url(url)}: unexpected fragment #{parts.fragment}: {expected}")


class RedisQueue:
    """A queue in a Redis stream with one consumer group; this object is one consumer."""

    def __init__(self, url: str, **options: Any) -> None:
        base, query = split_query(url)
        settings = resolve_options(url, query, options, OPTIONS, DEFAULTS)
        self.url = mask_url(url)
        _check_address(base)
        self.stream: str = settings["stream"]
        self.group: str = settings["group"]
        self.maxlen: int = settings["maxlen"]
        self.block: float = settings["block"]
        self.connect_timeout: float = settings["connect_timeout"]
        self.timeout: float = settings["timeout"]
        if self.block >= self.timeout:
            raise QueueError(f"{self.url}: block={self.block:g} must be shorter than timeout={self.timeout:g}")
        self._redis = _import_redis(url)
        self._fixed_consumer: str | None = settings["consumer"]
        self._pid = -1
        self._consumer_name = ""
        self._cursor = "0-0"
        self._group_ready = False
        self._closed = False
        self._pruned = time.monotonic()
        retry = self._redis.retry.Retry(self._redis.backoff.NoBackoff(), 0)
        try:
            self._client = self._redis.Redis.from_url(
                base, protocol=2, socket_connect_timeout=self.connect_timeout, socket_timeout=self.timeout,
                retry=retry, health_check_interval=0)
        except ValueError as exc:
            raise QueueError(f"{self.url}: {exc}") from None
        self._release = self._client.register_script(RELEASE)
        self._prune = self._client.register_script(PRUNE)

    @property
    def consumer(self) -> str:
        """This process's consumer name in the group."""
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._consumer_name = self._fixed_consumer or f"{socket.gethostname()}-{self._pid}-{secrets.token_hex(3)}"
        return self._consumer_name

    def put(self, payloads: Sequence[bytes]) -> None:
        """XADD the batch in one MULTI/EXEC round trip."""
        batch = check_payloads(payloads)
        if not batch:
            return

        def add() -> None:
            pipe = self._client.pipeline(transaction=True)
            for payload in batch:
                pipe.xadd(self.stream, {PAYLOAD: payload}, maxlen=self.maxlen, approximate=True)
            pipe.execute()

        self._call("put", add, group=False)

    def lease(self, n: int, visibility: float) -> list[Lease]:
        """Idle entries of dead workers and given-back ones first, then new entries; up to ``n`` in all."""
        check_lease_args(n, visibility)
        if n == 0:
            return []
        min_idle = max(1, round(visibility * 1000))
        leases = self._call("lease", lambda: self._reclaim(n, min_idle))
        # Past this point the reclaimed entries are this consumer's: a failure returns them rather than raising,
        # so that they are scored now instead of waiting out another visibility timeout.
        if len(leases) < n:
            block = None if leases or not self.block else max(1, round(self.block * 1000))
            try:
                leases += self._call("lease", lambda: self._read_new(n - len(leases), block))
            except QueueError:
                if not leases:
                    raise
        if time.monotonic() - self._pruned > PRUNE_EVERY:
            self._pruned = time.monotonic()
            try:
                self._call("prune", lambda: self._prune(keys=[self.stream],
                                                        args=[self.group, DEAD_CONSUMER_IDLE_MS, ""]))
            except QueueError as exc:
                logger.debug("%s: removing dead consumers failed: %s", self.url, exc)
        return leases

    def _reclaim(self, n: int, min_idle: int) -> list[Lease]:
        claimed: list[tuple[bytes, dict[bytes, bytes]]] = []
        for _ in range(RECLAIM_CALLS):
            reply = self._client.xautoclaim(self.stream, self.group, self.consumer, min_idle, start_id=self._cursor,
                                            count=n - len(claimed))
            self._cursor = _text(reply[0])
            claimed += [(entry_id, fields) for entry_id, fields in reply[1] if entry_id is not None and fields]
            if len(reply) > 2 and reply[2]:
                logger.warning("%s: %d leased samples were trimmed from stream %s by maxlen=%d before being "
                               "acknowledged: they are lost", self.url, len(reply[2]), self.stream, self.maxlen)
            if len(claimed) >= n or self._cursor == "0-0":
                break
        if not claimed:
            return []
        pipe = self._client.pipeline(transaction=False)
        for entry_id, _ in claimed:
            pipe.xpending_range(self.stream, self.group, entry_id, entry_id, 1)
        counts = pipe.execute()
        return [Lease(_text(entry_id), fields.get(PAYLOAD, b""), int(pending[0]["times_delivered"]) if pending else 1)
                for (entry_id, fields), pending in zip(claimed, counts, strict=True)]

    def _read_new(self, n: int, block: int | None) -> list[Lease]:
        reply = self._client.xreadgroup(self.group, self.consumer, {self.stream: ">"}, count=n, block=block)
        leases = []
        for _stream, entries in reply or ():
            leases += [Lease(_text(entry_id), fields.get(PAYLOAD, b""), 1) for entry_id, fields in entries if fields]
        return leases

    def ack(self, ids: Sequence[str]) -> None:
        """XACK and XDEL the entries in one MULTI/EXEC."""
        if not ids:
            return

        def ack() -> None:
            pipe = self._client.pipeline(transaction=True)
            pipe.xack(self.stream, self.group, *ids)
            pipe.xdel(self.stream, *ids)
            pipe.execute()

        self._call("ack", ack)

    def release(self, ids: Sequence[str]) -> None:
        """Make the entries this consumer still holds available to the next lease of any worker."""
        if ids:
            self._call("release", lambda: self._release(keys=[self.stream],
                                                        args=[self.group, self.consumer, RELEASED_IDLE_MS, *ids]))

    def depth(self) -> int:
        """XLEN: entries waiting or leased (acknowledged ones are deleted)."""
        return int(self._call("depth", lambda: self._client.xlen(self.stream), group=False))

    def close(self) -> None:
        """Leave the group if this consumer holds nothing, and close the connections."""
        if self._closed:
            return
        self._closed = True
        if self._pid == os.getpid() and self._group_ready:
            try:
                self._prune(keys=[self.stream], args=[self.group, 0, self.consumer])
            except self._redis.exceptions.RedisError:
                pass
        self._client.close()
        self._client.connection_pool.disconnect()

    def __enter__(self) -> RedisQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<RedisQueue {self.url} stream={self.stream} group={self.group}>"

    def _ensure_group(self) -> None:
        try:
            self._client.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except self._redis.exceptions.ResponseError as exc:
            if not str(exc).startswith("BUSYGROUP"):
                raise
        self._group_ready = True

    def _call(self, what: str, operation: Callable[[], T], group: bool = True) -> T:
        """Run ``operation`` with redis errors translated; a broken connection is retried once on a fresh one."""
        if self._closed:
            raise QueueError(f"{self.url}: the queue is closed")
        errors = self._redis.exceptions
        for attempt in (1, 2):
            try:
                if group and not self._group_ready:
                    self._ensure_group()
                return operation()
            except errors.TimeoutError as exc:
                raise QueueUnavailable(f"{self.url}: {what}: no answer from Redis in time "
                                       f"(connect_timeout={self.connect_timeout:g} s, timeout={self.timeout:g} s): "
                                       f"{exc}") from exc
            except (errors.AuthenticationError, errors.AuthorizationError) as exc:
                raise QueueUnavailable(f"{self.url}: {what}: Redis refused the credentials: {exc}") from exc
            except errors.ConnectionError as exc:
                if attempt == 2:
                    raise QueueUnavailable(f"{self.url}: {what}: cannot reach Redis: {exc}") from exc
            except errors.ResponseError as exc:
                # redis-py quotes the failing command of a pipeline, payload included: keep only Redis's own words.
                message = str(exc).rpartition(" of pipeline caused error: ")[2]
                if "NOGROUP" in message and attempt == 1:
                    self._group_ready = False
                    self._cursor = "0-0"
                    continue
                if isinstance(exc, getattr(errors, "OutOfMemoryError", ())) or message.startswith("OOM"):
                    raise QueueFull(f"{self.url}: {what}: Redis is out of memory: {message}") from None
                if isinstance(exc, getattr(errors, "ReadOnlyError", ())) or message.split(" ", 1)[0] in (
                        "READONLY", "LOADING", "MASTERDOWN", "CLUSTERDOWN", "BUSY", "TRYAGAIN"):
                    raise QueueUnavailable(f"{self.url}: {what}: {message}") from None
                raise QueueError(f"{self.url}: {what}: {message}") from None
            except errors.RedisError as exc:
                raise QueueError(f"{self.url}: {what}: {exc}") from exc
        raise AssertionError("unreachable")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
