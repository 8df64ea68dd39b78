"""The stream guard: for any chunking, what is released equals what the buffered check decides (CONTRACT section 6)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_properties import ACTING, BIG_BUDGET, SOURCES, STRIPPING, TERMS, answer, contexts, invisible_ids

from guardrail import Action, Decision, Guard, Source
from guardrail.stream import StreamGuard

POLICIES: dict[str, dict[str, Any]] = {
    "acting": ACTING,
    "stripping": STRIPPING,
    "terms-only": {"banned_terms": {"terms": TERMS, "on_match": "redact"}, "budget_ms": BIG_BUDGET},
    "blocking": {**ACTING, "citations": {"on_hallucinated": "block", "on_unauthorized": "block"},
                 "quotes": {"on_unverified": "block"}},
    "flag-only": {"citations": {"on_hallucinated": "flag", "on_unauthorized": "flag", "coverage": "flag"},
                  "budget_ms": BIG_BUDGET},
    "whole-output": {**ACTING, "instructions": {"max_words": 60, "on_violation": "block"}},
}
GUARDS = {name: Guard.from_dict(policy) for name, policy in POLICIES.items()}
TERM_FINDER = Guard.from_dict({"banned_terms": {"terms": TERMS, "on_match": "flag"}})


def stream(guard: Guard, output: str, sizes: list[int], ctx: Any) -> tuple[str, StreamGuard, Any]:
    roles, sources = ctx
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in sources], frozenset(roles))
    released, pos, k = [], 0, 0
    while pos < len(output):
        size = sizes[k % len(sizes)] if sizes else len(output)
        released.append(session.feed(output[pos:pos + size]))
        pos += size
        k += 1
    rest, verdict = session.finish()
    released.append(rest)
    return "".join(released), session, verdict


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GUARDS)), output=answer(), ctx=contexts,
       sizes=st.lists(st.integers(1, 24), max_size=12))
@example(name="acting", output="Hi! Leave is 25 days [doc:hr-12]. Laptops [doc:it_3].", ctx=(["employee"], SOURCES),
         sizes=[1])
@example(name="terms-only", output="Ask Project\n  Falcon now.", ctx=([], []), sizes=[3])
def test_streamed_release_equals_the_buffered_decision(name: str, output: str, ctx: Any, sizes: list[int]) -> None:
    guard = GUARDS[name]
    assert_streamed_is_buffered(guard, output, ctx, *stream(guard, output, sizes, ctx))


def assert_streamed_is_buffered(guard: Guard, output: str, ctx: Any, released: str, session: StreamGuard,
                                verdict: Any) -> None:
    """The stream's promise: the buffered decision; its output released when it passes or is modified, and when it
    is blocked nothing an acting finding covers (no banned term, no invisible source's marker)."""
    buffered = guard.check(output, ctx[1], ctx[0])
    assert verdict.decision is buffered.decision
    if buffered.decision is Decision.BLOCKED:
        assert session.blocked
        if guard.policy.banned_terms and guard.policy.banned_terms.on_match != "flag":
            assert not TERM_FINDER.check(released).findings, released
        for hidden in invisible_ids(ctx):
            assert f"[doc:{hidden}]" not in released
    else:
        assert released == buffered.output


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GUARDS)), output=answer(), ctx=contexts,
       sizes=st.lists(st.integers(1, 24), max_size=12))
def test_a_long_window_releases_what_the_buffered_check_decides(name: str, output: str, ctx: Any,
                                                                 sizes: list[int]) -> None:
    """The same promise while windows count as long from 24 characters on (their looks deferred, their deltas
    waiting unjoined): what any stream here does past 2,048."""
    import guardrail.stream as stream_module

    guard = GUARDS[name]
    long = stream_module._LONG
    stream_module._LONG = 24
    try:
        streamed = stream(guard, output, sizes, ctx)
    finally:
        stream_module._LONG = long
    assert_streamed_is_buffered(guard, output, ctx, *streamed)


