"""The fast paths against the reference implementations they replace: the one-pass segmenter of a complete text
(:func:`~guardrail.text.segment_text`) against :func:`~guardrail.text.segment`, its compiled twin against it, a
Turn's derived facts against the old per-statement bookkeeping, and the targeted re-check of an edited output
against the whole re-check."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import regex as _regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import engine
from guardrail import text as text_module
from guardrail._locate import GROUPED_CITATION_PATTERN
from guardrail.checks import base as base_module
from guardrail.checks import instructions as instructions_module
from guardrail.checks.base import Marker, Turn, _read_groups, marker_finder, prefix_statements
from guardrail.checks.terms import TermCheck, bounded_match_py
from guardrail.models import Action, Finding, Source
from guardrail.text import Statement, segment, segment_text, segment_text_py

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_properties import GUARDS, SOURCES, answer, any_text, contexts, outputs
from test_text import FINDER, MARKER_RE, chaos, documents

GROUPED = re.compile(GROUPED_CITATION_PATTERN)
SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
texts = st.one_of(documents, chaos, answer(), any_text, st.text(max_size=60),
                  st.tuples(answer(), chaos).map("".join), st.tuples(documents, any_text).map("".join))


def groups_of(text: str) -> dict[int, int]:
    markers = _read_groups(text, False)[0]
    return {mk.group[0]: mk.group[1] for mk in markers}


def regex_groups(text: str) -> dict[int, int]:
    """The groups a user's pattern finds (the single-marker regex of test_text)."""
    return {m.start(): m.end() for m in MARKER_RE.finditer(text) if m.end() > m.start()}


@SETTINGS
@given(texts)
@example("Claim. [doc:a] [doc:b]Next")
@example("e.g. [doc:x.] Next. Done")
@example('He said "Stop. Now." Then [doc:a]. Fine')
@example("A.\u00a0\u00a0B")
@example("```\r")
def test_fast_segmenter_agrees_with_the_segmenter(text: str) -> None:
    markers = _read_groups(text, False)[0]
    assert segment_text(text, groups_of(text)) == segment(text, marker_finder(markers))
    assert segment_text(text, regex_groups(text)) == segment(text, FINDER) or _finder_differs(text)


# What the compiled segmenter decides itself, without the line pattern: list items and numbered lines (digits of
# any script, ten or more of them, no space after the marker), and text in all three string widths.
_LINE_STARTS = st.sampled_from(["- ", "-\t", "-", "+ ", "\u2022 ", "* ", "1. ", "12) ", "1234567890. ", "\u0661. ",
                                "1.", "1 ", "  - ", "\t3. ", "### ", "```", "~~~", "**", "__", "Sources: ",
                                "References:", "> ", "\u00a0- ", "", "sources", "SOURCES:", "Source\u017f:",
                                "\u017fources:", "Referencess: ", "Sour", "Re"])
_PIECES = st.sampled_from(["Claim one. ", "e.g. this. ", "Dr. Who. ", "U.S. law. ", "x. Y", "\u201cQ. R.\u201d ",
                           '"A. B." ', "3.5 ", "end\u2026 Next ", "done! ", "why? ", "[doc:a] ", "[doc:a, doc:b]. ",
                           "\U0001f600 ", "\u00e9t\u00e9. ", " ", "\r", ":", "Short heading:", "sept. X"])
compiled_texts = st.one_of(texts, st.lists(st.tuples(_LINE_STARTS, st.lists(_PIECES, max_size=6).map("".join))
                                           .map("".join), max_size=8).map("\n".join))


@pytest.mark.skipif(segment_text is segment_text_py, reason="the _speedups extension was not built")
@SETTINGS
@given(compiled_texts)
@example("- \u00a0")
@example("1234567890. x")
@example("```\ncode\n```  \nAfter. [doc:a]")
@example("Mr. Smith. Ok")
@example("One two three four five six seven eight:\nNine words here make this line a plain sentence ok:\nx")
@example("Say it. One_1 two 2b three-four five six seven:")
@example("Un deux trois quatre cinq six sept \u00e9t\u00e9 neuf:\nN\u00ba 1 2 3 4 5 6 7 8:")
@example("a\u0301b c d e f g h i:")
def test_compiled_segmenter_agrees_with_the_pure_one(text: str) -> None:
    assert segment_text(text, groups_of(text)) == segment_text_py(text, groups_of(text))
    assert segment_text(text, regex_groups(text)) == segment_text_py(text, regex_groups(text))


@SETTINGS
@given(st.sampled_from(["", " ", "\t", "  \t"]),
       st.lists(st.sampled_from([*"SsRrOoUuCcEeFfNn\u017f\u212aK\u0130:*_# ", "ources", "eferences"]),
                min_size=1, max_size=8).map("".join), st.sampled_from(["", ":", ": x", "**", " [doc:a] A"]))
def test_only_lines_naming_sources_can_match_the_line_pattern(indent: str, head: str, tail: str) -> None:
    """The segmenters ask the line pattern about a line that starts with S, s, R or r only when it begins with
    "sources" or "references" (``_names_sources``): the pattern matches no other such line. (A line that starts
    with any other letter was never asked about, "ſources:" included.)"""
    line = indent + head + tail
    cs = len(indent)
    if line[cs] in "SsRr" and not text_module._names_sources(line, cs):
        assert text_module._LINE.match(line, 0, len(line)) is None


_MAPPED = "".join(text_module._MAPPING)
_SPACES = " \t\n\u00a0\u3000\x1c"
normalisable = st.one_of(texts, st.text(st.characters(codec="utf-8") | st.sampled_from(_MAPPED + _SPACES), max_size=80))


@pytest.mark.skipif(text_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(normalisable)
@example(" \u00ad\u200b a\u2014b \u00a0")
@example("\U0001f600\u2019 \x1c")
def test_compiled_normalisation_steps_agree_with_the_pure_ones(text: str) -> None:
    assert text_module._map_chars(text) == text_module._map_chars_py(text)
    assert text_module._collapse(text) == text_module._collapse_py(text)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.one_of(normalisable, texts, st.text(st.characters(codec="utf-8", min_codepoint=0x80), max_size=700),
                 st.text(st.sampled_from("a\u00e9\u00ff\u0100\u2019\U0001f600\udc80"), max_size=40)))
@example("".join(map(chr, range(0x80, 0x700))) * 2)  # more distinct characters than the compiled table remembers
@example("\x80\u0100\U00010000\x80")
def test_compiled_non_ascii_characters_agree_with_the_pure_ones(text: str) -> None:
    assert text_module._SPEEDUPS.non_ascii_chars(text) == text_module._non_ascii_chars_py(text)
    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 10)
    assert turn.non_ascii == {c for c in text if ord(c) > 127}


