"""Citation support of one turn, ALCE-style (CONTRACT section 8.4), given an NLI judge. Pure: the judge is passed in.

For every statement that needs a citation (not exempt, not a Sources line) with valid cited set C and invalid cited
IDs I:

- **recall** is 1 when C is non-empty, I is empty and the judge says the concatenation of C's passages entails the
  statement; else 0 (an uncited claim scores 0).
- **precision**: every citation of C and I counts in the denominator; a citation c of C earns credit only when the
  statement's recall is 1 and c is not *irrelevant* (c alone does not entail, and C without c does). Invalid IDs
  never earn credit.
- each valid citation gets a verdict: ``FULLY_SUPPORTS`` (c alone entails), ``CONTRADICTS`` (the judge says
  contradiction for c), ``PARTIALLY_SUPPORTS`` (c alone does not, but C does and C without c does not), else
  ``DOES_NOT_ADDRESS``; a statement is *contradicted* when the judge says contradiction for C or for any c.
- a supported citation carries its evidence: the span of its source's text, within the window that entailed, of the
  sentences that share the most content words with the statement.

A passage longer than the judge's ``window_chars`` is split into overlapping windows at sentence or word boundaries,
and the best window counts (the one most likely to entail; contradiction when no window entails and one
contradicts). A pair the judge could not decide makes its statement a *judge error*: counted apart, in neither the
numerator nor the denominator.

The same statements are scored twice: as generated, and as delivered (the statements the guard kept, with the
citations it kept); a blocked turn delivers none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .judges.base import Judge, JudgeFailure, Judgement, Probabilities

Verdict = Literal["FULLY_SUPPORTS", "PARTIALLY_SUPPORTS", "CONTRADICTS", "DOES_NOT_ADDRESS"]

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_WORD = re.compile(r"\w+")
_STOP = frozenset("""a an and are as at be by for from has have in is it its of on or that the their this to was
were will with""".split())


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement to score: its span and text (citation markers removed), the valid and invalid IDs it cites,
    whether it needs a citation at all, and whether the guard delivered it (with which of its citations)."""

    start: int
    end: int
    text: str
    cited: tuple[str, ...] = ()
    invalid: tuple[tuple[str, str], ...] = ()
    """``(id, label)`` of each invalid cited ID: ``HALLUCINATED_SOURCE`` or ``UNAUTHORIZED_SOURCE``."""
    needs_citation: bool = True
    delivered: bool = True
    delivered_invalid: tuple[tuple[str, str], ...] | None = None
    """The invalid IDs still cited in what was delivered (a stripped marker is gone); None: as generated."""


@dataclass(slots=True)
class CitationResult:
    """One citation of a statement that needs one."""

    id: str
    statement: int
    valid: bool
    verdict: Verdict | None = None
    credited: bool = False
    irrelevant: bool = False
    evidence: tuple[int, int] | None = None
    label: str | None = None
    """For an invalid ID, why (``HALLUCINATED_SOURCE`` or ``UNAUTHORIZED_SOURCE``)."""


@dataclass(slots=True)
class StatementResult:
    """One statement: its recall (None: it needs no citation, or the judge failed on it) and whether it is
    contradicted."""

    start: int
    end: int
    text: str
    needs_citation: bool
    delivered: bool
    recall: int | None = None
    contradicted: bool = False
    error: bool = False
    entailed: bool = False
    """Whether its valid citations together entail it (whatever its invalid ones)."""


@dataclass(frozen=True, slots=True)
class Scores:
    """The counts behind a turn's rates; rates are None where there is nothing to divide by."""

    supported: int
    statements: int
    credited: int
    citations: int
    contradicted: int
    judged: int
    errors: int

    @property
    def citation_recall(self) -> float | None:
        return self.supported / self.statements if self.statements else None

    @property
    def citation_precision(self) -> float | None:
        return self.credited / self.citations if self.citations else None


