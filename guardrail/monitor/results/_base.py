"""What both engines share: the record, the error, the store protocol, the schema and the SQL above the driver.

The schema is one table, ``guardrail_results``, with a column for every field of :class:`ResultRecord`; the counts of
the turn's :class:`~guardrail.metrics.TurnSummary` are also kept as typed columns, derived from ``summary`` by ``put``
(rows are never updated, so they cannot drift). ``summaries()`` reads those columns, not the JSON: 1.9x (PostgreSQL)
and 2.5x (sqlite) faster on 100,000 rows (``benchmarks/bench_results.py``), and a dashboard can ``SUM`` them in
SQL. A field added to ``TurnSummary`` later, without a column yet, is read from the ``summary`` JSON, so nothing is
lost before the schema catches up.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from datetime import date
from typing import Any, ClassVar, Protocol, TypeVar

import orjson

from ...exceptions import GuardrailError
from ...metrics import DECISIONS, TurnSummary

SCHEMA_VERSION = 1
STATUSES = ("ok", "error")


class ResultsError(GuardrailError):
    """A results store cannot be opened or used: a bad URL, a missing driver, an unreachable server, a newer schema."""


@dataclass(frozen=True)
class ResultRecord:
    """One scored sample as stored: what the worker writes and ``guardrail report`` reads.

    Text is stored as valid Unicode on both engines: U+0000 and lone surrogates (which PostgreSQL's ``text`` and
    ``jsonb`` cannot hold) become U+FFFD, in the fields and inside ``summary`` and ``detail`` alike.
    """

    sample_id: str
    request_id: str
    created: float
    """The sample's time, epoch seconds (UTC); the report's days and ``since``/``until`` are on it."""
    policy: str
    policy_digest: str
    decision: str
    """``pass``, ``modified`` or ``blocked``."""
    status: str
    """``ok``, or ``error`` when scoring failed three times."""
    judge_name: str
    judge_version: str
    summary: dict[str, Any]
    """``TurnSummary.to_dict()``: the counts; ``{}`` for an error."""
    detail: dict[str, Any]
    """The scoring result JSON (statements, citations, ...)."""
    error: str | None = None
    traceparent: str | None = None
    scored_at: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.sample_id, str) or not self.sample_id:
            raise ResultsError(f"a result needs a sample_id (a non-empty string), not {self.sample_id!r}")
        if self.decision not in DECISIONS:
            raise ResultsError(f"sample {self.sample_id}: decision {self.decision!r} is not one of {DECISIONS}")
        if self.status not in STATUSES:
            raise ResultsError(f"sample {self.sample_id}: status {self.status!r} is not one of {STATUSES}")
        for name in ("created", "scored_at"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ResultsError(f"sample {self.sample_id}: {name} must be a finite number of seconds, not {value!r}")
        for name in ("summary", "detail"):
            if not isinstance(getattr(self, name), Mapping):
                raise ResultsError(f"sample {self.sample_id}: {name} must be a JSON object")


class ResultsStore(Protocol):
    """Where the worker stores scored samples and ``guardrail report`` reads them (sqlite or PostgreSQL)."""

    url: str
    """The store's URL, password masked."""

    def put(self, records: Sequence[ResultRecord]) -> int:
        """Store ``records`` in one transaction, idempotently by sample id; returns how many were new."""
        ...

    def summaries(self, policy: str | None = None, since: float | None = None,
                  until: float | None = None) -> list[TurnSummary]:
        """The turns scored ``ok``, ``policy`` and ``day`` (UTC date of ``created``) set, by time then sample id;
        ``since`` inclusive, ``until`` exclusive."""
        ...

    def errors(self, policy: str | None = None, since: float | None = None, until: float | None = None) -> int:
        """How many records have status ``error`` (same filters as ``summaries``)."""
        ...

    def judges(self, policy: str | None = None, since: float | None = None,
               until: float | None = None) -> list[tuple[str, str]]:
        """The distinct ``(name, version)`` of the judges behind ``summaries`` (status ``ok``), sorted."""
        ...

    def count(self) -> int:
        """How many records the store holds, whatever their status."""
        ...

    def get(self, sample_id: str) -> ResultRecord | None:
        """The record of ``sample_id``, or None."""
        ...

    def close(self) -> None:
        """Release the connection; idempotent."""
        ...

    def __enter__(self) -> ResultsStore:
        """The store itself; closed on exit."""
        ...

    def __exit__(self, *exc: object) -> None:
        ...


