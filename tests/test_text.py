"""The text model: normalisation, the offset map back to the original, and statement segmentation."""

from __future__ import annotations

import time

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail.checks.base import Turn, prefix_statements
from guardrail.text import Kind, Statement, normalize, normalize_mapped, segment

MARKER_RE = regex.compile(r"\[doc:(?P<id>[^\]\s]+)\]")


def FINDER(text: str, pos: int, endpos: int, partial: bool) -> tuple[int, int] | bool | None:
    """A marker finder that matches the pattern at any position (segmentation must be prefix-stable for it too)."""
    m = MARKER_RE.match(text, pos, endpos, partial=partial)
    if m is None or m.end() == m.start():
        return None
    return True if m.partial else m.span()


S, ITEM, H, SRC, C = Kind.SENTENCE, Kind.ITEM, Kind.HEADING, Kind.SOURCE, Kind.CODE


def statements(text: str) -> list[tuple[int, int, Kind]]:
    """What the guard itself sees: a Turn's statements, as (start, end, kind)."""
    turn = Turn(text, [], frozenset(), MARKER_RE, deadline=time.perf_counter() + 10)
    return [(s.start, s.end, s.kind) for s in turn.statements]


def spans(text: str, *pieces: tuple[str, Kind]) -> list[tuple[int, int, Kind]]:
    """Expected statements written as (text, kind) pairs, located left to right in ``text``."""
    out, pos = [], 0
    for piece, kind in pieces:
        start = text.index(piece, pos)
        out.append((start, start + len(piece), kind))
        pos = start + len(piece)
    return out


# --------------------------------------------------------------------------------------------------- normalize


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("ＢＬＵＥＪＡＹ", "bluejay", id="full-width letters"),
        pytest.param("ｆｉｌｅ １２３", "file 123", id="full-width letters and digits"),
        pytest.param("\ufb01le", "file", id="ligature fi"),
        pytest.param("\ufb00", "ff", id="ligature ff"),
        pytest.param("wait…", "wait...", id="horizontal ellipsis"),
        pytest.param("x²", "x2", id="superscript"),
        pytest.param("①", "1", id="circled digit"),
        pytest.param("‘it’s’", "'it's'", id="curly single quotes"),
        pytest.param("\u201aa\u201b", "'a'", id="low and reversed single quotes"),
        pytest.param("“quoted”", '"quoted"', id="curly double quotes"),
        pytest.param("\u201ea\u201f", '"a"', id="low and reversed double quotes"),
        pytest.param("a–b—c", "a-b-c", id="en and em dash"),
        pytest.param("a\u2010b\u2011c\u2212d", "a-b-c-d", id="hyphen, non-breaking hyphen, minus"),
        pytest.param("a  b", "a b", id="two spaces"),
        pytest.param("a \t\n b", "a b", id="mixed whitespace run"),
        pytest.param("a\r\nb", "a b", id="crlf"),
        pytest.param("a\u00a0\u00a0b", "a b", id="no-break spaces"),
        pytest.param("a\u3000b", "a b", id="ideographic space"),
        pytest.param("a\u2028b", "a b", id="line separator"),
        pytest.param("  a \n", "a", id="no leading or trailing whitespace (documented)"),
        pytest.param("Straße", "strasse", id="sharp s folds to ss"),
        pytest.param("ΣΊΣΥΦΟΣ", "σίσυφοσ", id="greek final sigma folds"),
        pytest.param("HeLLo World", "hello world", id="ascii case"),
        pytest.param("a\u200bb", "ab", id="zero width space"),
        pytest.param("a\u200cb", "ab", id="zero width non-joiner"),
        pytest.param("a\u200db", "ab", id="zero width joiner"),
        pytest.param("a\u2060b", "ab", id="word joiner"),
        pytest.param("a\ufeffb", "ab", id="byte order mark"),
        pytest.param("a\u00adb", "ab", id="soft hyphen"),
        pytest.param("B\u200bL\u200cU\u200dE\u2060J\ufeffA\u00adY", "bluejay", id="all zero-width characters"),
        pytest.param("a \u200b b", "a b", id="zero width inside a whitespace run"),
        pytest.param("e\u0301", "\u00e9", id="combining mark composes"),
        pytest.param("plain ascii.", "plain ascii.", id="unchanged"),
        pytest.param("", "", id="empty"),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ＢＬＵＥ Jay", "BLUE Jay"),
        ("Straße\t\tNEU", "Straße NEU"),
        ("“Don’t” – NO", "\"Don't\" - NO"),
        ("X\u200bY", "XY"),
    ],
)
def test_normalize_without_folding_keeps_case(raw: str, expected: str) -> None:
    assert normalize(raw, fold=False) == expected


