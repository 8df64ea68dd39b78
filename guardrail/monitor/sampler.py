"""The sampler: the request side of the monitor (CONTRACT section 8.1). Offering a turn never waits and never raises.

On the request path, :meth:`Sampler.offer` decides (a hash of the request id against the rate, or the decision in
``always_on``) and puts the turn's raw parts into a bounded in-process buffer: constant work, no I/O, no copy of the
text. One background thread per sampler, started with the first offer, builds the sample records (segmentation,
citations, source digests) and puts them into the queue in batches. A full buffer, a full queue or an unreachable
queue drops samples and counts them by reason. :meth:`flush` (at ASGI shutdown, on SIGTERM, at interpreter exit)
moves what is buffered into the queue before the process goes.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import queue as _queue
import threading
import time
import uuid
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import telemetry
from ..models import Decision, Source, Verdict
from . import records

if TYPE_CHECKING:
    from ..compiled import CompiledPolicy
    from .queues import Queue

logger = logging.getLogger("guardrail.monitor")
_BATCH = 100


def sampled(request_id: str, rate: float) -> bool:
    """Whether ``request_id`` falls in the sampled share ``rate``: a hash, so reruns sample the same turns."""
    if rate <= 0.0:
        return False
    if rate >= 1.0:
        return True
    h = int.from_bytes(hashlib.blake2b(request_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")
    return h < rate * 18446744073709551616  # 2 ** 64


class _Turn(NamedTuple):
    output: str
    sources: Sequence[Source]
    roles: frozenset[str]
    verdict: Verdict
    request_id: str
    traceparent: str | None
    choice: int
    field: str
    created: float
    sample_id: str


class Sampler:
    """Samples the turns of one policy into one queue. Thread-safe; cheap to call from any request."""

    def __init__(self, compiled: CompiledPolicy, policy_digest: str, *, queue: str | Queue, rate: float,
                 always_on: Sequence[str] = (), buffer: int = 10_000, flush_interval: float = 0.05):
        self._compiled = compiled
        self._digest = policy_digest
        self._queue_spec = queue
        self._queue: Queue | None = None if isinstance(queue, str) else queue
        self.rate = rate
        self.always_on = frozenset(Decision(d) for d in always_on)
        self._buffer: _queue.Queue[_Turn | None] = _queue.Queue(maxsize=buffer)
        self._interval = flush_interval
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._counts: Counter[str] = Counter()
        self._drops: Counter[str] = Counter()
        self._reported = 0  # drops already carried to the results by a sample record
        self._idle = threading.Event()
        self._idle.set()
        _LIVE.add(self)

    # -------------------------------------------------------------------------------------------- request side

    def wants(self, request_id: str, decision: Decision) -> bool:
        """Whether a turn with this id and decision is sampled."""
        return decision in self.always_on or sampled(request_id, self.rate)

    def offer(self, output: str, sources: Sequence[Source], roles: frozenset[str], verdict: Verdict, *,
              request_id: str, traceparent: str | None = None, choice: int = 0, field: str = "content") -> bool:
        """Offer one complete turn; whether it was taken. Never blocks, never raises."""
        try:
            self._counts["offered"] += 1
            if not self.wants(request_id, verdict.decision):
                return False
            if self._closed:
                self._drops["closed"] += 1
                return False
            if self._thread is None:
                self._start()
            try:
                self._buffer.put_nowait(_Turn(output, sources, roles, verdict, request_id, traceparent, choice,
                                              field, time.time(), uuid.uuid4().hex))
            except _queue.Full:
                self._dropped("buffer_full")
                return False
            self._idle.clear()
            self._counts["sampled"] += 1
            return True
        except Exception:  # sampling must never fail a response
            self._drops["error"] += 1
            return False

    def stats(self) -> dict[str, Any]:
        """``{"offered", "sampled", "enqueued", "buffered", "dropped": {reason: n}}`` so far."""
        return {"offered": self._counts["offered"], "sampled": self._counts["sampled"],
                "enqueued": self._counts["enqueued"], "buffered": self._buffer.qsize(),
                "dropped": dict(self._drops)}

    # ------------------------------------------------------------------------------------------ the thread

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="guardrail-sampler", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                first = self._buffer.get(timeout=self._interval)
            except _queue.Empty:
                self._idle.set()
                if self._closed:
                    return
                continue
            batch = [first]
            while len(batch) < _BATCH:
                try:
                    batch.append(self._buffer.get_nowait())
                except _queue.Empty:
                    break
            stop = any(t is None for t in batch)
            self._send([t for t in batch if t is not None])
            if stop:
                self._idle.set()
                return
            if self._buffer.empty():
                self._idle.set()

    def _send(self, turns: list[_Turn]) -> None:
        if not turns:
            return
        payloads: list[bytes] = []
        dropped = sum(self._drops.values())
        unreported = dropped - self._reported
        for t in turns:
            try:
                record = records.build_record(self._compiled, self._digest, t.output, t.sources, t.roles, t.verdict,
                                              request_id=t.request_id, traceparent=t.traceparent, choice=t.choice,
                                              field=t.field, created=t.created, sample_id=t.sample_id,
                                              drops=0 if payloads else unreported)
                payloads.append(records.encode(record))
            except Exception:
                self._dropped("record_error")
                logger.exception("a sample record could not be built (request %s)", t.request_id)
        if not payloads:
            return
        from .queues import QueueError, QueueFull

        try:
            if self._queue is None:
                from .queues import open_queue

                self._queue = open_queue(str(self._queue_spec))
            self._queue.put(payloads)
        except QueueFull:
            self._dropped("queue_full", len(payloads))
        except QueueError as exc:
            self._dropped("queue_unavailable", len(payloads))
            logger.warning("sample queue unavailable, %d samples dropped: %s", len(payloads), exc)
        except Exception as exc:
            self._dropped("queue_unavailable", len(payloads))
            logger.warning("sample queue failed, %d samples dropped (%s)", len(payloads), exc.__class__.__name__)
        else:
            self._counts["enqueued"] += len(payloads)
            self._reported = dropped  # the first record of the batch carried the drops before it
            telemetry.sample_outcome(self._compiled.policy.name, "enqueued", len(payloads))

    def _dropped(self, reason: str, n: int = 1) -> None:
        self._drops[reason] += n
        telemetry.sample_outcome(self._compiled.policy.name, f"dropped.{reason}", n)

    # ------------------------------------------------------------------------------------------- shutdown

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until what is buffered has gone to the queue (or was dropped); whether that happened in time."""
        if self._thread is None:
            return True
        deadline = time.monotonic() + timeout
        while not (self._buffer.empty() and self._idle.is_set()):
            if time.monotonic() > deadline or not self._thread.is_alive():
                return self._buffer.empty()
            self._idle.wait(0.01)
        return True

    def close(self, timeout: float = 10.0) -> None:
        """Flush, stop the thread and close the queue. Later offers are dropped (``closed``)."""
        if self._closed:
            return
        self.flush(timeout)
        self._closed = True
        thread = self._thread
        if thread is not None:
            try:
                self._buffer.put(None, timeout=1.0)
            except _queue.Full:
                pass
            thread.join(timeout)
        if self._queue is not None and isinstance(self._queue_spec, str):
            self._queue.close()


_LIVE: weakref.WeakSet[Sampler] = weakref.WeakSet()


@atexit.register
def _flush_all() -> None:
    for sampler in list(_LIVE):
        sampler.close(timeout=5.0)


def sampler_for(compiled: CompiledPolicy, policy_digest: str) -> Sampler | None:
    """The sampler a policy's ``sampling`` section asks for, or None."""
    sampling = compiled.policy.sampling
    if sampling is None:
        return None
    return Sampler(compiled, policy_digest, queue=sampling.queue, rate=sampling.rate, always_on=sampling.always_on,
                   buffer=sampling.buffer)

