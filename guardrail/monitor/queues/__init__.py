"""Sample queues (CONTRACT section 8.2): one :class:`Queue` interface, three backends, opened by URL.

    memory://[NAME]                   in this process, shared by name (tests, the demo)    memory.MemoryQueue
    sqlite:///RELATIVE/PATH           one file on one machine, the embedded default         sqlite.SqliteQueue
    sqlite:////ABSOLUTE/PATH
    redis://[:PASSWORD@]HOST:PORT/DB  a Redis stream, for workers on many machines          redis_streams.RedisQueue
        [?stream=NAME&group=NAME&maxlen=N]

The sampler ``put``\\ s batches; workers ``lease`` up to ``n`` samples for ``visibility`` seconds, then ``ack`` the
ones whose result is stored and ``release`` the ones whose scoring failed. Delivery is at least once: a sample leased
by a worker that dies is delivered again once its lease is older than the visibility timeout, with ``attempts`` one
higher. The exception tree is in :mod:`guardrail.monitor.queues.base`.
"""

from __future__ import annotations

from typing import Any

from .base import EXPECTED_URLS, Lease, Queue, QueueError, QueueFull, QueueUnavailable, mask_url

__all__ = ["Lease", "Queue", "QueueError", "QueueFull", "QueueUnavailable", "mask_url", "open_queue"]


def open_queue(url: str, **options: Any) -> Queue:
    """The queue at ``url``; ``options`` override the URL's query keys (see each backend's module for its keys).

    Raises :class:`QueueError` for a URL or option that is not understood (naming the URL, its password masked),
    and :class:`QueueUnavailable` when a sqlite file cannot be opened. A Redis queue connects on first use.
    """
    if not isinstance(url, str):
        raise QueueError(f"a queue URL is a string, not {type(url).__name__}: expected {EXPECTED_URLS}")
    scheme = url.partition("://")[0] if "://" in url else ""
    if scheme == "memory":
        from .memory import MemoryQueue

        return MemoryQueue.open(url, **options)
    if scheme == "sqlite":
        from .sqlite import SqliteQueue

        return SqliteQueue(url, **options)
    if scheme in ("redis", "rediss"):
        from .redis_streams import RedisQueue

        return RedisQueue(url, **options)
    raise QueueError(f"unknown queue URL {mask_url(url)!r}: expected {EXPECTED_URLS}")