@settings(max_examples=100, deadline=None)
@given(output=answer(), ctx=contexts)
# A line of only "\x1f" is a statement, not a blank line: removing the next line leaves the blank after it.
@example(output="\x1f\nLeave. [doc:hr-12]\n\nLeave.\nLeave.\nLeave.", ctx=([], SOURCES))
def test_one_chunk_and_one_character_chunks_agree(output: str, ctx: Any) -> None:
    guard = GUARDS["acting"]
    whole, _, verdict = stream(guard, output, [], ctx)
    by_char, _, _ = stream(guard, output, [1], ctx)
    if verdict.decision is not Decision.BLOCKED:  # a blocked stream may stop at different points
        assert whole == by_char


def test_text_is_released_before_the_stream_ends() -> None:
    guard = GUARDS["acting"]
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset(["employee"]))
    first = session.feed("Leave is 25 days a year [doc:hr-12]. ")
    second = session.feed("Laptops are replaced every three years [doc:it-3]. More")
    assert first == ""  # the sentence is not known to be over until the next one starts
    assert second == "Leave is 25 days a year [doc:hr-12]. Laptops are replaced every three years [doc:it-3]."


def test_a_stripped_statement_is_never_released() -> None:
    guard = GUARDS["acting"]
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset(["employee"]))
    out = session.feed("Monitors last five years [doc:it-4]. ")
    out += session.feed("Laptops last three years [doc:it-3]. Done")
    rest, verdict = session.finish()
    assert "Monitors" not in out + rest
    assert out + rest == guard.check("Monitors last five years [doc:it-4]. Laptops last three years [doc:it-3]. Done",
                                     SOURCES, ["employee"]).output
    assert verdict.decision is Decision.MODIFIED


def test_a_block_stops_the_stream_before_the_unauthorized_statement() -> None:
    guard = GUARDS["blocking"]
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset(["employee"]))
    out = session.feed("Leave is 25 days [doc:hr-12]. The Berlin office closes [doc:fin-9]. ")
    out += session.feed("And more.")
    assert session.blocked
    assert "fin-9" not in out and "Berlin" not in out
    assert session.feed("Anything else.") == ""
    rest, verdict = session.finish()
    assert rest == "" and verdict.decision is Decision.BLOCKED
    assert any(f.action is Action.BLOCK for f in verdict.findings)


def test_terms_only_holds_back_no_more_than_a_term() -> None:
    guard = GUARDS["terms-only"]
    session = StreamGuard(guard.compiled)
    assert session.feed("The weather is fine today and ") == "The weather is fine today and "
    held = session.feed("Project")
    assert held == ""  # "Project" may be the start of "Project Falcon"
    assert session.feed(" Falcon is late") == "" or "Falcon" not in session.released
    rest, _ = session.finish()
    assert "Falcon" not in session.released + rest
    assert session.released.endswith("[redacted] is late")


def test_whole_output_checks_hold_everything_to_the_end() -> None:
    guard = GUARDS["whole-output"]
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset(["employee"]))
    assert session.feed("Leave is 25 days [doc:hr-12]. Laptops last [doc:it-3]. ") == ""
    rest, verdict = session.finish()
    assert rest == verdict.output


def test_a_long_code_block_costs_linear_work() -> None:
    """Inside an open fence nothing can be released, so the guard looks only at completed lines until one can close
    it: the text segmented grows with the block, not with its square (40 KB was 5x the CPU per KB of 5 KB)."""
    import guardrail.stream as stream_module

    guard = GUARDS["acting"]
    seen = []
    original = stream_module.prefix_statements

    def counting(marker_re: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(text))
        return original(marker_re, text, *args, **kwargs)

    def segmented(lines: int) -> int:
        seen.clear()
        output = "Leave is 25 days [doc:hr-12].\n\n```python\n" + "x = compute(1, 2)  # a line of code\n" * lines \
            + "```\n\nLaptops last three years [doc:it-3].\n"
        session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset({"employee"}))
        out = "".join(session.feed(output[i:i + 4]) for i in range(0, len(output), 4))
        rest, verdict = session.finish()
        assert out + rest == verdict.output == guard.check(output, SOURCES, ["employee"]).output
        return sum(seen)

    stream_module.prefix_statements = counting  # type: ignore[assignment]
    try:
        small, large = segmented(140), segmented(1120)  # ~5 KB and ~40 KB of code
    finally:
        stream_module.prefix_statements = original  # type: ignore[assignment]
    assert large < 10 * small  # linear: 8x the text; quadratic would be ~64x