_MARKUP = st.sampled_from(["[", "]", "doc:", "DoC:", "doc", ":", ",", ";", " ", "\t", "\u00a0", "\n", "a", "hr-12", "é",
                           "\U0001f600", "[doc:a]", "[doc:a, doc:b]", "[doc: x; y]", "x"])
marker_texts = st.one_of(texts, st.lists(_MARKUP, max_size=30).map("".join))


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(marker_texts)
@example("[doc:a,,b] [doc:a, doc:] [doc:a b] [[doc:x] [doc:a,doc] [DOC:\ta;\tdoc:  b]")
def test_compiled_marker_reader_agrees_with_the_pure_one(text: str) -> None:
    assert base_module._group_markers(text) == base_module._group_markers_py(text)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(marker_texts)
def test_compiled_word_count_agrees_with_the_pure_one(text: str) -> None:
    spans = sorted({mk.group for mk in base_module._group_markers_py(text)})
    assert instructions_module._count_words(text, spans) == instructions_module._count_words_py(text, spans)
    assert instructions_module._count_words(text, []) == len(text.split())


@SETTINGS
@given(st.text(st.characters(codec="utf-8"), max_size=12))
@example("\u2018\u201c\u2014\u2026\u00a0\u00e9")
@example("1\u20e3 \u00a9\ufe0f \U0001f600 \u263a")
def test_emoji_are_looked_for_wherever_one_may_be(text: str) -> None:
    """The cheap test before the emoji scan never skips a text holding one."""
    from guardrail.checks.base import non_ascii_chars
    if instructions_module._EMOJI.search(text) is not None:
        assert instructions_module._may_hold_emoji(non_ascii_chars(text))


_EMOJI_TEXT = st.lists(st.sampled_from(["a", " ", "1", "#", "\u20e3", "\ufe0f", "\u00a9", "\u263a", "\U0001f600",
                                         "\U0001f44d\U0001f3fd", "\u201c", "\u2019", "\u00e9", "\u200d", "\n"]),
                     max_size=40).map("".join)


@SETTINGS
@given(st.one_of(_EMOJI_TEXT, st.text(st.characters(codec="utf-8"), max_size=30)))
@example("1\ufe0f\u20e3\u20e3 \u263a\ufe0f\U0001f600")
@example("\u201cok\u201d\U0001f600\u201c")
@example(" ".join(map(chr, range(0x1F600, 0x1F60C))) + "\u263a\ufe0f 1\u20e3")  # many distinct: the one-pass scan
def test_emoji_are_found_where_a_scan_of_the_whole_text_finds_them(text: str) -> None:
    """The no_emoji rule looks only in the runs of non-ASCII text that may hold one: it finds what the pattern
    finds in the whole text."""
    check = instructions_module.InstructionCheck(Action.BLOCK, no_emoji=True)
    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 10)
    found = [(f.start, f.end) for f in check.run(turn)]
    assert found == [m.span() for m in instructions_module._EMOJI.finditer(text)]


_QUOTING = st.lists(st.sampled_from(['"', "\u201c", "\u201d", "\n", "a", " ", "b c", "\u00e9", "\r"]), max_size=40)


@SETTINGS
@given(st.one_of(texts, _QUOTING.map("".join)), st.integers(0, 5))
@example('""a" "\n" \u201c\u201c x\u201d \u201c\n\u201d \u201c\u201d"b"', 0)
def test_quotation_scanner_agrees_with_the_pattern(text: str, pos: int) -> None:
    from guardrail.checks.quotes import _QUOTE, quotations

    expected = []
    for m in _QUOTE.finditer(text, pos):
        g = 1 if m.group(1) is not None else 2
        expected.append((m.start(), m.end(), m.start(g), m.end(g)))
    assert list(quotations(text, pos)) == expected


_ITEM_STARTS = st.lists(st.sampled_from([" ", "\t", "-", "*", "+", "\u2022", "1", "12", "\u0663", ".", ")", "x", "",
                                          "\n", "\u00a0", "\u11f50"]), max_size=8).map("".join)


@SETTINGS
@given(st.tuples(_ITEM_STARTS, st.one_of(st.text(max_size=10), _ITEM_STARTS)).map("".join))
@example("- item")
@example("-item")
@example("  \u2022\tthe point")
@example("3. three")
@example("\u0663) Arabic-Indic")
def test_the_list_marker_is_taken_off_as_the_pattern_does(body: str) -> None:
    assert text_module._without_list_marker(body) == text_module._LIST_MARKER.sub("", body, count=1)


@st.composite
def _text_and_spans(draw: Any) -> tuple[str, int, int, list[tuple[int, int]]]:
    text = draw(st.one_of(st.text(max_size=40), st.text(st.sampled_from("ab [doc:x]\u00e9\u201c\U0001f44d\u200b\n"),
                                                           max_size=40)))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=8)))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    if draw(st.booleans()):
        start, end = 0, len(text)
    return text, start, end, spans


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(_text_and_spans())
@example(("a [doc:x] b \U0001f44d", 0, 13, [(2, 9)]))
@example(("\u00e9 [doc:x] b", 2, 11, [(2, 9)]))
@example(("x [a] y [b] z", 3, 9, [(2, 5), (8, 11)]))
def test_compiled_text_without_spans_agrees_with_the_pure_one(case: tuple[str, int, int, list[Any]]) -> None:
    text, start, end, spans = case
    fast = text_module.without_spans(text, start, end, spans)
    slow = text_module._without_spans_py(text, start, end, spans)
    assert text_module.without_spans is not text_module._without_spans_py
    assert fast == slow and type(fast) is str
    assert fast.isascii() == slow.isascii() and hash(fast) == hash(slow)


_MISSING = object()
_VALUES = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.just(_MISSING))
_ROLES = st.one_of(st.none(), st.just(_MISSING), st.lists(st.text(max_size=2), max_size=2),
                   st.lists(st.text(max_size=2), max_size=2).map(tuple), st.frozensets(st.text(max_size=2), max_size=2),
                   st.text(max_size=2), st.integers())


def _passage(sid: object, text: object, roles: object, form: str) -> object:
    d = {k: v for k, v in (("id", sid), ("text", text), ("roles", roles)) if v is not _MISSING}
    if form == "source":
        return Source(*(None if v is _MISSING else v for v in (sid, text, roles)))
    if form == "mapping":  # a Mapping that is no dict
        from types import MappingProxyType
        return MappingProxyType(d)
    return d if form == "dict" else list(d)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.lists(st.builds(_passage, _VALUES, _VALUES, _ROLES, st.sampled_from(["dict", "source", "mapping", "list"])),
                max_size=4).flatmap(lambda xs: st.sampled_from([xs, tuple(xs)])))
