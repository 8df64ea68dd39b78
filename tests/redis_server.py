"""Real Redis servers for the tests (import the fixtures into a test module: ``from redis_server import redis_url``).

- ``redis_url`` (session): ``$GUARDRAIL_TEST_REDIS_URL`` when set (CI starts redis-server and sets it), else a
  ``redis-server`` of the session's own on a free loopback port, without persistence, stopped at the end.
- ``private_redis``: a server of the test's own, which the test may stop, kill and restart (fault tests never touch
  the shared server).

Without the ``redis-server`` binary or redis-py the tests that need them are skipped, except in CI (``CI=true``),
where they fail: there a missing server is a broken setup, not an optional feature.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

import pytest

ENV = "GUARDRAIL_TEST_REDIS_URL"
START_TIMEOUT = 10.0


def unavailable(reason: str) -> NoReturn:
    """Skip the test, or fail it in CI."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the Redis tests must run)")
    pytest.skip(reason)


def require_redis_py() -> None:
    """Skip (fail in CI) when redis-py is not installed."""
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable("redis-py is not installed: pip install 'guardrail[redis]'")


def ping(host: str, port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis server answers PING at ``host:port`` (a raw socket: no client library needed)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith((b"+PONG", b"-NOAUTH"))
    except OSError:
        return False


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A ``redis-server`` process of the tests' own: loopback only, no RDB, no AOF, its files in ``directory``."""

    def __init__(self, directory: Path, binary: str | None = None) -> None:
        found = binary or shutil.which("redis-server")
        if found is None:
            unavailable("redis-server is not installed (apt-get install redis-server)")
        self.binary = str(found)
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start the server on its port (a new free port if that one was taken on the first start) and wait for it."""
        for attempt in range(3):
            log = (self.directory / "redis.log").open("ab")
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.directory), "--daemonize", "no"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and self.process.poll() is None:
                if ping("127.0.0.1", self.port):
                    return
                time.sleep(0.02)
            self.stop()
            if attempt == 0 and not ping("127.0.0.1", self.port):
                self.port = free_port()
        text = (self.directory / "redis.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"redis-server did not start on port {self.port}:\n{text}")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s) and wait until it is gone."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL the server, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        """Stop and start again on the same port (with no persistence, the data is gone)."""
        self.stop()
        self.start()

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis server URL shared by the session: ``$GUARDRAIL_TEST_REDIS_URL``, or a server started here."""
    require_redis_py()
    url = os.environ.get(ENV)
    if url:
        parts = urlsplit(url)
        if not ping(parts.hostname or "127.0.0.1", parts.port or 6379, timeout=2.0):
            pytest.fail(f"{ENV}={url}: no Redis server answers there")
        yield url
        return
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis server of this test's own, to stop, kill and restart."""
    require_redis_py()
    directory = tmp_path / "redis"
    directory.mkdir()
    with RedisServer(directory) as server:
        yield server
