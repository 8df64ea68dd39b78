"""A seeded generator of "typical turns" for the guard benchmarks (TARGETS.md).

A typical turn is a ~2 KB English-like answer with inline citations ``[doc:ID]``, 2-4 double-quoted spans copied
verbatim from the cited sources (some in curly quotes, some with an ellipsis gap), a few list items and a "Sources:"
section; 10 retrieved sources of ~1.5 KB, some invisible to the caller; and banned-term lists of 10 / 1,000 / 100,000
distinct terms (the shorter lists are prefixes of the longer, so the terms planted in answers are in every list).
A small share of turns carries the usual failures: a near-miss citation ID, a citation of an invisible source, an
altered quotation, an emoji. Everything is deterministic from the seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

CALLER_ROLES = ["employee"]

_WORDS = """the a our each every this that employee manager team office policy leave request approval review
budget laptop device account access badge contract payroll benefit schedule meeting report process system
service desk portal record form week month year day holiday travel expense claim receipt training course
security password incident customer partner vendor project deadline update change rule guideline handbook
must should can will may is are was receives requires covers includes applies allows needs submits approves
within before after during under over per for with without from into across through about against between
annual monthly weekly full-time part-time remote local regional global new current previous standard formal
written internal external paid unpaid additional mandatory optional secure shared personal""".split()
_FUNCTION = {"the", "a", "our", "each", "every", "this", "that", "within", "before", "after", "during", "under",
             "over", "per", "for", "with", "without", "from", "into", "across", "through", "about", "against",
             "between", "is", "are", "was", "must", "should", "can", "will", "may"}
_DEPARTMENTS = ["hr", "it", "fin", "ops", "legal", "sec", "kb", "facilities"]
_TITLES = ["Leave policy", "Device handbook", "Expense rules", "Security standard", "Travel guideline",
           "Onboarding checklist", "Payroll FAQ", "Remote work policy", "Incident runbook", "Benefits overview"]
_ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "kr", "tr", "st", "gr",
           "pl", "sk", "zh", "th", "qu"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou"]
_CODAS = ["", "", "n", "r", "x", "l", "s", "th", "v"]
_SUFFIXES = ["Initiative", "Program", "Platform", "Suite", "Labs", "Engine", "Gateway", "Toolkit"]
_PUNCTUATED = ["C++", ".NET", "F#", "AT&T", "Node.js", "Q#", "R&D-7", "S/4 Core"]
# The kinds of the first ten terms; planted terms are taken among them.
_FIRST_KINDS = ["project", "upper", "pair", "punct", "code", "triple", "lower", "punct", "project", "pair"]
_KINDS = ["project", "upper", "pair", "triple", "code", "lower"]
PLANTED = (0, 3, 5)  # indices of the terms that answers sometimes contain


@dataclass
class Turn:
    """One chat turn: the output, the retrieved sources (dicts, as an API would pass them) and the caller's roles."""

    output: str
    sources: list[dict[str, Any]]
    roles: list[str] = field(default_factory=lambda: list(CALLER_ROLES))


def _sentence(rng: random.Random, lo: int = 8, hi: int = 18) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(lo, hi))]
    while words[-1] in _FUNCTION:  # end on a content word
        words[-1] = rng.choice(_WORDS)
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), str(rng.choice([3, 5, 10, 12, 25, 30, 90])))
    if rng.random() < 0.2:
        words.insert(rng.randint(2, len(words) - 1), rng.choice(["e.g.", "i.e.", "v2.5", "1.5"]))
    if rng.random() < 0.3:
        k = rng.randint(2, len(words) - 2)
        words[k] += ","
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def _source_id(rng: random.Random, used: set[str]) -> str:
    while True:
        dept = rng.choice(_DEPARTMENTS)
        sid = f"{dept}-{rng.randint(1, 99)}" if rng.random() < 0.6 else f"{dept}_{rng.randint(1, 99):04d}"
        if sid not in used:
            used.add(sid)
            return sid


def make_sources(rng: random.Random, n: int = 10, size: int = 1500) -> list[dict[str, Any]]:
    """``n`` passages of about ``size`` characters. Roles: most visible to the caller, two not (one to nobody)."""
    used: set[str] = set()
    roles_cycle: list[list[str] | None] = [None, ["employee"], None, ["employee", "contractor"], ["finance-leads"],
                                           None, ["employee"], [], None, ["employee"]]
    sources = []
    for k in range(n):
        sentences: list[str] = []
        while sum(len(s) + 1 for s in sentences) < size:
            sentences.append(_sentence(rng))
        sources.append({"id": _source_id(rng, used), "text": " ".join(sentences), "roles": roles_cycle[k % 10]})
    return sources