@example([{"id": "a", "text": "t", "roles": ["r"]}, {"id": "b"}, Source("c", "d", None)])
@example([{"id": "a", "text": "t", "roles": "r"}])
@example(5)
def test_compiled_source_coercion_agrees_with_the_pure_one(values: Any) -> None:
    from guardrail import models

    assert models.coerce_sources is not models._coerce_sources_py
    outcomes = []
    for coerce in (models.coerce_sources, models._coerce_sources_py):
        try:
            got = coerce(values)
            outcomes.append(("ok", got, [(type(s), type(s.roles)) for s in got]))
        except TypeError as exc:
            outcomes.append(("error", str(exc), None))
    assert outcomes[0] == outcomes[1]


def test_sources_are_coerced_as_they_come() -> None:
    # A bad source stops the coercion where it stands, as the list comprehension does: what comes after it is never
    # pulled (an endless or failing iterable included); and a Source whose text is no str is refused as a dict is.
    from guardrail import models

    for coerce in (models.coerce_sources, models._coerce_sources_py):
        pulled = []

        def passages(pulled: list[int] = pulled) -> Any:
            yield {"id": "a", "text": "t"}
            yield 5
            for _ in range(1000):  # (finite: a coercion that reads ahead fails the assertion, it does not hang)
                pulled.append(1)
                yield {"id": "b", "text": "t"}

        with pytest.raises(TypeError, match="a source must be a mapping"):
            coerce(passages())
        assert not pulled
        with pytest.raises(TypeError, match="'text' must be a string"):
            coerce([Source("a", None, None)])  # type: ignore[arg-type]


_IDS = st.sampled_from(["a", "b", "hr-1", "", "fin-9"])
_ROLE_NAMES = st.sampled_from(["hr", "finance", "board"])
_GROUPED_SOURCES = st.builds(Source, _IDS, st.just("t"),
                             st.one_of(st.none(), st.lists(_ROLE_NAMES, max_size=2).map(tuple)))


class _Passage(Source):
    """A Source of a subclass (what the compiled grouping leaves to the pure one)."""


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.lists(_GROUPED_SOURCES, max_size=8), st.sets(_ROLE_NAMES), st.sampled_from(["list", "tuple", "odd"]))
@example([Source("a", "t", None), Source("a", "u", ("hr",)), Source("", "v", ())], {"hr"}, "list")
def test_compiled_source_grouping_agrees_with_the_pure_one(sources: list[Source], roles: set[str], form: str) -> None:
    # Same groups, in the same order, of the same objects; what the compiled grouping does not take (a subclass of
    # Source, a roles value that is a list) comes out as the pure one makes it.
    if form == "odd" and sources:
        sources[0] = _Passage(*sources[0])
        sources[-1] = Source(sources[-1].id, "t", list(sources[-1].roles or ()))  # type: ignore[arg-type]
    given_sources = tuple(sources) if form == "tuple" else sources
    for caller in (frozenset(roles), set(roles)):
        got = base_module.group_sources(given_sources, caller)
        expected = base_module.group_sources_py(given_sources, caller)
        assert got == expected
        assert [[id(s) for s in group] for group in got[0].values()] == \
            [[id(s) for s in group] for group in expected[0].values()]
        assert list(got[1]) == list(expected[1]) and [id(s) for s in got[2]] == [id(s) for s in expected[2]]
    assert base_module.group_sources is not base_module.group_sources_py


_WALK_KEYS = st.sampled_from(["message", "delta", "logprobs", "content", "text", "tool_calls", "refusal", "id",
                              "model", "role", "name", "annotations", "choices", "function", "arguments", "audio",
                              "transcript", "data", "token", "top_logprobs", "bytes", "function_call", "reasoning",
                              "BLUEJAY", "fin-9", "see fin-9"])
_WALK_STRINGS = st.one_of(st.sampled_from(["BLUEJAY", "see fin-9 now", "gpt-4o", "assistant", "", "chatcmpl-1",
                                           "the merger with Initech closes on Friday and nobody may know",
                                           "Project\u00a0Falcon", "x" * 300 + " BLUEJAY"]),
                          st.text(max_size=12))
_TREES = st.recursive(st.one_of(_WALK_STRINGS, st.integers(), st.none(), st.booleans()),
                      lambda inner: st.one_of(st.lists(inner, max_size=4),
                                              st.dictionaries(_WALK_KEYS, inner, max_size=5)),
                      max_leaves=30)
# Completions and chunks as the walk meets them (every mode of it reached), with anything anywhere.
_ENTRIES = st.lists(st.fixed_dictionaries({"token": _WALK_STRINGS}, optional={
    "bytes": st.lists(st.integers(0, 255), max_size=4), "x": _TREES,
    "top_logprobs": st.lists(st.one_of(_WALK_STRINGS, st.fixed_dictionaries({"token": _WALK_STRINGS})), max_size=3)}),
    max_size=3)
_MESSAGES = st.fixed_dictionaries({}, optional={
    "content": st.one_of(_WALK_STRINGS, st.lists(st.one_of(_WALK_STRINGS, st.dictionaries(_WALK_KEYS, _TREES,
                                                                                          max_size=4)), max_size=3)),
    "refusal": _WALK_STRINGS, "role": _WALK_STRINGS, "x": _TREES,
    "tool_calls": st.lists(st.fixed_dictionaries({}, optional={
        "id": _WALK_STRINGS, "function": st.dictionaries(_WALK_KEYS, _TREES, max_size=3)}), max_size=2),
    "audio": st.dictionaries(_WALK_KEYS, _TREES, max_size=3)})
_CHOICES = st.lists(st.fixed_dictionaries({}, optional={
    "message": _MESSAGES, "delta": _MESSAGES, "text": _WALK_STRINGS, "x": _TREES,
    "logprobs": st.fixed_dictionaries({}, optional={"content": _ENTRIES, "refusal": _ENTRIES, "x": _TREES})}),
    max_size=3)
_COMPLETIONS = st.fixed_dictionaries({}, optional={"choices": _CHOICES, "id": _WALK_STRINGS, "x": _TREES,
                                                   "BLUEJAY": _TREES})


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.one_of(_COMPLETIONS, st.lists(_TREES, max_size=3), st.dictionaries(_WALK_KEYS, _TREES, max_size=5)),
       st.integers(0, 9))
