"""Property tests: the contract's promises hold for every input, not just the examples."""

from __future__ import annotations

from typing import Any

import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import Action, Decision, Guard, Label, Verdict
from guardrail.text import words

SOURCES: list[dict[str, Any]] = [
    {"id": "hr-12", "text": "Full-time employees receive 25 days of paid annual leave per calendar year.",
     "roles": ["employee"]},
    {"id": "it-3", "text": "Laptops are replaced every three years. Lost devices must be reported within 24 hours.",
     "roles": None},
    {"id": "fin-9", "text": "The Berlin office will close in March; 120 roles are affected.", "roles": ["finance"]},
    {"id": "sealed", "text": "Nobody may read this passage about the merger with Initech.", "roles": []},
    {"id": "faq", "text": "Carry-over of up to 5 days needs the manager's approval \u2014 in writing."},
]
ROLE_SETS = [[], ["employee"], ["finance"], ["employee", "finance"], ["admin"]]
CITED = ["hr-12", "it-3", "fin-9", "sealed", "faq", "hr-13", "it_3", "HR-12", "x"]
TERMS = ["Project Falcon", "BLUEJAY", "C++", ".NET", "Nightingale"]
MARKER = regex.compile(r"\[doc:(?P<id>[^\]\s]+)\]")
QUOTE_MARKS = ('"', "\u201c", "\u201d")

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG_BUDGET = 60_000  # no latency-budget GUARD_ERROR on a slow, shared machine

# Every inline check on, acting by strip or redact (never block), so that modified outputs are common.
ACTING = {
    "citations": {"on_hallucinated": "strip", "on_unauthorized": "strip", "coverage": "flag"},
    "quotes": {"min_chars": 12, "on_unverified": "strip"},
    "banned_terms": {"terms": TERMS, "on_match": "redact"},
    "instructions": {"no_emoji": True, "must_not_match": [r"\bTODO\b"], "on_violation": "strip"},
    "budget_ms": BIG_BUDGET,
}
STRIPPING = {**ACTING, "citations": {**ACTING["citations"], "coverage": "strip"},
             "banned_terms": {"terms": TERMS, "on_match": "strip"}}
FLAGGING = {
    "citations": {"on_hallucinated": "flag", "on_unauthorized": "flag", "coverage": "flag"},
    "quotes": {"on_unverified": "flag"},
    "banned_terms": {"terms": TERMS, "on_match": "flag"},
    "instructions": {"no_emoji": True, "must_not_match": [r"\bTODO\b"], "max_words": 40, "min_words": 3,
                     "max_chars": 300, "min_bullets": 1, "max_bullets": 2, "required_sections": ["Sources"]},
    "schema": {"json_schema": {"type": "object"}, "on_invalid": "flag"},
    "budget_ms": BIG_BUDGET,
}
GUARDS = {name: Guard.from_dict(policy) for name, policy in
          [("acting", ACTING), ("stripping", STRIPPING), ("flagging", FLAGGING)]}
TERM_FINDER = Guard.from_dict({"banned_terms": {"terms": TERMS, "on_match": "flag"}})

# ------------------------------------------------------------------------------------------------- the generators

WORDS = ["leave", "days", "the", "employees", "receive", "laptops", "are", "replaced", "office", "Berlin", "25",
         "policy", "approval", "e.g.", "Dr.", "3.5", "U.S.", "(see", "below)", "manager's", "falconry", "C", "NET",
         "über", "东京", "—", "well,", "it's", "per", "year"]
GREETINGS = ["Hi!", "Thanks!", "Sure, here you go.", "Hope this helps!", "Hello there."]
EMOJI = ["\U0001f389", "\u2764\ufe0f", "1\ufe0f\u20e3", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u00a9",
         "\u2122"]


