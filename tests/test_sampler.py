"""The sampler (CONTRACT section 8.1): deterministic rate, always_on, a bounded buffer that never blocks, drops
counted by reason, flush; and the sample record, valid under its JSON Schema and free of what the caller may not see."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from test_properties import SOURCES, answer, contexts, invisible_ids

from guardrail import Guard, Source
from guardrail.monitor import records
from guardrail.monitor.sampler import Sampler, sampled
from guardrail.stats import wilson

SCHEMA = json.loads(records.SCHEMA_PATH.read_text())
GUARD = Guard.from_dict({"name": "s", "citations": {"coverage": "flag"}, "banned_terms": {"terms": ["BLUEJAY"]},
                         "sampling": {"rate": 0.2, "always_on": ["blocked"], "queue": "memory://"}})


class ListQueue:
    """A queue that keeps what it is given (or fails, or waits), for the sampler's own unit tests."""

    url = "test://"

    def __init__(self, fail: Exception | None = None, delay: float = 0.0):
        self.items: list[bytes] = []
        self.fail = fail
        self.delay = delay

    def put(self, payloads: Sequence[bytes]) -> None:
        if self.delay:
            time.sleep(self.delay)
        if self.fail is not None:
            raise self.fail
        self.items.extend(payloads)

    def close(self) -> None:
        pass


def sampler(queue: Any, **options: Any) -> Sampler:
    defaults: dict[str, Any] = {"rate": 1.0, "always_on": (), "buffer": 100}
    return Sampler(GUARD.compiled, GUARD.digest, queue=queue, **{**defaults, **options})


DOCS = [Source.coerce(s) for s in SOURCES]


def offer(s: Sampler, text: str = "Leave is 25 days [doc:hr-12]. Berlin [doc:fin-9].", request_id: str = "r1",
          roles: frozenset[str] = frozenset({"employee"})) -> bool:
    verdict = GUARD.check(text, DOCS, roles)
    return s.offer(text, DOCS, roles, verdict, request_id=request_id)


def test_rate_is_a_deterministic_hash_within_its_binomial_interval() -> None:
    ids = [f"req-{i}" for i in range(10_000)]
    hits = sum(sampled(i, 0.05) for i in ids)
    low, high = wilson(hits, len(ids))
    assert low <= 0.05 <= high
    assert [sampled(i, 0.05) for i in ids] == [sampled(i, 0.05) for i in ids]  # a rerun samples the same turns
    assert not any(sampled(i, 0.0) for i in ids[:100]) and all(sampled(i, 1.0) for i in ids[:100])


def test_always_on_decisions_are_sampled_whatever_the_rate() -> None:
    q = ListQueue()
    s = sampler(q, rate=0.0, always_on=["blocked"])
    assert not offer(s, "Leave is 25 days [doc:hr-12].")
    assert offer(s, "Berlin closes [doc:fin-9].")  # blocked: the caller may not see fin-9
    s.close()
    assert len(q.items) == 1 and s.stats()["enqueued"] == 1


def test_records_validate_and_carry_nothing_the_caller_may_not_see() -> None:
    q = ListQueue()
    s = sampler(q)
    offer(s, 'Leave is 25 days [doc:hr-12]. "The Berlin office will close" [doc:fin-9]. Hi!', request_id="abc")
    s.close()
    (payload,) = q.items
    record = records.decode(payload)
    jsonschema.validate(record, SCHEMA)
    assert record["request_id"] == "abc" and record["policy"] == "s" and record["policy_digest"] == GUARD.digest
    assert record["decision"] == "blocked" and "UNAUTHORIZED_SOURCE" in record["labels"]
    assert [src["id"] for src in record["sources"]] == ["hr-12"]
    assert "Berlin office will close in March" not in payload.decode()  # fin-9's text never travels
    assert '"roles"' not in payload.decode() and '"employee"' not in payload.decode()  # nor the caller's roles
    assert record["statements"][1]["invalid"] == [{"id": "fin-9", "label": "UNAUTHORIZED_SOURCE"}]
    assert [st["exempt"] for st in record["statements"]] == [False, False, True]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=answer(), ctx=contexts)
def test_every_record_validates_for_any_turn(output: str, ctx: Any) -> None:
    roles, sources = ctx
    coerced = [Source.coerce(x) for x in sources]
    verdict = GUARD.check(output, coerced, roles)
    record = records.build_record(GUARD.compiled, GUARD.digest, output, coerced, frozenset(roles), verdict,
                                  request_id="r")
    jsonschema.validate(record, SCHEMA)
    text = json.dumps(record)
    hidden = {s["id"]: s["text"] for s in sources if s["id"] in invisible_ids(ctx)}
    assert not any(t in text for t in hidden.values())
    claims, passages = records.claims_of(records.decode(records.encode(record)))
    assert len(claims) == len(record["statements"]) and set(passages) <= {s["id"] for s in sources}


def test_a_full_buffer_drops_and_counts_never_blocks() -> None:
    q = ListQueue(delay=0.2)  # a slow queue: the thread is busy, the buffer fills
    s = sampler(q, buffer=10)
    started = time.perf_counter()
    taken = sum(offer(s, request_id=f"r{i}") for i in range(1000))
    elapsed = time.perf_counter() - started
    s.close()
    stats = s.stats()
    assert taken < 1000 and stats["dropped"]["buffer_full"] == 1000 - taken
    assert stats["enqueued"] == taken == len(q.items)
    assert elapsed < 0.2 * 5  # 1,000 offers never waited on the slow queue (each check itself takes ~0.1-0.5 ms)


def test_an_unreachable_queue_drops_and_counts_and_the_drops_reach_the_next_record() -> None:
    from guardrail.monitor.queues import QueueUnavailable

    q = ListQueue(fail=QueueUnavailable("down"))
    s = sampler(q)
    assert offer(s, request_id="a")
    assert s.flush(5)
    assert s.stats()["dropped"] == {"queue_unavailable": 1}
    q.fail = None
    offer(s, request_id="b")
    s.close()
    assert [records.decode(p)["drops"] for p in q.items] == [1]


def test_offer_never_raises() -> None:
    s = sampler(ListQueue())
    assert not s.offer("x", DOCS, frozenset(), None, request_id="r")  # type: ignore[arg-type]
    assert s.stats()["dropped"] == {"error": 1}
    s.close()
    assert not offer(s)  # after close: dropped as closed
    assert s.stats()["dropped"]["closed"] == 1


def test_offers_from_many_threads_are_all_accounted_for() -> None:
    q = ListQueue()
    s = sampler(q, buffer=100_000)
    threads = [threading.Thread(target=lambda k=k: [offer(s, request_id=f"{k}-{i}") for i in range(50)])
               for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.close()
    ids = [records.decode(p)["request_id"] for p in q.items]
    assert len(ids) == len(set(ids)) == 400


@pytest.mark.parametrize("rate", [0.0, 1.0])
def test_guard_offer_uses_the_policys_sampling(rate: float) -> None:
    guard = Guard.from_dict({"citations": {}, "sampling": {"rate": rate, "queue": "memory://"}})
    assert guard.sampler is not None and guard.sampler.rate == rate
    assert Guard.from_dict({"citations": {}}).sampler is None
    assert not Guard.from_dict({"citations": {}}).offer("x", [], frozenset(), guard.check("x"))
