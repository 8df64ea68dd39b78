"""The banned_terms section (CONTRACT sections 1-3, "Banned terms")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail import Guard, PolicyError
from guardrail.models import Action, Decision, Label
from guardrail.text import normalize

TERMS = ["Project Falcon", "Falcon Nest", "BLUEJAY", "C++", ".NET", "kraken"]


def make_guard(terms: list[str] | None = None, **options: Any) -> Guard:
    return Guard.from_dict({"banned_terms": {"terms": TERMS if terms is None else terms, **options}})


def matched(output: str, terms: list[str] | None = None, **options: Any) -> list[str]:
    """The original characters each finding covers, in order."""
    verdict = make_guard(terms, **options).check(output)
    return [output[f.start:f.end] for f in verdict.findings]


def occurrences(text: str, terms: list[str], fold: bool = True) -> list[str]:
    """The terms that occur in ``text`` at term boundaries, compared after the contract's normalisation."""
    norm = normalize(text, fold)
    found = []
    for term in terms:
        key = normalize(term, fold)
        if re.search(rf"(?<!\w){re.escape(key)}(?!\w)", norm):
            found.append(term)
    return found


# --------------------------------------------------------------------------------------------------- matching


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        # case-insensitive by default
        pytest.param("The BLUEJAY launch.", ["BLUEJAY"], id="same case"),
        pytest.param("The bluejay launch.", ["bluejay"], id="lower case"),
        pytest.param("The BlueJay launch.", ["BlueJay"], id="mixed case"),
        pytest.param("About project falcon.", ["project falcon"], id="multi-word lower"),
        # term boundaries
        pytest.param("BLUEJAY", ["BLUEJAY"], id="whole text"),
        pytest.param("(BLUEJAY), BLUEJAY. BLUEJAY!", ["BLUEJAY", "BLUEJAY", "BLUEJAY"], id="punctuation around"),
        pytest.param("BLUEJAY's plan", ["BLUEJAY"], id="apostrophe after"),
        pytest.param("BLUEJAY-2 plan", ["BLUEJAY"], id="hyphen after"),
        pytest.param("**BLUEJAY**", ["BLUEJAY"], id="markdown bold"),
        pytest.param("BLUEJAYS fly.", [], id="letter after"),
        pytest.param("XBLUEJAY", [], id="letter before"),
        pytest.param("BLUEJAY2", [], id="digit after"),
        pytest.param("BLUEJAY_v2", [], id="underscore after"),
        pytest.param("éBLUEJAY", [], id="non-ASCII letter before"),
        pytest.param("BLUEJAYé", [], id="non-ASCII letter after"),
        pytest.param("Ask the krakens.", [], id="plural is another word"),
        pytest.param("I use C++ daily.", ["C++"], id="C++"),
        pytest.param("I use C++.", ["C++"], id="C++ before a period"),
        pytest.param("(C++)", ["C++"], id="C++ in brackets"),
        pytest.param("I use C++x daily.", [], id="C++x"),
        pytest.param("I use xC++ daily.", [], id="xC++"),
        pytest.param("Built on .NET today.", [".NET"], id=".NET"),
        pytest.param("Built on .NET.", [".NET"], id=".NET before a period"),
        pytest.param("Built on .NETwork.", [], id=".NETwork"),
        pytest.param("Built on ASP.NET today.", [], id="ASP.NET: a word character before"),
        # whitespace inside a multi-word term matches any whitespace run
        pytest.param("The Project  Falcon plan.", ["Project  Falcon"], id="two spaces"),
        pytest.param("The Project\nFalcon plan.", ["Project\nFalcon"], id="newline"),
        pytest.param("The Project\r\nFalcon plan.", ["Project\r\nFalcon"], id="crlf"),
        pytest.param("The Project\t \n Falcon plan.", ["Project\t \n Falcon"], id="mixed run"),
        pytest.param("The Project\u00a0Falcon plan.", ["Project\u00a0Falcon"], id="no-break space"),
        pytest.param("The ProjectFalcon plan.", [], id="no whitespace is not a match"),
        pytest.param("The Project-Falcon plan.", [], id="hyphen is not whitespace"),
        # zero-width characters are ignored and the finding covers them
        pytest.param("The BLUE\u200bJAY launch.", ["BLUE\u200bJAY"], id="zero width space"),
        pytest.param("The B\u200cL\u200dU\u2060E\ufeffJ\u00adAY launch.", ["B\u200cL\u200dU\u2060E\ufeffJ\u00adAY"],
                     id="every zero-width character"),
        pytest.param("The BLUE\u200b\u200bJAY launch.", ["BLUE\u200b\u200bJAY"], id="several in a row"),
        pytest.param("The Project \u200bFalcon plan.", ["Project \u200bFalcon"], id="next to the whitespace"),
        pytest.param("Use C\u200b++ now.", ["C\u200b++"], id="inside C++"),
        # NFKC
        pytest.param("The ＢＬＵＥＪＡＹ launch.", ["ＢＬＵＥＪＡＹ"], id="full-width"),
        pytest.param("The ｂｌｕｅｊａｙ launch.", ["ｂｌｕｅｊａｙ"], id="full-width lower"),
        pytest.param("Use Ｃ＋＋ now.", ["Ｃ＋＋"], id="full-width C++"),
        pytest.param("The ＰＲＯＪＥＣＴ　ＦＡＬＣＯＮ plan.", ["ＰＲＯＪＥＣＴ　ＦＡＬＣＯＮ"],
                     id="full-width with ideographic space"),
        # overlapping matches are one finding, their union
        pytest.param("The Project Falcon Nest opens.", ["Project Falcon Nest"], id="overlap"),
        pytest.param("The PROJECT falcon\nnest opens.", ["PROJECT falcon\nnest"], id="overlap across a newline"),
        pytest.param("Project Falcon and Falcon Nest", ["Project Falcon", "Falcon Nest"], id="separate matches"),
        pytest.param("BLUEJAY BLUEJAY", ["BLUEJAY", "BLUEJAY"], id="adjacent matches stay separate"),
    ],
)
def test_matches(output: str, expected: list[str]) -> None:
    assert matched(output) == expected


