"""The stream guard's fast paths against the plain way: the same text released by every feed, the same decisions.

- looks stopped early (``StreamGuard.gated``) against looks that always run the checks;
- the banned-term hold (``TermCheck.open_suffix``, the offset map for ASCII) against the loop over every position;
- what makes the guard look (a completion ending in the new chunk) against trying every start;
- the appended-to text against joining the pieces;
- the checks a look runs (those that act, the citations check without a coverage it only flags) against all of them.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_properties import SOURCES, TERMS, answer, contexts
from test_stream import GUARDS

from guardrail import Action, Guard, Source
from guardrail._locate import GROUPED_CITATION_PATTERN
from guardrail.checks.base import Turn
from guardrail.checks.quotes import _QUOTE, open_quotation
from guardrail.checks.terms import TermCheck
from guardrail.engine import run_checks
from guardrail.stream import (
    _COMPLETES,
    _LOOKBACK,
    StreamGuard,
    _completes,
    _completes_py,
    _line_ends,
    _may_end_c,
    _may_end_py,
    _original_start,
    _Text,
)
from guardrail.text import _SPEEDUPS, normalize, normalize_mapped

GROUPED = re.compile(GROUPED_CITATION_PATTERN)

LEAKING = {  # copies of invisible sources act, and the sources share their words with the answers
    "strip": Guard.from_dict({"citations": {"on_unauthorized": "strip", "leak_min_words": 3},
                              "banned_terms": {"terms": TERMS}, "budget_ms": 60_000}),
    "block": Guard.from_dict({"citations": {"on_unauthorized": "block", "leak_min_words": 4, "coverage": "flag"},
                              "quotes": {}, "budget_ms": 60_000}),
}
ALL = {**GUARDS, **{f"leaking-{k}": g for k, g in LEAKING.items()}}


def feeds(guard: Guard, output: str, sizes: list[int], ctx: Any, gated: bool) -> tuple[list[str], Any, bool]:
    roles, sources = ctx
    session = StreamGuard(guard.compiled, [Source.coerce(s) for s in sources], frozenset(roles))
    session.gated = gated
    out, pos, k = [], 0, 0
    while pos < len(output):
        size = sizes[k % len(sizes)] if sizes else len(output)
        out.append(session.feed(output[pos:pos + size]))
        pos += size
        k += 1
    rest, verdict = session.finish()
    out.append(rest)
    return out, verdict.decision, session.blocked


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(ALL)), output=answer(), ctx=contexts,
       sizes=st.lists(st.integers(1, 12), max_size=12))
@example(name="leaking-strip", output="The Berlin office will close. In March and one hundred.\nBye.",
         ctx=(["employee"], SOURCES), sizes=[3])
@example(name="acting", output='- "F" Leave.\nIs that laptops?\n\x0c\n# leave', ctx=([], SOURCES), sizes=[1])
def test_a_look_stopped_early_releases_what_a_whole_look_would(name: str, output: str, ctx: Any,
                                                                sizes: list[int]) -> None:
    guard = ALL[name]
    assert_same_or_sooner(feeds(guard, output, sizes, ctx, gated=True), feeds(guard, output, sizes, ctx, gated=False))


def assert_same_or_sooner(fast: tuple[list[str], Any, bool], slow: tuple[list[str], Any, bool]) -> None:
    """The same decision and text; after every feed at least what the whole looks had released (a look stopped
    early releases nothing, but it may leave the guard looking again at the next word where whole looks wait for
    the next statement)."""
    assert fast[1:] == slow[1:]
    if fast[2]:
        return  # blocked: where a stream stops is no promise
    assert "".join(fast[0]) == "".join(slow[0])
    sent_fast = sent_slow = ""
    for a, b in zip(fast[0], slow[0], strict=True):
        sent_fast, sent_slow = sent_fast + a, sent_slow + b
        assert sent_fast.startswith(sent_slow)


def old_open_start(terms: TermCheck, norm: str) -> int:
    """The loop the one pass replaced."""
    n = len(norm)
    for i in range(max(0, n - terms.longest_key), n):
        if terms.is_prefix(norm[i:]):
            return i
    return n


TERM_SETS = [TERMS, ["a", "ab", "abc d", "b.c", "x"], ["Ñandú Corp", "straße", "ΣΊΣΥΦΟΣ", "C#", "e\u0301t\u00e9"]]
CHARS = "abcd .xyzABCÑñ#+\u00e9\u0301\u00ad\u200b\n\t" + "".join(sorted(set("".join(TERMS))))


@settings(max_examples=1000, deadline=None)
@given(which=st.integers(0, len(TERM_SETS) - 1), text=st.text(CHARS, max_size=60), fold=st.booleans())
def test_the_open_term_start_in_one_pass(which: int, text: str, fold: bool) -> None:
    terms = TermCheck(((t, "x") for t in TERM_SETS[which]), Action.REDACT, case_sensitive=not fold)
    norm = normalize(text, terms.fold)
    assert terms.open_suffix(norm) == old_open_start(terms, norm)
    for cut in range(len(norm)):  # every suffix, as the stream sees its tail
        assert terms.open_suffix(norm[cut:]) == old_open_start(terms, norm[cut:])


MIXED = ["abé", "abc", "ab\u0100x", "a\U0001f600b", "abc d", "b.c", "ab", "zz top", "x", "abd~", "a\x7fb"]


@pytest.mark.skipif(_SPEEDUPS is None, reason="the _speedups extension was not built")
@settings(max_examples=1000, deadline=None)
@given(keys=st.lists(st.sampled_from(MIXED) | st.text("abcdxz.~\x7f", min_size=1, max_size=6), min_size=1,
                     max_size=12),
       tail=st.text("abcdxz .~\x7f", max_size=40))
def test_where_a_term_may_begin_in_an_ascii_tail_compiled_and_not(keys: list[str], tail: str) -> None:
    """The compiled pass over an ASCII tail against the Python one, with terms of every string kind (the keys'
    order is by code point, whatever their width) and beginnings in the bitmap's corners (DEL, `~`)."""
    terms = TermCheck(((k, "x") for k in keys), Action.REDACT, case_sensitive=True)
    assert _SPEEDUPS.open_prefix(tail, terms._heads(), terms._sorted) == terms._open_prefix(tail)
    assert terms.open_suffix(tail) == old_open_start(terms, tail)


