"""The sample queues (guardrail.monitor.queues) against real backends: one contract for memory, sqlite and Redis,
then worker processes sharing a queue, a worker killed mid-lease, a Redis server going away, URLs and options."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis_server import RedisServer, private_redis, redis_url  # noqa: F401 -- fixtures

from guardrail.exceptions import GuardrailError
from guardrail.monitor.queues import Lease, Queue, QueueError, QueueFull, QueueUnavailable, mask_url, open_queue
from guardrail.monitor.queues.memory import MemoryQueue
from guardrail.monitor.queues.redis_streams import RELEASED_IDLE_MS, RedisQueue
from guardrail.monitor.queues.sqlite import SqliteQueue

BACKENDS = ("memory", "sqlite", "redis")
DURABLE = ("sqlite", "redis")
LONG = 60.0  # a visibility no test outlives


def with_query(url: str, **keys: object) -> str:
    """``url`` with ``keys`` added to its query."""
    query = "&".join(f"{key}={value}" for key, value in keys.items())
    return f"{url}{'&' if '?' in url else '?'}{query}"


def make_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path, **keys: object) -> str:
    """A fresh, empty queue of ``backend``: a new memory name, a new sqlite file, a new Redis stream (deleted after)."""
    if backend == "memory":
        url = f"memory://test-{uuid.uuid4().hex}"
    elif backend == "sqlite":
        url = f"sqlite:///{tmp_path / f'queue-{uuid.uuid4().hex[:8]}.db'}"
    else:
        server = request.getfixturevalue("redis_url")
        stream = f"guardrail:test:{uuid.uuid4().hex}"
        url = with_query(server, stream=stream)
        request.addfinalizer(lambda: _delete_stream(server, stream))
    return with_query(url, **keys) if keys else url


def _delete_stream(server: str, stream: str) -> None:
    import redis

    client = redis.Redis.from_url(server)
    client.delete(stream)
    client.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def queue_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return make_url(backend, request, tmp_path)


@pytest.fixture
def queue(queue_url: str) -> Iterator[Queue]:
    q = open_queue(queue_url)
    yield q
    q.close()


@pytest.fixture
def other(queue_url: str) -> Iterator[Queue]:
    """A second handle on the same queue: another worker (for memory://, the same shared object)."""
    q = open_queue(queue_url)
    yield q
    q.close()


def payloads(leases: list[Lease]) -> list[bytes]:
    return [lease.payload for lease in leases]


def ids(leases: list[Lease]) -> list[str]:
    return [lease.id for lease in leases]


# -- the contract, on every backend ------------------------------------------------------------------------------------


def test_put_lease_ack(queue: Queue) -> None:
    assert isinstance(queue, Queue)
    queue.put([b"one", b"two", b"three"])
    assert queue.depth() == 3
    leases = queue.lease(10, LONG)
    assert payloads(leases) == [b"one", b"two", b"three"]
    assert [lease.attempts for lease in leases] == [1, 1, 1]
    assert len(set(ids(leases))) == 3 and all(isinstance(i, str) for i in ids(leases))
    assert queue.depth() == 3
    queue.ack(ids(leases))
    assert queue.depth() == 0
    assert queue.lease(10, LONG) == []


def test_order_is_put_order(queue: Queue) -> None:
    sent = [f"sample {i}".encode() for i in range(60)]
    for start in range(0, 60, 12):
        queue.put(sent[start:start + 12])
    got: list[bytes] = []
    while leases := queue.lease(7, LONG):
        got += payloads(leases)
        queue.ack(ids(leases))
    assert got == sent


def test_lease_returns_at_most_n(queue: Queue) -> None:
    queue.put([bytes([i]) for i in range(25)])
    assert [len(queue.lease(10, LONG)) for _ in range(4)] == [10, 10, 5, 0]
    assert queue.lease(0, LONG) == []
    assert queue.depth() == 25


def test_nothing_is_delivered_twice_while_leased(queue: Queue, other: Queue) -> None:
    queue.put([f"{i}".encode() for i in range(40)])
    seen: list[bytes] = []
    for turn in range(20):
        seen += payloads((queue if turn % 2 else other).lease(3, LONG))
    assert sorted(seen, key=int) == [f"{i}".encode() for i in range(40)]
    assert queue.lease(10, LONG) == [] and other.lease(10, LONG) == []


def test_an_expired_lease_is_delivered_again_with_one_more_attempt(queue: Queue, other: Queue) -> None:
    queue.put([b"a", b"b"])
    first = queue.lease(2, 0.5)
    assert [lease.attempts for lease in first] == [1, 1]
    assert other.lease(2, 0.5) == []
    time.sleep(0.7)
    again = other.lease(2, 0.5)
    assert [(lease.id, lease.payload, lease.attempts) for lease in again] == [(lease.id, lease.payload, 2)
                                                                             for lease in first]
    time.sleep(0.7)
    assert [lease.attempts for lease in queue.lease(2, 0.5)] == [3, 3]


def test_release_makes_a_sample_available_at_once(queue: Queue, other: Queue) -> None:
    queue.put([b"fails", b"works", b"later"])
    leased = queue.lease(2, LONG)
    queue.release([leased[0].id])
    assert queue.depth() == 3
    again = other.lease(5, LONG)
    assert [(lease.id, lease.payload, lease.attempts) for lease in again] == [(leased[0].id, b"fails", 2),
                                                                             (again[1].id, b"later", 1)]
    other.release([again[0].id])
    assert [(lease.payload, lease.attempts) for lease in queue.lease(5, LONG)] == [(b"fails", 3)]
    queue.release([])


def test_ack_removes_a_sample_for_good(queue: Queue) -> None:
    queue.put([b"done", b"kept"])
    leases = queue.lease(2, 0.2)
    queue.ack([leases[0].id])
    queue.ack([leases[0].id])  # twice: nothing happens
    queue.release([leases[0].id])  # given back after the ack: nothing happens either
    time.sleep(0.3)
    assert [(lease.payload, lease.attempts) for lease in queue.lease(5, 0.2)] == [(b"kept", 2)]
    assert queue.depth() == 1
    queue.ack([])


def test_depth_counts_waiting_and_leased(queue: Queue) -> None:
    assert queue.depth() == 0
    queue.put([b"x"] * 5)
    leases = queue.lease(2, LONG)
    assert queue.depth() == 5
    queue.ack([leases[0].id])
    assert queue.depth() == 4
    queue.release([leases[1].id])
    assert queue.depth() == 4


def test_an_empty_lease_returns_at_once(queue: Queue) -> None:
    start = time.perf_counter()
    for _ in range(5):
        assert queue.lease(10, LONG) == []
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_block_waits_a_little_for_samples(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url = make_url(backend, request, tmp_path, block=0.3)
    queue = open_queue(url)
    start = time.perf_counter()
    assert queue.lease(10, LONG) == []
    assert 0.25 <= time.perf_counter() - start < 2.0
    queue.close()
    url = make_url(backend, request, tmp_path, block=3.0)
    waiting = open_queue(url)
    producer = open_queue(url)
    timer = threading.Timer(0.2, lambda: producer.put([b"late"]))
    timer.start()
    start = time.perf_counter()
    assert payloads(waiting.lease(10, LONG)) == [b"late"]
    assert time.perf_counter() - start < 2.0
    timer.join()
    waiting.close()
    producer.close()


def test_payload_bytes_are_kept_exactly(queue: Queue) -> None:
    sent = [bytes(range(256)), b"", b"\x00" * 17, b"\xff\xfe\x80 not utf-8 \xc3", "naïve ✓ 🤖".encode(),
            os.urandom(1 << 20), os.urandom(3 * (1 << 20) // 2)]
    queue.put(sent)
    got = queue.lease(len(sent), LONG)
    assert payloads(got) == sent
    assert all(type(lease.payload) is bytes for lease in got)


def test_put_takes_bytes_like_payloads_only(queue: Queue) -> None:
    queue.put([bytearray(b"array"), memoryview(b"view")])  # type: ignore[list-item]
    queue.put([])
    assert payloads(queue.lease(5, LONG)) == [b"array", b"view"]
    with pytest.raises(TypeError, match="bytes, not str"):
        queue.put(["text"])  # type: ignore[list-item]
    assert queue.depth() == 2


def test_lease_arguments_are_checked(queue: Queue) -> None:
    with pytest.raises(ValueError, match="n must be >= 0"):
        queue.lease(-1, LONG)
    for visibility in (0, -1, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="visibility"):
            queue.lease(1, visibility)


def test_errors_are_guardrail_errors() -> None:
    assert issubclass(QueueUnavailable, QueueError) and issubclass(QueueFull, QueueError)
    assert issubclass(QueueError, GuardrailError)


# -- memory:// ---------------------------------------------------------------------------------------------------------


def test_memory_queues_are_shared_by_name() -> None:
    name = f"memory://shared-{uuid.uuid4().hex}"
    first = open_queue(name, max_depth=10)
    assert open_queue(name) is first
    assert open_queue(with_query(name, block=1)) is first  # the options of the first open stay
    assert isinstance(first, MemoryQueue) and first.block == 0
    assert open_queue(f"memory://other-{uuid.uuid4().hex}") is not first
    first.put([b"kept"])
    first.close()  # another holder may still use it
    assert payloads(open_queue(name).lease(1, LONG)) == [b"kept"]


def test_memory_queue_is_thread_safe() -> None:
    queue = open_queue(f"memory://threads-{uuid.uuid4().hex}")
    got: list[bytes] = []
    lock = threading.Lock()

    def produce(k: int) -> None:
        for i in range(50):
            queue.put([f"{k}-{i}-{j}".encode() for j in range(4)])

    def consume() -> None:
        idle = 0
        while idle < 50:
            leases = queue.lease(7, LONG)
            idle = 0 if leases else idle + 1
            with lock:
                got.extend(payloads(leases))
            queue.ack(ids(leases))
            time.sleep(0 if leases else 0.002)

    threads = [threading.Thread(target=produce, args=(k,)) for k in range(3)]
    threads += [threading.Thread(target=consume) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 600 and len(set(got)) == 600
    assert queue.depth() == 0


# -- max_depth ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ("memory", "sqlite"), indirect=True)
def test_max_depth_refuses_a_batch_that_does_not_fit(backend: str, request: pytest.FixtureRequest,
                                                     tmp_path: Path) -> None:
    queue = open_queue(make_url(backend, request, tmp_path, max_depth=5))
    queue.put([b"1", b"2", b"3"])
    with pytest.raises(QueueFull, match="3 samples queued, max_depth is 5"):
        queue.put([b"4", b"5", b"6"])
    assert queue.depth() == 3  # none of the refused batch
    queue.put([b"4", b"5"])
    leases = queue.lease(2, LONG)
    queue.ack(ids(leases))
    queue.put([b"6", b"7"])
    assert queue.depth() == 5
    queue.close()


def test_redis_has_maxlen_not_max_depth() -> None:
    pytest.importorskip("redis")
    with pytest.raises(QueueError, match="unknown option 'max_depth'"):
        open_queue("redis://127.0.0.1:6379/0", max_depth=5)


# -- sqlite:// ---------------------------------------------------------------------------------------------------------


def test_sqlite_relative_path_is_under_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    queue = open_queue("sqlite:///.guardrail/queue.db")
    assert isinstance(queue, SqliteQueue)
    assert queue.path == tmp_path / ".guardrail" / "queue.db"
    assert queue.url == "sqlite:///.guardrail/queue.db"
    queue.put([b"x"])
    queue.close()
    with sqlite3.connect(tmp_path / ".guardrail" / "queue.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        columns = [row[1] for row in db.execute("PRAGMA table_info(samples)")]
        assert columns == ["id", "payload", "enqueued", "leased_until", "attempts", "worker"]
    db.close()
    absolute = open_queue(f"sqlite:///{tmp_path / 'deep' / 'er' / 'q.db'}")
    assert isinstance(absolute, SqliteQueue) and absolute.path == tmp_path / "deep" / "er" / "q.db"
    assert absolute.path.exists()
    absolute.close()


def test_sqlite_ids_are_never_reused(tmp_path: Path) -> None:
    queue = open_queue(f"sqlite:///{tmp_path / 'q.db'}")
    queue.put([b"a", b"b"])
    first = queue.lease(2, LONG)
    queue.ack(ids(first))
    queue.put([b"c"])
    assert queue.lease(1, LONG)[0].id not in ids(first)
    queue.close()


def test_sqlite_survives_reopening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'q.db'}"
    queue = open_queue(url)
    queue.put([b"durable", b"leased"])
    queue.lease(1, 0.2)
    queue.close()
    with pytest.raises(QueueError, match="closed"):
        queue.put([b"late"])
    time.sleep(0.3)
    reopened = open_queue(url)
    assert [(lease.payload, lease.attempts) for lease in reopened.lease(5, LONG)] == [(b"durable", 2),
                                                                                     (b"leased", 1)]
    reopened.close()


def test_sqlite_threads_share_one_queue_object(tmp_path: Path) -> None:
    queue = open_queue(f"sqlite:///{tmp_path / 'q.db'}")
    queue.put([f"{i}".encode() for i in range(400)])
    got: list[bytes] = []
    lock = threading.Lock()

    def consume() -> None:
        while leases := queue.lease(9, LONG):
            with lock:
                got.extend(payloads(leases))
            queue.ack(ids(leases))

    threads = [threading.Thread(target=consume) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(got, key=int) == [f"{i}".encode() for i in range(400)]
    queue.close()


def test_sqlite_locked_too_long_is_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    queue = open_queue(f"sqlite:///{path}", busy_timeout=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    start = time.perf_counter()
    with pytest.raises(QueueUnavailable, match=r"locked for more than 0\.2 s"):
        queue.put([b"x"])
    assert time.perf_counter() - start < 2
    holder.execute("ROLLBACK")
    holder.close()
    queue.put([b"x"])
    assert queue.depth() == 1
    queue.close()


def test_sqlite_unopenable_path_is_unavailable(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(QueueUnavailable, match="cannot open"):
        open_queue(f"sqlite:///{tmp_path / 'file' / 'q.db'}")


def test_sqlite_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "q.db").write_bytes(b"this is not a sqlite database, not at all" * 100)
    with pytest.raises(QueueError, match="not a database"):
        open_queue(f"sqlite:///{tmp_path / 'q.db'}")


def test_sqlite_release_by_a_worker_that_lost_the_lease_does_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'q.db'}"
    slow, fast, third = open_queue(url), open_queue(url), open_queue(url)
    slow.put([b"x"])
    (stale,) = slow.lease(1, 0.2)
    time.sleep(0.3)
    assert ids(fast.lease(1, LONG)) == [stale.id]
    slow.release([stale.id])  # too late: the sample is fast's now
    assert third.lease(1, LONG) == []
    for q in (slow, fast, third):
        q.close()


# -- redis:// ----------------------------------------------------------------------------------------------------------


@pytest.fixture
def redis_queue_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return make_url("redis", request, tmp_path)


def test_redis_attempts_are_the_delivery_counter(redis_queue_url: str) -> None:
    import redis

    queue = open_queue(redis_queue_url)
    assert isinstance(queue, RedisQueue)
    queue.put([b"x"])
    (lease,) = queue.lease(1, LONG)
    queue.release([lease.id])
    client = redis.Redis.from_url(redis_queue_url.partition("?")[0])
    (pending,) = client.xpending_range(queue.stream, queue.group, "-", "+", 10)
    assert pending["times_delivered"] == 1  # release does not count a delivery
    assert int(pending["time_since_delivered"]) >= RELEASED_IDLE_MS
    (again,) = queue.lease(1, LONG)
    (pending,) = client.xpending_range(queue.stream, queue.group, "-", "+", 10)
    assert again.attempts == pending["times_delivered"] == 2
    queue.ack([again.id])
    assert client.xlen(queue.stream) == 0  # acknowledged entries are deleted
    client.close()
    queue.close()


def test_redis_samples_put_before_any_worker_are_leased(redis_queue_url: str) -> None:
    producer = open_queue(redis_queue_url)
    producer.put([b"early"])  # the stream exists now, the group not yet
    producer.close()
    worker = open_queue(redis_queue_url)
    assert payloads(worker.lease(5, LONG)) == [b"early"]
    worker.close()


def test_redis_consumer_names_and_leaving_the_group(redis_queue_url: str) -> None:
    import redis

    idle, busy = open_queue(redis_queue_url), open_queue(redis_queue_url)
    assert isinstance(idle, RedisQueue) and isinstance(busy, RedisQueue)
    host, pid, suffix = idle.consumer.rsplit("-", 2)
    assert pid == str(os.getpid()) and len(suffix) == 6 and host
    assert idle.consumer != busy.consumer
    busy.put([b"x", b"y"])
    assert len(busy.lease(1, LONG)) == 1
    done = idle.lease(1, LONG)
    idle.ack(ids(done))  # idle is a consumer of the group now, holding nothing
    client = redis.Redis.from_url(redis_queue_url.partition("?")[0], decode_responses=True)
    names = {c["name"] for c in client.xinfo_consumers(idle.stream, idle.group)}
    assert {idle.consumer, busy.consumer} <= names
    idle.close()
    busy.close()  # still holds a lease: stays in the group so that the lease can expire and be reclaimed
    names = {c["name"] for c in client.xinfo_consumers(idle.stream, idle.group)}
    assert busy.consumer in names and idle.consumer not in names
    client.close()


def test_redis_release_by_a_worker_that_lost_the_lease_does_nothing(redis_queue_url: str) -> None:
    slow, fast, third = (open_queue(redis_queue_url) for _ in range(3))
    slow.put([b"x"])
    (stale,) = slow.lease(1, 0.2)
    time.sleep(0.3)
    (current,) = fast.lease(1, 0.2)
    assert current.id == stale.id and current.attempts == 2
    slow.release([stale.id])  # too late: the entry is fast's now
    assert third.lease(1, LONG) == []
    for q in (slow, fast, third):
        q.close()


def test_redis_group_that_vanished_is_created_again(redis_queue_url: str) -> None:
    import redis

    queue = open_queue(redis_queue_url)
    assert isinstance(queue, RedisQueue)
    queue.put([b"before"])
    assert len(queue.lease(1, LONG)) == 1
    client = redis.Redis.from_url(redis_queue_url.partition("?")[0])
    client.delete(queue.stream)
    client.close()
    queue.put([b"after"])
    assert payloads(queue.lease(5, LONG)) == [b"after"]
    queue.close()


def test_redis_options_from_the_url() -> None:
    pytest.importorskip("redis")
    queue = open_queue("redis://:pw@127.0.0.1:6390/3?stream=s&group=g&maxlen=500&block=0.5&timeout=3"
                       "&connect_timeout=1")
    assert isinstance(queue, RedisQueue)
    assert (queue.stream, queue.group, queue.maxlen, queue.block, queue.timeout, queue.connect_timeout) == (
        "s", "g", 500, 0.5, 3.0, 1.0)
    assert queue.url == "redis://:***@127.0.0.1:6390/3?stream=s&group=g&maxlen=500&block=0.5&timeout=3" \
                        "&connect_timeout=1"
    queue.close()
    default = open_queue("redis://127.0.0.1:6390/0", consumer="worker-a")
    assert isinstance(default, RedisQueue)
    assert (default.stream, default.group, default.maxlen, default.block, default.consumer) == (
        "guardrail:samples", "guardrail-workers", 1_000_000, 0.0, "worker-a")
    default.close()


# -- worker processes --------------------------------------------------------------------------------------------------


def drain(url: str, producing: Any, out: Any, batch: int) -> None:
    """A worker process: lease, record, ack, until the producer is done and the queue is empty."""
    queue = open_queue(url)
    got: list[bytes] = []
    while True:
        leases = queue.lease(batch, LONG)
        if leases:
            got += payloads(leases)
            queue.ack(ids(leases))
        elif not producing.is_set() and queue.depth() == 0:
            break
        else:
            time.sleep(0.005)
    queue.close()
    out.put((os.getpid(), got))


@pytest.mark.parametrize("backend", DURABLE, indirect=True)
def test_worker_processes_get_every_sample_exactly_once(queue_url: str) -> None:
    context = multiprocessing.get_context("spawn")
    producing, out = context.Event(), context.Queue()
    producing.set()
    producer = open_queue(queue_url)
    producer.put([f"{i}".encode() for i in range(300)])
    workers = [context.Process(target=drain, args=(queue_url, producing, out, 13)) for _ in range(3)]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + 60
    while producer.depth() == 300 and time.monotonic() < deadline:  # produce the rest while they consume
        time.sleep(0.01)
    for start in range(300, 1500, 50):
        producer.put([f"{i}".encode() for i in range(start, start + 50)])
        time.sleep(0.002)
    producing.clear()
    results = [out.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(30)
        assert worker.exitcode == 0
    counts = Counter(payload for _, got in results for payload in got)
    assert sorted(counts, key=int) == [f"{i}".encode() for i in range(1500)]
    assert set(counts.values()) == {1}
    assert producer.depth() == 0
    producer.close()


HOLDER = """
import sys, time
from guardrail.monitor.queues import open_queue
queue = open_queue(sys.argv[1])
print(" ".join(lease.id for lease in queue.lease(int(sys.argv[2]), float(sys.argv[3]))), flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("backend", DURABLE, indirect=True)
def test_leases_of_a_killed_worker_are_delivered_after_the_visibility_timeout(queue: Queue, queue_url: str) -> None:
    queue.put([b"a", b"b", b"c", b"d"])
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, queue_url, "3", "1.5"], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None
        held = holder.stdout.readline().decode().split()
        leased_at = time.monotonic()
        assert len(held) == 3
        os.kill(holder.pid, signal.SIGKILL)
        assert holder.wait(10) == -signal.SIGKILL
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    early = queue.lease(10, 1.5)
    assert payloads(early) == [b"d"]  # the dead worker's leases are not due yet
    queue.ack(ids(early))
    time.sleep(max(0.0, leased_at + 1.7 - time.monotonic()))
    late = queue.lease(10, 1.5)
    assert ids(late) == held
    assert [(lease.payload, lease.attempts) for lease in late] == [(b"a", 2), (b"b", 2), (b"c", 2)]
    queue.ack(ids(late))
    assert queue.depth() == 0


# -- Redis going away --------------------------------------------------------------------------------------------------


def test_redis_down_is_unavailable_quickly_and_the_queue_recovers(private_redis: RedisServer) -> None:  # noqa: F811
    queue = open_queue(private_redis.url)
    queue.put([b"before"])
    assert payloads(queue.lease(5, LONG)) == [b"before"]
    private_redis.stop()
    for operation in (lambda: queue.put([b"lost"]), lambda: queue.lease(5, LONG), queue.depth,
                      lambda: queue.ack(["1-0"]), lambda: queue.release(["1-0"])):
        start = time.perf_counter()
        with pytest.raises(QueueUnavailable, match="cannot reach Redis"):
            operation()
        assert time.perf_counter() - start < 3.0
    private_redis.start()  # same port, no persistence: an empty server
    queue.put([b"after"])
    assert payloads(queue.lease(5, LONG)) == [b"after"]
    assert queue.depth() == 1
    private_redis.kill()
    with pytest.raises(QueueUnavailable):
        queue.put([b"crash"])
    private_redis.start()
    queue.put([b"again"])
    assert payloads(queue.lease(5, LONG)) == [b"again"]
    queue.close()


def test_redis_server_that_never_answers_times_out() -> None:
    pytest.importorskip("redis")
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)  # connections are accepted by the kernel and never answered
        port = silent.getsockname()[1]
        queue = open_queue(f"redis://127.0.0.1:{port}/0", timeout=0.5, connect_timeout=0.5)
        start = time.perf_counter()
        with pytest.raises(QueueUnavailable, match="no answer from Redis in time"):
            queue.put([b"x"])
        assert time.perf_counter() - start < 2.0
        queue.close()


def test_redis_refused_connection_is_unavailable_within_the_default_timeouts() -> None:
    pytest.importorskip("redis")
    from redis_server import free_port

    queue = open_queue(f"redis://:hunter2@127.0.0.1:{free_port()}/0")
    start = time.perf_counter()
    with pytest.raises(QueueUnavailable) as raised:
        queue.put([b"x"])
    assert time.perf_counter() - start < 3.0
    assert "hunter2" not in str(raised.value) and ":***@" in str(raised.value)
    queue.close()
    with pytest.raises(QueueError, match="closed"):
        queue.put([b"x"])


# -- URLs, options, the redis extra ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "message"), [
    ("", "unknown queue URL '': expected memory://"),
    ("queue.db", "unknown queue URL 'queue.db': expected memory://"),
    ("http://localhost/queue", "unknown queue URL 'http://localhost/queue'"),
    ("postgresql://u:secret@db/q", r"unknown queue URL 'postgresql://u:\*\*\*@db/q'"),
    ("sqlite://queue.db", "expected sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH"),
    ("sqlite:///", "no file name"),
    ("sqlite:///dir/", "no file name"),
    ("sqlite:///:memory:", "for a queue inside one process use memory://"),
    ("sqlite:///q.db?max_depth=0", r"query key max_depth='0': expected an integer >= 1"),
    ("sqlite:///q.db?max_depth=many", r"query key max_depth='many': expected an integer >= 1"),
    ("sqlite:///q.db?busy_timeout=0", r"busy_timeout='0': expected a number of seconds > 0"),
    ("sqlite:///q.db?maxlen=5", r"unknown query key 'maxlen': expected one of max_depth, busy_timeout, block"),
    ("sqlite:///q.db?block=1&block=2", "the query key 'block' is given twice"),
    ("memory://x?block=-1", r"block='-1': expected a number of seconds >= 0"),
    ("memory://x?stream=s", "unknown query key 'stream'"),
    ("redis://host:port/0", "the port is not a number"),
    ("redis://host:6379/zero", "the database is not a number"),
    ("redis://host:6379/0/1", "the database is not a number"),
    ("redis:///0", "no host"),
    ("redis://host:6379/0?maxlen=-3", r"maxlen='-3': expected an integer >= 1"),
    ("redis://host:6379/0?block=9", "block=9 must be shorter than timeout=5"),
    ("redis://:s3cret@host:6379/0?stream=", r"redis://:\*\*\*@host:6379/0\?stream=: query key stream='': expected a"),
    ("redis://user:s3cret@host:6379/0?bogus=1", r"redis://user:\*\*\*@host:6379/0\?bogus=1: unknown query key 'bogus'"),
])
def test_bad_urls_name_the_url_and_what_is_expected(url: str, message: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if url.startswith("redis"):
        pytest.importorskip("redis")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(QueueError, match=message) as raised:
        open_queue(url)
    assert "s3cret" not in str(raised.value) and "secret" not in str(raised.value)


def test_bad_options_are_refused(tmp_path: Path) -> None:
    with pytest.raises(QueueError, match="unknown option 'visibility'"):
        open_queue(f"sqlite:///{tmp_path / 'q.db'}", visibility=3)
    with pytest.raises(QueueError, match=r"option max_depth=2.5: expected an integer >= 1"):
        open_queue(f"memory://{uuid.uuid4().hex}", max_depth=2.5)
    with pytest.raises(QueueError, match="a queue URL is a string"):
        open_queue(Path("q.db"))  # type: ignore[arg-type]


def test_options_override_query_keys(tmp_path: Path) -> None:
    queue = open_queue(f"sqlite:///{tmp_path / 'q.db'}?max_depth=5&block=0.5", max_depth=7)
    assert isinstance(queue, SqliteQueue) and (queue.max_depth, queue.block) == (7, 0.5)
    queue.close()


def test_missing_redis_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # `import redis` now raises ImportError
    with pytest.raises(QueueError, match=r"needs redis-py, which is not installed: pip install 'guardrail\[redis\]'") \
            as raised:
        open_queue("redis://:topsecret@localhost:6379/0")
    assert "topsecret" not in str(raised.value)


@pytest.mark.parametrize(("url", "masked"), [
    ("redis://:pw@host:6379/0", "redis://:***@host:6379/0"),
    ("redis://user:pw@host:6379/0", "redis://user:***@host:6379/0"),
    ("rediss://user:p%40ss@host/0?stream=s", "rediss://user:***@host/0?stream=s"),
    ("redis://user@host:6379/0", "redis://user@host:6379/0"),
    ("redis://host:6379/0?password=pw&stream=s", "redis://host:6379/0?password=***&stream=s"),
    ("sqlite:///q.db", "sqlite:///q.db"),
    ("memory://", "memory://"),
])
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_redis_out_of_memory_is_queue_full(private_redis: RedisServer) -> None:  # noqa: F811
    import redis

    client = redis.Redis.from_url(private_redis.url)
    used = int(client.info("memory")["used_memory"])
    client.config_set("maxmemory", used + (2 << 20))
    client.config_set("maxmemory-policy", "noeviction")
    queue = open_queue(private_redis.url)
    secret = b"SECRET-CONTENT-" * 40_000
    depth = 0
    with pytest.raises(QueueFull, match="Redis is out of memory") as raised:
        for _ in range(20):
            queue.put([secret, secret])
            depth += 2
    assert queue.depth() == depth  # none of the refused batch
    assert b"SECRET" not in str(raised.value).encode() and raised.value.__cause__ is None
    client.config_set("maxmemory", 0)
    queue.put([b"small"])
    assert queue.depth() == depth + 1
    client.close()
    queue.close()


def test_redis_dead_consumers_without_pending_entries_are_removed(redis_queue_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    from guardrail.monitor.queues import redis_streams

    empty, holding, worker = (open_queue(redis_queue_url) for _ in range(3))
    assert isinstance(empty, RedisQueue) and isinstance(holding, RedisQueue) and isinstance(worker, RedisQueue)
    empty.put([b"done", b"held"])
    empty.ack(ids(empty.lease(1, LONG)))  # consumed and gone: no pending entries
    assert len(holding.lease(1, LONG)) == 1  # dies holding a lease
    monkeypatch.setattr(redis_streams, "PRUNE_EVERY", 0.0)
    monkeypatch.setattr(redis_streams, "DEAD_CONSUMER_IDLE_MS", 100)
    time.sleep(0.2)
    assert worker.lease(1, LONG) == []
    client = redis.Redis.from_url(redis_queue_url.partition("?")[0], decode_responses=True)
    names = {c["name"] for c in client.xinfo_consumers(worker.stream, worker.group)}
    assert holding.consumer in names and empty.consumer not in names
    client.close()
    for q in (empty, holding, worker):
        q.close()
