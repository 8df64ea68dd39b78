"""A lean, naive reference guard: the same core work as guardrail's inline checks, done the straightforward way.

- banned terms: one precompiled regex per term, ``(?<!\\w)TERM(?!\\w)`` with ``re.I``, searched in turn;
- quotes: every visible source normalised on every call (NFKC, quotes and dashes, whitespace collapse, casefold);
- citations: one regex for the markers and set lookups; statements from one simple sentence regex per line;
- instructions: a word regex and an emoji character class; schema: ``json.loads`` and a jsonschema validator.

It returns findings as ``(label, start, end)``, applies redactions and marker removals, and blocks on a block action.
It is meant to be correct in spirit, not to follow every rule of CONTRACT.md (no zero-width handling, no offset map,
simpler segmentation and exemptions).
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping
from functools import cache
from typing import Any

Finding = tuple[str, int, int]

_MARKER = re.compile(r"\[doc:([^\]\s]+)\]")
# A sentence: up to a terminator (not that of "e.g.", "i.e." or "...") followed by whitespace or the end of the line,
# with the markers after it.
_SENTENCE = re.compile(
    r"[^\s].*?(?:(?<!\be\.g)(?<!\bi\.e)(?<!\.\.)[.!?…][\"'”’)\]]*(?:\s*\[doc:[^\]\s]+\])*(?=\s|$)|$)", re.M
)
_GREETING = re.compile(r"(?:hi|hello|thanks|thank you|sure|hope this helps|here you go)\b", re.I)
_QUOTE = re.compile(r'"([^"\n]+)"|“([^“”\n]+)”')
_GAP = re.compile(r"\.\.\.|…")
_WS = re.compile(r"\s+")
_WORD = re.compile(r"\w+(?:['’-]\w+)*")
_EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\u2B55]")
_FENCED = re.compile(r"\s*```[ \t]*(?:json)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```\s*", re.S | re.I)
_TRANSLATE = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})


@cache
def term_pattern(term: str) -> re.Pattern[str]:
    """The regex of one banned term (whitespace inside it matches any whitespace run); shared by every instance."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in term.split()) + r"(?!\w)", re.I)