def test_a_term_inside_a_longer_term_is_one_finding() -> None:
    assert matched("The Project Falcon plan.", ["Falcon", "Project Falcon"]) == ["Project Falcon"]


def test_term_written_unnormalised_in_the_policy() -> None:
    terms = ["ＢＬＵＥ  ＪＡＹ", "Ｋ\u200bRAKEN"]
    assert matched("A blue jay and a kraken.", terms) == ["blue jay", "kraken"]


def test_decomposed_output_matches_a_precomposed_term() -> None:
    assert matched("Meet at the cafe\u0301 now.", ["café"]) == ["cafe\u0301"]


def test_conjoining_jamo_match_a_precomposed_term() -> None:
    jamo = "\u1112\u1161\u11ab\u1100\u116e\u11a8"  # NFKC: "한국"
    assert matched(f"I love {jamo} food.", ["한국"]) == [jamo]


def test_zero_width_character_before_a_combining_mark_is_ignored() -> None:
    """Ignoring the zero-width character and applying NFKC gives "café": the term must match."""
    output = "Meet at the cafe\u200b\u0301 now."
    assert matched(output, ["café"]) == ["cafe\u200b\u0301"]


def test_control_separator_between_words_is_whitespace_whatever_else_the_output_holds() -> None:
    """U+001F is whitespace to the guard's normaliser; whether it matches must not depend on an unrelated "é"."""
    assert matched("Project\x1fFalcon", ["Project Falcon"]) == ["Project\x1fFalcon"]
    assert matched("Café: Project\x1fFalcon", ["Project Falcon"]) == ["Project\x1fFalcon"]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("The BLUEJAY launch.", ["BLUEJAY"]),
        ("The bluejay launch.", []),
        ("The Bluejay launch.", []),
        ("The ＢＬＵＥＪＡＹ launch.", ["ＢＬＵＥＪＡＹ"]),
        ("The BLUE\u200bJAY launch.", ["BLUE\u200bJAY"]),
        ("About Project\n\tFalcon.", ["Project\n\tFalcon"]),
        ("About project falcon.", []),
        ("About Project falcon.", []),
    ],
)
def test_case_sensitive(output: str, expected: list[str]) -> None:
    assert matched(output, case_sensitive=True) == expected


@pytest.mark.parametrize(
    ("terms", "output", "expected"),
    [
        (["strasse"], "Die Straße ist lang.", ["Straße"]),
        (["Straße"], "Die STRASSE ist lang.", ["STRASSE"]),
        (["ΣΊΣΥΦΟΣ"], "Ο σίσυφος.", ["σίσυφος"]),
    ],
)
def test_case_folding(terms: list[str], output: str, expected: list[str]) -> None:
    assert matched(output, terms) == expected


# --------------------------------------------------------------------------------------------------- offsets