@example({"choices": [{"message": {"content": "BLUEJAY", "refusal": "BLUEJAY", "logprobs": ["BLUEJAY"]},
                       "logprobs": {"content": [{"token": "BLUEJAY"}]}, "text": "fin-9"}]}, 1)
@example({"choices": [{"delta": {"audio": {"transcript": "BLUEJAY", "data": "BLUEJAY", "id": "BLUEJAY"},
                                 "tool_calls": [{"id": "BLUEJAY", "function": {"name": "BLUEJAY", "arguments": "x"}}],
                                 "function_call": {"arguments": "BLUEJAY"}},
                       "logprobs": {"content": [{"token": "BLUEJAY", "x": "BLUEJAY",
                                                 "top_logprobs": [{"token": "BLUEJAY"}, "BLUEJAY"]}]}}]}, 1)
def test_compiled_scrub_walk_agrees_with_the_pure_one(tree: Any, mode: int) -> None:
    # The same strings replaced, in the same places, keys too, with the same answer; twice over (the second time
    # most strings are found in the scrubber's memos, which the compiled walk reads itself).
    import copy

    from guardrail import Guard, _chat
    from guardrail._scrub import Scrubber

    guard = Guard.from_dict({"citations": {}, "banned_terms": {"terms": ["BLUEJAY", "Project Falcon"]}})
    sources = [Source("fin-9", "the merger with Initech closes on Friday and nobody may know", ("finance",)),
               Source("a", "Leave is 25 days.", None)]
    for _ in range(2):
        pure, compiled = copy.deepcopy(tree), copy.deepcopy(tree)
        changed = _chat._walk_py(pure, mode, Scrubber(guard.compiled, sources, frozenset({"hr"})).scrub)
        assert _chat._walk(compiled, mode, Scrubber(guard.compiled, sources, frozenset({"hr"}))) is changed
        assert compiled == pure and list(map(str, _keys(compiled))) == list(map(str, _keys(pure)))
        assert changed or pure == tree


def _keys(value: Any) -> list[Any]:
    """Every key of a tree, in order (dicts that compare equal may hold them in another order)."""
    if isinstance(value, dict):
        return [k for key, item in value.items() for k in (key, *_keys(item))]
    if isinstance(value, list):
        return [k for item in value for k in _keys(item)]
    return []