def is_visible(source: dict[str, Any], roles: list[str]) -> bool:
    """Whether a caller holding ``roles`` may see ``source`` (CONTRACT section 1)."""
    return source["roles"] is None or bool(set(source["roles"]) & set(roles))


def _quote(rng: random.Random, text: str) -> str:
    """A verbatim span of one sentence of ``text`` (5-10 words), sometimes with an ellipsis gap."""
    sentences = [s for s in text.split(". ") if len(s.split()) >= 12]
    words = rng.choice(sentences).rstrip(".").split()
    k = rng.randint(5, min(10, len(words) - 1))
    i = rng.randint(0, len(words) - k)
    if rng.random() < 0.25 and i + k + 3 <= len(words):
        return " ".join(words[i:i + 3]) + " ... " + " ".join(words[i + k - 2:i + k + 1])
    return " ".join(words[i:i + k])


def _cite(rng: random.Random, ids: list[str]) -> str:
    if rng.random() < 0.15:
        a, b = rng.sample(ids, 2)
        return f"[doc:{a}][doc:{b}]"
    return f"[doc:{rng.choice(ids)}]"


def _claim(rng: random.Random, ids: list[str]) -> str:
    body = _sentence(rng)
    return f"{body} {_cite(rng, ids)}" if rng.random() < 0.3 else f"{body[:-1]} {_cite(rng, ids)}."


def _near_miss(sid: str) -> str:
    return sid.replace("-", "_") if "-" in sid else sid.replace("_", "-")