@dataclass(slots=True)
class TurnResult:
    """Everything the scoring of one turn found."""

    statements: list[StatementResult] = field(default_factory=list)
    citations: list[CitationResult] = field(default_factory=list)
    generated: Scores = Scores(0, 0, 0, 0, 0, 0, 0)
    delivered: Scores = Scores(0, 0, 0, 0, 0, 0, 0)

    @property
    def errors(self) -> int:
        return self.generated.errors

    def to_dict(self) -> dict[str, Any]:
        """The scoring part of an audit result (CONTRACT section 9)."""
        def scores(s: Scores) -> dict[str, Any]:
            return {"citation_recall": s.citation_recall, "citation_precision": s.citation_precision}

        return {
            "scores": scores(self.generated),
            "delivered_scores": scores(self.delivered),
            "statements": [{"start": s.start, "end": s.end, "text": s.text, "recall": s.recall,
                            "contradicted": s.contradicted, "delivered": s.delivered,
                            **({"judge_error": True} if s.error else {})}
                           for s in self.statements],
            "citations": [{"id": c.id, "statement": c.statement,
                           "verdict": c.verdict if c.valid else None, "credited": c.credited,
                           "evidence": {"start": c.evidence[0], "end": c.evidence[1]} if c.evidence else None,
                           **({"label": c.label} if c.label else {})}
                          for c in self.citations],
            "uncited_claims": [{"statement": i, "start": s.start, "end": s.end}
                               for i, s in enumerate(self.statements)
                               if s.needs_citation and not any(c.statement == i for c in self.citations)],
            "hallucinated_sources": [{"id": c.id, "statement": c.statement, "label": c.label}
                                     for c in self.citations if not c.valid],
            "judge_errors": self.generated.errors,
        }


class _Premise:
    """A premise cut into the windows the judge reads: ``(text, [(source id, start in that source's text, end)])``."""

    def __init__(self, parts: Sequence[tuple[str, str]], window: int):
        joined: list[str] = []
        pieces: list[tuple[str, int, int]] = []
        pos = 0
        for sid, text in parts:
            if joined:
                joined.append("\n\n")
                pos += 2
            joined.append(text)
            pieces.append((sid, pos, pos + len(text)))
            pos += len(text)
        self.text = "".join(joined)
        self.pieces = pieces
        self.windows = _windows(self.text, window)

    def where(self, start: int, end: int) -> dict[str, tuple[int, int]]:
        """For each source, the span of its own text that ``self.text[start:end]`` covers."""
        out = {}
        for sid, a, b in self.pieces:
            lo, hi = max(a, start), min(b, end)
            if lo < hi:
                out[sid] = (lo - a, hi - a)
        return out