def test_the_compiled_scrub_walk_refuses_what_it_cannot_read() -> None:
    from guardrail import Guard, _chat
    from guardrail._scrub import Scrubber

    if base_module._SPEEDUPS is None:
        pytest.skip("the _speedups extension was not built")
    scrubber = Scrubber(Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY"]}}).compiled, [], frozenset())
    deep: list[Any] = ["BLUEJAY"]
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        _chat._walk(deep, _chat._ANY, scrubber)
    with pytest.raises(TypeError):
        base_module._SPEEDUPS.walk("BLUEJAY", _chat._TOP, scrubber.scrub, scrubber.memos, _chat._SCHEMA_KEYS)
    with pytest.raises(TypeError):
        base_module._SPEEDUPS.walk([], _chat._TOP, scrubber.scrub, ({}, {}), _chat._SCHEMA_KEYS)
    with pytest.raises(ValueError):
        base_module._SPEEDUPS.walk([], 10, scrubber.scrub, scrubber.memos, _chat._SCHEMA_KEYS)


def test_the_compiled_helpers_survive_what_python_code_does_under_them() -> None:
    # A key whose hash empties the dict being walked, a Source tuple of the wrong size, and a recursion limit raised
    # past what the C stack holds (the walk stops at its own depth, with the same error): no crash (in a child
    # process, so that a crash fails this test and not the run).
    if base_module._SPEEDUPS is None:
        pytest.skip("the _speedups extension was not built")
    code = """if True:
        from guardrail import _chat
        from guardrail.checks.base import _SPEEDUPS, group_sources
        from guardrail.models import Source
        armed = False
        class Key(str):
            def __hash__(self):
                if armed:
                    tree.clear()
                return str.__hash__(self)
            __eq__ = str.__eq__
        tree = {Key("content"): "x" * 1000, Key("id"): "y"}
        armed = True
        try:
            _SPEEDUPS.walk(tree, _chat._TOP, str.upper, ({}, {}, object()), frozenset())
        except RuntimeError:
            pass
        short = tuple.__new__(Source, ("a",))
        assert _SPEEDUPS.group_sources([short], frozenset()) is None
        import sys
        sys.setrecursionlimit(1_000_000)
        deep = ["x"]
        for _ in range(100_000):
            deep = [deep]
        try:
            _SPEEDUPS.walk(deep, _chat._ANY, str.upper, ({}, {}, object()), frozenset())
        except RecursionError as exc:
            assert "nested too deeply" in str(exc)
        else:
            raise AssertionError("no RecursionError")
        print("survived")
    """
    out = subprocess.run([sys.executable, "-X", "dev", "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "survived", out.stderr[-2000:]


_SECRET = "the quarterly merger review with Initech closes on Friday and nobody outside finance may know"
_WORDS = st.sampled_from([*_SECRET.split(), "The", "QUARTERLY", "review,", "[doc:a]", "\n", "\u00e9t\u00e9", "x_y",
                          "**with**", "\u201cmerger\u201d", "caf\u0065\u0301", "\u200b"])


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.lists(_WORDS, max_size=40).map(" ".join), st.integers(1, 9))
@example(_SECRET, 8)
@example("The quarterly merger review with Initech closes on Friday", 8)
def test_the_hashed_first_look_for_copies_never_hides_one(text: str, n: int) -> None:
    """:func:`copies` with the compiled first look on hashes finds what it finds without it."""
    from guardrail.checks import citations

    sources = [Source("open", "Leave is 25 days a year.", None), Source("fin", _SECRET, ("finance",))]
    turn = Turn(text, sources, frozenset({"employee"}), GROUPED, time.perf_counter() + 10)
    fast = citations.copies(turn, n)
    saved = citations._SPEEDUPS
    citations._SPEEDUPS = None
    try:
        slow = citations.copies(Turn(text, sources, frozenset({"employee"}), GROUPED, time.perf_counter() + 10), n)
    finally:
        citations._SPEEDUPS = saved
    assert fast == slow


_RUN_WORDS = st.sampled_from(["the", "The", "merger", "MERGER", "review", "x_y", "a1", "9", "[doc:a]", "[doc:a, doc:b]",
                              "\u201c", "\u201d", "\u2014", "\u00a0", "\U0001f600", "-", "\n", "_", "", "wo[doc:z]rd"])


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(st.lists(_RUN_WORDS, max_size=40), st.lists(st.lists(_RUN_WORDS, max_size=30), min_size=1, max_size=3),
       st.integers(1, 9), st.sampled_from(["", " "]))
@example(["wo[doc:z]rd", "the"], [["word", "the"]], 2, " ")
def test_runs_read_from_the_text_hash_as_runs_read_from_its_words(words: list[str], sources: list[list[str]], n: int,
                                                                  sep: str) -> None:
    """The first look for copies reads the words of a text whose characters beyond ASCII all separate words from
    the text itself, marker groups skipped: it finds a shared run exactly where the look on its UTF-8 words does."""
    from guardrail.checks import citations
    from guardrail.text import only_separators, word_utf8

    speedups = base_module._SPEEDUPS
    text = sep.join(words)
    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 10)
    if not (text.isascii() or only_separators(turn.non_ascii)):
        return
    tables = [citations._Runs(" ".join(src), n).run_set for src in sources]
    prose = citations._plain(turn.prose[0])
    raw = word_utf8(prose)
    assert raw is not None
    expected = speedups.shares_run(raw, n, tables)
    assert speedups.text_shares_run(text, turn.marker_spans, n, tables) == expected
    itself = [citations._Runs(raw.decode(), n).run_set]  # (a source holding the text's own words)
    assert speedups.text_shares_run(text, turn.marker_spans, n, itself) == (len(raw.split()) >= n)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
def test_the_hashed_look_for_copies_ends_on_any_table_and_any_run_length() -> None:
    """A table with no empty slot (not one of run_set's) and a run longer than any text: an answer, at once (a
    child process, so that a loop without end fails the test instead of hanging it)."""
    code = """if True:
        from guardrail import _speedups as S
        assert S.shares_run(b"a b c", 1, [b"\\x01" * 64]) is False
        assert S.text_shares_run("a b c", [], 1, [b"\\x01" * 64]) is False
        assert S.shares_run(b"a b", 2**31 - 1, [S.run_set(b"a b", 2)]) is False
        print("answered")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "answered", out.stderr[-2000:]


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
def test_the_compiled_readers_refuse_what_no_caller_gives_them() -> None:
    """Offsets out of range, a marker group that ends where it starts, spans outside the text, a key whose __eq__
    empties the list being read: an error or an answer, never a read outside the text, a loop or a crash (a child
    process, so that either fails the test instead of ending it)."""
    code = """if True:
        from guardrail import _speedups as S
        def refused(call, *args):
            try:
                call(*args)
            except ValueError:
                return True
            return False
        assert refused(S.may_end, "a. b", -1, 2, [])
        assert S.may_end("a. b", 0, 2**63 - 1, []) is True
        assert S.may_end("ab", 2**63 - 1, 2**63 - 1, []) is False
        assert refused(S.segment_text, "A. B. C", {3: 3})
        assert refused(S.segment_text, "A. B. C", {3: -100000})
        assert refused(S.simple_prefix, "A. B. C", {3: 1, 1: 3}, 5, False)
        assert refused(S.ascii_open_run, "x " * 50, [(60, -1000)], 3, 0, [])
        assert refused(S.ascii_open_run, "abc def", [(0, -1000)], 3, 0, [])
        class K:
            def __hash__(self):
                return hash(b"ab")
            def __eq__(self, other):
                SOURCES.clear()
                return False
        SOURCES = [([b"x"] * 3, {K(): 1}, {})]
        S.ascii_open_run("ab ab ab ab ab ab", [], 3, 0, SOURCES)
        print("answered")
    """
    out = subprocess.run([sys.executable, "-X", "dev", "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "answered", out.stderr[-2000:]


_ASCII_WORDS = st.sampled_from([*_SECRET.split(), "The", "review,", "[doc:a]", "[doc:a, doc:b]", "(x", "[doc:",
                                "\n", "x_y", "**with**", "a.b", "--", "7"])


@SETTINGS
@given(st.lists(_ASCII_WORDS, max_size=30).map(" ".join), st.integers(0, 200), st.integers(0, 200),
       st.integers(1, 9))
@example("review [doc:a] with Initech", 0, 27, 2)
def test_the_ascii_tail_of_a_stream_agrees_with_the_general_one(text: str, a: int, b: int, k: int) -> None:
    """What holds a stream's words for a copy reads ASCII text from its end: the same words, and the same start
    of the ``k``-th last one, as the general word reader (marker groups taken out)."""
    from guardrail.checks import citations
    from guardrail.text import without_spans, word_bytes, word_spans

    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 10)
    spans = turn.marker_spans
    cut, end = sorted((min(a, len(text)), min(b, len(text))))
    cut = citations._outside(spans, cut)  # as a stream's tail is cut: never inside a marker group
    end = next((y for x, y in spans if x < end < y), end)
    words = citations._tail_words(text, cut, end, spans, True)
    assert words == word_bytes(without_spans(text, cut, end, spans))
    joined, origins, starts = citations._joined(text, cut, end, spans)  # what open_run reads ASCII text from
    raw = joined.encode("ascii").translate(text_module._ASCII_WORDS)
    assert raw.split() == words
    if 0 < k <= len(words):
        at = word_spans(text, cut, end, spans)[-k][1]
        assert citations._ascii_start(raw, origins, starts, k) == at


@SETTINGS
@given(st.lists(st.sampled_from(["a", "b", "c", "the"]), max_size=30), st.lists(st.sampled_from(["a", "b", "c", "the"]),
       max_size=8))
def test_the_longest_copied_tail_agrees_with_trying_every_position(source: list[str], tail: list[str]) -> None:
    """How many words at the end of a stream's text the source holds consecutively (looked up by the last two
    words) against comparing the tail with every stretch of the source."""
    from guardrail.checks import citations

    runs = citations._Runs(" ".join(source), 3)
    ws = [w.encode() for w in tail]
    src = runs.words
    naive = max((m for q in range(len(src)) for m in range(1, len(ws) + 1) if src[max(q - m + 1, 0):q + 1] == ws[-m:]
                 and q - m + 1 >= 0), default=0)
    assert runs.longest_tail(ws) == naive


_BARE_ID = _regex.compile(r"fin-(?P<id>\d+)")  # a user's pattern whose markers end in a word character
_TAIL_WORDS = st.sampled_from([*_SECRET.split(), "The", "QUARTERLY", "review,", "Review.", "[doc:a]",
                               "[doc:a, doc:b]", "[doc:fin]", "[doc:", "[doc:a", "(x", "(", "[", "]", ")", "\n", "x_y",
                               "_with_", "**with**", "a.b", "--", "7", "fin-7", "", "  ", "x" * 40,
                               "[doc:" + "a" * 30 + "]", "merger:", "finance.",
                               # characters that separate words (the compiled path reads them), and others
                               "\u201cmerger\u201d", "review\u2014with", "\U0001f600", "\u00abx\u00bb", "caf\u00e9",
                               "\u200b"])


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TAIL_WORDS, max_size=60).map(" ".join), st.sampled_from(["", " ", "Init", "(x", "[doc:b"]),
       st.integers(2, 9), st.integers(0, 400), st.sampled_from([GROUPED, MARKER_RE, _BARE_ID]))
@example(_SECRET, "", 8, 0, GROUPED)
@example("so the quarterly merger review [doc:a] with Initech", " clo", 8, 10, GROUPED)
@example("the quarterly merger (x", "", 3, 0, GROUPED)
@example("the quarterly merger fin", "-7", 3, 400, _BARE_ID)
def test_compiled_open_run_agrees_with_the_pure_one(text: str, end: str, n: int, after: int, pattern: Any) -> None:
    """Where a stream's words may still grow into a copy (text whose words are ASCII, compiled) against the Python
    reference: tails cut short or long, marker groups and open brackets at the end, a word still being written (or
    a marker that ends in a word character), and the point after which the caller holds back anyway before, inside
    and after the tail."""
    from guardrail.checks import citations

    text += end
    sources = [Source("open", "Leave is 25 days a year with Initech.", None), Source("fin", _SECRET, ("finance",)),
               Source("fin", "Review the merger with care", ("finance",))]
    turn = Turn(text, sources, frozenset({"employee"}), pattern, time.perf_counter() + 10)
    after = min(after, len(text))
    assert citations.open_run(turn, n, after) == citations.open_run_py(turn, n, after)


def test_a_run_longer_than_the_compiled_open_run_takes_is_held_the_same() -> None:
    from guardrail.checks import citations

    secret = " ".join(f"w{i}" for i in range(90))
    text = "alpha " + " ".join(f"w{i}" for i in range(66)) + " "  # 66 words of the source, which may go on
    turn = Turn(text, [Source("fin", secret, ("finance",))], frozenset(), GROUPED, time.perf_counter() + 10)
    for after in (30, len(text)):
        assert citations.open_run(turn, 70, after) == citations.open_run_py(turn, 70, after) == len("alpha ")


_TERM_CHARS = st.sampled_from(["a", "b", "ab", " ", ".", "+", "\u00e9", "\U0001f600", "\ud83d", "\u4e2d", "-"])


@SETTINGS
@given(st.lists(st.lists(_TERM_CHARS, min_size=1, max_size=4).map("".join), min_size=1, max_size=8),
       st.lists(_TERM_CHARS, max_size=40).map("".join), st.booleans())
@example(["ab", "b", "\ud83d"], "aab \ud83d b\u00e9ab", False)
def test_term_matcher_agrees_with_a_naive_search(terms: list[str], text: str, dfa: bool) -> None:
    """Every occurrence of every term, overlapping ones too (what the automaton gives), and what text begins a
    term; in text with characters of every width and lone surrogates; with the DFA and with the NFA."""
    from guardrail.checks import terms as terms_module
    from guardrail.models import Action
    from guardrail.text import normalize

    saved = terms_module._DFA_TERMS
    terms_module._DFA_TERMS = 10_000 if dfa else 0
    try:
        check = terms_module.TermCheck([(t, str(i)) for i, t in enumerate(terms) if normalize(t).strip()],
                                       Action.REDACT)
    finally:
        terms_module._DFA_TERMS = saved
    keys = check._sorted
    index = {key: i for i, key in enumerate(dict.fromkeys(filter(None, (normalize(t).strip() for t in terms))))}
    norm = normalize(text)
    expected = sorted((i, i + len(key), index[key])
                      for key in keys for i in range(len(norm)) if norm.startswith(key, i))
    assert sorted(check.raw_hits(norm)) == expected
    for j in range(len(norm) + 1):
        assert check.is_prefix(norm[j:j + 3]) == any(key.startswith(norm[j:j + 3]) for key in keys)


@pytest.mark.skipif(text_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(normalisable, st.booleans())
@example("\u201cThe\u201d \u200b \ufb01ne \u00df \u2014x\u00ad \u00a0 \u2460", True)
def test_compiled_token_map_agrees_with_the_pure_one(text: str, fold: bool) -> None:
    """The tokens of a normalised text's blocks with their normalised lengths (the offset map of term findings)."""
    mapped = text_module.Mapped(text, fold)
    for k, (start, end) in enumerate(mapped._blocks):
        assert mapped._block_tokens(k) == text_module._block_tokens_py(text, start, end, mapped._block_norm[k], fold)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(answer(), contexts)