def make_answer(
    rng: random.Random, sources: list[dict[str, Any]], terms: list[str], size: int = 2000, k: int = 0
) -> str:
    """An answer of about ``size`` characters citing ``sources``; ``k`` (the turn number) chooses its defects."""
    visible = [s for s in sources if is_visible(s, CALLER_ROLES)]
    by_id = {s["id"]: s for s in visible}
    ids = list(by_id)
    hidden = [s["id"] for s in sources if not is_visible(s, CALLER_ROLES)]
    body: list[str] = []
    slots = max(4, min(9, size // 220))  # claim-sized slots at least; 9 in a ~2 KB answer
    quotes_at = set(rng.sample(range(1, slots), min(rng.randint(2, 4), slots - 1)))
    free = [s for s in range(slots) if s not in quotes_at]  # slots for the planted defects, from the end
    term_at, miss_at, hidden_at = [-1, -1, -1, *free][-1:-4:-1]
    slot = 0
    paragraph: list[str] = []
    budget = size - 330  # room for the list and the Sources section
    while sum(len(p) + 1 for p in paragraph) + sum(len(p) + 2 for p in body) < budget or slot < slots:
        if slot in quotes_at:
            sid = rng.choice(ids)
            q = _quote(rng, by_id[sid]["text"])
            if k % 16 == 5 and slot == min(quotes_at):
                q = q.replace(" ", " never ", 1)  # an altered quotation: unverified
            opening, closing = ('"', '"') if rng.random() < 0.6 else ("“", "”")
            lead = rng.choice(["The handbook states that", "According to the policy,", "As written,", "It says"])
            paragraph.append(f"{lead} {opening}{q}{closing} [doc:{sid}].")
        elif slot == term_at and k % 3 == 1:
            term = terms[PLANTED[k // 3 % len(PLANTED)]]
            paragraph.append(f"Teams still using {term} should plan the migration {_cite(rng, ids)}.")
        elif slot == miss_at and k % 10 == 7:
            paragraph.append(f"{_sentence(rng)[:-1]} [doc:{_near_miss(rng.choice(ids))}].")
        elif slot == hidden_at and k % 20 == 13 and hidden:
            paragraph.append(f"{_sentence(rng)[:-1]} [doc:{rng.choice(hidden)}].")
        else:
            paragraph.append(_claim(rng, ids))
        slot += 1
        if len(paragraph) >= rng.randint(3, 5):
            body.append(" ".join(paragraph))
            paragraph = []
    if paragraph:
        body.append(" ".join(paragraph))
    intro = rng.choice(["Here is what the handbook says:", "Sure, here you go.", "Short answer first:"])
    items = [f"- {_sentence(rng, 4, 9)[:-1]}" + (f" {_cite(rng, ids)}" if rng.random() < 0.7 else "")
             for _ in range(rng.randint(3, 4))]
    closing = "Hope this helps!" + (" 👍" if k % 10 == 3 else "")
    cited = sorted(set(ids) & set(" ".join(body).replace("[doc:", " ").replace("]", " ").split()))
    sources_lines = [f"- [doc:{sid}] {rng.choice(_TITLES)}" for sid in cited[:4]]
    parts = [intro, *body, "Key points:\n" + "\n".join(items), closing, "Sources:\n" + "\n".join(sources_lines)]
    return "\n\n".join(parts)


def _pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(rng.randint(2, 3)))


def _term(rng: random.Random, kind: str) -> str:
    w = _pseudo_word
    if kind == "project":
        return f"Project {w(rng).capitalize()}"
    if kind == "upper":
        return w(rng).upper()
    if kind == "pair":
        return f"{w(rng).capitalize()} {w(rng).capitalize()}"
    if kind == "triple":
        return f"{w(rng).capitalize()} {w(rng).capitalize()} {rng.choice(_SUFFIXES)}"
    if kind == "code":
        return f"{rng.choice('QXZVW')}{rng.choice('QXZVWJ')}-{rng.randint(100, 9999)}"
    return w(rng)


def make_terms(seed: int, n: int) -> list[str]:
    """``n`` distinct banned terms (distinct after case folding); a list for a smaller ``n`` is a prefix of it."""
    rng = random.Random(seed * 7919 + 1)
    vocabulary = {w.casefold() for w in _WORDS}
    punctuated = iter(_PUNCTUATED)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        i = len(out)
        kind = _FIRST_KINDS[i] if i < len(_FIRST_KINDS) else _KINDS[i % len(_KINDS)]
        if kind == "punct" or (i % 20_000 == 10_000):
            term = next(punctuated, None) or _term(rng, "pair")
        else:
            term = _term(rng, kind)
        key = term.casefold()
        if key in seen or key in vocabulary:
            continue
        seen.add(key)
        out.append(term)
    return out


def make_turns(seed: int, count: int, terms: list[str]) -> list[Turn]:
    """``count`` typical turns; every fourth shares the previous turn's sources (passages repeat across turns)."""
    rng = random.Random(seed)
    turns: list[Turn] = []
    sources = make_sources(rng)
    for k in range(count):
        if k % 4:
            sources = make_sources(rng)
        turns.append(Turn(make_answer(rng, sources, terms, k=k), sources))
    return turns


def make_long_turn(seed: int, size: int, terms: list[str]) -> Turn:
    """One output of about ``size`` characters: typical answers one after another, over one set of sources, with
    the defects that redact, strip or flag (so that it is modified, not blocked)."""
    rng = random.Random(seed)
    sources = make_sources(rng)
    parts: list[str] = []
    total, k = 0, 7  # answer 7 carries a near-miss citation (strip) and a banned term (redact)
    while total < size:
        piece = make_answer(rng, sources, terms, size=min(2000, max(600, size - total)), k=k)
        parts.append(piece)
        total += len(piece) + 2
        k += 1
        while k % 16 == 5 or k % 20 == 13:  # skip the blocking defects, so that every phase does its full work
            k += 1
    return Turn("\n\n".join(parts), sources)


TICKET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["summary", "priority", "category"],
    "additionalProperties": False,
    "properties": {
        "summary": {"type": "string", "minLength": 5, "maxLength": 200},
        "priority": {"enum": ["low", "normal", "high", "urgent"]},
        "category": {"enum": ["billing", "access", "hardware", "software", "other"]},
        "description": {"type": "string", "maxLength": 2000},
        "steps": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "customer_visible": {"type": "boolean"},
    },
}


def make_tickets(seed: int, count: int) -> list[str]:
    """JSON tickets of ~1 KB; one in eight is invalid (bad enum, missing key, not JSON) and one in five is fenced."""
    rng = random.Random(seed + 17)
    out = []
    for k in range(count):
        ticket: dict[str, Any] = {
            "summary": _sentence(rng, 6, 12),
            "priority": rng.choice(["low", "normal", "high", "urgent"]),
            "category": rng.choice(["billing", "access", "hardware", "software", "other"]),
            "description": " ".join(_sentence(rng) for _ in range(4)),
            "steps": [_sentence(rng, 4, 8) for _ in range(rng.randint(4, 7))],
            "customer_visible": rng.random() < 0.5,
        }
        if k % 8 == 3:
            ticket["priority"] = "critical"
        elif k % 8 == 6:
            del ticket["category"]
        text = json.dumps(ticket, indent=2)
        if k % 16 == 11:
            text = text[:-2]  # truncated: not JSON
        if k % 5 == 2:
            text = f"```json\n{text}\n```"
        out.append(text)
    return out


if __name__ == "__main__":
    terms = make_terms(1, 10)
    turn = make_turns(1, 2, terms)[1]
    print(terms)
    print(len(turn.output), [len(s["text"]) for s in turn.sources])
    print(turn.output)