def banned_term(draw: st.DrawFn) -> str:
    term, variant, k = draw(st.tuples(st.sampled_from(TERMS), st.integers(0, 6), st.integers(1, 9)))
    k = min(k, len(term) - 1)
    return [
        term,
        term.upper(),
        term.lower(),
        term[:k] + "\u200b" + term[k:],  # zero-width characters are ignored by matching
        term[:1] + "\u00ad" + term[1:],
        term.replace(" ", "  \t"),  # whitespace runs match one space
        term[:k] + "[doc:hr-13]" + term[k:],  # a marker inside the term: removing it must not make one
    ][variant]


def quotation(draw: st.DrawFn) -> str:
    source, a, length, mutation, curly = draw(st.tuples(
        st.sampled_from(SOURCES), st.integers(0, 80), st.integers(1, 60), st.integers(0, 7), st.booleans()))
    text = source["text"]
    a = min(a, len(text) - 1)
    inner = text[a:a + length].replace('"', "")
    inner = [inner, inner, inner, "twenty-five paid days a year", inner.upper(), inner + " extra words here",
             inner.replace(" ", " ... ", 1), inner.replace("-", "\u2013") + " " + banned_term(draw)][mutation]
    return f"\u201c{inner}\u201d" if curly else f'"{inner}"'


def marker(draw: st.DrawFn) -> str:
    cited = draw(st.sampled_from(CITED))
    # a marker split by another one: removing the inner one must not form a new marker
    return "[doc: [doc:hr-13]sealed]" if cited == "x" else f"[doc:{cited}]"


EXTRAS = {"term": banned_term, "quote": quotation, "marker": marker,
          "emoji": lambda draw: draw(st.sampled_from(EMOJI)), "todo": lambda draw: "TODO"}


def sentence(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
    parts[0] = parts[0].capitalize()
    for extra in draw(st.lists(st.sampled_from(sorted(EXTRAS)), max_size=2)):
        parts.insert(draw(st.integers(0, len(parts))), EXTRAS[extra](draw))
    end, n_tail, tail_first = draw(st.tuples(st.sampled_from([".", "!", "?", "…", ":", ""]), st.integers(0, 2),
                                             st.booleans()))
    text = " ".join(parts)
    tail = " ".join(marker(draw) for _ in range(n_tail))
    if tail and tail_first:
        return f"{text} {tail}{end}"
    return f"{text}{end}" + (f" {tail}" if tail else "")


def line(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["prose", "prose", "prose", "item", "numbered", "heading", "bold", "greeting",
                                 "question", "sources-inline", "noise"]))
    if kind == "prose":
        return " ".join(sentence(draw) for _ in range(draw(st.integers(1, 3))))
    if kind == "item":
        return "- " + sentence(draw)
    if kind == "numbered":
        return f"{draw(st.integers(1, 9))}. " + sentence(draw)
    if kind == "heading":
        return "#" * draw(st.integers(1, 3)) + " " + " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1,
                                                                               max_size=4)))
    if kind == "bold":
        return "**" + draw(st.sampled_from(["Summary", "Details", "Sources"])) + "**"
    if kind == "greeting":
        return draw(st.sampled_from(GREETINGS))
    if kind == "question":
        return "Is that " + draw(st.sampled_from(WORDS)) + "?" + (" " + marker(draw) if draw(st.booleans()) else "")
    if kind == "sources-inline":
        return "Sources: " + ", ".join(marker(draw) for _ in range(draw(st.integers(1, 3))))
    return draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))


def sources_section(draw: st.DrawFn) -> str:
    heading = draw(st.sampled_from(["Sources:", "## Sources", "**Sources**", "References:"]))
    titles = ["HR handbook", "IT FAQ", "BLUEJAY notes"]
    lines = [f"- {marker(draw)} {draw(st.sampled_from(titles))}" for _ in range(draw(st.integers(1, 3)))]
    return "\n".join([heading, *lines])