# The offset map must describe the same normalised text that ``normalize`` produces (up to the whitespace at its ends):
# banned terms are normalised with ``normalize`` and searched for in ``normalize_mapped(output).text``, so any
# difference is a term that is not found.
MAPPED_CASES = [
    "😀 ＢＬＵＥ\ufb01 “q” – Straße\u200b\t\n end",
    "e\u0301te\u0301 cafe\u0301",
    "İstanbul ǅ",
    "a \u0301b",  # a combining mark after a space
    "a \u200b\u00ad b",
    "a\u200b\u0301",  # a zero-width character between a letter and its combining mark
    "\u1112\u1161\u11ab\u1100\u116e\u11a8",  # Hangul written with conjoining jamo: NFKC composes "한국"
    "\u2033",  # double prime
    "x\r\u00b4y",  # a spacing acute accent (NFKC: space + combining acute) after whitespace
    "é\x1fb",  # U+001F is whitespace to str.split
]


@pytest.mark.parametrize("raw", MAPPED_CASES)
@pytest.mark.parametrize("fold", [True, False])
def test_normalize_mapped_text_equals_normalize(raw: str, fold: bool) -> None:
    assert normalize_mapped(raw, fold).text.strip(" ") == normalize(raw, fold).strip(" ")


PREFIXES = [
    pytest.param("😀😀 ", id="emoji"),
    pytest.param("👩\u200d💻 ", id="emoji zwj sequence"),
    pytest.param("🇫🇷 ", id="flag"),
    pytest.param("e\u0301e\u0301 ", id="combining marks"),
    pytest.param("a\u0301\u0302\u0303 ", id="stacked combining marks"),
    pytest.param("\ufb01\ufb01 ", id="ligatures"),
    pytest.param("Straße ", id="sharp s"),
    pytest.param("İİ ", id="dotted capital I"),
    pytest.param("ＡＢ ", id="full-width"),
    pytest.param("x\u200b\u00ady ", id="zero-width"),
    pytest.param("a \t\n\r\n b ", id="whitespace run"),
    pytest.param("…… ", id="ellipses"),
]


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("fold", [True, False])
def test_original_span_after_expanding_and_shrinking_characters(prefix: str, fold: bool) -> None:
    text = prefix + "Target word"
    mapped = normalize_mapped(text, fold)
    needle = "target word" if fold else "Target word"
    at = mapped.text.index(needle)
    assert mapped.original_span(at, at + len(needle)) == (len(prefix), len(text))
    assert mapped.original_span(at, at + 1) == (len(prefix), len(prefix) + 1)


@pytest.mark.parametrize(
    ("raw", "piece", "original"),
    [
        ("say ＢＬＵＥ now", "blue", "ＢＬＵＥ"),
        ("a \ufb01 b", "fi", "\ufb01"),
        ("x Straße y", "strasse", "Straße"),
        ("x Straße y", "ss", "ß"),
        ("x  \t y", " ", "  \t "),
        ("B\u200bLUE", "blue", "B\u200bLUE"),
        ("go…", "...", "…"),
        ("“hi”", '"hi"', "“hi”"),
    ],
)
def test_original_span_covers_the_original_characters(raw: str, piece: str, original: str) -> None:
    mapped = normalize_mapped(raw)
    at = mapped.text.index(piece)
    start, end = mapped.original_span(at, at + len(piece))
    assert raw[start:end] == original


