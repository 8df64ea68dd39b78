"""Request ids the guard makes up: the shape of ``uuid4().hex``, unique in a process and across forked workers."""

from __future__ import annotations

import os
import sys

import pytest

from guardrail._ids import new_request_id


def test_ids_are_32_hex_digits_and_unique() -> None:
    ids = [new_request_id() for _ in range(10_000)]
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in ids)


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork")
def test_a_forked_child_draws_its_own_prefix() -> None:
    parent = new_request_id()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its first id
        os.write(write, new_request_id().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 64).decode()
    assert len(child) == 32 and child[:16] != parent[:16]