@st.composite
def answer(draw: st.DrawFn) -> str:
    """A realistic chat answer: prose with markers, quotes, banned terms, lists, headings and a Sources section."""
    n_lines, with_sources, ending = draw(st.tuples(st.integers(1, 5), st.booleans(),
                                                   st.sampled_from(["", "", "\n", "  "])))
    lines = [line(draw) for _ in range(n_lines)]
    if with_sources:
        lines += ["", sources_section(draw)]
    text = lines[0]
    for ln in lines[1:]:
        text += draw(st.sampled_from(["\n", "\n", "\n\n", "\r\n"])) + ln
    return text + ending


contexts = st.tuples(st.sampled_from(ROLE_SETS), st.sampled_from([SOURCES, SOURCES[:2], []]))
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)
outputs = st.one_of(answer(), any_text, st.tuples(answer(), any_text).map(lambda p: p[0] + p[1]))
guard_names = st.sampled_from(sorted(GUARDS))
EMPLOYEE = (["employee"], SOURCES)


# ---------------------------------------------------------------------------------------------------- the checks


def check(name: str, output: str, ctx: tuple[list[str], list[dict[str, Any]]]) -> Verdict:
    roles, sources = ctx
    return GUARDS[name].check(output, sources, roles)


def invisible_ids(ctx: tuple[list[str], list[dict[str, Any]]]) -> set[str]:
    roles, sources = ctx
    visible = {s["id"] for s in sources if s.get("roles") is None or set(s["roles"]) & set(roles)}
    return {s["id"] for s in sources} - visible


@SETTINGS
@given(name=guard_names, output=outputs, ctx=contexts)
@example(name="acting", output="", ctx=([], []))
@example(name="flagging", output="\r\n\r\n```", ctx=([], SOURCES))
def test_no_input_crashes_and_decisions_are_consistent(name: str, output: str, ctx: Any) -> None:
    verdict = check(name, output, ctx)
    assert isinstance(verdict.output, str)
    assert verdict.decision in Decision
    if verdict.decision is Decision.PASS:
        assert verdict.output == output
        assert all(f.action is Action.FLAG for f in verdict.findings)
    elif verdict.decision is Decision.BLOCKED:
        assert verdict.output == GUARDS[name].policy.blocked_message
    else:
        assert verdict.output != output
        assert any(f.action in (Action.STRIP, Action.REDACT) for f in verdict.findings)
    assert not any(f.label is Label.GUARD_ERROR for f in verdict.findings), verdict.findings


@SETTINGS
@given(name=guard_names, output=outputs, ctx=contexts)
# Edits that join a banned term or an unauthorized marker: what only the edited output fails covers the whole output.
@example(name="acting", output="Ask Project [doc:hr-13] Falcon now [doc:it-3].", ctx=EMPLOYEE)
@example(name="acting", output="Claim [doc:it-3] [doc: [doc:hr-13]sealed].", ctx=EMPLOYEE)
@example(name="acting", output='"Full-time ... employees receive 25 days of paid" Leave.', ctx=([], SOURCES))
def test_finding_offsets_map_back_to_the_text_they_name(name: str, output: str, ctx: Any) -> None:
    verdict = check(name, output, ctx)
    for f in verdict.findings:
        assert 0 <= f.start <= f.end <= len(output), f
        span = output[f.start:f.end]
        if f.message.endswith("(in the edited output)"):
            assert (f.start, f.end, f.action) == (0, len(output), Action.BLOCK), f
            assert verdict.decision is Decision.BLOCKED
        elif f.label in (Label.HALLUCINATED_SOURCE, Label.UNAUTHORIZED_SOURCE):
            retrieved = {s["id"] for s in ctx[1]}
            m = MARKER.fullmatch(span)
            if m is None and f.label is Label.UNAUTHORIZED_SOURCE:
                # Defence in depth: an invisible source's ID as a whole token, or words copied from its text.
                hidden = invisible_ids(ctx)
                # (a copy is of words: punctuation, case and an ellipsis between them do not matter)
                copied = any(f" {' '.join(words(span))} " in f" {' '.join(words(s['text']))} "
                             for s in ctx[1] if s["id"] in hidden)
                assert span in hidden or copied or "doc" in span.lower(), (f, span)
                continue
            assert m is not None, (f, span)
            assert (m.group("id") in retrieved) == (f.label is Label.UNAUTHORIZED_SOURCE)
        elif f.label is Label.BANNED_TERM:
            assert TERM_FINDER.check(span).findings, (f, span)  # the span itself holds a term
            assert span == span.strip()
        elif f.label is Label.UNVERIFIED_QUOTE:
            assert len(span) >= 2 and span[0] in QUOTE_MARKS and span[-1] in QUOTE_MARKS, (f, span)
        elif f.label is Label.UNCITED_CLAIM:
            assert span.strip() and "\n" not in span, (f, span)
        elif f.label is Label.SCHEMA_INVALID or (f.label is Label.INSTRUCTION_VIOLATED and not f.message.startswith(
                ("no_emoji", "must_not_match"))):
            assert (f.start, f.end) == (0, len(output))
        elif f.label is Label.INSTRUCTION_VIOLATED:
            assert span, f