MAPPING_ALPHABET = st.sampled_from(
    [*"abXY .,-'\"\n\t\r", "\u200b", "\u00ad", "\ufeff", "\u200d", "\ufb01", "…", "“", "”", "‘", "’", "–", "—", "ß",
     "Ａ", "ｂ", "\u0301", "\u0327", "😀", "👩\u200d💻", "\u00a0", "\u3000", "İ", "ǅ", "²", "\u2028"]
)
mapping_texts = st.one_of(st.lists(MAPPING_ALPHABET, max_size=16).map("".join), st.text(max_size=12))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(mapping_texts, st.booleans())
@example("a\u200b\u0301", True)
def test_original_span_property(raw: str, fold: bool) -> None:
    mapped = normalize_mapped(raw, fold)
    norm = mapped.text
    previous = (0, 0)
    for a in range(len(norm)):
        start, end = mapped.original_span(a, a + 1)
        assert start >= previous[0] and end >= previous[1], "the map is monotone"
        previous = (start, end)
        for b in range(a + 1, len(norm) + 1):
            start, end = mapped.original_span(a, b)
            assert 0 <= start < end <= len(raw)
            assert norm[a:b].strip(" ") in normalize(raw[start:end], fold)  # normalize drops the ends' spaces


@settings(max_examples=300, deadline=None)
@given(mapping_texts, st.booleans())
@example("é\x1fy", True)
def test_normalize_mapped_agrees_with_normalize_property(raw: str, fold: bool) -> None:
    assert normalize_mapped(raw, fold).text.strip(" ") == normalize(raw, fold).strip(" ")


# --------------------------------------------------------------------------------------------------- segmentation


