"""``guardrail audit``: the inline checks plus citation-support scoring for every record (CONTRACT section 9).

One record is a ``check`` record (``{"id", "output", "sources", "roles"}``); its result adds the scores, the
statements, the citations with their verdicts and evidence, the uncited claims and the invalid citations. Records can
be spread over processes (``workers``), or threads for a judge that waits on the network; results come back in
input order either way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from .adherence import from_record
from .claims import turn_claims
from .guard import Guard
from .judges import Judge, load_judge
from .metrics import TurnSummary
from .models import Source, Verdict, coerce_sources
from .offline import gold_counts, record_problem
from .scoring import score_turn

AuditRow = tuple[dict[str, Any], dict[str, Any]]
"""An audit result line and the :class:`~guardrail.metrics.TurnSummary` of it, as a dict (it crosses processes)."""


def audit_record(guard: Guard, judge: Judge, record: dict[str, Any], default_id: Any = None) -> AuditRow:
    """Check and score one record; its result line and its summary. Raise ``TypeError`` or ``ValueError`` for a
    record whose sources, roles, instructions or gold fields are malformed."""
    sources = coerce_sources(record.get("sources") or ())
    roles = frozenset(record.get("roles") or ())
    output = record["output"]
    verdict, offline = check_record(guard, record, sources, roles)
    claims = turn_claims(guard.compiled, output, sources, roles, verdict)
    result = score_turn(claims.claims, claims.passages, judge)
    row = {"id": record.get("id", default_id), **verdict.to_dict(), **gold_row(offline), **result.to_dict()}
    summary = TurnSummary.of(verdict.decision.value, result, policy=guard.policy.name, **offline)
    return row, summary.to_dict()


def check_record(guard: Guard, record: dict[str, Any], sources: list[Source] | None = None,
                 roles: frozenset[str] | None = None) -> tuple[Verdict, dict[str, Any]]:
    """The verdict on a ``check``/``audit`` record (with its own instructions and prompt, if it has any) and the
    :class:`~guardrail.metrics.TurnSummary` fields of its instructions and gold fields."""
    problem = record_problem(record)
    if problem:
        raise ValueError(problem)
    instructions = from_record(record)
    output = record["output"]
    if sources is None:
        sources = coerce_sources(record.get("sources") or ())
    verdict = guard.check(output, sources, record.get("roles") if roles is None else roles,
                          instructions=instructions)
    offline = gold_counts(record, output, guard.compiled)
    if verdict.instructions:
        offline["instructions"] = tuple((r.id, r.followed, r.followed_loose) for r in verdict.instructions)
    return verdict, offline


def gold_row(offline: dict[str, Any]) -> dict[str, Any]:
    """What a result line shows of the gold fields: the refusal verdict, the fields right and wrong."""
    out: dict[str, Any] = {}
    if "refused" in offline:
        out["refused"] = offline["refused"]
    if "fields" in offline:
        out["fields"] = dict(offline["fields"])
    return out


_STATE: dict[str, Any] = {}


def _init(policy: str, judge_spec: str) -> None:
    _STATE["guard"] = Guard.from_policy(policy)
    _STATE["judge"] = load_judge(judge_spec)


def _work(item: tuple[int, dict[str, Any]]) -> AuditRow | str:
    lineno, record = item
    try:
        return audit_record(_STATE["guard"], _STATE["judge"], record, lineno)
    except (TypeError, ValueError) as exc:  # a source, role, instruction or gold field of the wrong shape:
        return str(exc)  # reported like a malformed line
    except RecursionError:
        return "a field is nested too deep"


def audit_records(policy: str, judge_spec: str, items: Iterable[tuple[int, dict[str, Any] | str]],
                  workers: int = 1) -> Iterator[tuple[int, AuditRow | str]]:
    """Audit ``(line number, record or what is wrong with it)`` items; yield ``(line number, result or problem)`` in
    input order. With ``workers`` above 1, records are judged in that many processes (threads for ``llm:``)."""
    if workers <= 1:
        _init(policy, judge_spec)
        for lineno, record in items:
            yield lineno, (record if isinstance(record, str) else _work((lineno, record)))
        return
    threads = judge_spec.startswith("llm:")
    executor: Executor
    if threads:
        _init(policy, judge_spec)  # one guard and judge, shared by the threads (both are safe to share)
        executor = ThreadPoolExecutor(max_workers=workers)
    else:
        executor = ProcessPoolExecutor(max_workers=workers, initializer=_init, initargs=(policy, judge_spec))
    with executor:
        yield from _ordered(executor, _work, items, window=64 * workers)


def _ordered(executor: Executor, fn: Callable[[tuple[int, dict[str, Any]]], AuditRow | str],
             items: Iterable[tuple[int, dict[str, Any] | str]], window: int) -> Iterator[tuple[int, AuditRow | str]]:
    """``executor.map`` in input order with at most ``window`` records in flight (input of any length)."""
    pending: deque[tuple[int, Future[AuditRow | str] | str]] = deque()
    for lineno, record in items:
        pending.append((lineno, record if isinstance(record, str) else executor.submit(fn, (lineno, record))))
        while len(pending) > window:
            yield _take(pending)
    while pending:
        yield _take(pending)


def _take(pending: deque[tuple[int, Future[AuditRow | str] | str]]) -> tuple[int, AuditRow | str]:
    lineno, item = pending.popleft()
    return lineno, (item if isinstance(item, str) else item.result())