@SETTINGS
@given(name=st.sampled_from(["acting", "stripping"]), output=answer(), ctx=contexts)
# A redaction lengthens a short quotation past min_chars; the re-check then finds it unverified.
@example(name="acting", output='Note "zz C++" here [doc:it-3].', ctx=EMPLOYEE)
# Removing a hallucinated marker glues the two halves of a banned term, or of an unauthorized marker, together.
@example(name="acting", output="Ask Project [doc:hr-13] Falcon now [doc:it-3].", ctx=EMPLOYEE)
@example(name="acting", output="Claim [doc:it-3] [doc: [doc:hr-13]sealed].", ctx=EMPLOYEE)
def test_a_modified_output_is_a_fixed_point(name: str, output: str, ctx: Any) -> None:
    first = check(name, output, ctx)
    if first.decision is not Decision.MODIFIED:
        return
    again = check(name, first.output, ctx)
    assert again.decision is Decision.PASS, (first.output, again.findings)
    assert again.output == first.output


@SETTINGS
@given(name=st.sampled_from(["acting", "stripping"]), output=outputs, ctx=contexts)
@example(name="acting", output="Ask Project [doc:hr-13] Falcon now [doc:it-3].", ctx=EMPLOYEE)
@example(name="acting", output="Use BLUE[doc:hr-13]JAY now [doc:it-3].", ctx=EMPLOYEE)
@example(name="acting", output="Claim [doc:it-3] [doc: [doc:hr-13]sealed].", ctx=EMPLOYEE)
def test_nothing_covered_by_an_acting_finding_reaches_the_user(name: str, output: str, ctx: Any) -> None:
    verdict = check(name, output, ctx)
    if verdict.decision is Decision.BLOCKED:
        return
    # no banned term (terms are redacted or stripped, never flagged, in these policies)
    assert TERM_FINDER.check(verdict.output).findings == [], verdict.output
    # no marker citing a source the caller may not see
    hidden = invisible_ids(ctx)
    for m in MARKER.finditer(verdict.output):
        assert m.group("id") not in hidden, verdict.output
    # and no error message echoes either
    for f in verdict.findings:
        assert TERM_FINDER.check(f.message).findings == [], f
        assert not any(h in f.message for h in hidden), f


@SETTINGS
@given(output=outputs, ctx=contexts)
def test_flag_only_policy_never_changes_the_output(output: str, ctx: Any) -> None:
    verdict = check("flagging", output, ctx)
    assert verdict.decision is Decision.PASS
    assert verdict.output == output
    assert all(f.action is Action.FLAG for f in verdict.findings)


@settings(max_examples=100, deadline=None)
@given(output=outputs, ctx=contexts)
def test_check_is_deterministic(output: str, ctx: Any) -> None:
    assert check("acting", output, ctx) == check("acting", output, ctx)