SEGMENT_CASES = [
    # abbreviations, numbers, URLs
    ("See e.g. the manual. Next one.", [("See e.g. the manual.", S), ("Next one.", S)]),
    ("Use a tool, e.g. Python. Done.", [("Use a tool, e.g. Python.", S), ("Done.", S)]),
    ("(e.g. Python) is fine. Done.", [("(e.g. Python) is fine.", S), ("Done.", S)]),
    ("That is, i.e. The rule. Next.", [("That is, i.e. The rule.", S), ("Next.", S)]),
    ("Ask Dr. Smith today. Then go.", [("Ask Dr. Smith today.", S), ("Then go.", S)]),
    ("Made in the U.S. Army base. Fine.", [("Made in the U.S. Army base.", S), ("Fine.", S)]),
    ("I live in the U.S.", [("I live in the U.S.", S)]),
    ("Compare A vs. B now. Fine.", [("Compare A vs. B now.", S), ("Fine.", S)]),
    ("It costs 3.5 dollars. Yes.", [("It costs 3.5 dollars.", S), ("Yes.", S)]),
    ("Pi is 3.14159. Yes.", [("Pi is 3.14159.", S), ("Yes.", S)]),
    ("Install v2.1.3 now. Done.", [("Install v2.1.3 now.", S), ("Done.", S)]),
    ("Install version 2.1.3. Done.", [("Install version 2.1.3.", S), ("Done.", S)]),
    ("Visit https://example.com/a.b?c=d. Then stop.", [("Visit https://example.com/a.b?c=d.", S), ("Then stop.", S)]),
    ("Mail hr@corp.example.com today. Thanks.", [("Mail hr@corp.example.com today.", S), ("Thanks.", S)]),
    # terminators
    ("Wait… Then go.", [("Wait…", S), ("Then go.", S)]),
    ("Wait… then go.", [("Wait… then go.", S)]),
    ("Wait... Then go.", [("Wait...", S), ("Then go.", S)]),
    ("Really? Yes! Ok.", [("Really?", S), ("Yes!", S), ("Ok.", S)]),
    ("Really?! Yes.", [("Really?!", S), ("Yes.", S)]),
    ("It costs 5. 3 items remain.", [("It costs 5.", S), ("3 items remain.", S)]),
    ("lower. case start", [("lower. case start", S)]),
    ("No terminator at all", [("No terminator at all", S)]),
    # closing quotes and brackets after the period; never inside a quotation
    ('He said "Stop." Then left.', [('He said "Stop."', S), ("Then left.", S)]),
    ("He said “Stop.” Then left.", [("He said “Stop.”", S), ("Then left.", S)]),
    ("He said 'stop.' Then left.", [("He said 'stop.'", S), ("Then left.", S)]),
    ("He went (there.) Then left.", [("He went (there.)", S), ("Then left.", S)]),
    ("See [note.] Then left.", [("See [note.]", S), ("Then left.", S)]),
    ('He said "Stop. Go now." Then left.', [('He said "Stop. Go now."', S), ("Then left.", S)]),
    ("He said “Stop. Go now.” Then left.", [("He said “Stop. Go now.”", S), ("Then left.", S)]),
    ('He asked "Why? How?" Then left.', [('He asked "Why? How?"', S), ("Then left.", S)]),
    ('He said "Stop. Go now. Then left.', [('He said "Stop. Go now. Then left.', S)]),
    ('Stop. "Then go."', [("Stop.", S), ('"Then go."', S)]),
    # curly quotes pair as the quote check pairs them: a “ is open until a ” follows it
    ("Hi \u201d \u201cwe lie. Bye now\u201d. Fine.", [("Hi \u201d \u201cwe lie. Bye now\u201d.", S), ("Fine.", S)]),
    ("A \u201ca \u201cb\u201d c. Next.", [("A \u201ca \u201cb\u201d c.", S), ("Next.", S)]),
    ('He said "". Then left.', [('He said "".', S), ("Then left.", S)]),
    # citation markers after the final punctuation
    ("Claim. [doc:a] Next.", [("Claim. [doc:a]", S), ("Next.", S)]),
    ("Claim.[doc:a] Next.", [("Claim.[doc:a]", S), ("Next.", S)]),
    ("Claim. [doc:a][doc:b] Next.", [("Claim. [doc:a][doc:b]", S), ("Next.", S)]),
    ("Claim. [doc:a] [doc:b] Next.", [("Claim. [doc:a] [doc:b]", S), ("Next.", S)]),
    ("Claim [doc:a]. Next [doc:b].", [("Claim [doc:a].", S), ("Next [doc:b].", S)]),
    ("Claim. [doc:a]", [("Claim. [doc:a]", S)]),
    ("Claim. [doc:a] and then.", [("Claim. [doc:a]", S), ("and then.", S)]),
    ("[doc:a]", [("[doc:a]", S)]),
    # whitespace around statements
    ("Hello world.   ", [("Hello world.", S)]),
    ("   Indented line.", [("Indented line.", S)]),
    # a statement never spans a line break (documented choice)
    ("This sentence\ncontinues here.", [("This sentence", S), ("continues here.", S)]),
    # headings
    ("# Heading\nBody text.", [("# Heading", H), ("Body text.", S)]),
    ("### Deep heading\nBody.", [("### Deep heading", H), ("Body.", S)]),
    ("#hashtag trending.", [("#hashtag trending.", S)]),
    ("####### seven", [("####### seven", S)]),
    ("**Important**\nBody.", [("**Important**", H), ("Body.", S)]),
    ("Here are the steps:\nDo it.", [("Here are the steps:", H), ("Do it.", S)]),
    ("One two three four five six seven eight:", [("One two three four five six seven eight:", H)]),
    ("One two three four five six seven eight nine:", [("One two three four five six seven eight nine:", S)]),
    ("Great. Here are the steps:", [("Great.", S), ("Here are the steps:", H)]),
    ("Note: this is not a heading.", [("Note: this is not a heading.", S)]),
    # list items
    (
        "- one. Two.\n* three\n+ four\n• five",
        [("- one. Two.", ITEM), ("* three", ITEM), ("+ four", ITEM), ("• five", ITEM)],
    ),
    ("1. first\n2) second\n10. tenth", [("1. first", ITEM), ("2) second", ITEM), ("10. tenth", ITEM)]),
    ("  - nested item", [("- nested item", ITEM)]),
    ("-5 degrees today.", [("-5 degrees today.", S)]),
    ("1.5 is a number.", [("1.5 is a number.", S)]),
    ("Intro.\n- item [doc:a]\nOutro.", [("Intro.", S), ("- item [doc:a]", ITEM), ("Outro.", S)]),
    # Sources sections
    (
        "Answer. [doc:a]\n\nSources:\n[doc:a] Title\n[doc:b] Other\n\nAfter text.",
        [("Answer. [doc:a]", S), ("Sources:", H), ("[doc:a] Title", SRC), ("[doc:b] Other", SRC), ("After text.", S)],
    ),
    (
        "## Sources\n- [doc:a] HR\n# Next\nBody.",
        [("## Sources", H), ("- [doc:a] HR", SRC), ("# Next", H), ("Body.", S)],
    ),
    ("**Sources**\n[doc:a] x", [("**Sources**", H), ("[doc:a] x", SRC)]),
    ("References\n1. [doc:a] x", [("References", H), ("1. [doc:a] x", SRC)]),
    ("Sources: [doc:a]", [("Sources: [doc:a]", SRC)]),
    ("Sources: [doc:a], [doc:b]\nMore text.", [("Sources: [doc:a], [doc:b]", SRC), ("More text.", S)]),
    ("sources: the handbook.", [("sources: the handbook.", SRC)]),
    # fenced code
    ("```python\nx = 1. Y = 2.\n```\nAfter.", [("```python\nx = 1. Y = 2.\n```", C), ("After.", S)]),
    ("~~~\ncode\n~~~", [("~~~\ncode\n~~~", C)]),
    ("```\n# not heading\n- not item\n```", [("```\n# not heading\n- not item\n```", C)]),
    ("````\n```\nstill code\n````\nAfter.", [("````\n```\nstill code\n````", C), ("After.", S)]),
    ("Before.\n```\nnever closed\n\n", [("Before.", S), ("```\nnever closed", C)]),
    # CRLF line endings
    ("First. Second.\r\nThird.\r\n", [("First.", S), ("Second.", S), ("Third.", S)]),
    ("# Title\r\nBody.", [("# Title", H), ("Body.", S)]),
    ("- a\r\n- b\r\n", [("- a", ITEM), ("- b", ITEM)]),
    ("Sources:\r\n[doc:a] T\r\n\r\nAfter.", [("Sources:", H), ("[doc:a] T", SRC), ("After.", S)]),
    ("```\r\ncode\r\n```\r\nAfter.", [("```\r\ncode\r\n```", C), ("After.", S)]),
    # empty input
    ("", []),
    ("\n\n  \n", []),
]