def _looked_at(guard: Guard, output: str, size: int) -> tuple[int, str]:
    """The characters the looks of one stream of ``output`` read (the windows they ran on), and what it released;
    the release is checked against the buffered decision."""
    import guardrail.stream as stream_module

    seen = []
    original = StreamGuard._advance

    def counting(self: StreamGuard) -> str:
        seen.append(len(self._window))
        return original(self)

    stream_module.StreamGuard._advance = counting  # type: ignore[method-assign]
    try:
        released, _, verdict = stream(guard, output, [size], (["employee"], SOURCES))
    finally:
        stream_module.StreamGuard._advance = original  # type: ignore[method-assign]
    assert released == verdict.output == guard.check(output, SOURCES, ["employee"]).output
    return sum(seen), released


@pytest.mark.parametrize(("name", "unit"), [
    ("acting", "a. b. "),  # what can end a sentence comes with every chunk, and none does
    ("acting", "数据 [doc:hr-12] 表明"),  # a language without the sentence ends read here: markers bring the looks
    ("terms-only", "one two three "),  # releasing terms only: a look with every chunk, on a line never ending
])
def test_a_window_that_stays_long_costs_linear_work(name: str, unit: str) -> None:
    """A look reads its whole window: a window that never gets shorter is looked at again only once it has grown by
    a quarter, so the text read by all the looks grows with the output, not with its square (megabytes of
    ``a. b. `` took minutes of a server's CPU)."""
    guard = GUARDS[name]
    small, _ = _looked_at(guard, "Intro. " + unit * 400 + "End.", 8)
    large, _ = _looked_at(guard, "Intro. " + unit * 3200 + "End.", 8)
    assert large < 10 * small  # 8x the text: linear; quadratic would be ~64x


def test_a_long_window_holds_its_text_at_most_a_quarter_longer() -> None:
    """A statement that ends in a long window goes out once the window has grown by a quarter, not at the end."""
    guard = GUARDS["acting"]
    first = "Leave " + "and leave " * 300 + "is 25 days [doc:hr-12]."  # ~3 KB, one sentence
    output = first + " Laptops last three years [doc:it-3]." * 60
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset({"employee"}))
    fed = 0
    for i in range(0, len(output), 5):
        fed += len(output[i:i + 5])
        if session.feed(output[i:i + 5]):
            break
    assert session.released.startswith(first)
    assert fed <= 1.25 * len(first) + 64


def _patterns(patterns: list[str], action: str) -> dict[str, Any]:
    return {"instructions": {"must_not_match": patterns, "on_violation": action}}