_PASSWORD_IN_URL = re.compile(r"(://[^/?#@:]*:)[^/?#@]*@")
_PASSWORD_PARAM = re.compile(r"((?:^|[?&\s])password=)[^&\s]*", re.IGNORECASE)


def mask_url(url: str) -> str:
    """``url`` with its password (``user:PASSWORD@`` or ``password=``) replaced by ``***``."""
    return _PASSWORD_PARAM.sub(r"\1***", _PASSWORD_IN_URL.sub(r"\1***@", url))


# Schema. The DDL is the same on both engines but for the JSON type (TEXT in sqlite, JSONB in PostgreSQL); sqlite
# takes DOUBLE PRECISION and BOOLEAN as type names (REAL and NUMERIC affinity).
COUNTS = ("supported", "statements", "credited", "citations", "contradicted", "judged", "errors",
          "delivered_supported", "delivered_statements", "drops")
"""TurnSummary's integer fields, each an INTEGER column."""
COLUMNS = ("sample_id", "request_id", "created", "policy", "policy_digest", "decision", "status", "judge_name",
           "judge_version", *COUNTS, "invalid", "labels", "summary", "detail", "error", "traceparent", "scored_at")
JSON_COLUMNS = ("labels", "summary", "detail")


def schema(json_type: str) -> tuple[str, ...]:
    """The statements creating the results table and its indexes (after ``guardrail_schema``)."""
    counts = ",\n    ".join(f"{name} INTEGER NOT NULL DEFAULT 0" for name in COUNTS)
    return (
        f"""CREATE TABLE IF NOT EXISTS guardrail_results (
    sample_id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    policy TEXT NOT NULL,
    policy_digest TEXT NOT NULL,
    decision TEXT NOT NULL,
    status TEXT NOT NULL,
    judge_name TEXT NOT NULL,
    judge_version TEXT NOT NULL,
    {counts},
    invalid BOOLEAN NOT NULL DEFAULT FALSE,
    labels {json_type} NOT NULL,
    summary {json_type} NOT NULL,
    detail {json_type} NOT NULL,
    error TEXT,
    traceparent TEXT,
    scored_at DOUBLE PRECISION NOT NULL
)""",
        "CREATE INDEX IF NOT EXISTS guardrail_results_policy_created ON guardrail_results (policy, created)",
        "CREATE INDEX IF NOT EXISTS guardrail_results_created ON guardrail_results (created)",
    )


SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS guardrail_schema (version INTEGER PRIMARY KEY)"


def newer_schema(url: str, version: int) -> ResultsError:
    """The error for a store written by a newer guardrail."""
    return ResultsError(f"results store {url} has schema version {version}, newer than this guardrail knows "
                        f"({SCHEMA_VERSION}): upgrade guardrail to read or write it")


