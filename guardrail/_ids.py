"""Request ids the guard makes up when the caller sent none: 32 hex digits, like ``uuid.uuid4().hex``, but a random
prefix per process and a counter (no system call per request). The prefix is drawn again in a forked child, so
workers forked from one parent never share ids."""

from __future__ import annotations

import itertools
import os
import secrets

_prefix = secrets.token_hex(8)
_counter = itertools.count()


def _reseed() -> None:
    global _prefix, _counter
    _prefix = secrets.token_hex(8)
    _counter = itertools.count()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reseed)


def new_request_id() -> str:
    return f"{_prefix}{next(_counter) & 0xFFFFFFFFFFFFFFFF:016x}"
