"""A PostgreSQL server for the tests and benchmarks: the one at ``GUARDRAIL_TEST_POSTGRES_URL`` when it is set, else
a private, throwaway cluster started here and stopped at the end.

The private cluster is Debian's (or any) ``initdb`` and ``pg_ctl`` (from ``/usr/lib/postgresql/*/bin``, the newest,
else ``PATH``) on a temporary directory, listening on a free port of 127.0.0.1 only (and a Unix socket in that
directory), with ``trust`` authentication and a database ``guardrail_test``. PostgreSQL refuses to run as root, so
as root the server runs as the system user ``guardrail-test`` (created with ``useradd`` when missing) and owns the
directory. Without the binaries the fixture skips, except when ``CI`` is ``true``: there it fails, so that CI
cannot pass by testing nothing.

    from postgres_server import postgres_url        # in a test module: the session-scoped fixture
    with private_cluster() as url: ...               # elsewhere (benchmarks/bench_results.py)
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ENV = "GUARDRAIL_TEST_POSTGRES_URL"
SERVICE_USER = "guardrail-test"
DATABASE = "guardrail_test"
FAST = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
"""Settings of a test cluster: nothing it holds needs to survive a crash."""


class Unavailable(Exception):
    """No PostgreSQL server binaries on this machine."""


def find_bindir() -> Path:
    """The directory of the newest ``initdb`` and ``pg_ctl``: ``/usr/lib/postgresql/N/bin``, else ``PATH``."""
    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path))

    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True)
    if found := shutil.which("initdb"):
        candidates.append(str(Path(found).parent))
    for candidate in candidates:
        if all((Path(candidate) / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(candidate)
    raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH: "
                      f"apt-get install postgresql, or set {ENV}")


def _service_user() -> pwd.struct_passwd | None:
    """The unprivileged user to run the server as when we are root (None when we are not)."""
    if os.geteuid() != 0:
        return None
    with contextlib.suppress(KeyError):
        return pwd.getpwnam(SERVICE_USER)
    subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell",
                    "/usr/sbin/nologin", SERVICE_USER], check=True, capture_output=True, timeout=30)
    return pwd.getpwnam(SERVICE_USER)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateCluster:
    """A PostgreSQL cluster in ``root``: ``start()``, ``url``, ``stop()``."""

    def __init__(self, root: Path, *, bindir: Path | None = None, durable: bool = False) -> None:
        self.root, self.bindir = root, bindir or find_bindir()
        self.data, self.log = root / "data", root / "server.log"
        self.settings = () if durable else FAST
        self.user = _service_user()
        self.port = 0

    @property
    def url(self) -> str:
        """The database's URL (user ``postgres``, no password: trust on 127.0.0.1)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str, as_server: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, Any] = {}
        if as_server and self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {**os.environ, "HOME": str(self.root), "LC_ALL": "C"}
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], cwd=self.root, env=env, text=True,
                              capture_output=True, timeout=timeout, check=False, **kwargs)
        if done.returncode:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}\n{log}")
        return done

    def start(self) -> str:
        """Create the cluster and its database, start the server; its URL."""
        self.root.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self.root.chmod(0o700)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C",
                  "--no-sync")
        for attempt in range(5):  # the port was free a moment ago; another process may have taken it since
            self.port = _free_port()
            options = " ".join(f"-c {s}" for s in ("listen_addresses=127.0.0.1", f"port={self.port}",
                                                     f"unix_socket_directories={self.root}", *self.settings))
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options,
                          "start")
                break
            except RuntimeError:
                if attempt == 4 or "could not bind" not in self.log.read_text(errors="replace"):
                    raise
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", DATABASE, as_server=False)
        return self.url

    def stop(self) -> None:
        """Stop the server (fast shutdown) if it runs."""
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")


@contextlib.contextmanager
def private_cluster(*, durable: bool = False) -> Iterator[str]:
    """A throwaway cluster's URL, removed on exit; ``durable`` keeps fsync on (for benchmarks). Raises
    Unavailable without the binaries."""
    bindir = find_bindir()
    root = Path(tempfile.mkdtemp(prefix="guardrail-pg-"))
    cluster = PrivateCluster(root, bindir=bindir, durable=durable)
    try:
        yield cluster.start()
    finally:
        try:
            cluster.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def server_url(*, durable: bool = False) -> Iterator[str]:
    """``GUARDRAIL_TEST_POSTGRES_URL`` when set, else a private cluster's URL."""
    if url := os.environ.get(ENV):
        yield url
        return
    with private_cluster(durable=durable) as url:
        yield url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a PostgreSQL database for the session's tests (skipped without a server, failed so under CI)."""
    if not os.environ.get(ENV):
        try:
            find_bindir()
        except Unavailable as exc:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI needs PostgreSQL: {exc}")
            pytest.skip(str(exc))
    with server_url() as url:
        yield url