@pytest.mark.parametrize(
    "prefix",
    [
        pytest.param("😀😀 ", id="emoji"),
        pytest.param("👩\u200d💻 ", id="emoji zwj sequence (holds a zero-width joiner)"),
        pytest.param("🇫🇷🇩🇪 ", id="flags"),
        pytest.param("e\u0301e\u0301 ", id="combining marks"),
        pytest.param("a\u0301\u0302\u0303 ", id="stacked combining marks"),
        pytest.param("\ufb01\ufb02 ", id="ligatures"),
        pytest.param("Straße ", id="sharp s"),
        pytest.param("İİ ", id="dotted capital I"),
        pytest.param("ＡＢ ", id="full-width"),
        pytest.param("x\u200b\u00ady ", id="zero-width"),
        pytest.param("\ufeff", id="byte order mark at the start"),
        pytest.param("a \t\n\r\n b ", id="whitespace run"),
        pytest.param("…… ", id="ellipses"),
        pytest.param("“quoted” – ", id="curly quotes and dash"),
    ],
)
def test_offsets_are_code_points(prefix: str) -> None:
    output = f"{prefix}The BLUEJAY and the Project  Falcon."
    findings = make_guard().check(output).findings
    first = output.index("BLUEJAY")
    second = output.index("Project  Falcon")
    assert [(f.start, f.end) for f in findings] == [(first, first + 7), (second, second + 15)]


def test_finding_fields() -> None:
    verdict = make_guard().check("The BLUEJAY launch.")
    (finding,) = verdict.findings
    assert (finding.check, finding.label, finding.action) == ("banned_terms", Label.BANNED_TERM, Action.REDACT)
    assert (finding.start, finding.end) == (4, 11)


# --------------------------------------------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("The BLUEJAY launch.", "The [redacted] launch."),
        ("BLUEJAY", "[redacted]"),
        ("The BLUE\u200bJAY launch.", "The [redacted] launch."),
        ("The ＢＬＵＥＪＡＹ launch.", "The [redacted] launch."),
        ("The Project\nFalcon plan.", "The [redacted] plan."),
        ("The Project Falcon Nest opens.", "The [redacted] opens."),
        ("BLUEJAY, C++ and .NET.", "[redacted], [redacted] and [redacted]."),
        ("😀 BLUEJAY 😀", "😀 [redacted] 😀"),
        ("e\u0301 BLUEJAY e\u0301", "e\u0301 [redacted] e\u0301"),
        ("- BLUEJAY\n- kraken\n", "- [redacted]\n- [redacted]\n"),
    ],
)
def test_redact(output: str, expected: str) -> None:
    verdict = make_guard().check(output)
    assert verdict.decision is Decision.MODIFIED
    assert verdict.output == expected


def test_redact_with_a_custom_replacement() -> None:
    verdict = make_guard(replacement="█").check("The BLUEJAY and the kraken.")
    assert (verdict.decision, verdict.output) == (Decision.MODIFIED, "The █ and the █.")


def test_redact_with_an_empty_replacement() -> None:
    verdict = make_guard(replacement="").check("The BLUEJAY launch.")
    assert (verdict.decision, verdict.output) == (Decision.MODIFIED, "The  launch.")


def test_no_match_passes_unchanged() -> None:
    output = "The falconry club meets at the nest. C++x and ASP.NET are fine."
    verdict = make_guard().check(output)
    assert (verdict.decision, verdict.output, verdict.findings) == (Decision.PASS, output, [])


@pytest.mark.parametrize(
    ("action", "output", "decision", "expected"),
    [
        ("flag", "Intro is fine. BLUEJAY launches soon. Outro here.", Decision.PASS,
         "Intro is fine. BLUEJAY launches soon. Outro here."),
        ("redact", "Intro is fine. BLUEJAY launches soon. Outro here.", Decision.MODIFIED,
         "Intro is fine. [redacted] launches soon. Outro here."),
        ("strip", "Intro is fine. BLUEJAY launches soon. Outro here.", Decision.MODIFIED,
         "Intro is fine. Outro here."),
        ("strip", "Intro is fine. Outro has BLUEJAY.", Decision.MODIFIED, "Intro is fine."),
        ("strip", "- one item\n- BLUEJAY item\n- three items", Decision.MODIFIED, "- one item\n- three items"),
        ("strip", "Intro is fine.\nWe use Project\nFalcon daily.\nOutro here.", Decision.MODIFIED,
         "Intro is fine.\nOutro here."),
        ("strip", "BLUEJAY launches soon.", Decision.BLOCKED, "Nope."),
        ("strip", "Hi!\nBLUEJAY launches soon.", Decision.BLOCKED, "Nope."),
        ("block", "Intro is fine. BLUEJAY launches soon. Outro here.", Decision.BLOCKED, "Nope."),
    ],
)
def test_actions(action: str, output: str, decision: Decision, expected: str) -> None:
    guard = Guard.from_dict({"banned_terms": {"terms": TERMS, "on_match": action}, "blocked_message": "Nope."})
    verdict = guard.check(output)
    assert (verdict.decision, verdict.output) == (decision, expected)
    assert [f.action for f in verdict.findings] == [Action(action)]


