"""The worker: leases samples from the queue, scores them (:mod:`guardrail.scoring`) and stores the results.

Delivery is at least once and results are idempotent by sample id, so each sample is scored exactly once in the
results: a sample is acknowledged only after its result is stored, and a worker that dies mid-batch leaves its leases
to expire and be delivered to another. A sample whose scoring fails is given back and tried again; on its third
failure it is stored with status ``error`` and acknowledged (never lost, never retried forever). ``stop`` (SIGTERM)
lets the batch in flight finish.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import telemetry
from ..judges import Judge
from ..metrics import TurnSummary
from ..scoring import score_turn
from . import records

if TYPE_CHECKING:
    from .queues import Lease, Queue
    from .results import ResultRecord, ResultsStore

logger = logging.getLogger("guardrail.monitor")


@dataclass(slots=True)
class WorkerStats:
    """What a worker did so far."""

    scored: int = 0
    errors: int = 0
    retried: int = 0
    batches: int = 0


class Worker:
    """Scores samples from ``queue`` into ``results`` with ``judge``."""

    def __init__(self, queue: Queue, results: ResultsStore, judge: Judge, *, batch: int = 32, lease: float = 60.0,
                 tries: int = 3, poll: float = 0.5, on_batch: Callable[[Worker], None] | None = None):
        self.queue = queue
        self.results = results
        self.judge = judge
        self.batch = batch
        self.lease = lease
        self.tries = tries
        self.poll = poll
        self.on_batch = on_batch
        self.stats = WorkerStats()
        self.stopping = threading.Event()

    def stop(self) -> None:
        """Finish the batch in flight, then return from :meth:`run`."""
        self.stopping.set()

    def run(self, once: bool = False) -> WorkerStats:
        """Work until stopped; with ``once``, until no sample is left that another live worker has not leased."""
        while not self.stopping.is_set():
            if self.step() == 0:
                if once:
                    break
                self.stopping.wait(self.poll)
        return self.stats

    def step(self) -> int:
        """Lease, score and store one batch; how many samples it held."""
        leases = self.queue.lease(self.batch, self.lease)
        if not leases:
            return 0
        stored: list[ResultRecord] = []
        done: list[str] = []
        retry: list[str] = []
        for lease in leases:
            record, problem = self._score(lease)
            if record is not None:
                stored.append(record)
                done.append(lease.id)
            elif lease.attempts >= self.tries:
                stored.append(self._error(lease, problem))
                done.append(lease.id)
            else:
                retry.append(lease.id)
        if stored:
            self.results.put(stored)  # before the acks: a crash here redelivers, and put is idempotent
        if done:
            self.queue.ack(done)
        if retry:
            self.queue.release(retry)
        self.stats.batches += 1
        self.stats.scored += sum(1 for r in stored if r.status == "ok")
        self.stats.errors += sum(1 for r in stored if r.status == "error")
        self.stats.retried += len(retry)
        if telemetry.active():
            telemetry.queue_depth(self.queue.depth(), self.queue.url)
        if self.on_batch is not None:
            self.on_batch(self)
        return len(leases)

    def _score(self, lease: Lease) -> tuple[ResultRecord | None, str]:
        from .results import ResultRecord

        try:
            record = records.decode(lease.payload)
            claims, passages = records.claims_of(record)
            result = score_turn(claims, passages, self.judge)
        except Exception as exc:  # a bad record or a judge that raised: tried again, then stored as an error
            logger.warning("sample %s: scoring failed (attempt %d of %d): %s", lease.id, lease.attempts, self.tries,
                           exc.__class__.__name__)
            return None, f"{exc.__class__.__name__}: {exc}" if isinstance(exc, records.RecordError) \
                else exc.__class__.__name__
        summary = TurnSummary.of(record["decision"], result, policy=record["policy"],
                                 labels=tuple(record.get("labels") or ()), drops=int(record.get("drops") or 0),
                                 instructions=tuple((str(i), bool(s), bool(ls))
                                                    for i, s, ls in record.get("instructions") or ()))
        if telemetry.active():
            g, d = result.generated, result.delivered
            telemetry.evaluation_events(
                record,
                {"citation_recall": g.citation_recall, "citation_precision": g.citation_precision,
                 "delivered_citation_recall": d.citation_recall},
                {"citation_recall": f"{g.supported} of {g.statements} statements supported by their citations",
                 "citation_precision": f"{g.credited} of {g.citations} citations credited",
                 "delivered_citation_recall": f"{d.supported} of {d.statements} delivered statements supported"},
                f"{self.judge.name} {self.judge.version}")
        return ResultRecord(
            sample_id=record["sample_id"], request_id=record["request_id"], created=float(record.get("time", 0.0)),
            policy=record["policy"], policy_digest=str(record.get("policy_digest", "")), decision=record["decision"],
            status="ok", judge_name=self.judge.name, judge_version=self.judge.version,
            summary=summary.to_dict(), detail=result.to_dict(), traceparent=record.get("traceparent"),
            scored_at=time.time(),
        ), ""

    def _error(self, lease: Lease, problem: str) -> ResultRecord:
        from .results import ResultRecord

        try:
            record = records.decode(lease.payload)
        except records.RecordError:
            record = {}
        return ResultRecord(
            sample_id=str(record.get("sample_id") or f"queue:{lease.id}"),
            request_id=str(record.get("request_id") or ""), created=float(record.get("time") or time.time()),
            policy=str(record.get("policy") or "unknown"), policy_digest=str(record.get("policy_digest") or ""),
            decision=str(record.get("decision") or "pass"), status="error", judge_name=self.judge.name,
            judge_version=self.judge.version, summary={}, detail={}, error=problem or "scoring failed",
            traceparent=record.get("traceparent"), scored_at=time.time(),
        )