@pytest.mark.parametrize(("text", "expected"), SEGMENT_CASES, ids=[repr(c[0])[:50] for c in SEGMENT_CASES])
def test_segment(text: str, expected: list[tuple[str, Kind]]) -> None:
    assert statements(text) == spans(text, *expected)


def test_segment_exact_offsets() -> None:
    text = "# Leave\r\nStaff get 25 days. [doc:a] Dr. Who agrees.\r\n\r\n- one\r\nSources:\r\n[doc:a] HR"
    assert statements(text) == [
        (0, 7, H), (9, 35, S), (36, 51, S), (55, 60, ITEM), (62, 70, H), (72, 82, SRC),
    ]


def test_sources_section_ends_at_blank_line() -> None:
    text = "Sources:\n[doc:a] A\n\n[doc:b] is cited here. Done."
    assert statements(text) == spans(text, ("Sources:", H), ("[doc:a] A", SRC), ("[doc:b] is cited here.", S),
                                     ("Done.", S))


def test_source_statements_name_their_section() -> None:
    text = "Intro.\nSources:\n[doc:a] A\n[doc:b] B\n\nSources: [doc:c]"
    segs = segment(text, FINDER)
    heading = text.index("Sources:")
    assert [(s.kind, s.section) for s in segs] == [(S, -1), (H, heading), (SRC, heading), (SRC, heading), (SRC, -1)]


def test_statement_lines() -> None:
    text = "One. Two.\r\n```\nx\n```\nEnd"
    segs = segment(text, FINDER)
    assert [(s.line_start, s.end) for s in segs] == [(0, 4), (0, 9), (11, 20), (21, 24)]


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        pytest.param("Claim.", [], id="a marker or a lower-case word may follow"),
        pytest.param("Claim. ", [], id="the next character is unknown"),
        pytest.param("Claim. [doc:", [], id="partial marker"),
        pytest.param("Claim. [doc:a]", [], id="another marker may follow"),
        pytest.param("Claim. [doc:a] Nex", [("Claim. [doc:a]", S)], id="marker then a word"),
        pytest.param("Claim. Nex", [("Claim.", S)], id="complete sentence"),
        pytest.param("Claim. next", [], id="lower-case: the sentence goes on"),
        pytest.param("See e.g. Pyth", [], id="abbreviation"),
        pytest.param('He said "Stop. Go', [], id="inside a quotation"),
        pytest.param("- item one. Two", [], id="list item waits for its line"),
        pytest.param("# Heading", [], id="heading waits for its line"),
        pytest.param("Here are the steps:", [], id="colon line waits for its line"),
        pytest.param("Sources: [doc:a]", [], id="inline sources waits for its line"),
        pytest.param("A. B. C", [("A.", S), ("B.", S)], id="several sentences"),
        pytest.param("Line one\nLine", [("Line one", S)], id="a complete line"),
        pytest.param("```\ncode\n", [], id="open fence"),
        pytest.param("```\ncode\n```", [], id="closing fence line not complete"),
        pytest.param("```\ncode\n```\n", [("```\ncode\n```", C)], id="closed fence"),
        pytest.param("Sources:\n[doc:a] A\n", [("Sources:", H), ("[doc:a] A", SRC)], id="sources section"),
        pytest.param("Sources:\n[doc:a] A. B", [("Sources:", H)], id="a source line waits for its line"),
    ],
)
def test_segment_prefix(prefix: str, expected: list[tuple[str, Kind]]) -> None:
    got = [(s.start, s.end, s.kind) for s in segment(prefix, FINDER, final=False)]
    assert got == spans(prefix, *expected)


