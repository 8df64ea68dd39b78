"""The sample record (CONTRACT section 8.1): one guarded turn, self-contained and versioned, as the queue carries it.

It holds what a worker needs to score the turn and nothing the caller may not see: the output as generated and as
delivered, its statements (offsets, kind, exempt or not, the claim text, the valid cited IDs, the invalid cited IDs
with their label, delivered or not), and the text and digest of each valid cited source. Never the text of a source
the caller may not see, never the caller's roles. ``sample.schema.json`` beside this file is its JSON Schema.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..claims import turn_claims
from ..compiled import CompiledPolicy
from ..models import Source, Verdict
from ..scoring import Claim

VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("sample.schema.json")


class RecordError(ValueError):
    """A sample record that is not one this code can score (the message names what is wrong, never content)."""


def digest(text: str) -> str:
    """``sha256:<hex>`` of a text's UTF-8 bytes."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def build_record(compiled: CompiledPolicy, policy_digest: str, output: str, sources: Sequence[Source],
                 roles: frozenset[str], verdict: Verdict, *, request_id: str, traceparent: str | None = None,
                 choice: int = 0, field: str = "content", created: float | None = None,
                 sample_id: str | None = None, drops: int = 0) -> dict[str, Any]:
    """The sample record of one guarded turn."""
    claims = turn_claims(compiled, output, sources, roles, verdict)
    statements = []
    for claim in claims.claims:
        statements.append({
            "start": claim.start, "end": claim.end, "text": claim.text, "exempt": not claim.needs_citation,
            "cited": list(claim.cited), "invalid": [{"id": i, "label": label} for i, label in claim.invalid],
            "delivered": claim.delivered,
            "delivered_invalid": [{"id": i, "label": label} for i, label in claim.delivered_invalid or ()],
        })
    return {
        "v": VERSION,
        "sample_id": sample_id or uuid.uuid4().hex,
        "request_id": request_id,
        "time": time.time() if created is None else created,
        "policy": compiled.policy.name,
        "policy_digest": policy_digest,
        "decision": verdict.decision.value,
        "labels": verdict.labels,
        "drops": drops,
        "instructions": [[r.id, r.followed, r.followed_loose] for r in verdict.instructions],
        "traceparent": traceparent,
        "choice": choice,
        "field": field,
        "output": output,
        "delivered": verdict.output,
        "statements": statements,
        "sources": [{"id": sid, "text": text, "digest": digest(text)} for sid, text in claims.passages.items()],
    }


def encode(record: Mapping[str, Any]) -> bytes:
    """The queue's payload of a record."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")


def decode(payload: bytes) -> dict[str, Any]:
    """A record from a queue payload; :class:`RecordError` if it is not a version-1 sample record."""
    try:
        record = json.loads(payload.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"not a JSON sample record ({exc.__class__.__name__})") from None
    if not isinstance(record, dict):
        raise RecordError("a sample record must be a JSON object")
    if record.get("v") != VERSION:
        raise RecordError(f"sample record version {record.get('v')!r}; this worker reads version {VERSION}")
    for key, kind in (("sample_id", str), ("request_id", str), ("policy", str), ("decision", str),
                      ("statements", list), ("sources", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"sample record field {key!r} is missing or of the wrong type")
    return record


def claims_of(record: Mapping[str, Any]) -> tuple[list[Claim], dict[str, str]]:
    """The claims and passages a worker scores, from a decoded record."""
    claims = []
    try:
        for st in record["statements"]:
            claims.append(Claim(
                int(st["start"]), int(st["end"]), str(st["text"]), tuple(st["cited"]),
                tuple((i["id"], i["label"]) for i in st["invalid"]), not st["exempt"], bool(st["delivered"]),
                tuple((i["id"], i["label"]) for i in st.get("delivered_invalid", st["invalid"])),
            ))
        passages = {str(s["id"]): str(s["text"]) for s in record["sources"]}
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"a statement or source of the record is malformed ({exc.__class__.__name__})") from None
    return claims, passages