def test_block_uses_the_default_blocked_message() -> None:
    verdict = make_guard(on_match="block").check("The BLUEJAY launch.")
    assert verdict.decision is Decision.BLOCKED
    assert verdict.output == "Sorry, I can't share that answer."


# --------------------------------------------------------------------------------------------------- term files


def test_terms_from_a_file(tmp_path: Path) -> None:
    (tmp_path / "banned").mkdir()
    (tmp_path / "banned" / "codenames.txt").write_text(
        "# codenames, one a line\n\n  BLUEJAY  \nProject Falcon\n\n# falconry\n   \nkraken\n", encoding="utf-8"
    )
    guard = Guard.from_dict({"banned_terms": {"files": ["banned/codenames.txt"], "terms": ["C++"]}}, base_dir=tmp_path)
    output = "Codenames: BLUEJAY, Project Falcon, kraken and C++. Also falconry, one a line."
    verdict = guard.check(output)
    assert [output[f.start:f.end] for f in verdict.findings] == ["BLUEJAY", "Project Falcon", "kraken", "C++"]
    assert verdict.output == "Codenames: [redacted], [redacted], [redacted] and [redacted]. Also falconry, one a line."


def test_terms_file_with_windows_line_endings(tmp_path: Path) -> None:
    (tmp_path / "terms.txt").write_bytes(b"# comment\r\nBLUEJAY\r\n\r\nkraken\r\n")
    guard = Guard.from_dict({"banned_terms": {"files": ["terms.txt"]}}, base_dir=tmp_path)
    assert guard.check("A BLUEJAY and a kraken. A comment.").output == "A [redacted] and a [redacted]. A comment."


@pytest.mark.parametrize("terms", [[""], ["BLUEJAY", "   "], ["BLUEJAY", "\u200b\u00ad"]])
def test_an_empty_term_is_a_load_error(terms: list[str]) -> None:
    with pytest.raises(PolicyError) as caught:
        make_guard(terms)
    assert caught.value.key == f"banned_terms.terms[{len(terms) - 1}]"


# --------------------------------------------------------------------------------------------------- secrecy


@pytest.mark.parametrize(
    "output",
    ["The BLUEJAY launch.", "The ＢＬＵＥＪＡＹ launch.", "Project\nFalcon Nest", "B\u200bLUEJAY and kraken"],
)
@pytest.mark.parametrize("action", ["flag", "redact", "strip", "block"])
def test_message_never_contains_the_term(output: str, action: str) -> None:
    verdict = make_guard(on_match=action).check(output)
    assert verdict.findings
    for finding in verdict.findings:
        assert occurrences(finding.message, TERMS) == []
        for term in TERMS:
            assert normalize(term) not in normalize(finding.message)


def test_message_of_a_file_term_never_contains_the_term(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("Zanzibar\n", encoding="utf-8")
    verdict = Guard.from_dict({"banned_terms": {"files": ["t.txt"]}}, base_dir=tmp_path).check("Go to Zanzibar.")
    (finding,) = verdict.findings
    assert "zanzibar" not in finding.message.lower()


@pytest.mark.parametrize("action", ["redact", "strip", "block"])
@pytest.mark.parametrize(
    "output",
    [
        "Intro here. The BLUEJAY launch. Outro here.",
        "Intro here. The ｂｌｕｅ\u200bｊａｙ launch. Outro here.",
        "Intro here. Project\n Falcon Nest. Outro here.",
        "Intro here. C++ and .NET. Outro here.",
    ],
)
def test_output_never_contains_a_term(output: str, action: str) -> None:
    verdict = make_guard(on_match=action).check(output)
    assert verdict.decision is not Decision.PASS
    assert occurrences(verdict.output, TERMS) == []


@pytest.mark.parametrize(
    ("output", "terms"),
    [
        pytest.param("Built on BLUEJAY.NET today.", ["BLUEJAY", ".NET"], id="the redaction frees a term boundary"),
        pytest.param("Use C++C++ now.", ["C++"], id="the same term twice"),
    ],
)
def test_redaction_does_not_expose_a_term(output: str, terms: list[str]) -> None:
    """A term that was not at a boundary in the output may be at one once its neighbour is replaced."""
    verdict = make_guard(terms).check(output)
    assert verdict.decision is Decision.MODIFIED
    assert occurrences(verdict.output, terms) == []


# --------------------------------------------------------------------------------------------------- properties

FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in map(chr, range(0x21, 0x7F))}
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
WHITESPACE = [" ", "  ", "\n", "\t", "\r\n", " \n ", "\u00a0", "\u3000"]
FILLER = ["the", "falconry", "nest", "project", "Falcon", "jay", "C", "NET", "x", "😀", "👩\u200d💻", "e\u0301",
          "\ufb01", "Straße", "ＡＢ", " ", " ", " ", "\n", ", ", ". ", "(", ")", "-", "'", "\u200b", "…", "“", "”",
          "_", "1"]


