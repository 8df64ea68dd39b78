"""What a ``check`` or ``audit`` record's gold fields measure, besides the guard's own findings (seed 000 2.6, 3.2
and 4.8): refusals against ``should_refuse``, a structured output's fields against ``gold``, the cited sources
against ``gold_ids``. Pure: no I/O.

- **Refusals**: :func:`guardrail.refusal.is_refusal` marks the output as generated refused or not; with
  ``should_refuse`` the report gives refusal recall and the false-refusal rate.
- **Fields**: the output is parsed as JSON (one surrounding Markdown fence allowed, as the schema check does) and
  every leaf of ``gold`` (a JSON object; nested objects are walked, reported as ``a.b``) is compared with the
  output's value at the same path: strings ignoring case and surrounding whitespace, numbers as numbers (1 is 1.0),
  other values exactly. An output that is not a
  JSON object gets every field wrong.
- **Gold sources**: the distinct IDs the output cites (every marker, valid or not) against ``gold_ids``:
  ``|cited ∩ gold| / |gold|`` (recall) and ``/ |cited|`` (precision).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .checks.base import Turn
from .checks.schema import _FENCED
from .compiled import CompiledPolicy


def record_problem(record: Mapping[str, Any]) -> str | None:
    """What is wrong with a record's gold fields, if anything (for ``line N: ...``)."""
    if record.get("should_refuse") is not None and not isinstance(record["should_refuse"], bool):
        return "'should_refuse' must be true or false"
    if "gold" in record and not isinstance(record["gold"], dict):
        return "'gold' must be a JSON object"
    gold_ids = record.get("gold_ids")
    if gold_ids is not None and (not isinstance(gold_ids, list) or not all(isinstance(i, str) for i in gold_ids)):
        return "'gold_ids' must be a list of strings"
    return None


def gold_counts(record: Mapping[str, Any], output: str, compiled: CompiledPolicy) -> dict[str, Any]:
    """The :class:`~guardrail.metrics.TurnSummary` fields the record's gold fields give for ``output``."""
    out: dict[str, Any] = {}
    if isinstance(record.get("should_refuse"), bool):
        from .refusal import is_refusal

        out["should_refuse"] = record["should_refuse"]
        out["refused"] = is_refusal(output)
    gold = record.get("gold")
    if isinstance(gold, dict):
        out["fields"] = tuple(field_results(output, gold))
    gold_ids = record.get("gold_ids")
    if isinstance(gold_ids, list):
        cited = {mk.id for mk in Turn(output, (), frozenset(), compiled.marker_re, float("inf")).markers}
        wanted = set(gold_ids)
        out.update(gold_ids=len(wanted), cited_ids=len(cited), cited_gold=len(cited & wanted))
    return out


def field_results(output: str, gold: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """``(path, correct)`` for every leaf of ``gold``, in order (the path's keys joined by ``.``)."""
    fenced = _FENCED.fullmatch(output)
    try:
        pred = json.loads(fenced.group(1) if fenced else output)
    except (ValueError, RecursionError):
        pred = None
    return [(".".join(keys), isinstance(pred, dict) and _equal(_at(pred, keys), value))
            for keys, value in _leaves(gold)]


def _leaves(obj: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    out = []
    for key, value in obj.items():
        path = (*prefix, key)
        if isinstance(value, dict) and value:
            out.extend(_leaves(value, path))
        else:
            out.append((path, value))
    return out


_MISSING = object()


def _at(obj: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(obj, dict) or key not in obj:
            return _MISSING
        obj = obj[key]
    return obj


def _equal(pred: Any, gold: Any) -> bool:
    if pred is _MISSING:
        return False
    if isinstance(gold, str) and isinstance(pred, str):
        return pred.strip().casefold() == gold.strip().casefold()
    if isinstance(gold, bool) or isinstance(pred, bool):
        return pred is gold
    if isinstance(gold, int | float) and isinstance(pred, int | float):
        return bool(pred == gold)  # 1 and 1.0 are one number in JSON
    return bool(pred == gold and type(pred) is type(gold))