# --------------------------------------------------------------------------------------------------- prefix stability

WORDS = ["leave", "Policy", "days", "the", "it's", "e.g.", "i.e.", "Dr.", "U.S.", "3.5", "v2.1.3",
         "https://x.io/a.b?c=d", '"Quoted. Text."', "“Curly. Quote.”", "(see it.)", "Sources", "[doc:a]"]
ENDINGS = [".", ".", "!", "?", "…", "...", ":", "", '."', ".)", "?”"]
MARKERS = ["", "", " [doc:a]", " [doc:b][doc:c]", "[doc:x]", " [doc:a] [doc:b]"]
sentences = st.builds(lambda words, end, marker: " ".join(words) + end + marker,
                      st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
                      st.sampled_from(ENDINGS), st.sampled_from(MARKERS))
lines = st.one_of(
    st.lists(sentences, min_size=1, max_size=3).map(" ".join),
    st.builds(str.__add__,
              st.sampled_from(["- ", "* ", "1. ", "2) ", "• ", "  - ", "# ", "## ", "**", "Sources: ", "  "]),
              sentences),
    st.sampled_from(["", "Sources:", "## Sources", "References", "**Sources**", "```", "```python", "~~~",
                     "**Bold**", "[doc:a] Title", "- [doc:b] Other", " "]),
)
documents = st.builds(
    lambda parts, end: "".join(parts) + end,
    st.lists(st.tuples(lines, st.sampled_from(["\n", "\r\n", "\n\n", "\r\n\r\n"])).map("".join), max_size=6),
    st.sampled_from(["", "Last line.", "Trailing [doc:a]", "- item"]),
)
chaos = st.lists(
    st.sampled_from([*"aA .!?…\"“”'()[]:-*#1\n\r\t`~_", "[doc:a]", "[doc:", "e.g.", "U.S.", "Sources:", "**", "```"]),
    max_size=40,
).map("".join)


def _key(s: Statement) -> tuple[int, int, Kind, int, int]:
    return s.start, s.end, s.kind, s.line_start, s.section


def assert_prefix_stable(text: str, *, compare=_key) -> None:
    full = {compare(s) for s in segment(text, FINDER)}
    for cut in range(len(text) + 1):
        for s in segment(text[:cut], FINDER, final=False):
            assert compare(s) in full, (text[:cut], s)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_segmentation_is_prefix_stable(text: str) -> None:
    assert_prefix_stable(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(chaos, st.text(max_size=40)))
def test_segmentation_is_prefix_stable_on_any_text(text: str) -> None:
    assert_prefix_stable(text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(documents, chaos))
@example("See [doc:x.[doc:a] Next.")
def test_prefix_statements_are_the_guards_statements(text: str) -> None:
    """A stream segments its prefixes with ``prefix_statements``; the guard judges ``Turn.statements`` of the whole
    output. What the stream reports must be among what the guard judges."""
    turn = Turn(text, [], frozenset(), MARKER_RE, deadline=time.perf_counter() + 60)
    full = set(turn.statements)
    for cut in range(len(text) + 1):
        for s in prefix_statements(MARKER_RE, text[:cut]):
            assert s in full, (text[:cut], s)


@settings(max_examples=100, deadline=None)
@given(documents)
@example('"Quoted. Text." Policy.\n')
def test_prefix_statements_are_reported_identically(text: str) -> None:
    """The whole Statement value is the same for the prefix and the full text."""
    assert_prefix_stable(text, compare=lambda s: s)