# Found by a differential review (streamed against buffered, any chunking, gated and not): each once released text
# the buffered check removes, or blocked what it passes.
_FOUND: list[Any] = [
    pytest.param(_patterns([r"\bTODO\b", r"one\.\Z"], "strip"), ["TODO here. Good one. Fine"], True,
                 id="an end anchor met where the checked part of a window ends"),
    pytest.param(_patterns([r"(?m)\.$"], "strip"), ["We agree.\nGood one. Fine"], True, id="a line-end anchor"),
    pytest.param({"banned_terms": {"terms": ["BLUEJAY"], "on_match": "strip"}, **_patterns([r"one\.\Z"], "strip")},
                 ["BLUEJAY here. Good one. Fine"], True, id="an end anchor after a stripped term"),
    pytest.param(_patterns([r"(?<=\. )Bad"], "strip"), ["We agree. Bad one. ", "Fine."], True,
                 id="a lookbehind reaching before the window"),
    pytest.param(_patterns([r"(?<=\. )Bad"], "block"), ["We agree. Bad one. ", "Fine."], True,
                 id="a lookbehind that blocks"),
    pytest.param(_patterns([r"\A\s*Bad"], "strip"), ["We agree. Bad one. ", "Good two. Fine."], True,
                 id="a start anchor met where a window starts"),
    pytest.param(_patterns([r"\A\s*Bad"], "block"), ["We agree.\n", "Bad one.\n", "Fine."], True,
                 id="a start anchor that blocks"),
    pytest.param(_patterns([r"(?s)office.*March"], "strip"), ["We agree. The office is in March.\nGood.\n", "March."],
                 True, id="a greedy match that later text makes longer"),
    pytest.param(_patterns([r"office.*March"], "strip"), ["We agree. The office is in March. Good. ", "March."],
                 True, id="a greedy match growing on its line"),
    pytest.param({"quotes": {"on_unverified": "strip"}}, ['We agree. He said "". Then', ' we go home". Fine.'], True,
                 id="an empty quotation, then a lone mark"),
    pytest.param({"quotes": {}}, ['We agree. He said "". Then', ' we go home" ok. Fine.'], True,
                 id="an empty quotation, blocking"),
    pytest.param({"quotes": {"min_chars": 3, "on_unverified": "strip"}}, ['We agree. She said "". Then', ' "no'],
                 True, id="an empty quotation, three characters"),
    pytest.param({"banned_terms": {"terms": ["&"], "on_match": "redact"}}, ["x &.", "&"], False,
                 id="ungated: a term's hold reaching back into what was sent"),
    # ... and by a second round of it:
    pytest.param({"banned_terms": {"terms": ["BLUEJAY"]}, **_patterns([r"\.(?!\s)"], "strip")},
                 ["BLUEJAY is here. Ok"], True, id="a lookahead met where the checked part of a window ends"),
    pytest.param({"banned_terms": {"terms": ["BLUEJAY"]}, **_patterns([r"\.(?!\s)"], "strip")},
                 ["BLUEJAY is here.", " Ok", " then"], False, id="a lookahead, ungated"),
    pytest.param(_patterns([r"\.(?! [A-Z])"], "strip"), ["A. B. c. D"], True, id="a lookahead that strips"),
    pytest.param({"banned_terms": {"terms": ["BLUEJAY"]}, **_patterns([r"\.(?!\s)"], "block")},
                 ["BLUEJAY is here. Ok"], True, id="a lookahead that blocks"),
    pytest.param({"quotes": {"on_unverified": "strip"}}, ["Hi \u201d \u201cwe lie. Bye", " now\u201d. Fine."], True,
                 id="a stray closing curly quote before an opening one"),
    pytest.param({"quotes": {}}, ["Hi \u201d \u201cwe lie. Bye", " now\u201d. Fine."], True,
                 id="a stray closing curly quote, blocking"),
    pytest.param(_patterns([r"one\. Two", r"Two.*March"], "strip"), ["Hi one. Two is here. More"], True,
                 id="a match across another pattern's hold"),
    pytest.param(_patterns([r"one\. Two", r"Two.*March"], "block"), ["Hi one. Two is here. More"], True,
                 id="a match across another pattern's hold, blocking"),
    pytest.param({"banned_terms": {"terms": ["one. Two"]}, **_patterns([r"Two.*March"], "strip")},
                 ["Hi one. Two is here. More"], True, id="a term across a pattern's hold"),
    pytest.param({"banned_terms": {"terms": ["ab", ".x"], "on_match": "redact"}}, [" abx", "."], False,
                 id="ungated: a raw match beside a term still open"),
    pytest.param({"banned_terms": {"terms": ["AT&T", ".NET"], "on_match": "redact"}}, [" AT&Tx", "."], False,
                 id="ungated: a raw match beside .NET"),
    # ... and by a third (a fuzzer of its own, 2026-12-07):
    pytest.param({"quotes": {"on_unverified": "strip"}}, list('e. “"”"re. “ bar ip"'), True,
                 id="a straight mark inside a curly quotation, then one that opens a quotation over two sentences"),
    pytest.param({"quotes": {"on_unverified": "strip"}}, list('“"”"s. ”ody -7] "\nx'), False,
                 id="a quotation over two sentences and a bracket, ungated"),
    # ... and by a review of those fixes: a sentence end inside a closed quotation (the window started inside it)
    pytest.param({"quotes": {}}, list('\u201c"\u201d""". "a b c d e f g h i". Ok.'), True,
                 id="a sentence end inside a closed quotation, blocking"),
    pytest.param({"quotes": {}}, list('\u201c"\u201d""". "a b c d e f g h i". Ok.'), False,
                 id="a sentence end inside a closed quotation, ungated"),
]