# Encoding: valid Unicode only, JSON by orjson (fast; lone surrogates and non-string keys handled).
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` without U+0000 or lone surrogates (each becomes U+FFFD)."""
    return text if text.isascii() and "\x00" not in text else _BAD_TEXT.sub("\ufffd", text)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Mapping):
        return {clean_text(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def dumps(value: Any, sample_id: str) -> str:
    """``value`` as JSON text that both engines accept (no U+0000, no lone surrogate)."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int past 64 bits, a non-JSON type
        text = ""
    if not text or "\\u0000" in text:
        cleaned = _clean(value)
        try:
            text = orjson.dumps(cleaned, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            try:  # integers past 64 bits
                text = json.dumps(cleaned, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise ResultsError(f"sample {sample_id}: not JSON: {exc}") from None
    return text


def _count(summary: Mapping[str, Any], name: str, sample_id: str) -> int:
    value = summary.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ResultsError(f"sample {sample_id}: summary[{name!r}] must be a count (an integer >= 0), not {value!r}")
    return value


def encode(record: ResultRecord) -> tuple[Any, ...]:
    """``record`` as a row of ``COLUMNS``."""
    sid, summary = record.sample_id, record.summary
    labels = summary.get("labels") or []
    if not isinstance(labels, list | tuple) or not all(isinstance(label, str) for label in labels):
        raise ResultsError(f"sample {sid}: summary['labels'] must be a list of strings, not {labels!r}")
    t = clean_text
    return (t(sid), t(record.request_id), float(record.created), t(record.policy), t(record.policy_digest),
            record.decision, record.status, t(record.judge_name), t(record.judge_version),
            *(_count(summary, name, sid) for name in COUNTS), bool(summary.get("invalid", False)),
            dumps(list(labels), sid), dumps(summary, sid), dumps(record.detail, sid),
            None if record.error is None else t(record.error),
            None if record.traceparent is None else t(record.traceparent), float(record.scored_at))


_EPOCH = date(1970, 1, 1).toordinal()
_DAYS: dict[int, str] = {}


def day_of(created: float) -> str:
    """The UTC date of epoch seconds ``created``, ``YYYY-MM-DD``."""
    index = math.floor(created / 86_400)
    day = _DAYS.get(index)
    if day is None:
        day = _DAYS.setdefault(index, date.fromordinal(_EPOCH + index).isoformat())
    return day


# summaries(): one SELECT expression per TurnSummary field, in its order, so that a row builds it positionally.
_DERIVED = {"decision": "decision", "policy": "policy", "day": "created", "invalid": "invalid", "labels": "labels",
            **{name: name for name in COUNTS}}
_SUMMARY_FIELDS = fields(TurnSummary)
SUMMARY_SELECT = tuple(_DERIVED.get(f.name, "NULL") for f in _SUMMARY_FIELDS)
# What only ``check``/``audit`` records give (gold fields): never stored by a worker, their defaults here.
_OFFLINE_ONLY = {"should_refuse", "refused", "fields", "gold_ids", "cited_ids", "cited_gold"}
_EXTRA = tuple((i, f.name, f.default) for i, f in enumerate(_SUMMARY_FIELDS)
               if f.name not in _DERIVED and f.name not in _OFFLINE_ONLY)
"""Fields without a column (added to TurnSummary after this schema): read from the summary JSON. ``instructions``
(the instruction results of a sample) is one: a row whose summary holds none is not parsed for it."""
if any(default is MISSING for _, _, default in _EXTRA):  # pragma: no cover - a new field without a default
    raise TypeError("every TurnSummary field without a results column needs a default")
_POS = {f.name: i for i, f in enumerate(_SUMMARY_FIELDS)}
_INSTRUCTIONS_ONLY = tuple(e for e in _EXTRA if e[1] == "instructions")
_DEFAULTS = tuple((i, f.default) for i, f in enumerate(_SUMMARY_FIELDS) if f.name not in _DERIVED)


def _no_instructions(summary: str) -> bool:
    """Whether a stored summary's instruction list is empty (sqlite keeps orjson's text, PostgreSQL its own)."""
    return '"instructions":[]' in summary or '"instructions": []' in summary or '"instructions"' not in summary


def summary_rows(rows: Iterable[Sequence[Any]]) -> list[TurnSummary]:
    """TurnSummary objects, by time then sample id, from rows of ``SUMMARY_SELECT``, then ``sample_id``, then
    ``summary`` when fields have no column (JSON columns as text)."""
    load = orjson.loads
    n = len(SUMMARY_SELECT)
    day_i, inv_i, lab_i = _POS.get("day"), _POS.get("invalid"), _POS.get("labels")
    ordered = list(rows)
    if day_i is not None:  # sorted here, not by the database: a third faster on sqlite, no sort spill on PostgreSQL
        ordered.sort(key=lambda row: (row[day_i], row[n]))
    out: list[TurnSummary] = []
    append = out.append
    last_index, day = None, ""
    for row in ordered:
        values = list(row[:n])
        if day_i is not None:
            index = values[day_i] // 86_400
            if index != last_index:  # rows come by time: the day changes rarely
                last_index, day = index, day_of(values[day_i])
            values[day_i] = day
        if inv_i is not None:
            values[inv_i] = bool(values[inv_i])
        if lab_i is not None:
            labels = values[lab_i]
            values[lab_i] = () if labels == "[]" else tuple(load(labels))
        for i, default in _DEFAULTS:
            values[i] = default
        if _EXTRA and (_EXTRA != _INSTRUCTIONS_ONLY or not _no_instructions(row[n + 1])):
            stored = load(row[n + 1])
            for i, name, default in _EXTRA:
                value = stored.get(name, default)
                values[i] = tuple(tuple(v) if isinstance(v, list) else v for v in value) \
                    if isinstance(value, list) else value
        append(TurnSummary(*values))
    return out


R = TypeVar("R")


class SqlStore:
    """The SQL of the store, above a DB-API connection; an engine supplies the connection and the dialect."""

    param: ClassVar[str]
    """The driver's placeholder: ``?`` or ``%s``."""
    json_param: ClassVar[str]
    """The placeholder of a JSON value (given as JSON text)."""
    as_text: ClassVar[str] = ""
    """What reads a JSON column as text (decoding it in the driver is slower: psycopg's loader runs per value)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._closed = False

    # What an engine implements.
    def _write(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> int:
        """Run ``sql`` for each row in one transaction; the number of rows inserted."""
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any], handle: Callable[[Iterable[Sequence[Any]]], R]) -> R:
        """``handle`` of the rows of ``sql``."""
        raise NotImplementedError

    def _load(self, value: Any) -> Any:
        """A JSON column's value as Python."""
        raise NotImplementedError

    def _run(self, what: str, action: Callable[[], R]) -> R:
        """``action`` under the lock, driver errors turned into ResultsError."""
        raise NotImplementedError

    # The protocol.
    def put(self, records: Sequence[ResultRecord]) -> int:
        """Store ``records`` in one transaction, idempotently by sample id; returns how many were new."""
        # Sorted and deduplicated: writers inserting overlapping batches take row locks in one order (no deadlock).
        rows = sorted({r.sample_id: encode(r) for r in records}.values(), key=lambda row: row[0])
        if not rows:
            return 0
        marks = ", ".join(self.json_param if c in JSON_COLUMNS else self.param for c in COLUMNS)
        sql = (f"INSERT INTO guardrail_results ({', '.join(COLUMNS)}) VALUES ({marks}) "
               "ON CONFLICT (sample_id) DO NOTHING")
        return self._run("put", lambda: self._write(sql, rows))

    def _where(self, status: str, policy: str | None, since: float | None,
               until: float | None) -> tuple[str, list[Any]]:
        p = self.param
        clauses, params = [f"status = {p}"], list[Any]([status])
        if policy is not None:
            clauses.append(f"policy = {p}")
            params.append(policy)
        for op, bound, name in ((">=", since, "since"), ("<", until, "until")):
            if bound is not None:
                if isinstance(bound, bool) or not isinstance(bound, int | float) or math.isnan(bound):
                    raise ResultsError(f"{name} must be epoch seconds, not {bound!r}")
                clauses.append(f"created {op} {p}")
                params.append(float(bound))
        return " WHERE " + " AND ".join(clauses), params

    def summaries(self, policy: str | None = None, since: float | None = None,
                  until: float | None = None) -> list[TurnSummary]:
        """The turns scored ``ok``, ``policy`` and ``day`` (UTC date of ``created``) set, by time then sample id;
        ``since`` inclusive, ``until`` exclusive."""
        where, params = self._where("ok", policy, since, until)
        names = (*SUMMARY_SELECT, "sample_id", *(("summary",) if _EXTRA else ()))
        select = ", ".join(name + self.as_text if name in JSON_COLUMNS else name for name in names)
        sql = f"SELECT {select} FROM guardrail_results{where}"
        return self._run("summaries", lambda: self._read(sql, params, summary_rows))

    def errors(self, policy: str | None = None, since: float | None = None, until: float | None = None) -> int:
        """How many records have status ``error`` (same filters as ``summaries``)."""
        where, params = self._where("error", policy, since, until)
        sql = f"SELECT COUNT(*) FROM guardrail_results{where}"
        return self._run("errors", lambda: self._read(sql, params, lambda rows: int(next(iter(rows))[0])))

    def judges(self, policy: str | None = None, since: float | None = None,
               until: float | None = None) -> list[tuple[str, str]]:
        """The distinct ``(name, version)`` of the judges behind ``summaries`` (status ``ok``), sorted."""
        where, params = self._where("ok", policy, since, until)
        sql = f"SELECT DISTINCT judge_name, judge_version FROM guardrail_results{where} ORDER BY 1, 2"
        return self._run("judges", lambda: self._read(sql, params, lambda rows: [(r[0], r[1]) for r in rows]))

    def count(self) -> int:
        """How many records the store holds, whatever their status."""
        sql = "SELECT COUNT(*) FROM guardrail_results"
        return self._run("count", lambda: self._read(sql, (), lambda rows: int(next(iter(rows))[0])))

    def get(self, sample_id: str) -> ResultRecord | None:
        """The record of ``sample_id``, or None."""
        names = [c for c in COLUMNS if c not in COUNTS and c not in ("invalid", "labels")]
        sql = f"SELECT {', '.join(names)} FROM guardrail_results WHERE sample_id = {self.param}"

        def record(rows: Iterable[Sequence[Any]]) -> ResultRecord | None:
            for row in rows:
                values = dict(zip(names, row, strict=True))
                values["summary"], values["detail"] = self._load(values["summary"]), self._load(values["detail"])
                return ResultRecord(**values)
            return None

        return self._run("get", lambda: self._read(sql, (sample_id,), record))

    def __enter__(self) -> SqlStore:
        """The store itself; closed on exit."""
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the connection; idempotent."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"