def old_term_safe(terms: TermCheck, text: str) -> int:
    """``StreamGuard._term_safe`` as it was (every position asked, the offset map built)."""
    longest = terms.longest_key
    cut = max(0, len(text) - 4 * longest - 16)
    if cut:
        cut = text.rfind(" ", 0, cut) + 1
    norm = normalize(text[cut:], terms.fold)
    if cut and len(norm) < longest:
        cut, norm = 0, normalize(text, terms.fold)
    start = old_open_start(terms, norm)
    if start == len(norm):
        return len(text)
    for hit_start, hit_end, _ in sorted(terms.raw_hits(norm), key=lambda h: -h[1]):
        if hit_end >= start - 1:
            start = min(start, hit_start)
    return cut + normalize_mapped(text[cut:], terms.fold).original_span(start, start + 1)[0]


@settings(max_examples=1000, deadline=None)
@given(text=st.text(CHARS + "  \r\x0c\x1f", max_size=200))
@example(text="Ask Project\n  Falcon no")
@example(text=" a  b\n\n Proj")
def test_the_term_hold_is_the_old_one(text: str) -> None:
    guard = GUARDS["terms-only"]
    session = StreamGuard(guard.compiled)
    assert session._terms is not None
    assert session._term_safe(text) == old_term_safe(session._terms, text)


@settings(max_examples=1000, deadline=None)
@given(text=st.text(" \t\n\r\x0b\x0c\x1c\x1faAbB.,-1", min_size=1, max_size=40), fold=st.booleans(),
       data=st.data())
def test_ascii_offsets_map_back_as_the_offset_map_does(text: str, fold: bool, data: st.DataObject) -> None:
    norm = normalize(text, fold)
    if not norm:
        return
    pos = data.draw(st.integers(0, len(norm) - 1))
    if norm[pos] == " ":
        return  # (never asked: a term starts with no space)
    assert _original_start(text, norm, pos, fold) == normalize_mapped(text, fold).original_span(pos, pos + 1)[0]


@settings(max_examples=1000, deadline=None)
@given(text=st.text(".!?…\"')] \n\tab]”’»\u00a0\u2003\x0b\x1c\U0001f600é", max_size=30), data=st.data())
def test_a_look_is_due_exactly_when_a_completion_ends_in_the_chunk(text: str, data: st.DataObject) -> None:
    before = data.draw(st.integers(0, len(text)))
    starts = range(max(before - _LOOKBACK, 0), len(text))
    expected = any((m := _COMPLETES.match(text, i)) is not None and m.end() > before for i in starts)
    assert _completes_py(text, before) == expected
    assert _completes(text, before) == expected  # compiled, when it could be


@settings(max_examples=1000, deadline=None)
@given(text=st.text(st.sampled_from(list(".!? \n\tab_9]\u00a0\u00e9\u0661\u00b2\u2162\u0300\u200d\U0001f600"
                                         "\U00020000-")), max_size=20), data=st.data())