@pytest.mark.parametrize(("policy", "chunks", "gated"), _FOUND)
def test_what_a_differential_review_found(policy: dict[str, Any], chunks: list[str], gated: bool) -> None:
    guard = Guard.from_dict(policy)
    session = StreamGuard(guard.compiled)
    session.gated = gated
    released = "".join(session.feed(c) for c in chunks)
    rest, verdict = session.finish()
    buffered = guard.check("".join(chunks))
    assert verdict.decision is buffered.decision and session.blocked is (buffered.decision is Decision.BLOCKED)
    if buffered.decision is Decision.BLOCKED:
        assert rest == "" and not any(f.start < len(released) for f in buffered.findings
                                      if f.action is Action.BLOCK and f.end < len("".join(chunks)))
    else:
        assert released + rest == buffered.output


def test_a_stream_blocked_early_says_so_in_its_verdict_and_takes_no_more() -> None:
    """A look that blocks decides: the verdict ``finish`` gives is blocked, whatever the whole output's check says
    alone (it once said pass while nothing more went out), and a stream takes nothing once finished."""
    guard = GUARDS["acting"]
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in SOURCES], frozenset({"employee"}))
    session.feed("Leave is 25 days [doc:hr-12]. ")
    session.blocked = True  # (as a look that found the release diverging would leave it)
    session.findings = ()
    rest, verdict = session.finish()
    assert rest == "" and verdict.decision is Decision.BLOCKED and verdict.output == guard.policy.blocked_message
    with pytest.raises(RuntimeError):
        session.feed("More.")
    with pytest.raises(RuntimeError):
        session.finish()


@pytest.mark.parametrize(("pattern", "chunks"), [
    (r"(?s).", ["ab. ", "Cd"]),  # (the regex module's partial search spins on this until the budget is spent)
    (r"(\w|\w\w)+!", ["Hi " + "a" * 40 + ". ", "Bye"]),  # catastrophic, in the partial search
    (r"paid[^.]*?leave", [("Our office is here.\n" + "paid and leave\n" * 1000 + "Done.")[i:i + 40]
                          for i in range(0, 20 + 15 * 1000 + 5, 40)]),  # many matches, each of which may grow
])
def test_a_pattern_that_runs_out_of_time_in_a_look_is_a_guard_error_not_a_crash(pattern: str,
                                                                                 chunks: list[str]) -> None:
    """The look's own search for matches still open runs with the budget too: running out of it is a guard error
    (fail closed: a block), never an exception out of feed()."""
    guard = Guard.from_dict({**_patterns([pattern], "strip"), "budget_ms": 20})
    session = StreamGuard(guard.compiled)
    released = "".join(session.feed(c) for c in chunks)
    rest, verdict = session.finish()
    buffered = guard.check("".join(chunks))
    if verdict.decision is Decision.BLOCKED:
        assert (rest == "" and any(f.label.value == "GUARD_ERROR" for f in [*verdict.findings, *session.findings])) \
            or buffered.decision is Decision.BLOCKED
    else:
        assert released + rest == buffered.output


def test_a_copy_that_an_edit_joins_to_a_long_word_sent_before_is_never_released() -> None:
    """What was sent before the window is looked at again, with an edited window, through its last words: a word
    of 128 characters (a key) was cut out of them, and a two-word copy of an invisible source went out."""
    key = "0123456789abcdef" * 8
    guard = Guard.from_dict({"citations": {"on_unauthorized": "block", "leak_min_words": 2},
                             "banned_terms": {"terms": ["BLUEJAY"], "replacement": ""}})
    sources = [Source.coerce({"id": "sec", "text": f"The key {key} rotates daily", "roles": ["hr"]})]
    chunks = [f"Use {key}. ", "BLUEJAY rotates.", " Ok."]
    session = StreamGuard(guard.compiled, sources, frozenset())
    released = "".join(session.feed(c) for c in chunks)
    rest, verdict = session.finish()
    assert guard.check("".join(chunks), sources, []).decision is Decision.BLOCKED
    assert verdict.decision is Decision.BLOCKED and "rotates" not in released + rest


_COPY_SOURCES = [
    {"id": "hr-12", "text": "Full-time employees receive 25 days of paid annual leave per calendar year.",
     "roles": ["employee"]},
    {"id": "sealed", "text": "Nobody may read this passage about the merger with Initech today.", "roles": []},
]