def test_compiled_cited_flags_agree_with_the_pure_ones(text: str, ctx: Any) -> None:
    roles, sources = ctx
    turn = Turn(text, [Source.coerce(s) for s in sources], frozenset(roles), GROUPED, time.perf_counter() + 10)
    expected = base_module.cited_flags_py(turn.statements, turn.markers, turn.visible)
    assert base_module._SPEEDUPS.cited_flags(turn.statements, turn.markers, turn.visible) == expected
    assert turn.cited == (expected if turn.visible else [False] * len(turn.statements))


def test_the_pure_path_can_be_chosen() -> None:
    """``GUARDRAIL_PURE_PYTHON`` keeps the compiled fast paths out (what a machine without a compiler runs)."""
    code = ("import guardrail.text as t; "
            "import guardrail.checks.base as b; import guardrail.models as m; import guardrail._chat as c; "
            "print(t.segment_text is t.segment_text_py and t._collapse is t._collapse_py and t._SPEEDUPS is None "
            "and b._group_markers is b._group_markers_py and m.coerce_sources is m._coerce_sources_py "
            "and t.without_spans is t._without_spans_py and b.group_sources is b.group_sources_py "
            "and c._SPEEDUPS is None); "
            "from guardrail.checks.terms import TermCheck; from guardrail.models import Action; "
            "print(TermCheck([('x', 't')], Action.FLAG)._filter is None)")
    env = {**os.environ, "GUARDRAIL_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
    assert text_module._compiled_segment_text.__doc__


def _finder_differs(text: str) -> bool:
    """FINDER matches anywhere, also where finditer does not report a match (inside another one)."""
    found = regex_groups(text)
    return any(FINDER(text, p, len(text), False) not in (None, (p, found.get(p)))
               for p in range(len(text)) if text.startswith("[doc:", p))


# ------------------------------------------------------------------------------- a turn's derived facts, fast path

def _reference_statement_markers(statements: list[Statement], markers: list[Marker]) -> list[list[Marker]]:
    """What Turn.statement_markers was: one walk over statements and markers."""
    out: list[list[Marker]] = [[] for _ in statements]
    i, n = 0, len(statements)
    for mk in markers:
        while i < n and statements[i].end <= mk.start:
            i += 1
        if i < n and statements[i].start <= mk.start:
            out[i].append(mk)
    return out


@SETTINGS
@given(answer(), contexts)
def test_turn_facts_agree_with_the_reference(text: str, ctx: Any) -> None:
    roles, sources = ctx
    turn = Turn(text, [Source.coerce(s) for s in sources], frozenset(roles), GROUPED, time.perf_counter() + 60)
    assert turn.statements == segment(text, marker_finder(turn.markers))
    expected = _reference_statement_markers(turn.statements, turn.markers)
    assert [turn.markers_of(i) for i in range(len(turn.statements))] == expected
    assert turn.statement_markers == expected
    assert turn.cited == [any(mk.id in turn.visible for mk in ms) for ms in expected]


# -------------------------------------------------------------------------------------- the targeted re-check

def _whole_recheck(compiled: Any, check: Any, turn: Turn) -> list[Finding]:
    return check.recheck(turn)


@SETTINGS
@given(name=st.sampled_from(sorted(GUARDS)), output=outputs, ctx=contexts)
@example(name="acting", output="Ask Project [doc:hr-13] Falcon now [doc:it-3].", ctx=(["employee"], SOURCES))
@example(name="acting", output="Ask [doc: [doc:hr-13]sealed] now [doc:it-3].", ctx=(["employee"], SOURCES))
def test_targeted_recheck_decides_as_the_whole_recheck(name: str, output: str, ctx: Any) -> None:
    """Windows around the edits find what acts exactly when the whole re-check does: same decision, same text,
    same findings."""
    roles, sources = ctx
    fast = GUARDS[name].check(output, sources, roles)
    targeted = engine._targeted
    engine._targeted = _whole_recheck  # type: ignore[assignment]
    try:
        slow = GUARDS[name].check(output, sources, roles)
    finally:
        engine._targeted = targeted
    assert (fast.decision, fast.output) == (slow.decision, slow.output)
    assert fast.findings == slow.findings


@SETTINGS
@given(output=st.tuples(answer(), st.lists(st.sampled_from(["Project Falcon", "BLUEJAY", "[doc:sealed]",
                                                            "[doc:hr-13]", "it-3", "Nobody may read this passage "
                                                            "about the merger with Initech"]),
                                           max_size=4)).map(lambda p: " ".join([p[0], *p[1]])),
       ctx=contexts)
def test_targeted_recheck_with_planted_defects(output: str, ctx: Any) -> None:
    test_targeted_recheck_decides_as_the_whole_recheck.hypothesis.inner_test("acting", output, ctx)  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents, answer(), chaos))
