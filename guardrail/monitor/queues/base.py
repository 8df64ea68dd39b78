"""What every sample queue is: :class:`Queue`, :class:`Lease`, the errors, and the URL and option helpers.

    GuardrailError
     └── QueueError            a bad URL or option, a closed queue, a backend refusing a command
          ├── QueueUnavailable the backend cannot be reached (in time): Redis down, sqlite locked past its busy timeout
          └── QueueFull        the queue holds ``max_depth`` samples, or its backend is out of space or memory
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable
from urllib.parse import parse_qsl

from ...exceptions import GuardrailError

EXPECTED_URLS = ("memory://[NAME], sqlite:///RELATIVE/PATH, sqlite:////ABSOLUTE/PATH or "
                 "redis://[:PASSWORD@]HOST:PORT/DB[?stream=NAME&group=NAME&maxlen=N]")


class QueueError(GuardrailError):
    """A queue cannot do what was asked: a bad URL or option, a closed queue, a backend error."""


class QueueUnavailable(QueueError):
    """The queue's backend cannot be reached, or did not answer within its timeout."""


class QueueFull(QueueError):
    """The queue cannot take the batch (``max_depth`` reached, disk or memory full); none of it was enqueued."""


class Lease(NamedTuple):
    """One sample delivered to a worker: ``id`` to ack or release it, the ``payload`` as put, and ``attempts``,
    the number of deliveries so far, this one included (1 the first time)."""

    id: str
    payload: bytes
    attempts: int


@runtime_checkable
class Queue(Protocol):
    """A durable-enough queue of opaque samples, leased to workers with a visibility timeout (at-least-once)."""

    url: str
    """The URL the queue was opened with, any password masked."""

    def put(self, payloads: Sequence[bytes]) -> None:
        """Enqueue a batch; raise :class:`QueueUnavailable` or :class:`QueueFull` (then none of it was enqueued)."""

    def lease(self, n: int, visibility: float) -> list[Lease]:
        """Up to ``n`` samples no live worker holds, oldest first; a lease older than ``visibility`` seconds (its
        worker died) is delivered again. Returns ``[]`` at once when nothing is available (or after the queue's
        short ``block`` time).

        Workers sharing a queue should use one visibility (the worker's ``--lease``): sqlite and memory queues keep
        each lease's own deadline (``now + visibility`` of the worker that leased), while Redis compares a pending
        entry's idle time with the ``visibility`` of the worker that reclaims it.
        """

    def ack(self, ids: Sequence[str]) -> None:
        """The samples are done: never delivered again. Unknown or already acknowledged ids are ignored."""

    def release(self, ids: Sequence[str]) -> None:
        """Give leased samples back now (scoring failed); they are delivered again, with one more attempt."""

    def depth(self) -> int:
        """Samples waiting or leased, not yet acknowledged."""

    def close(self) -> None:
        """Let go of connections and files; later calls raise :class:`QueueError` (a ``memory://`` queue stays
        usable: it is shared by name within the process)."""


_PASSWORD_IN_NETLOC = re.compile(r"(?<=://)([^/?#@]*?):([^/?#@]*)@")
_PASSWORD_IN_QUERY = re.compile(r"(?i)([?&]password=)[^&#]*")


def mask_url(url: str) -> str:
    """``url`` with the password of its user info and any ``password=`` query value replaced by ``***``."""
    url = _PASSWORD_IN_NETLOC.sub(lambda m: f"{m.group(1)}:***@" if m.group(2) else m.group(0), url, count=1)
    return _PASSWORD_IN_QUERY.sub(r"\1***", url)


def split_query(url: str) -> tuple[str, dict[str, str]]:
    """``(url without its query, {key: value})``; a repeated key is a :class:`QueueError`."""
    base, _, query = url.partition("?")
    values: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key in values:
            raise QueueError(f"{mask_url(url)}: the query key {key!r} is given twice")
        values[key] = value
    return base, values


def positive_int(value: Any) -> int:
    """An integer >= 1 (from an int or its decimal text)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if isinstance(value, float | bool) or number < 1:
        raise ValueError("expected an integer >= 1")
    return number


def seconds(value: Any) -> float:
    """A finite number of seconds >= 0."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not math.isfinite(number) or number < 0:
        raise ValueError("expected a number of seconds >= 0")
    return number


def positive_seconds(value: Any) -> float:
    """A finite number of seconds > 0."""
    try:
        number = seconds(value)
    except ValueError:
        number = 0.0
    if number == 0:
        raise ValueError("expected a number of seconds > 0")
    return number


def name(value: Any) -> str:
    """A non-empty name."""
    if not isinstance(value, str) or not value:
        raise ValueError("expected a non-empty name")
    return value


def resolve_options(url: str, query: Mapping[str, str], options: Mapping[str, Any],
                    spec: Mapping[str, Callable[[Any], Any]], defaults: Mapping[str, Any],
                    query_keys: Sequence[str] | None = None) -> dict[str, Any]:
    """Defaults, overridden by the URL's query keys, overridden by keyword options; each checked by ``spec``.

    ``query_keys`` limits which options may come from the URL (default: all of ``spec``); anything unknown, or a
    value its converter refuses, is a :class:`QueueError` naming the URL and what is expected.
    """
    allowed = tuple(spec) if query_keys is None else tuple(query_keys)
    resolved = dict(defaults)
    for source, given, known in (("query key", query, allowed), ("option", options, tuple(spec))):
        for key, value in given.items():
            if key not in known:
                raise QueueError(f"{mask_url(url)}: unknown {source} {key!r}: expected one of {', '.join(known)}")
            if value is None and source == "option":
                resolved[key] = None
                continue
            try:
                resolved[key] = spec[key](value)
            except ValueError as exc:
                raise QueueError(f"{mask_url(url)}: {source} {key}={value!r}: {exc}") from None
    return resolved


def check_lease_args(n: int, visibility: float) -> None:
    """Refuse a negative batch size and a visibility timeout that is not a positive number of seconds."""
    if n < 0:
        raise ValueError(f"lease: n must be >= 0, not {n}")
    if not (visibility > 0 and math.isfinite(visibility)):
        raise ValueError(f"lease: visibility must be a positive number of seconds, not {visibility}")


def check_payloads(payloads: Sequence[bytes]) -> list[bytes]:
    """The batch as a list of ``bytes`` (copies of bytearrays and memoryviews); anything else is a TypeError."""
    batch = []
    for payload in payloads:
        if isinstance(payload, bytes):
            batch.append(payload)
        elif isinstance(payload, bytearray | memoryview):
            batch.append(bytes(payload))
        else:
            raise TypeError(f"put: payloads are bytes, not {type(payload).__name__}")
    return batch
