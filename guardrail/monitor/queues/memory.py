"""``memory://[NAME]``: a queue inside this process, for tests and the demo.

One queue per name and process: opening the same name again returns the same object, so a sampler and an in-process
worker that each open the policy's ``memory://`` URL share it. Its options (``max_depth``, ``block``) are those of the
first open. :meth:`MemoryQueue.close` therefore keeps the samples (another holder may still use them); they live as
long as the process. Thread-safe; deadlines use the monotonic clock.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any, ClassVar

from .base import Lease, QueueError, QueueFull, check_lease_args, check_payloads, positive_int, resolve_options, seconds
from .base import split_query as _split_query

OPTIONS = {"max_depth": positive_int, "block": seconds}
DEFAULTS: dict[str, Any] = {"max_depth": None, "block": 0.0}


class MemoryQueue:
    """An in-process queue; use :meth:`open` (or :func:`~guardrail.monitor.queues.open_queue`) to share it by name."""

    _registry: ClassVar[dict[str, MemoryQueue]] = {}
    _registry_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str = "memory://", *, max_depth: int | None = None, block: float = 0.0) -> None:
        self.url = url
        self.max_depth = max_depth
        self.block = block
        self._ready: deque[int] = deque()  # available ids, oldest (or given back) first
        self._samples: dict[int, tuple[bytes, int]] = {}  # id -> (payload, deliveries so far)
        self._leased: dict[int, float] = {}  # id -> monotonic deadline
        self._deadlines: list[tuple[float, int]] = []  # heap over _leased; stale entries skipped when popped
        self._ids = itertools.count(1)
        self._changed = threading.Condition(threading.Lock())

    @classmethod
    def open(cls, url: str, **options: Any) -> MemoryQueue:
        """The queue named by ``url`` in this process, created with ``options`` the first time."""
        if not url.startswith("memory://"):
            raise QueueError(f"{url}: not a memory:// URL")
        base, query = _split_query(url)
        settings = resolve_options(url, query, options, OPTIONS, DEFAULTS)
        key = base[len("memory://"):]
        with cls._registry_lock:
            queue = cls._registry.get(key)
            if queue is None:
                queue = cls._registry[key] = cls(url, **settings)
            return queue

    def put(self, payloads: Sequence[bytes]) -> None:
        """Enqueue the batch, or raise :class:`QueueFull` and enqueue none of it."""
        batch = check_payloads(payloads)
        if not batch:
            return
        with self._changed:
            if self.max_depth is not None and len(self._samples) + len(batch) > self.max_depth:
                raise QueueFull(f"{self.url}: {len(self._samples)} samples queued, max_depth is {self.max_depth}")
            for payload in batch:
                sample_id = next(self._ids)
                self._samples[sample_id] = (payload, 0)
                self._ready.append(sample_id)
            self._changed.notify_all()

    def lease(self, n: int, visibility: float) -> list[Lease]:
        """Up to ``n`` samples: expired leases first, then given-back and new ones in order."""
        check_lease_args(n, visibility)
        if n == 0:
            return []
        end = time.monotonic() + self.block
        with self._changed:
            while True:
                now = time.monotonic()
                self._expire(now)
                if self._ready or now >= end:
                    break
                wait = end - now
                if self._deadlines:
                    wait = min(wait, max(self._deadlines[0][0] - now, 0.001))
                self._changed.wait(wait)
            leases: list[Lease] = []
            deadline = now + visibility
            while self._ready and len(leases) < n:
                sample_id = self._ready.popleft()
                payload, attempts = self._samples[sample_id]
                attempts += 1
                self._samples[sample_id] = (payload, attempts)
                self._leased[sample_id] = deadline
                heapq.heappush(self._deadlines, (deadline, sample_id))
                leases.append(Lease(str(sample_id), payload, attempts))
            return leases

    def _expire(self, now: float) -> None:
        expired = []
        while self._deadlines and self._deadlines[0][0] <= now:
            deadline, sample_id = heapq.heappop(self._deadlines)
            if self._leased.get(sample_id) == deadline:
                del self._leased[sample_id]
                expired.append(sample_id)
        self._ready.extendleft(sorted(expired, reverse=True))

    def ack(self, ids: Sequence[str]) -> None:
        """Forget the samples."""
        with self._changed:
            for sample_id in map(_parse_id, ids):
                self._samples.pop(sample_id, None)
                self._leased.pop(sample_id, None)

    def release(self, ids: Sequence[str]) -> None:
        """Make leased samples available again, ahead of the others."""
        with self._changed:
            given_back = [sample_id for sample_id in map(_parse_id, ids) if self._leased.pop(sample_id, None)]
            self._ready.extendleft(reversed(given_back))
            if given_back:
                self._changed.notify_all()

    def depth(self) -> int:
        """Samples waiting or leased."""
        with self._changed:
            return len(self._samples)

    def close(self) -> None:
        """Nothing to let go of: the queue and its samples stay for the other holders of its name."""

    def __repr__(self) -> str:
        return f"<MemoryQueue {self.url} depth={len(self._samples)}>"


def _parse_id(sample_id: str) -> int:
    try:
        return int(sample_id)
    except ValueError:
        raise QueueError(f"{sample_id!r} is not a lease id of a memory:// queue") from None