@pytest.mark.parametrize("text", ["paid annual leave? . Nobody may read. 1", "T\nNobody may read\n! Nobody may read"])
def test_a_statement_without_words_between_two_stripped_copies(text: str) -> None:
    """Found by a review (about 1 stream in 2,500 of its fuzzing, with copies stripped): the buffered check strips the
    two copies as one run, with the punctuation between them, which a look released before the second copy came (the
    stream then ended blocked). What follows a copy now waits for the next word."""
    guard = Guard.from_dict({"citations": {"on_unauthorized": "strip", "leak_min_words": 3}, "budget_ms": 60_000})
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in _COPY_SOURCES], frozenset())
    released = "".join(session.feed(c) for c in text)
    rest, verdict = session.finish()
    buffered = guard.check(text, _COPY_SOURCES, [])
    assert buffered.decision is Decision.MODIFIED
    assert (verdict.decision, released + rest) == (buffered.decision, buffered.output)


_COPY_PIECES = [" ".join(s["text"].split()[i:i + k]) for s in _COPY_SOURCES for k in (1, 2, 3, 4)
                for i in range(len(s["text"].split()))]
_BETWEEN = [" ", " ", ". ", "? ", " . ", "\n", "\n! ", "! ", ", ", " [doc:hr-12] ", ".\n", " - ", "  "]
_COPY_GUARDS = {n: Guard.from_dict({"citations": {"on_unauthorized": "strip", "leak_min_words": n},
                                    "budget_ms": 60_000}) for n in (2, 3, 4)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(st.tuples(st.sampled_from([*_COPY_PIECES, "ok", "T", "25", "the"]), st.sampled_from(_BETWEEN)),
                       min_size=1, max_size=16),
       n=st.sampled_from(sorted(_COPY_GUARDS)), roles=st.sampled_from([[], ["employee"]]),
       sizes=st.lists(st.integers(1, 6), min_size=1, max_size=8), gated=st.booleans())
def test_stripped_copies_stream_as_they_are_checked(pieces: list[tuple[str, str]], n: int, roles: list[str],
                                                    sizes: list[int], gated: bool) -> None:
    """Copies touching word to word are one span with what lies between them: text after a copy waits for the next
    word (the two cases above, among every mix of copied runs, other words and statements without words)."""
    guard, output = _COPY_GUARDS[n], "".join(a + b for a, b in pieces)
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in _COPY_SOURCES], frozenset(roles))
    session.gated = gated
    released, pos, k = [], 0, 0
    while pos < len(output):
        released.append(session.feed(output[pos:pos + sizes[k % len(sizes)]]))
        pos += sizes[k % len(sizes)]
        k += 1
    rest, verdict = session.finish()
    assert_streamed_is_buffered(guard, output, (roles, _COPY_SOURCES), "".join(released) + rest, session, verdict)


@pytest.mark.parametrize(("term", "replacement", "chunks"), [
    ("naive approach", " ", ["naive\napproach.employees![Doc:3] d"]),
    ("na\u00efve approach", "", list("na\u00efve\napproach.employees![Doc:3] d")),
])
def test_a_statement_that_ends_inside_an_edit_waits_for_the_statement_after_it(term: str, replacement: str,
                                                                              chunks: list[str]) -> None:
    """Found by a differential fuzzer: a term redacted across a line break, into a statement stripped for its
    unretrieved citation, made one edit; the kept statement before the line break ends inside it, and the release
    ran on past the edit's shorter replacement into the stripped text (then blocked as diverged)."""
    guard = Guard.from_dict({"citations": {}, "banned_terms": {"terms": [term], "replacement": replacement}})
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in _COPY_SOURCES[:1]], frozenset())
    released = "".join(session.feed(c) for c in chunks)
    rest, verdict = session.finish()
    buffered = guard.check("".join(chunks), _COPY_SOURCES[:1], [])
    assert buffered.decision is Decision.MODIFIED
    assert (verdict.decision, released + rest) == (buffered.decision, buffered.output)