def test_while_words_are_held_a_look_is_due_when_a_word_ends_in_the_chunk(text: str, data: st.DataObject) -> None:
    """While words are held for a copy, a chunk that completes a word brings a look too: a word character (as the
    regex engine's ``\\w`` has it: letters, digits of every script, "_") and one that is not, ending in the chunk
    (the word's last character may have come before it)."""
    before = data.draw(st.integers(0, len(text)))
    ended = any(re.fullmatch(r"\w\W", text[i:i + 2]) for i in range(max(before - 1, 0), len(text) - 1))
    for completes in (_completes_py, _completes):
        assert completes(text, before, True) == (completes(text, before) or ended)
        assert completes(text, before, False) == completes(text, before)


@given(pieces=st.lists(st.text(max_size=7), max_size=300))
def test_appended_text_is_the_pieces_joined(pieces: list[str]) -> None:
    text = _Text()
    for k, piece in enumerate(pieces):
        text.write(piece)
        if k % 97 == 0:
            assert text.getvalue() == "".join(pieces[:k + 1])
    assert text.getvalue() == "".join(pieces)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(ALL)), output=answer(), ctx=contexts,
       sizes=st.lists(st.integers(1, 12), max_size=12))
def test_the_text_and_the_most_held_are_what_every_feed_shows(name: str, output: str, ctx: Any,
                                                              sizes: list[int]) -> None:
    # The stream keeps the text before its window, not every delta, and notes what it holds only at its looks.
    # (Once blocked, it takes no more.)
    roles, sources = ctx
    session = StreamGuard(ALL[name].compiled, [Source.coerce(s) for s in sources], frozenset(roles))
    fed = released = ""
    most = pos = k = 0
    while pos < len(output):
        delta = output[pos:pos + (sizes[k % len(sizes)] if sizes else len(output))]
        fed += "" if session.blocked else delta
        released += session.feed(delta)
        pos, k = pos + len(delta), k + 1
        most = max(most, len(fed) - len(released))
        assert session.text == fed
        assert session.held_max == most
    session.finish()
    assert session.text == fed
    assert session.held_max == most


def test_typical_answers_stream_the_same_gated_or_not() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from workload import make_terms, make_turns

    terms = make_terms(7, 300)
    rng = random.Random(7)
    for policy in ({"citations": {"coverage": "flag"}, "quotes": {}, "banned_terms": {"terms": terms},
                    "instructions": {"max_words": 400, "no_emoji": True}, "budget_ms": 60_000},
                   {"citations": {"on_unauthorized": "strip"}, "banned_terms": {"terms": terms}, "budget_ms": 60_000}):
        guard = Guard.from_dict(policy)
        for turn in make_turns(7, 12, terms):
            sizes = [rng.randint(1, 9) for _ in range(20)]
            ctx = (turn.roles, turn.sources)
            fast = feeds(guard, turn.output, sizes, ctx, gated=True)
            assert_same_or_sooner(fast, feeds(guard, turn.output, sizes, ctx, gated=False))
            buffered = guard.check(turn.output, turn.sources, turn.roles)
            assert fast[1] is buffered.decision
            if not fast[2]:
                assert "".join(fast[0]) == buffered.output


@pytest.mark.skipif(_SPEEDUPS is None, reason="the _speedups extension was not built")
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["a", "B", "7", "_", " ", "\n", "\n\n", ".", "...", "!", "?", "\u2026", "\"", "'",
                                 "\u201d", "\u2019", "\u00bb", ")", "]", "[doc:a]", "[doc:x, doc:y]", "\u00e9",
                                 "\U0001f600", "(", "[doc:"]), max_size=30).map("".join),
       st.integers(-2, 80), st.integers(-2, 80))
@example("a.) b", 0, 2)
@example("x...b", 0, 4)
@example("a.\u201db", 0, 3)
def test_where_a_statement_may_end_agrees_with_the_pure_reading(text: str, lo: int, hi: int) -> None:
    """The compiled ``_may_end`` against ``_may_end_py`` (the pattern's search, line ends and marker groups)."""
    lo, hi = max(lo, 0), max(hi, 0)
    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 10)
    assert _may_end_c(text, turn, lo, hi) == _may_end_py(text, turn, lo, hi)


@settings(max_examples=1000, deadline=None)
@given(st.text(st.sampled_from(["a", " ", "\t", "\n", "\r", "\x0c", "\u00a0", "."]), max_size=12),
       st.integers(0, 14), st.integers(0, 14))