def _windows(text: str, size: int) -> list[tuple[int, int]]:
    """Overlapping windows of at most ``size`` characters covering ``text``, cut at sentence ends or spaces."""
    n = len(text)
    if n <= size:
        return [(0, n)]
    out, start = [], 0
    step = max(size * 3 // 4, 1)
    while True:
        end = min(start + size, n)
        if end < n:
            cut = max(text.rfind(". ", start + step // 2, end), text.rfind("\n", start + step // 2, end))
            if cut > start:
                end = cut + 1
            else:
                space = text.rfind(" ", start + step // 2, end)
                end = space if space > start else end
        out.append((start, end))
        if end >= n:
            return out
        nxt = start + step
        space = text.find(" ", nxt, end)
        start = space + 1 if 0 <= space < end else min(nxt, end)


@dataclass(slots=True)
class _Outcome:
    """What the judge said of one (premise, statement): the best window, or a failure."""

    entails: bool = False
    contradicts: bool = False
    failed: bool = False
    best: tuple[int, int] | None = None  # the span of the premise's text that entailed


def _decide(judgements: list[Judgement], windows: list[tuple[int, int]]) -> _Outcome:
    if any(isinstance(j, JudgeFailure) for j in judgements):
        return _Outcome(failed=True)
    probs: list[Probabilities] = judgements  # type: ignore[assignment]
    best = max(range(len(probs)), key=lambda i: probs[i].entailment)
    if probs[best].label == "entailment":
        return _Outcome(entails=True, best=windows[best])
    return _Outcome(contradicts=any(p.label == "contradiction" for p in probs))


class _Batch:
    """The pairs a turn needs, asked of the judge once each, in one batch."""

    def __init__(self, judge: Judge):
        self.judge = judge
        self.window = max(int(getattr(judge, "window_chars", 4000)), 200)
        self.pairs: dict[tuple[str, str], int] = {}
        self.asks: list[tuple[_Premise, str]] = []

    def ask(self, parts: Sequence[tuple[str, str]], hypothesis: str) -> int:
        premise = _Premise(parts, self.window)
        for a, b in premise.windows:
            self.pairs.setdefault((premise.text[a:b], hypothesis), len(self.pairs))
        self.asks.append((premise, hypothesis))
        return len(self.asks) - 1

    def run(self) -> list[tuple[_Premise, _Outcome]]:
        keys = list(self.pairs)
        judgements = self.judge.judge(keys) if keys else []
        if len(judgements) != len(keys):
            judgements = [JudgeFailure("the judge returned the wrong number of judgements")] * len(keys)
        out = []
        for premise, hypothesis in self.asks:
            got = [judgements[self.pairs[(premise.text[a:b], hypothesis)]] for a, b in premise.windows]
            out.append((premise, _decide(got, premise.windows)))
        return out


def score_turn(claims: Sequence[Claim], passages: Mapping[str, str], judge: Judge) -> TurnResult:
    """Score one turn's statements against the passages of its valid cited sources (``{id: text}``)."""
    batch = _Batch(judge)
    plans: list[dict[str, Any]] = []
    for claim in claims:
        plan: dict[str, Any] = {}
        cited = [c for c in dict.fromkeys(claim.cited) if c in passages]
        if claim.needs_citation and cited:
            parts = [(c, passages[c]) for c in cited]
            plan["all"] = batch.ask(parts, claim.text)
            if len(cited) > 1:
                plan["alone"] = {c: batch.ask([(c, passages[c])], claim.text) for c in cited}
                plan["without"] = {c: batch.ask([p for p in parts if p[0] != c], claim.text) for c in cited}
        plans.append(plan)
    outcomes = batch.run()
    result = TurnResult()
    for i, (claim, plan) in enumerate(zip(claims, plans, strict=True)):
        st = StatementResult(claim.start, claim.end, claim.text, claim.needs_citation, claim.delivered)
        result.statements.append(st)
        if not claim.needs_citation:
            continue
        cited = [c for c in dict.fromkeys(claim.cited) if c in passages]
        if not plan:
            st.recall = 0
        else:
            whole_premise, whole = outcomes[plan["all"]]
            alone = {c: outcomes[k] for c, k in plan.get("alone", {}).items()} or {cited[0]: (whole_premise, whole)}
            without = {c: outcomes[k][1] for c, k in plan.get("without", {}).items()}
            failed = whole.failed or any(o.failed for _, o in alone.values()) or any(o.failed for o in without.values())
            if failed:
                st.error = True
            else:
                st.entailed = whole.entails
                st.recall = 1 if whole.entails and not claim.invalid else 0
                st.contradicted = whole.contradicts or any(o.contradicts for _, o in alone.values())
            for c in cited:
                premise, own = alone[c]
                res = CitationResult(c, i, True)
                if not st.error:
                    res.irrelevant = not own.entails and len(cited) > 1 and without[c].entails
                    res.credited = st.recall == 1 and not res.irrelevant
                    if own.entails:
                        res.verdict = "FULLY_SUPPORTS"
                        res.evidence = _evidence(premise, own.best, c, claim.text, passages[c])
                    elif own.contradicts:
                        res.verdict = "CONTRADICTS"
                    elif whole.entails and len(cited) > 1 and not without[c].entails:
                        res.verdict = "PARTIALLY_SUPPORTS"
                        res.evidence = _evidence(whole_premise, whole.best, c, claim.text, passages[c])
                    else:
                        res.verdict = "DOES_NOT_ADDRESS"
                result.citations.append(res)
        for sid, label in claim.invalid:
            result.citations.append(CitationResult(sid, i, False, label=label))
    result.generated = _tally(result, claims, delivered=False)
    result.delivered = _tally(result, claims, delivered=True)
    return result


def _tally(result: TurnResult, claims: Sequence[Claim], delivered: bool) -> Scores:
    """The counts over the statements as generated, or over those delivered with the citations delivered."""
    supported = statements = credited = citations = contradicted = judged = errors = 0
    for i, (st, claim) in enumerate(zip(result.statements, claims, strict=True)):
        if not st.needs_citation or (delivered and not claim.delivered):
            continue
        if st.error:
            errors += 1
            continue
        invalid = claim.delivered_invalid if delivered and claim.delivered_invalid is not None else claim.invalid
        valid = [c for c in result.citations if c.statement == i and c.valid]
        recall = 1 if valid and st.entailed and not invalid else 0
        statements += 1
        judged += 1
        supported += recall
        contradicted += st.contradicted
        citations += len(valid) + len(invalid)
        credited += sum(1 for c in valid if recall and not c.irrelevant)
    return Scores(supported, statements, credited, citations, contradicted, judged, errors)


def _evidence(premise: _Premise, span: tuple[int, int] | None, sid: str, claim: str, text: str) -> tuple[int, int]:
    """The sentences of source ``sid`` within the entailing window that share the most content words with the
    claim (the whole part of the window in that source when no sentence shares any)."""
    if span is None:
        return 0, len(text)
    within = premise.where(*span).get(sid, (0, len(text)))
    a, b = within
    words = {w for w in _WORD.findall(claim.lower()) if w not in _STOP}
    best, best_score = (a, b), 0
    pos = a
    for m in [*_SENTENCE_END.finditer(text, a, b), None]:
        end = m.start() if m is not None else b
        score = len(words & {w for w in _WORD.findall(text[pos:end].lower())})
        if score > best_score:
            best, best_score = (pos, end), score
        if m is None:
            break
        pos = m.end()
    return best