_COMPOSING_TERMS = ["Zo\u00eb", "Caf\u00e9 Noir", "\ud55c\uad6d", "\u00c5ngstr\u00f6m", "\u2260"]
_COMPOSING = Guard.from_dict({"banned_terms": {"terms": _COMPOSING_TERMS}, "budget_ms": BIG_BUDGET})
_COMPOSING_STATEMENTS = Guard.from_dict({"banned_terms": {"terms": _COMPOSING_TERMS}, "citations": {},
                                         "budget_ms": BIG_BUDGET})


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(st.sampled_from(["Zoe", "Zo", "e", "Cafe", "Noir", "\u1112\u1161", "\ud558", "\u11ab",
                                        "\uad6d", "A", "ngstro", "m", "=", "\u0308", "\u0301", "\u030a",
                                        "\u0338", "\u200b", " ", ". ", "\n", "x"]), max_size=14),
       sizes=st.lists(st.integers(1, 6), min_size=1, max_size=6),
       guard=st.sampled_from([_COMPOSING, _COMPOSING_STATEMENTS]))
@example(pieces=["Zoe", "\u0308", ". "], sizes=[3], guard=_COMPOSING)
@example(pieces=["\ud558", "\u11ab", "\uad6d"], sizes=[1], guard=_COMPOSING_STATEMENTS)
def test_a_mark_that_composes_with_the_last_character_sent_is_waited_for(pieces: list[str], sizes: list[int],
                                                                        guard: Guard) -> None:
    """Found by an attacker's review: "Zoe" then "\u0308" is "Zo\u00eb" once normalised (NFKC composes a combining
    mark, or a conjoining jamo, with the character before it), a banned term the buffered check redacts; the stream
    had released "Zoe" (no term begins "zoe"), then ended in a guard error, its release no prefix of the check's.
    What a term may still begin with is asked without the last character, whose form the next one may change."""
    output = "".join(pieces)
    assert_streamed_is_buffered(guard, output, ([], []), *stream(guard, output, sizes, ([], [])))


def test_words_held_for_a_copy_are_counted_before_a_bracket_still_open() -> None:
    """Found by a differential fuzzer: a window ending in a marker group not closed yet (whose words will not be
    words of the text) holds the words before it that may grow into a copy. The tail was cut by the words of the
    whole window, the group's among them, so it left out the first of them, and that was released: "this" of a copy
    the buffered check strips (the stream then blocked, its release no prefix of the decision)."""
    sealed = {"id": "sealed", "roles": [],
              "text": "Nobody may read this passage about the merger with Initech before the board meets today."}
    guard = Guard.from_dict({"citations": {"on_hallucinated": "flag", "on_unauthorized": "strip",
                                           "leak_min_words": 6}, "budget_ms": BIG_BUDGET})
    chunks = ["l\nthis [doc::it-3]\r\npassage [doc:sec] about [doc:nope] [doc:fin-9] the merger [doc:sec, doc:it-3, "
              "doc:e", "]with"]
    buffered = guard.check("".join(chunks), [sealed], [])
    assert (buffered.decision, buffered.output) == (Decision.MODIFIED, "l")
    for gated in (True, False):
        session = StreamGuard(guard.compiled, [Source.coerce(sealed)], frozenset())
        session.gated = gated
        released = "".join(session.feed(c) for c in chunks)
        rest, verdict = session.finish()
        assert (verdict.decision, released + rest) == (buffered.decision, buffered.output)


@pytest.mark.xfail(strict=True, reason="known limit: a finding that only an edit makes can cover text released "
                                       "before the edit (the stream then blocks, as the buffered check does)")
def test_a_copy_that_a_strip_joins_across_released_text_is_never_released() -> None:
    """Found by a differential fuzzer: stripping "Two three four." (a copy) joins "one two" of the released "Say one
    two." to "Three", a copy of the invisible source in the edited output. The buffered check blocks; so does the
    stream, but "Say one two." went out first: two of the three copied words. Holding every statement whose last
    words may begin a copy until the statements after it are decided would hold most statements one longer."""
    guard = Guard.from_dict({"citations": {"on_unauthorized": "strip", "leak_min_words": 3}, "budget_ms": BIG_BUDGET})
    sources = [Source("s", "one two three four five", ())]
    text = "Say one two. Two three four. Three is it."
    assert guard.check(text, sources, []).decision is Decision.BLOCKED
    session = StreamGuard(guard.compiled, sources, frozenset())
    released = "".join(session.feed(c) for c in text)
    _, verdict = session.finish()
    assert verdict.decision is Decision.BLOCKED
    assert "one two" not in released