@settings(max_examples=200, deadline=None)
@given(st.one_of(documents, st.text(max_size=60)))
def test_segments_are_ordered_disjoint_and_trimmed(text: str) -> None:
    previous_end = 0
    for s in segment(text, FINDER):
        assert previous_end <= s.start < s.end <= len(text)
        assert text[s.start] not in " \t\n" and not text.startswith("\r\n", s.start)
        assert text[s.end - 1] not in " \t\r\n"
        if s.kind is not Kind.CODE:
            assert "\n" not in text[s.start:s.end]
        previous_end = s.end


# --------------------------------------------------------------------------------------- grouped citation markers

DEFAULT_RE = __import__("guardrail").Guard.from_dict({}).compiled.marker_re  # the default reader


def default_statements(text: str) -> list[tuple[int, int, Kind]]:
    turn = Turn(text, [], frozenset(), DEFAULT_RE, deadline=time.perf_counter() + 10)
    return [(s.start, s.end, s.kind) for s in turn.statements]


GROUP_CASES = [
    ("Claim. [doc:a, doc:b] Next.", [("Claim. [doc:a, doc:b]", S), ("Next.", S)]),
    ("Claim. [doc:a; b] Next.", [("Claim. [doc:a; b]", S), ("Next.", S)]),
    ("Claim. [DOC: a,  b] [doc:c] Next.", [("Claim. [DOC: a,  b] [doc:c]", S), ("Next.", S)]),
    ("Claim.[Doc:a;b] Next.", [("Claim.[Doc:a;b]", S), ("Next.", S)]),
    # as after final punctuation, whitespace must follow the markers for the sentence to end there
    ("Claim.[Doc:a;b]Next.", [("Claim.[Doc:a;b]Next.", S)]),
    ("**Note.[doc:a]**", [("**Note.[doc:a]**", H)]),
    ("Claim. [doc:a, doc:b] and then.", [("Claim. [doc:a, doc:b]", S), ("and then.", S)]),
    ("Claim [doc:a, b]. Next [DOC:c].", [("Claim [doc:a, b].", S), ("Next [DOC:c].", S)]),
    # not a group: it does not belong to the sentence before it
    ("Claim. [doc:a ] Next.", [("Claim.", S), ("[doc:a ] Next.", S)]),
    ("Claim. [doc:a, ] Next.", [("Claim.", S), ("[doc:a, ] Next.", S)]),
    ("Claim. [doc:a", [("Claim.", S), ("[doc:a", S)]),
    ("Sources: [doc:a, doc:b]; [DOC: c]", [("Sources: [doc:a, doc:b]; [DOC: c]", SRC)]),
    ("[doc:a, b]", [("[doc:a, b]", S)]),
]


@pytest.mark.parametrize(("text", "expected"), GROUP_CASES, ids=[repr(c[0])[:50] for c in GROUP_CASES])
def test_segment_with_groups(text: str, expected: list[tuple[str, Kind]]) -> None:
    assert default_statements(text) == spans(text, *expected)


@pytest.mark.parametrize(
    ("prefix", "open_from"),
    [
        ("Claim [doc:a, do", 6),
        ("Claim [doc:a, doc:", 6),
        ("Claim [doc:a;", 6),
        ("Claim [DOC: a,  ", 6),
        ("Claim [D", 6),
        ("Claim [", 6),
        ("Claim [doc:a] [doc:b", 14),
        ("Claim [doc:a]", 13),
        ("Claim [doc:a, b]", 16),
        ("Claim [x", 8),
        ("Claim [doc:a b", 14),
        ("Claim [doc:a ", 13),
        ("Claim [doc:a,]", 14),
        ("", 0),
    ],
)
def test_find_markers_reports_where_an_unfinished_group_may_begin(prefix: str, open_from: int) -> None:
    from guardrail.checks.base import find_markers

    assert find_markers(DEFAULT_RE, prefix, 1.0, partial=True)[1] == open_from
    assert find_markers(DEFAULT_RE, prefix, 1.0)[1] == len(prefix)  # a complete text: nothing is open


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        pytest.param("Claim. [doc:a, do", [], id="an unfinished group"),
        pytest.param("Claim. [doc:a, doc:b]", [], id="another group may follow"),
        pytest.param("Claim. [doc:a, doc:b] Nex", [("Claim. [doc:a, doc:b]", S)], id="a group, then a word"),
        pytest.param("Claim. [DOC: a; b] [doc:c", [], id="a second group unfinished"),
        pytest.param("Claim. [x", [("Claim.", S)], id="no group can begin so"),
    ],
)
def test_prefix_statements_with_groups(prefix: str, expected: list[tuple[str, Kind]]) -> None:
    got = [(s.start, s.end, s.kind) for s in prefix_statements(DEFAULT_RE, prefix)]
    assert got == spans(prefix, *expected)


