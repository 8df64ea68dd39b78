"""guardrail.ifeval: the 25 IFEval instructions, type by type, and conformance with the official evaluator.

The conformance tests run every published GPT-4 and text-bison response (``shared/ifeval/``) through the catalogue
and compare each instruction's strict and loose verdicts with the official evaluator's, recorded once in
``tests/data/ifeval/official_*.jsonl`` (how: ``tests/data/ifeval/README.md``). Every disagreement must be one of
``known_differences.json``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guardrail import ifeval
from guardrail.exceptions import CheckError, GuardrailError
from guardrail.ifeval import _text
from guardrail.ifeval._core import SplitterChoice

DATA = Path(__file__).parent / "data" / "ifeval"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "ifeval"
RESPONSE_FILES = {
    "gpt4": "input_response_data_gpt4_20231107_145030.jsonl",
    "text_bison": "input_response_data_text_bison.jsonl",
}
LANGUAGE_IDS = {"language:response_language", "change_case:english_capital", "change_case:english_lowercase"}
SPLITTER_IDS = {"length_constraints:number_sentences", "change_case:capital_word_frequency"}
HAS_LANGDETECT = ifeval.langdetect_available()
needs_langdetect = pytest.mark.skipif(not HAS_LANGDETECT, reason="langdetect is not installed")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------------------------------------------------------
# the registry and the API


def test_public_names_are_pinned() -> None:
    assert set(ifeval.__all__) == {
        "INSTRUCTION_IDS",
        "REGISTRY",
        "Checker",
        "InstructionError",
        "MissingDependencyError",
        "Response",
        "Result",
        "compile",
        "evaluate",
        "evaluate_all",
        "evaluate_ifeval_record",
        "langdetect_available",
        "loose_texts",
        "punkt_available",
    }


def test_the_25_ifeval_ids() -> None:
    assert len(ifeval.INSTRUCTION_IDS) == 25
    rows = _read_jsonl(SHARED / "input_data.jsonl") if SHARED.exists() else []
    if rows:
        assert {i for r in rows for i in r["instruction_id_list"]} == set(ifeval.INSTRUCTION_IDS)
    families = {i.split(":")[0] for i in ifeval.INSTRUCTION_IDS}
    for checker in ifeval.REGISTRY.values():
        assert checker.__module__ == f"guardrail.ifeval.{checker.id.split(':')[0]}"
        assert checker.__doc__
    assert families == {
        "keywords",
        "language",
        "length_constraints",
        "detectable_content",
        "detectable_format",
        "combination",
        "startend",
        "change_case",
        "punctuation",
    }


def test_result_shape() -> None:
    r = ifeval.evaluate("punctuation:no_comma", "No commas here.", {})
    assert r == ifeval.Result(followed=True, followed_loose=True, sentence_splitter=None, notes=())
    with pytest.raises(AttributeError):
        r.followed = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("instruction_id", "kwargs", "message"),
    [
        (
            "keywords:frequency",
            {"keyword": "a", "freq": 2, "relation": "at least"},
            "keywords:frequency: unknown kwarg 'freq' (accepted: keyword, frequency, relation);"
            " did you mean 'frequency'?",
        ),
        ("punctuation:no_comma", {"x": 1}, "punctuation:no_comma: unknown kwarg 'x' (accepted: none)"),
        (
            "length_constraints:number_words",
            {"relation": "less than"},
            "length_constraints:number_words: missing kwarg 'num_words' (an integer >= 0)",
        ),
        (
            "length_constraints:number_words",
            {"relation": "at most", "num_words": 3},
            "length_constraints:number_words: relation must be 'less than' or 'at least', got 'at most'",
        ),
        (
            "length_constraints:number_words",
            {"relation": "less than", "num_words": True},
            "length_constraints:number_words: num_words must be an integer >= 0, got True",
        ),
        (
            "length_constraints:number_words",
            {"relation": "less than", "num_words": -1},
            "length_constraints:number_words: num_words must be an integer >= 0, got -1",
        ),
        (
            "keywords:existence",
            {"keywords": []},
            "keywords:existence: keywords must be a non-empty list of non-blank strings, got []",
        ),
        (
            "keywords:existence",
            {"keywords": "mom"},
            "keywords:existence: keywords must be a non-empty list of non-blank strings, got 'mom'",
        ),
        (
            "keywords:letter_frequency",
            {"letter": "ab", "let_frequency": 2, "let_relation": "at least"},
            "keywords:letter_frequency: letter must be a single non-whitespace character, got 'ab'",
        ),
        (
            "language:response_language",
            {"language": "zh"},
            "language:response_language: language must be an ISO 639-1 code langdetect can output, got 'zh'",
        ),
        (
            "length_constraints:nth_paragraph_first_word",
            {"num_paragraphs": 2, "nth_paragraph": 3, "first_word": "a"},
            "length_constraints:nth_paragraph_first_word: nth_paragraph must be at most num_paragraphs (2), got 3",
        ),
        (
            "combination:repeat_prompt",
            {},
            "combination:repeat_prompt: missing kwarg 'prompt_to_repeat' (a non-blank string), and no prompt was given",
        ),
        (
            "keywords:frequencies",
            {},
            "keywords:frequencies: unknown IFEval instruction id; did you mean 'keywords:frequency'?",
        ),
        ("startend:end_checker", ["x"], "startend:end_checker: kwargs must be a mapping, got list"),
    ],
)
def test_kwargs_errors_name_the_id_and_the_key(instruction_id: str, kwargs: Any, message: str) -> None:
    with pytest.raises(ifeval.InstructionError) as e:
        ifeval.compile(instruction_id, kwargs)
    assert str(e.value) == message
    assert isinstance(e.value, GuardrailError) and isinstance(e.value, ValueError)
    assert e.value.instruction_id == instruction_id


def test_missing_kwargs_mapping_is_empty_and_none_is_missing() -> None:
    assert ifeval.compile("detectable_format:title").check("<<t>>")
    with pytest.raises(ifeval.InstructionError, match="missing kwarg 'num_bullets'"):
        ifeval.compile("detectable_format:number_bullet_lists", {"num_bullets": None})


def test_a_checker_is_reusable_and_evaluate_all_shares_the_variants() -> None:
    checkers = [ifeval.compile("punctuation:no_comma"), ifeval.compile("startend:quotation")]
    response = 'Here you go, friend:\n"All quoted"'
    assert ifeval.evaluate_all(checkers, response) == [ifeval.Result(False, True), ifeval.Result(False, True)]
    assert [c.evaluate(response) for c in checkers] == ifeval.evaluate_all(checkers, response)
    assert repr(checkers[0]) == "NoComma('punctuation:no_comma', {})"


def test_evaluate_ifeval_record() -> None:
    results = ifeval.evaluate_ifeval_record(
        ["punctuation:no_comma", "length_constraints:number_words"],
        [{}, {"relation": "less than", "num_words": 3}],
        "one two three",
    )
    assert [(r.followed, r.followed_loose) for r in results] == [(True, True), (False, False)]
    with pytest.raises(ifeval.InstructionError, match="2 ids but kwargs has 1"):
        ifeval.evaluate_ifeval_record(["punctuation:no_comma", "startend:quotation"], [{}], "x")


# ---------------------------------------------------------------------------------------------------------------
# strict and loose


def test_loose_texts_are_ifevals_eight_in_order() -> None:
    assert ifeval.loose_texts("Sure!\n* a *b*\nBye ") == [
        "Sure!\n* a *b*\nBye ",
        "Sure!\n a b\nBye ",
        "* a *b*\nBye",
        "Sure!\n* a *b*",
        "* a *b*",
        " a b\nBye",
        "Sure!\n a b",
        " a b",
    ]


@pytest.mark.parametrize("response", ["", "   ", "\n\t\n"])
def test_a_blank_response_fails_every_instruction(response: str) -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ("punctuation:no_comma", {}),
        ("keywords:forbidden_words", {"forbidden_words": ["x"]}),
        ("detectable_content:number_placeholders", {"num_placeholders": 0}),
    ]
    for instruction_id, kwargs in cases:
        assert ifeval.evaluate(instruction_id, response, kwargs) == ifeval.Result(False, False)


@pytest.mark.parametrize(
    ("instruction_id", "kwargs", "response", "strict", "loose"),
    [
        # a preamble line is forgiven in loose mode
        ("startend:quotation", {}, 'Sure, here it is:\n"Quoted text"', False, True),
        # so is a closing line
        (
            "startend:end_checker",
            {"end_phrase": "Any other questions?"},
            "Text. Any other questions?\nThanks!",
            False,
            True,
        ),
        # and markdown asterisks
        (
            "length_constraints:nth_paragraph_first_word",
            {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "hello"},
            "**Hello** world",
            False,
            True,
        ),
        # a comma only on the first line: loose passes no_comma (IFEval's loose mode does this for every type)
        ("punctuation:no_comma", {}, "Well, here:\nno commas here", False, True),
        ("punctuation:no_comma", {}, "one, two\nthree, four\nfive, six", False, False),
        ("keywords:forbidden_words", {"forbidden_words": ["rock"]}, "Rock on\nsmooth jazz", False, True),
        ("combination:repeat_prompt", {"prompt_to_repeat": "Say hi."}, "Sure!\nsay HI. Hi!", False, True),
    ],
)
def test_loose_mode(instruction_id: str, kwargs: dict[str, Any], response: str, strict: bool, loose: bool) -> None:
    r = ifeval.evaluate(instruction_id, response, kwargs)
    assert (r.followed, r.followed_loose) == (strict, loose)


# ---------------------------------------------------------------------------------------------------------------
# each type (edge cases from IFEVAL.md)

CASES: list[tuple[str, dict[str, Any], str, bool]] = [
    # keywords:existence: substring, any case
    ("keywords:existence", {"keywords": ["mom"]}, "A moment please", True),
    ("keywords:existence", {"keywords": ["war", "peace"]}, "Software PEACE", True),
    ("keywords:existence", {"keywords": ["war", "peace"]}, "Software only", False),
    ("keywords:existence", {"keywords": ["C++"]}, "I write c++ daily", True),  # taken literally, not as a regex
    ("keywords:existence", {"keywords": ["straße"]}, "Die STRAßE", True),
    # keywords:frequency: non-overlapping substring count
    ("keywords:frequency", {"keyword": "war", "frequency": 2, "relation": "at least"}, "the war was a warning", True),
    ("keywords:frequency", {"keyword": "war", "frequency": 2, "relation": "less than"}, "the war was a warning", False),
    ("keywords:frequency", {"keyword": " aa ", "frequency": 2, "relation": "at least"}, "aaa", False),
    ("keywords:frequency", {"keyword": "aa", "frequency": 2, "relation": "at least"}, "aaaa", True),
    ("keywords:frequency", {"keyword": "é", "frequency": 2, "relation": "at least"}, "É é", True),
    # keywords:forbidden_words: \b boundaries, any case
    ("keywords:forbidden_words", {"forbidden_words": ["rock"]}, "Rock.", False),
    ("keywords:forbidden_words", {"forbidden_words": ["rock"]}, "rock-solid", False),
    ("keywords:forbidden_words", {"forbidden_words": ["rock"]}, "rocks and rocking", True),
    ("keywords:forbidden_words", {"forbidden_words": ["rock", "roll", "rock"]}, "just ROLL", False),
    ("keywords:forbidden_words", {"forbidden_words": ["naïve"]}, "a NAÏVE view", False),
    # keywords:letter_frequency: the lowercased character, inside words too
    ("keywords:letter_frequency", {"letter": "L", "let_frequency": 3, "let_relation": "at least"}, "Hello World", True),
    (
        "keywords:letter_frequency",
        {"letter": "l", "let_frequency": 3, "let_relation": "less than"},
        "Hello World",
        False,
    ),
    ("keywords:letter_frequency", {"letter": "#", "let_frequency": 2, "let_relation": "at least"}, "#a #b", True),
    ("keywords:letter_frequency", {"letter": "!", "let_frequency": 2, "let_relation": "at least"}, "Wow!", False),
    # length_constraints:number_paragraphs: *** dividers
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "a\n***\nb", True),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "***\na\n***\nb\n***", True),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "a\n***\n***\nb", False),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "***a*** b", True),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 1}, "a\n\nb\n\nc", True),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, "a ****b", True),
    # length_constraints:number_words: \w+ runs
    (
        "length_constraints:number_words",
        {"num_words": 9, "relation": "at least"},
        "don't stop-me 3.5 naïve 日本語 hello_world",
        True,
    ),
    (
        "length_constraints:number_words",
        {"num_words": 10, "relation": "at least"},
        "don't stop-me 3.5 naïve 日本語 hello_world",
        False,
    ),
    ("length_constraints:number_words", {"num_words": 5, "relation": "less than"}, "state-of-the-art", True),
    ("length_constraints:number_words", {"num_words": 4, "relation": "less than"}, "state-of-the-art", False),
    # length_constraints:nth_paragraph_first_word
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "hello"},
        'Intro.\n\n"Hello," she said.',
        True,
    ),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "hello"},
        "Intro.\n\n\n\nHello there.",
        False,
    ),  # the blank piece takes slot 2
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "hello"},
        "Intro.\n\n**Hello** there.",
        False,
    ),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "hello"},
        "Intro.\n\nHello there.",
        False,
    ),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "it's"},
        "It's fine.",
        False,
    ),  # cut at the apostrophe: "it"
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "it"},
        "'It's fine.",
        True,
    ),
    (
        "length_constraints:nth_paragraph_first_word",
        {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "ΟΔΟΣ"},
        "ΟΔΟΣ end",
        False,
    ),  # the word is lowercased letter by letter (σ), the kwarg as a whole (ς), as in IFEval
    # detectable_content:number_placeholders
    ("detectable_content:number_placeholders", {"num_placeholders": 3}, "[a] [] [1]", True),
    ("detectable_content:number_placeholders", {"num_placeholders": 2}, "[a\nb] [c]", False),
    ("detectable_content:number_placeholders", {"num_placeholders": 1}, "see [the docs](http://x)", True),
    ("detectable_content:number_placeholders", {"num_placeholders": 0}, "none", True),
    # detectable_content:postscript
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, "Hi. p.s. inline", True),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, "Hi.\nP. S. later", True),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, "Hi.\nPS: later", False),
    ("detectable_content:postscript", {"postscript_marker": "P.P.S"}, "Hi.\nP.P.S later", True),
    ("detectable_content:postscript", {"postscript_marker": "P.P.S"}, "Hi.\nPPS later", False),
    ("detectable_content:postscript", {"postscript_marker": " Note: "}, "x\nNOTE: y", True),
    ("detectable_content:postscript", {"postscript_marker": "N.B."}, "x\nNxBx y", False),  # literal, not a regex
    # detectable_format:number_bullet_lists
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "* a\n* b", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "*italic* x\n- b", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 1}, "**bold** x\n- b", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "---\n-5 degrees", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 0}, "+ a\n• b\n1. c", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, "* a\n  * nested", True),
    ("detectable_format:number_bullet_lists", {"num_bullets": 1}, "*\nfoo", True),  # [^*] matches the newline
    # detectable_format:constrained_response
    ("detectable_format:constrained_response", {}, "Sure. My answer is yes. Because.", True),
    ("detectable_format:constrained_response", {}, "my answer is yes.", False),
    ("detectable_format:constrained_response", {}, "My answer is no", False),
    # detectable_format:number_highlighted_sections
    ("detectable_format:number_highlighted_sections", {"num_highlights": 1}, "**bold**", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "**bold**", False),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "*a* and *b*", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "***x***", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "**a** and **b**", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 1}, "2*3*4", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, "* **Bold**: text", True),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 1}, "*a\nb*", False),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 1}, "* * and ** **", False),
    # detectable_format:multiple_sections: at least N, the number required, case-sensitive
    (
        "detectable_format:multiple_sections",
        {"section_spliter": "Section", "num_sections": 2},
        "Section 1\na\nSection 2\nb",
        True,
    ),
    ("detectable_format:multiple_sections", {"section_spliter": "Section", "num_sections": 1}, "Section One", False),
    ("detectable_format:multiple_sections", {"section_spliter": "Section", "num_sections": 1}, "SECTION 1", False),
    (
        "detectable_format:multiple_sections",
        {"section_spliter": "Section", "num_sections": 2},
        "Section1 see Section 2",
        True,
    ),
    (
        "detectable_format:multiple_sections",
        {"section_spliter": "Day", "num_sections": 3},
        "Day 1 Day 2 Day 3 Day 4",
        True,
    ),
    # detectable_format:json_format
    ("detectable_format:json_format", {}, '```json\n{"a": 1}\n```', True),
    ("detectable_format:json_format", {}, "```JSON\n[1, 2]\n```", True),
    ("detectable_format:json_format", {}, "42", True),
    ("detectable_format:json_format", {}, '"just a string"', True),
    ("detectable_format:json_format", {}, 'Here: {"a": 1}', False),
    ("detectable_format:json_format", {}, '```python\n{"a": 1}\n```', False),
    ("detectable_format:json_format", {}, '{"a": 1}\n{"b": 2}', False),
    ("detectable_format:json_format", {}, "[" * 100000, False),
    # detectable_format:title
    ("detectable_format:title", {}, "<<My Title>>\ntext", True),
    ("detectable_format:title", {}, "text <<a>> x <<b>>", True),
    ("detectable_format:title", {}, "<< >>", False),
    ("detectable_format:title", {}, "<<<>>>", False),
    ("detectable_format:title", {}, "<<a\nb>>", False),
    # combination:two_responses
    ("combination:two_responses", {}, "A\n******\nB", True),
    ("combination:two_responses", {}, "A\n******\nA", False),
    ("combination:two_responses", {}, "******\nA\n******\nB\n******", True),
    ("combination:two_responses", {}, "A\n************\nB", False),
    ("combination:two_responses", {}, "A\n*******\nB", True),
    ("combination:two_responses", {}, "A\n******\nB\n******\nC", False),
    # combination:repeat_prompt
    ("combination:repeat_prompt", {"prompt_to_repeat": "Write a poem."}, "  write a POEM. Roses are red.", True),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Write a poem."}, "Sure! Write a poem.", False),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Write  a poem."}, "Write a poem.", False),
    # startend:end_checker
    ("startend:end_checker", {"end_phrase": "Is there anything else?"}, 'Done. "Is there anything else?"', True),
    ("startend:end_checker", {"end_phrase": "Is there anything else?"}, 'Done. "Is there anything else?".', False),
    ("startend:end_checker", {"end_phrase": "Is there anything else?"}, "Done. **Is there anything else?**", False),
    ("startend:end_checker", {"end_phrase": "Is there anything else?"}, "Done. “Is there anything else?”", False),
    # startend:quotation
    ("startend:quotation", {}, '  "wrapped"  ', True),
    ("startend:quotation", {}, '"', False),
    ("startend:quotation", {}, "“curly”", False),
    ("startend:quotation", {}, '""', True),
    # punctuation:no_comma
    ("punctuation:no_comma", {}, "no commas", True),
    ("punctuation:no_comma", {}, "a, b", False),
    ("punctuation:no_comma", {}, "中文，顿号、阿拉伯،", True),
    # change_case:capital_word_frequency (the built-in tokenizer; Punkt's agrees on these)
    (
        "change_case:capital_word_frequency",
        {"capital_frequency": 5, "capital_relation": "at least"},
        "I saw the U.S. and COVID-19 with ABC123 at NASA's site",
        True,
    ),
    (
        "change_case:capital_word_frequency",
        {"capital_frequency": 6, "capital_relation": "at least"},
        "I saw the U.S. and COVID-19 with ABC123 at NASA's site",
        False,
    ),
    (
        "change_case:capital_word_frequency",
        {"capital_frequency": 1, "capital_relation": "less than"},
        "well-KNOWN 42 ... !",
        True,
    ),
    ("change_case:capital_word_frequency", {"capital_frequency": 2, "capital_relation": "at least"}, "I'M here", True),
    ("change_case:capital_word_frequency", {"capital_frequency": 2, "capital_relation": "at least"}, "AT&T", True),
]


@pytest.mark.parametrize(("instruction_id", "kwargs", "response", "expected"), CASES)
def test_strict_verdicts(instruction_id: str, kwargs: dict[str, Any], response: str, expected: bool) -> None:
    checker = ifeval.compile(instruction_id, kwargs, sentence_splitter="builtin")
    assert checker.check(response) is expected
    assert checker.evaluate(response).followed is expected


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Hello world", 1),
        ("Hello. World", 2),
        ("Dr. Smith arrived at 5 p.m. today. He was tired!", 2),
        ("Really?! Yes!!! Fine.", 3),
        ("Wait... and then? Nothing.", 2),
        ("# Heading\n- a bullet\n- another\nText ends.", 1),  # newlines are no boundaries
        ("For example, e.g. this. And i.e. that.", 4),  # Punkt ends a sentence after e.g. and i.e.
        ('He said "Hi." Then left.', 2),
        ('He said "Hi."', 1),  # the closing quote joins the sentence
        ("1. Apples\n2. Pears\n3. plums", 3),
        ("3. Review the item.", 1),  # a collocation of Punkt's model
        ("He met J. Smith there. A. Introduction", 2),  # initials before a name
        ("J. Smith wrote it.", 2),  # at a line start a letter is taken for an outline marker, as Punkt does here
        ("I. Introduction\nA. Background", 3),
        ("The U.S. The end.", 2),
        ("Price is 3.5 dollars. Next", 2),
        ("", 0),
        ("   ", 0),
    ],
)
def test_builtin_sentence_splitter(text: str, count: int) -> None:
    assert _text.count_sentences_builtin(text) == count
    assert _text.count_sentences_builtin(text) <= _text.sentence_upper_bound(text)


def test_number_sentences_reports_its_splitter(monkeypatch: pytest.MonkeyPatch) -> None:
    kwargs = {"num_sentences": 2, "relation": "at least"}
    r = ifeval.evaluate("length_constraints:number_sentences", "One. Two.", kwargs, sentence_splitter="builtin")
    assert r == ifeval.Result(True, True, "builtin")
    monkeypatch.setattr(_text, "_punkt", lambda: None)
    assert ifeval.compile("length_constraints:number_sentences", kwargs).sentence_splitter == "builtin"
    assert (
        ifeval.compile(
            "change_case:capital_word_frequency", {"capital_frequency": 1, "capital_relation": "at least"}
        ).sentence_splitter
        == "builtin"
    )
    with pytest.raises(ifeval.MissingDependencyError, match=r"needs NLTK >= 3\.8\.2 with its Punkt English model"):
        ifeval.compile("length_constraints:number_sentences", kwargs, sentence_splitter="punkt")
    assert ifeval.compile("punctuation:no_comma").sentence_splitter is None


@pytest.mark.skipif(not ifeval.punkt_available(), reason="NLTK's Punkt English model is not installed")
def test_punkt_splitter_when_installed() -> None:
    kwargs = {"num_sentences": 3, "relation": "at least"}
    r = ifeval.evaluate("length_constraints:number_sentences", "Dr. Smith came. He sat. He left.", kwargs)
    assert r == ifeval.Result(True, True, "punkt")


# ---------------------------------------------------------------------------------------------------------------
# language


@needs_langdetect
@pytest.mark.parametrize(
    ("instruction_id", "kwargs", "response", "expected"),
    [
        (
            "language:response_language",
            {"language": "fr"},
            "Bonjour, je suis très content de vous voir aujourd'hui.",
            True,
        ),
        (
            "language:response_language",
            {"language": "en"},
            "Bonjour, je suis très content de vous voir aujourd'hui.",
            False,
        ),
        ("language:response_language", {"language": "kn"}, "12345", True),  # nothing to detect: followed, noted
        ("change_case:english_capital", {}, "THIS IS ALL IN CAPITAL LETTERS, AS ASKED.", True),
        ("change_case:english_capital", {}, "THIS IS ALL IN CAPITALS, E.g. NOT QUITE.", False),
        ("change_case:english_lowercase", {}, "this is all in lowercase letters, as you asked.", True),
        ("change_case:english_lowercase", {}, "ceci est entièrement en minuscules, comme demandé.", False),
        ("change_case:english_lowercase", {}, "123 456", False),  # no cased character
    ],
)
def test_language_types(instruction_id: str, kwargs: dict[str, Any], response: str, expected: bool) -> None:
    r = ifeval.evaluate(instruction_id, response, kwargs)
    assert r.followed is expected
    assert ifeval.evaluate(instruction_id, response, kwargs) == r  # seeded: the same answer every time


@needs_langdetect
def test_undetectable_language_is_followed_and_says_so() -> None:
    r = ifeval.evaluate("language:response_language", "12345 !!! 🎉", {"language": "de"})
    assert (r.followed, r.followed_loose) == (True, True)
    assert r.notes == ("no letters for langdetect to detect: counted as followed, as IFEval does",)
    assert (
        ifeval.evaluate("language:response_language", "Guten Tag, wie geht es Ihnen heute?", {"language": "de"}).notes
        == ()
    )


@needs_langdetect
def test_language_detection_leaves_the_applications_langdetect_alone() -> None:
    from langdetect import DetectorFactory

    before = DetectorFactory.seed
    ifeval.evaluate("language:response_language", "Hola, ¿cómo estás hoy?", {"language": "es"})
    assert DetectorFactory.seed == before


def test_language_types_without_langdetect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_text, "_langdetect", None)
    monkeypatch.setitem(sys.modules, "langdetect", None)  # import fails
    for instruction_id, kwargs in (
        ("language:response_language", {"language": "en"}),
        ("change_case:english_capital", {}),
        ("change_case:english_lowercase", {}),
    ):
        with pytest.raises(ifeval.MissingDependencyError) as e:
            ifeval.compile(instruction_id, kwargs)
        assert str(e.value) == (f"{instruction_id}: language detection needs langdetect: pip install 'guardrail[lang]'")
        assert isinstance(e.value, CheckError)
    assert not ifeval.langdetect_available()
    assert ifeval.evaluate("punctuation:no_comma", "fine", {}).followed  # the other types do not need it


# ---------------------------------------------------------------------------------------------------------------
# the text measures


@given(st.text())
def test_word_count_is_the_number_of_w_runs(text: str) -> None:
    assert _text.count_words(text) == len(re.findall(r"\w+", text))


CAPITALS_ALPHABET = st.sampled_from([*"aAbB ,:;'&-.()\n\"1", "N'T", "'s", "...", "É", "é", "\xa0", "CANNOT"])


@given(st.lists(CAPITALS_ALPHABET, max_size=30).map("".join))
def test_capital_count_skips_only_lowercase_words(text: str) -> None:
    assert _text.count_capital_words_builtin(text) == _text._count_capitals(text)


_REF_REALIGN = re.compile(r"[\"')\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\s+|(?=--)|$)", re.MULTILINE)
_REF_CANDIDATE = re.compile(rf"[.?!](?=(?P<after>{_text._NONWORD}|\s+(?P<next>\S+)))")


def _reference_sentence_count(text: str) -> int:
    """The built-in splitter's decisions, sliced and realigned step by step as NLTK's Punkt tokenizer does."""
    matches = list(_REF_CANDIDATE.finditer(text))
    slices, last = [], 0
    for i, m in enumerate(matches):
        nxt = matches[i + 1].start() if i + 1 < len(matches) else None
        if nxt is not None and not any(c in " \t\n\r\x0b\x0c" for c in text[m.start() : nxt]):
            continue
        if _text._slow_break(text, m.start(), m):
            slices.append((last, m.end()))
            last = m.start("next") if m.group("next") else m.end()
    slices.append((last, len(text.rstrip())))
    count, realign = 0, 0
    for k, (start, end) in enumerate(slices):
        start += realign
        if k + 1 < len(slices):
            r = _REF_REALIGN.match(text[slices[k + 1][0] : slices[k + 1][1]])
            if r:
                count, realign = count + 1, r.end()
                continue
            realign = 0
        count += start < end
    return count


SENTENCE_ALPHABET = st.sampled_from([*list("ab AB.?!\"')(*\n-1,:;Dr]"), "Mr.", "e.g.", "...", "J.", "3.", "\xa0", "”",
                                     "[doc:a]", "’", "»"])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(SENTENCE_ALPHABET, max_size=40).map("".join))
def test_fast_sentence_count_equals_the_step_by_step_one(text: str) -> None:
    assert _text.count_sentences_builtin(text) == _reference_sentence_count(text)
    assert _text.count_sentences_builtin(text) <= _text.sentence_upper_bound(text)


@pytest.mark.skipif(not SHARED.exists(), reason="shared/ifeval is not there")
def test_fast_sentence_count_on_the_published_responses() -> None:
    for fname in RESPONSE_FILES.values():
        for row in _read_jsonl(SHARED / fname):
            for text in ifeval.loose_texts(row["response"])[:3]:
                assert _text.count_sentences_builtin(text) == _reference_sentence_count(text)


# ---------------------------------------------------------------------------------------------------------------
# never a crash


def _dataset_instructions() -> list[tuple[str, dict[str, Any], str]]:
    if not SHARED.exists():
        return [(i, {}, "") for i in ("punctuation:no_comma", "startend:quotation")]
    out = []
    for row in _read_jsonl(SHARED / "input_data.jsonl"):
        for i, kw in zip(row["instruction_id_list"], row["kwargs"], strict=True):
            if i in LANGUAGE_IDS and not HAS_LANGDETECT:
                continue
            out.append((i, kw, row["prompt"]))
    return out


DATASET_CHECKERS = [
    ifeval.compile(i, kw, prompt, sentence_splitter="builtin") for i, kw, prompt in _dataset_instructions()
]
FAST_CHECKERS = [c for c in DATASET_CHECKERS if c.id not in LANGUAGE_IDS]
RESPONSES = st.one_of(
    st.text(),
    st.lists(
        st.sampled_from(
            [*list("*-\n \t\"'<>[]#.,?!:;0123456789aAéÉ日"), "***", "******", "```json", "P.S.", "Section 1"]
        )
    ).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FAST_CHECKERS), RESPONSES)
def test_no_checker_crashes_on_any_response(checker: ifeval.Checker, response: str) -> None:
    r = checker.evaluate(response)
    assert isinstance(r.followed, bool) and isinstance(r.followed_loose, bool)
    assert r.followed_loose or not r.followed


@needs_langdetect
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([c for c in DATASET_CHECKERS if c.id in LANGUAGE_IDS] or FAST_CHECKERS), st.text(max_size=80))
def test_no_language_checker_crashes_on_any_response(checker: ifeval.Checker, response: str) -> None:
    r = checker.evaluate(response)
    assert r.followed_loose or not r.followed


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(FAST_CHECKERS), RESPONSES)
def test_evaluate_all_equals_evaluate(checker: ifeval.Checker, response: str) -> None:
    [shared] = ifeval.evaluate_all([checker], response)
    texts = ifeval.loose_texts(response)
    strict = bool(response.strip()) and checker.check(response)
    loose = any(t.strip() and checker.check(t) for t in texts)
    assert shared == checker.evaluate(response)
    assert (shared.followed, shared.followed_loose) == (strict, loose)


# ---------------------------------------------------------------------------------------------------------------
# conformance with the official evaluator


def _run(model: str, splitter: SplitterChoice) -> tuple[Counter[tuple[str, str]], set[tuple[str, int, str]]]:
    """Agreement counts per (type, mode) and the disagreements (model, key, id)."""
    inputs = {r["key"]: r for r in _read_jsonl(SHARED / "input_data.jsonl")}
    responses = {r["prompt"]: r["response"] for r in _read_jsonl(SHARED / RESPONSE_FILES[model])}
    counts: Counter[tuple[str, str]] = Counter()
    diffs: set[tuple[str, int, str]] = set()
    for row in _read_jsonl(DATA / f"official_{model}.jsonl"):
        rec = inputs[row["key"]]
        ids = rec["instruction_id_list"]
        keep = [n for n, i in enumerate(ids) if HAS_LANGDETECT or i not in LANGUAGE_IDS]
        checkers = [ifeval.compile(ids[n], rec["kwargs"][n], rec["prompt"], sentence_splitter=splitter) for n in keep]
        results = ifeval.evaluate_all(checkers, responses[rec["prompt"]])
        for n, r in zip(keep, results, strict=True):
            official = row["instructions"][n]
            iid = official["id"]
            if official["strict"] is None:  # the random letter: no official verdict to compare with
                diffs.add((model, row["key"], iid))
                continue
            counts[(iid, "n")] += 1
            counts[(iid, "strict")] += official["strict"] == r.followed
            counts[(iid, "loose")] += official["loose"] == r.followed_loose
            if official["strict"] != r.followed or official["loose"] != r.followed_loose:
                diffs.add((model, row["key"], iid))
    return counts, diffs


def _known(section: str) -> set[tuple[str, int, str]]:
    known = json.loads((DATA / "known_differences.json").read_text(encoding="utf-8"))
    return {(d["model"], d["key"], d["id"]) for d in known["random_letter"] + known[section]}


@pytest.mark.skipif(not SHARED.exists(), reason="shared/ifeval is not there")
@pytest.mark.parametrize("model", ["gpt4", "text_bison"])
def test_conformance_with_the_official_evaluator_builtin_splitter(model: str) -> None:
    counts, diffs = _run(model, "builtin")
    assert {d for d in diffs if d[0] == model} == {d for d in _known("builtin_splitter") if d[0] == model}
    for iid in {k[0] for k in counts}:
        n = counts[(iid, "n")]
        if iid in SPLITTER_IDS:
            assert counts[(iid, "strict")] >= 0.95 * n and counts[(iid, "loose")] >= 0.95 * n
        else:
            assert counts[(iid, "strict")] == n and counts[(iid, "loose")] == n, iid
    expected_n = {"gpt4": 832, "text_bison": 206}[model]  # less the two random-letter instructions
    if HAS_LANGDETECT:
        assert sum(v for (_, mode), v in counts.items() if mode == "n") == expected_n


@pytest.mark.skipif(not SHARED.exists() or not ifeval.punkt_available(), reason="needs shared/ifeval and Punkt")
@pytest.mark.parametrize("model", ["gpt4", "text_bison"])
def test_conformance_with_the_official_evaluator_punkt(model: str) -> None:
    _, diffs = _run(model, "punkt")
    assert {d for d in diffs if d[0] == model} == {d for d in _known("punkt_splitter") if d[0] == model}


@pytest.mark.skipif(not SHARED.exists(), reason="shared/ifeval is not there")
def test_official_data_files_cover_every_scored_response() -> None:
    inputs = {r["key"]: r for r in _read_jsonl(SHARED / "input_data.jsonl")}
    for model, fname in RESPONSE_FILES.items():
        prompts = {r["prompt"] for r in _read_jsonl(SHARED / fname)}
        rows = _read_jsonl(DATA / f"official_{model}.jsonl")
        assert {r["key"] for r in rows} == {k for k, r in inputs.items() if r["prompt"] in prompts}
        for row in rows:
            assert [i["id"] for i in row["instructions"]] == inputs[row["key"]]["instruction_id_list"]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(SENTENCE_ALPHABET, max_size=40).map("".join), st.integers(0, 12))
def test_counting_up_to_a_limit_decides_as_counting_all(text: str, limit: int) -> None:
    full = _text.count_sentences_builtin(text)
    capped = _text.count_sentences_builtin(text, limit)
    assert (capped >= limit) == (full >= limit)
    assert capped == full or (capped >= limit and full >= limit)