@example("a \n", 1, 2)  # the whitespace after a line's last character ends there too
@example("a\n\n", 1, 2)  # a blank line ends nothing
def test_where_a_line_may_end_agrees_with_the_pattern(text: str, lo: int, hi: int) -> None:
    """``_line_ends`` (two ``str.find`` calls, mostly) against the search with the pattern it replaced."""
    line_end = re.compile(r"[^\n](?=[^\S\n]*\n)")
    m = line_end.search(text, max(lo - _LOOKBACK, 0), hi + 1)
    while m is not None and m.end() <= lo:
        m = line_end.search(text, m.start() + 1, hi + 1)
    assert _line_ends(text, lo, hi) == (m is not None and m.end() <= hi)


def test_a_completion_that_starts_further_back_than_the_look_back_brings_no_look() -> None:
    for completes in (_completes_py, _completes):
        assert completes('.""""""" X', 8)  # it starts 8 characters before the chunk: seen
        assert not completes('.""""""""" X', 10)  # 10 before: the chunk before saw the punctuation, not the rest


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from(list(".!?…\"'”’»)] \n\tabX[\r")), max_size=16), st.integers(0, 17))
def test_what_completes_a_statement_matches_where_its_plain_pattern_does(text: str, pos: int) -> None:
    """``_COMPLETES`` begins with one set of characters (so the engine can skip to them) and matches exactly where
    the plain alternation it was written from does."""
    plain = re.compile(r"[.!?…][\"'”’»)\]]*\s+\S|\]\s+\S|\n")
    a, b = plain.search(text, pos), _COMPLETES.search(text, pos)
    assert (a and a.span()) == (b and b.span())


COVERAGE = {  # the citations check's coverage acting, flagged, or off, beside checks that only flag
    "coverage-" + action: Guard.from_dict({
        "citations": {"on_unauthorized": "strip", "leak_min_words": 3,
                      **({"coverage": action} if action != "off" else {})},
        "quotes": {"on_unverified": "flag"}, "banned_terms": {"terms": TERMS, "on_match": "redact"},
        "instructions": {"no_emoji": True, "min_words": 5, "max_words": 50, "on_violation": "flag"},
        "budget_ms": 60_000})
    for action in ("strip", "flag", "off")}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted({**ALL, **COVERAGE})), output=answer(), ctx=contexts)
def test_a_look_finds_what_every_check_finds_that_acts(name: str, output: str, ctx: Any) -> None:
    """A look runs only what can find something that acts (its flags are never read: the verdict comes from the
    whole output's check): the same acting findings as every check run in full."""
    guard = {**ALL, **COVERAGE}[name]
    roles, sources = ctx

    def turn() -> Turn:
        return Turn(output, [Source.coerce(s) for s in sources], frozenset(roles), guard.compiled.marker_re, 1e18)

    full = [f for f in run_checks(guard.compiled, turn()) if f.action is not Action.FLAG]
    assert run_checks(guard.compiled, turn(), acting=True) == full


def quotation_opened_by_more(text: str) -> int:
    """Where a quotation that more text would close begins, by brute force: the first new match of the quote
    pattern once a closing mark (after a character, for a curly one) is written, ``len(text)`` if none."""
    line = text.rfind("\n") + 1
    closed = {m.span() for m in _QUOTE.finditer(text, line)}
    first = len(text)
    for more in ('"', "\u201d", 'x"', "x\u201d"):
        new = [m.start() for m in _QUOTE.finditer(text + more, line) if m.span() not in closed]
        if new and new[0] < len(text):
            first = min(first, new[0])
    return first


@settings(max_examples=2000, deadline=None)
@given(st.text(st.sampled_from(['"', "\u201c", "\u201d", "a", " ", "\n", "."]), max_size=16))
@example('\u201d.."\u201c \u201d')  # an open straight mark before a closed curly quotation: open at the mark
@example('e. \u201c"\u201d"re. \u201c bar ip')
def test_where_a_quotation_is_still_open(text: str) -> None:
    """The stream's hold for quotations (CONTRACT section 6) against what writing one more closing mark shows."""
    assert open_quotation(text) == quotation_opened_by_more(text)


@pytest.mark.skipif(_SPEEDUPS is None, reason="the _speedups extension was not built")
@pytest.mark.parametrize(("args", "error"), [
    (("abc", bytes(1 << 18), ["ab", 3]), TypeError),  # a key that is not a str
    (("abc", bytes(10), ["ab"]), TypeError),  # a bitmap of the wrong size
    (("abc", bytearray(1 << 18), ["ab"]), TypeError),
    (("ab\u00e9", bytes(1 << 18), ["ab"]), ValueError),  # a tail beyond ASCII
    (("abc", bytes(1 << 18)), TypeError),
    ((b"abc", bytes(1 << 18), ["ab"]), TypeError),
])
def test_the_compiled_term_start_refuses_what_it_cannot_read(args: tuple[Any, ...], error: type) -> None:
    with pytest.raises(error):
        _SPEEDUPS.open_prefix(*args)