def test_prefix_statements_are_statements_of_the_whole_text(text: str) -> None:
    """Prefix stability between a stream's view (prefix_statements) and the fast segmenter of the whole text."""
    full = set(Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 60).statements)
    for cut in range(0, len(text) + 1, max(1, len(text) // 40)):
        for s in prefix_statements(GROUPED, text[:cut]):
            assert s in full, (text[:cut], s)


# One line of prose as a stream's window holds it: sentences, abbreviations, quotations, decimals, markers whole,
# cut or open, and whitespace of every kind at the ends.
_LINE_PIECES = st.sampled_from(["Claim one.", " ", "  ", "\t", "\u00a0", "\u2003", "e.g.", "Dr.", "U.S.", "x.", "Y",
                                "next", "3.5", "end\u2026", "done!", "why?!", "[doc:a]", "[doc:a, doc:b]", "[doc:",
                                "[doc:a, ", "[", "]", "(", ")", '"', "\u201c", "\u201d", "'", ":", "Sources:",
                                "sources", "\U0001f600", "\u00e9t\u00e9.", "\r", "- ", "1. ", "#", "**", "a"])
_BLANK = st.sampled_from(["\n", " \n", "\t\n", "\r\n", " \r\n", "\r", " ", "\u00a0\n", "\f\n", "\n\n"])
one_line = st.one_of(st.lists(_LINE_PIECES, max_size=24).map("".join), texts.map(lambda t: t.replace("\n", " ")))
windows = st.one_of(one_line, texts,
                    st.tuples(st.lists(_BLANK, max_size=3).map("".join), one_line,
                              st.lists(_BLANK, max_size=3).map("".join), st.sampled_from(["", "Next", "- item"]))
                    .map("".join),
                    st.lists(st.one_of(one_line, _BLANK, st.just(""), st.tuples(_LINE_STARTS, one_line).map("".join)),
                             max_size=5).map("\n".join))


@SETTINGS
@given(windows, st.booleans())
@example("Claim. [doc:a] Next", True)
@example("Claim.  ", False)
@example("Claim. [doc:", True)
@example("Dr. Who went. [doc:a, doc:b] then. And", False)
@example("\nClaim. Next [doc:a].\r\n \n", True)
@example("Here is what it says:\n\n", False)
@example("\u00a0Word. Next", True)
@example(" \r\r\nWord. Next", False)
@example("Claim. [doc:\n[doc:a", False)
@example("\rWord. Next", True)
@example("Key points:\n- Portal [doc:a]\n- Previous s", False)
@example("Hope this helps.\n\nSources:\n- [doc:a] Onboarding", False)
@example("Claim.\n**Note. More** text. And", False)
@example("- 0\nA. 0", False)
@example("Done.\n\nSources:\n- [doc:a] One\n\nAfter. That", False)
@example("Done.\n## Sources\nOne. Two\n# Next\nMore. Here", False)
@example("First line. Done\n\nSecond. [doc:a] Third", True)
def test_simple_prefix_agrees_with_the_prefix_reading(line: str, continued: bool) -> None:
    """A stream's window read from its segmentation as a complete text (``_simple_prefix``, for the usual window:
    lines that open no code block), against the prefix reading it replaces, at every cut: the same statements and
    the same plain line starts."""
    deadline = time.perf_counter() + 60
    for cut in range(len(line) + 1):
        text = line[:cut]
        turn = Turn(text, [], frozenset(), GROUPED, deadline)
        fast_plain: set[int] = set()
        slow_plain: set[int] = set()
        fast = prefix_statements(GROUPED, text, 1.0, fast_plain, continued, turn)
        markers, open_from = _read_groups(text, True)
        slow = segment(text, marker_finder(markers, open_from), final=False, plain_lines=slow_plain,
                       continued=continued)
        assert (fast, fast_plain) == (slow, slow_plain), text
        if base_module._SPEEDUPS is not None:  # the compiled reading against the pure one, for every window
            pure_plain: set[int] = set()
            compiled_plain: set[int] = set()
            pure = base_module._simple_prefix_py(text, turn, len(text), pure_plain, continued)
            compiled = base_module._simple_prefix_c(text, turn, len(text), compiled_plain, continued)
            assert (compiled, compiled_plain) == (pure, pure_plain), text
            open_from = max(0, cut - 3)  # (and with a marker group held open near the end)
            assert base_module._simple_prefix_c(text, turn, open_from, None, continued) == \
                base_module._simple_prefix_py(text, turn, open_from, None, continued), text


@pytest.mark.parametrize(("window", "continued"), [
    (" It says so [doc:hr-1]. Next one", True),
    ("\nKey points:\n- Portal [doc:a]\n- Previous s", False),
    ("Hope this helps.\n\nSources:\n- [doc:a] Onboarding checklist\n- [doc:b] Exp", False),
])
def test_a_streams_usual_window_takes_the_compiled_reading(window: str, continued: bool) -> None:
    """The windows a stream looks at most (prose, list items, a Sources section) are read the fast way; a code
    block is left to the prefix reading."""
    turn = Turn(window, [], frozenset(), GROUPED, time.perf_counter() + 60)
    assert base_module._simple_prefix(window, turn, len(window), None, continued) is not None
    fenced = Turn("Claim.\n```\ncode", [], frozenset(), GROUPED, time.perf_counter() + 60)
    assert base_module._simple_prefix(fenced.output, fenced, len(fenced.output), None, False) is None


# --------------------------------------------------------------------------------- banned terms: the filter

# Word characters (the ends of each range), the characters next to those ranges, separators, and more characters
# that begin a term than the compiled filter compares sixteen at a time (four).
_TERM_ALPHABET = "aazAZ09_ /:@[`{.-+#&\n\x7f"


@st.composite
def _keys_and_text(draw: st.DrawFn) -> tuple[list[str], str]:
    keys = draw(st.lists(st.text(st.sampled_from(_TERM_ALPHABET), min_size=1, max_size=12).map(str.strip)
                         .filter(bool), min_size=1, max_size=8, unique=True))
    pieces = draw(st.lists(st.one_of(st.sampled_from(keys), st.text(st.sampled_from(_TERM_ALPHABET), max_size=10)),
                           max_size=40))
    text = "".join(pieces) * draw(st.sampled_from([1, 1, 1, 3, 70]))  # (70: past 64 blocks of 64 bytes)
    return keys, text


@pytest.mark.skipif(text_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(_keys_and_text())
@example((["a"], "a"))
@example((["abcdefgh"], "x abcdefgh"))  # a word of eight bytes ending the text (no eight-byte read past it)
@example(([".b"], "a.b .b"))
@example((["ab"], "x" * 63 + " ab"))  # a word across two blocks
@example((["1+", "#a", "-", "/b", "&&", ".x"], "z #a"))  # more than four characters begin keys
def test_compiled_term_filter_agrees_with_the_pure_one(case: tuple[list[str], str]) -> None:
    keys, text = case
    speedups = text_module._SPEEDUPS
    assert speedups is not None
    found = speedups.may_match(speedups.term_filter([k.encode("ascii") for k in keys]), text)
    assert found == bounded_match_py(keys, text)


@SETTINGS
@given(_keys_and_text(), st.sampled_from(["", "\u00e9", "\U0001f600", "\u200b"]))
@example((["c++"], "c++ and c+++"), "")
@example(([".net", "bluejay"], "bluejay.net"), "")
@example(([".net"], "bluejay.net"), "")
def test_a_term_matches_only_where_one_has_both_boundaries(case: tuple[list[str], str], extra: str) -> None:
    """What lets the filter answer for the check: it finds something exactly where some term occurs with no word
    character on either side (a match that touches a counted one counts too, but needs one to touch)."""
    keys, text = case
    check = TermCheck([(k, "t") for k in keys], Action.REDACT)
    norm = text_module.normalize(text + extra, check.fold)
    assert bool(check._matches(norm)) == bounded_match_py(check._sorted, norm)


@pytest.mark.skipif(text_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(_keys_and_text(), st.booleans(),
       st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["\u00e9", "\U0001f600", "\u200b", "\u00df",
                                                                   "\u0130", "\u00a0", "\u2019", "\udc80"])),
                max_size=6))
@example(([".net"], "blue.net .net"), False, [(4, "\u00e9")])
@example((["ab"], "ab"), True, [(0, "\U0001f600")])
def test_term_check_finds_the_same_with_the_filter_and_without(case: tuple[list[str], str], fold: bool,
                                                               inserts: list[tuple[int, str]]) -> None:
    """Also in text with characters beyond ASCII: the filter then reads them as spaces (for terms all ASCII)."""
    keys, text = case
    for at, char in inserts:
        at %= len(text) + 1
        text = text[:at] + char + text[at:]
    check = TermCheck([(k.upper() if fold else k, "t") for k in keys], Action.REDACT, case_sensitive=not fold)
    assert check._filter is not None
    turn = Turn(text, [], frozenset(), GROUPED, time.perf_counter() + 60)
    fast = check.run(turn)
    check._filter = None
    assert fast == check.run(turn)


_JSON_KEYS = st.sampled_from(["a", "b", "content", "a:b", 'q"', "\\", "\u00e9", ""])
_JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6), _JSON_KEYS),
                            lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                    st.lists(st.tuples(_JSON_KEYS, inner), max_size=4)),
                            max_leaves=20)


def _written(value: Any, escape: bool) -> str:
    """JSON text of a value whose objects are lists of pairs (a key may come twice), keys escaped or not."""
    if isinstance(value, list) and value and all(isinstance(v, tuple) for v in value):
        pairs = []
        for key, item in value:
            name = json.dumps(key, ensure_ascii=escape)
            pairs.append(f"{name} : {_written(item, escape)}")
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(v, escape) for v in value) + "]"
    return json.dumps(value, ensure_ascii=escape)


@pytest.mark.skipif(base_module._SPEEDUPS is None, reason="the _speedups extension was not built")
@SETTINGS
@given(_JSON_VALUES, st.booleans(), st.booleans())
def test_compiled_duplicate_keys_agree_with_the_pure_ones(value: Any, escape: bool, as_bytes: bool) -> None:
    import orjson

    from guardrail._sse import _has_duplicate_keys_py, has_duplicate_keys

    text = _written(value, escape)
    data: str | bytes = text.encode() if as_bytes else text
    assert has_duplicate_keys(data, orjson.loads(text)) is _has_duplicate_keys_py(data)