def normalize(text: str) -> str:
    """NFKC, curly quotes and dashes folded, whitespace runs to one space, case folded."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text).translate(_TRANSLATE)).casefold()


class Reference:
    """The reference guard for a policy dict with the same sections as guardrail's (defaults as in CONTRACT)."""

    def __init__(self, policy: Mapping[str, Any], prefilter: bool = False):
        self.citations = policy.get("citations")
        self.quotes = policy.get("quotes")
        self.instructions = policy.get("instructions")
        self.prefilter = prefilter
        terms = (policy.get("banned_terms") or {}).get("terms", [])
        self.has_terms = "banned_terms" in policy
        self.replacement = (policy.get("banned_terms") or {}).get("replacement", "[redacted]")
        self.terms = list(terms)
        self.term_keys = [t.split()[0].casefold() for t in terms]
        if not prefilter:  # compiled up front, like a policy; with the prefilter, on first use
            for term in terms:
                term_pattern(term)
        self.validator = None
        if "schema" in policy:
            from jsonschema import Draft202012Validator

            self.validator = Draft202012Validator(policy["schema"]["json_schema"])

    def check(self, output: str, sources: list[dict[str, Any]], roles: list[str]) -> tuple[str, str, list[Finding]]:
        """``(decision, text, findings)`` for one output."""
        findings: list[tuple[str, str, int, int]] = []  # (action, label, start, end)
        retrieved = {s["id"] for s in sources}
        role_set = set(roles)
        visible = {s["id"]: s["text"] for s in sources if s.get("roles") is None or role_set & set(s["roles"])}
        markers = [(m.start(), m.end(), m.group(1)) for m in _MARKER.finditer(output)]
        statements = [m.span() for m in _SENTENCE.finditer(output) if m.group().strip()]
        starts = [a for a, _ in statements]

        def cited_in(k: int) -> list[str]:
            a, b = statements[k]
            return [sid for s, _, sid in markers if a <= s < b]

        if self.citations is not None:
            for a, b, sid in markers:
                if sid not in retrieved:
                    findings.append(("strip", "HALLUCINATED_SOURCE", a, b))
                elif sid not in visible:
                    findings.append(("block", "UNAUTHORIZED_SOURCE", a, b))
            if self.citations.get("coverage", "off") not in ("off", False):
                for k, (a, b) in enumerate(statements):
                    text = _MARKER.sub(" ", output[a:b]).strip()
                    exempt = (text.endswith(("?", ":")) or text.startswith(("#", "Sources")) or not _WORD.search(text)
                              or (len(_WORD.findall(text)) <= 4 and _GREETING.match(text) is not None))
                    if not exempt and not any(sid in visible for sid in cited_in(k)):
                        findings.append(("flag", "UNCITED_CLAIM", a, b))
        if self.quotes is not None:
            normalized = {sid: normalize(text) for sid, text in visible.items()}  # every call, every source
            min_chars = self.quotes.get("min_chars", 12)
            for m in _QUOTE.finditer(output):
                g = 1 if m.group(1) is not None else 2
                if len(m.group(g)) < min_chars:
                    continue
                k = bisect_right(starts, m.start()) - 1
                cited = cited_in(k) if k >= 0 else []
                allowed = [normalized[s] for s in dict.fromkeys(cited) if s in normalized] if cited \
                    else list(normalized.values())
                pieces = [p.strip() for p in _GAP.split(normalize(_MARKER.sub(" ", m.group(g)))) if p.strip()]
                if not any(_in_order(pieces, hay) for hay in allowed):
                    findings.append(("block", "UNVERIFIED_QUOTE", m.start(), m.end()))
        if self.has_terms:
            folded = output.casefold() if self.prefilter else ""
            for key, term in zip(self.term_keys, self.terms, strict=True):
                if self.prefilter and key not in folded:
                    continue
                for m in term_pattern(term).finditer(output):
                    findings.append(("redact", "BANNED_TERM", m.start(), m.end()))
        if self.instructions is not None:
            max_words = self.instructions.get("max_words")
            if max_words is not None and len(_WORD.findall(_MARKER.sub(" ", output))) > max_words:
                findings.append(("flag", "INSTRUCTION_VIOLATED", 0, len(output)))
            if self.instructions.get("no_emoji"):
                findings.extend(("flag", "INSTRUCTION_VIOLATED", m.start(), m.end()) for m in _EMOJI.finditer(output))
        if self.validator is not None:
            fenced = _FENCED.fullmatch(output)
            try:
                instance = json.loads(fenced.group(1) if fenced else output)
                valid = self.validator.is_valid(instance)
            except ValueError:
                valid = False
            if not valid:
                findings.append(("block", "SCHEMA_INVALID", 0, len(output)))
        return self._decide(output, findings)

    def _decide(self, output: str, findings: list[tuple[str, str, int, int]]) -> tuple[str, str, list[Finding]]:
        labelled = [(label, a, b) for _, label, a, b in findings]
        if any(action == "block" for action, *_ in findings):
            return "blocked", "Sorry, I can't share that answer.", labelled
        edits = sorted((a, b, self.replacement if action == "redact" else "")
                       for action, _, a, b in findings if action in ("redact", "strip"))
        if not edits:
            return "pass", output, labelled
        pieces, pos = [], 0
        for a, b, rep in edits:
            if a < pos:
                continue
            pieces += [output[pos:a], rep]
            pos = b
        pieces.append(output[pos:])
        return "modified", "".join(pieces), labelled


def _in_order(pieces: list[str], haystack: str) -> bool:
    pos = 0
    for piece in pieces:
        found = haystack.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    return True