@st.composite
def disguised_term(draw: st.DrawFn) -> str:
    """A banned term written the way an output might carry it."""
    term = draw(st.sampled_from(TERMS))
    case = draw(st.sampled_from([str, str.upper, str.lower, str.title, str.swapcase]))
    term = case(term)
    if draw(st.booleans()):
        term = "".join(FULL_WIDTH.get(c, c) for c in term)
    out = []
    for c in term:
        if c == " ":
            out.append(draw(st.sampled_from(WHITESPACE)))
        else:
            out.append(c)
        if draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from(ZERO_WIDTH)))
    return "".join(out)


texts_with_terms = st.lists(st.one_of(st.sampled_from(FILLER), disguised_term()), max_size=14).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts_with_terms)
@example("The BLUE\u200bJAY and Project\n\u200bFalcon Nest.")
@example("Falcon Nest\u200b.NET")
def test_redacted_output_holds_no_term(output: str) -> None:
    verdict = make_guard().check(output)
    assert occurrences(verdict.output, TERMS) == []
    if occurrences(output, TERMS):
        assert verdict.decision is Decision.MODIFIED
    else:
        assert (verdict.decision, verdict.output) == (Decision.PASS, output)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts_with_terms)
def test_findings_cover_terms_and_do_not_overlap(output: str) -> None:
    verdict = make_guard().check(output)
    previous_end = 0
    pieces = []
    for f in verdict.findings:
        assert previous_end <= f.start < f.end <= len(output)
        assert occurrences(output[f.start:f.end], TERMS), output[f.start:f.end]
        pieces += [output[previous_end:f.start], "[redacted]"]
        previous_end = f.end
    assert verdict.output == "".join(pieces) + output[previous_end:]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.sampled_from(TERMS))
def test_any_text_with_a_term_is_redacted(filler: str, term: str) -> None:
    output = f"{filler} {term} {filler}"
    verdict = make_guard().check(output)
    assert occurrences(verdict.output, TERMS) == []
    assert verdict.findings


_INVISIBLES = ["\u200e", "\u200f", "\u061c", "\u034f", "\ufe0f", "\ufe00", "\u2062", "\u2066", "\u202e", "\u180e",
               "\U000e0041", "\U000e0100", "\U0001d173", "\u17b4"]


@pytest.mark.parametrize("mark", _INVISIBLES, ids=[f"U+{ord(c):04X}" for c in _INVISIBLES])
def test_a_term_is_found_through_any_invisible_character(mark: str) -> None:
    """Not only the zero-width spaces: every character that shows as nothing (Unicode's default-ignorable code
    points: direction marks, variation selectors, tags, invisible operators, fillers) is read as nothing, as a
    reader sees the text; the redaction covers it too. (An attacker's review got BLUE\\u200eJAY out.)"""
    guard = Guard.from_dict({"banned_terms": {"terms": ["BLUEJAY", "Project Falcon"]}})
    for written, rest in ((f"Ask BLUE{mark}JAY now.", "Ask [redacted] now."),
                          (f"Ask Project{mark} Falcon.", "Ask [redacted]."), (f"{mark}BLUEJAY{mark}", None)):
        verdict = guard.check(written)
        assert verdict.decision is Decision.MODIFIED, written
        if rest is not None:
            assert verdict.output == rest
        assert "BLUE" not in verdict.output and "JAY" not in verdict.output


@pytest.mark.parametrize("blank", ["\u3164", "\uffa0", "\u115f", "\u1160", "\u2800"])
def test_a_character_that_shows_as_a_blank_reads_as_a_space(blank: str) -> None:
    """The Hangul fillers and the blank Braille pattern show as a space the width of a letter, and str.split does
    not take them for whitespace: Project\u3164Falcon is the term Project Falcon. (An attacker's review.)"""
    guard = Guard.from_dict({"banned_terms": {"terms": ["Project Falcon"]}})
    assert guard.check(f"Ask Project{blank}Falcon now.").output == "Ask [redacted] now."
    assert guard.check(f"Ask Project{blank}Falconry now.").decision is Decision.PASS