GROUPS = ["[doc:a, doc:b]", "[doc:a; b]", "[DOC: a]", "[Doc:a,b;c]", "[doc: a,  doc:  b]", "[doc:a ]", "[doc:a,]",
          "[doc:", "[DOC: a, do"]
group_documents = st.builds(
    lambda parts, end: "".join(parts) + end,
    st.lists(st.tuples(st.one_of(lines, st.lists(st.sampled_from([*WORDS, *GROUPS, ".", ". ", "? "]), max_size=8)
                                 .map(" ".join)),
                       st.sampled_from(["\n", "\r\n", "\n\n"])).map("".join), max_size=5),
    st.sampled_from(["", "Last line. [doc:a, b]", "Trailing [DOC: a", "- item [doc:a; b]"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(group_documents)
@example("Claim. [doc:a, doc:b] Next.")
@example("Claim. [DOC: a; b] [doc:c] next.")
def test_prefix_statements_with_groups_are_the_guards_statements(text: str) -> None:
    """The default reader, which reads groups: a stream's prefixes (``prefix_statements``) report exactly the
    statements the guard judges on the whole output (prefix-stable)."""
    turn = Turn(text, [], frozenset(), DEFAULT_RE, deadline=time.perf_counter() + 60)
    full = set(turn.statements)
    for cut in range(len(text) + 1):
        for s in prefix_statements(DEFAULT_RE, text[:cut]):
            assert s in full, (text[:cut], s)


def test_marker_spans_are_whole_groups() -> None:
    text = "A [doc:a, doc:b] B [DOC: c] C [doc:d;e]."
    turn = Turn(text, [], frozenset(), DEFAULT_RE, deadline=time.perf_counter() + 10)
    assert [text[a:b] for a, b in turn.marker_spans] == ["[doc:a, doc:b]", "[DOC: c]", "[doc:d;e]"]
    assert [mk.id for mk in turn.markers] == ["a", "b", "c", "d", "e"]


# --------------------------------------------------------------------------------------------------------- words

WORD_ALPHABET = st.sampled_from(
    [*"abXY .,-'\"\n\t_1", "\u200b", "\u00ad", "\ufeff", "\ufb01", "…", "“", "”", "’", "–", "ß", "Ａ", "\u0301", "😀",
     "\u00a0", "İ", "ǅ", "²", "™", "東", "Ü", "\u1112\u1161", "\u0bc6\u0bbe", "\ud800", "ŉ", "Å"])
word_texts = st.one_of(st.lists(WORD_ALPHABET, max_size=20).map("".join), st.text(max_size=20))


@settings(max_examples=500, deadline=None)
@given(word_texts)
@example("e\u200b\u0301")
@example("\u1112\u1161\u11ab")
def test_words_are_the_word_runs_of_the_normalised_text(raw: str) -> None:
    import re as std_re

    from guardrail.text import word_bytes, words

    expected = std_re.findall(r"\w+", normalize(raw))
    assert words(raw) == expected
    assert word_bytes(raw) == [w.encode("utf-8", "surrogatepass") for w in expected]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(word_texts, st.sampled_from(["[doc:a]", "[doc:a, b]"])), max_size=6).map("".join))
def test_word_spans_map_each_word_back_to_its_characters(raw: str) -> None:
    from guardrail.text import without_spans, word_spans, words

    cuts = [(m.start(), m.end()) for m in __import__("re").finditer(r"\[doc:[^\]]*\]", raw)]
    found = word_spans(raw, 0, len(raw), cuts)
    assert [w for w, _, _ in found] == words(without_spans(raw, 0, len(raw), cuts))
    previous = (0, 0)
    for w, start, end in found:  # in order ("¼" is two words, "1" and "4", of one character)
        assert previous <= (start, end) and 0 <= start < end <= len(raw)
        inside = [(a, b) for a, b in cuts if start <= a and b <= end]
        assert w in "".join(words(without_spans(raw, start, end, inside))), (w, raw[start:end])
        previous = (start, end)
