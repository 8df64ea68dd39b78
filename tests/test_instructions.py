"""The instructions check: verifiable rules about length, structure and wording; the message names the rule."""

from __future__ import annotations

from typing import Any

import pytest

from guardrail import Action, Decision, Guard, Label

BLOCKED = "Sorry, I can't share that answer."


def findings(rules: dict[str, Any], output: str) -> list[tuple[str, str]]:
    """(rule named by the message, text the finding covers) for each finding."""
    verdict = Guard.from_dict({"instructions": rules}).check(output)
    assert all(f.label is Label.INSTRUCTION_VIOLATED and f.check == "instructions" for f in verdict.findings)
    return [(f.message.split(":", 1)[0], output[f.start:f.end]) for f in verdict.findings]


WHOLE = "<whole>"


def expand(output: str, expected: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(rule, output if text == WHOLE else text) for rule, text in expected]


CASES = [
    # (id, rules, output, expected [(rule, covered text)])
    # -- words: letters or digits with inner hyphens/apostrophes; citation markers do not count
    ("max-words-ok", {"max_words": 3}, "one two three", []),
    ("max-words-over", {"max_words": 3}, "one two three four", [("max_words", WHOLE)]),
    ("max-words-zero", {"max_words": 0}, "word", [("max_words", WHOLE)]),
    ("max-words-empty", {"max_words": 0}, "", []),
    ("max-words-compounds", {"max_words": 4}, "don't e-mail me now", []),
    ("max-words-markers", {"max_words": 3}, "one two three [doc:a-b-c] [doc:x]", []),
    ("max-words-punct", {"max_words": 3}, "one, two; three!", []),
    ("max-words-whitespace", {"max_words": 3}, "one\ttwo\n\nthree\u00a0", []),
    ("max-words-unicode", {"max_words": 2}, "Grüße 東京", []),
    ("min-words-ok", {"min_words": 3}, "one two three", []),
    ("min-words-under", {"min_words": 3}, "one two", [("min_words", WHOLE)]),
    ("min-words-empty", {"min_words": 1}, "", [("min_words", WHOLE)]),
    ("min-words-markers", {"min_words": 3}, "one two [doc:three]", [("min_words", WHOLE)]),
    # -- characters: code points
    ("max-chars-ok", {"max_chars": 3}, "abc", []),
    ("max-chars-over", {"max_chars": 3}, "abcd", [("max_chars", WHOLE)]),
    ("max-chars-code-points", {"max_chars": 3}, "äöü", []),
    ("max-chars-astral", {"max_chars": 1}, "\U0001f600", []),
    # -- bullets: list items (-, *, +, •, 1., 1))
    ("min-bullets-ok", {"min_bullets": 2}, "Intro:\n- a\n- b", []),
    ("min-bullets-under", {"min_bullets": 3}, "- a\n- b", [("min_bullets", WHOLE)]),
    ("min-bullets-not-items", {"min_bullets": 1}, "-a\n-b\nnot - a list", [("min_bullets", WHOLE)]),
    ("max-bullets-kinds", {"max_bullets": 6}, "- a\n- b\n* c\n1. d\n2) e\n+ f\n• g", [("max_bullets", WHOLE)]),
    ("max-bullets-ok", {"max_bullets": 2}, "- a\n- b\n\nText after.", []),
    ("bullets-both", {"min_bullets": 1, "max_bullets": 1}, "- a", []),
    ("bullets-in-code", {"max_bullets": 0}, "```\n- a\n- b\n```", []),
    # -- emoji: emoji presentation, VS16, keycaps, ZWJ sequences; not plain ©, ®, ™
    ("emoji-party", {"no_emoji": True}, "Great \U0001f389", [("no_emoji", "\U0001f389")]),
    ("emoji-copyright", {"no_emoji": True}, "Copyright © 2024 Acme®", []),
    ("emoji-trademark", {"no_emoji": True}, "Brand™ is ours", []),
    ("emoji-trademark-vs16", {"no_emoji": True}, "Brand™\ufe0f", [("no_emoji", "™\ufe0f")]),
    ("emoji-keycap-1", {"no_emoji": True}, "Press 1\ufe0f\u20e3 now", [("no_emoji", "1\ufe0f\u20e3")]),
    ("emoji-keycap-hash", {"no_emoji": True}, "Press #\ufe0f\u20e3 now", [("no_emoji", "#\ufe0f\u20e3")]),
    ("emoji-plain-digits", {"no_emoji": True}, "Press 1, # or * now", []),
    ("emoji-heart-vs16", {"no_emoji": True}, "Love \u2764\ufe0f", [("no_emoji", "\u2764\ufe0f")]),
    ("emoji-arrow-text", {"no_emoji": True}, "Left \u2194 right", []),
    ("emoji-none", {"no_emoji": False}, "Great \U0001f389", []),
    # -- sections: a Markdown heading, a "Sources:" line, a bold line; normalised, case-insensitive
    ("section-md", {"required_sections": ["Sources"]}, "Answer.\n\n# Sources\n- x", []),
    ("section-md-deep", {"required_sections": ["Sources"]}, "Answer.\n\n### Sources\n- x", []),
    ("section-colon", {"required_sections": ["Sources"]}, "Answer.\n\nSources:\n- x", []),
    ("section-bold", {"required_sections": ["Sources"]}, "Answer.\n\n**Sources**\n- x", []),
    ("section-bold-colon", {"required_sections": ["Sources"]}, "Answer.\n\n**Sources:**\n- x", []),
    ("section-case", {"required_sections": ["Next Steps"]}, "## next steps\nDo it.", []),
    ("section-summary-colon", {"required_sections": ["Summary"]}, "Summary:\nAll good.", []),
    ("section-missing", {"required_sections": ["Sources"]}, "Answer only.", [("required_sections", WHOLE)]),
    ("section-in-prose", {"required_sections": ["Summary"]}, "The Summary is below.\nx",
     [("required_sections", WHOLE)]),
    ("section-bare-word", {"required_sections": ["Summary"]}, "Summary\nx", [("required_sections", WHOLE)]),
    ("section-two-one-missing", {"required_sections": ["Summary", "Sources"]}, "## Summary\nx",
     [("required_sections", WHOLE)]),
    # -- patterns: every must_match matches somewhere; no must_not_match matches (each match reported)
    ("must-match-ok", {"must_match": [r"\[doc:", "^An"]}, "An answer [doc:a].", []),
    ("must-match-second", {"must_match": ["abc", r"\[doc:"]}, "abc", [("must_match[1]", WHOLE)]),
    ("must-match-both", {"must_match": ["x", "y"]}, "abc", [("must_match[0]", WHOLE), ("must_match[1]", WHOLE)]),
    ("must-not-ok", {"must_not_match": [r"\bTODO\b"]}, "TODOs are done", []),
    ("must-not-hit", {"must_not_match": [r"\bTODO\b", "FIXME"]}, "abc TODO def FIXME",
     [("must_not_match[0]", "TODO"), ("must_not_match[1]", "FIXME")]),
    ("must-not-twice", {"must_not_match": ["(?i)as an ai"]}, "As an AI, well, as an ai.",
     [("must_not_match[0]", "As an AI"), ("must_not_match[0]", "as an ai")]),
]


@pytest.mark.parametrize(("rules", "output", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rules(rules: dict[str, Any], output: str, expected: list[tuple[str, str]]) -> None:
    assert findings(rules, output) == expand(output, expected)


@pytest.mark.parametrize(
    "sequence",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: a ZWJ sequence
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag
        "\U0001f44d\U0001f3fd",  # thumbs up with a skin tone
        "\U0001f1e9\U0001f1ea",  # a flag: regional indicators
    ],
)
def test_emoji_sequences_are_found_inside_the_sequence(sequence: str) -> None:
    output = f"Hello {sequence} there"
    found = findings({"no_emoji": True}, output)
    assert found
    start = output.index(sequence)
    verdict = Guard.from_dict({"instructions": {"no_emoji": True}}).check(output)
    for f in verdict.findings:
        assert start <= f.start < f.end <= start + len(sequence)


@pytest.mark.parametrize(
    ("rules", "output", "fragment"),
    [
        ({"max_words": 3}, "one two three four", "4 words, at most 3"),
        ({"min_words": 3}, "one", "1 words, at least 3"),
        ({"max_chars": 2}, "abc", "3 characters, at most 2"),
        ({"min_bullets": 2}, "- a", "1 bullets, at least 2"),
        ({"max_bullets": 0}, "- a", "1 bullets, at most 0"),
        ({"required_sections": ["Sources"]}, "x", "no 'Sources' section"),
        ({"must_match": [r"\[doc:"]}, "x", r"'\\[doc:' does not match"),
    ],
)
def test_message_names_the_rule_and_the_numbers(rules: dict[str, Any], output: str, fragment: str) -> None:
    [finding] = Guard.from_dict({"instructions": rules}).check(output).findings
    rule = next(iter(rules))
    assert finding.message.startswith((rule + ":", rule + "[0]:"))
    assert fragment in finding.message


def test_must_not_match_message_does_not_echo_the_match() -> None:
    [finding] = Guard.from_dict({"instructions": {"must_not_match": ["secret-\\d+"]}}).check("the secret-42 x").findings
    assert "secret-42" not in finding.message
    assert finding.message.startswith("must_not_match[0]")


# ---------------------------------------------------------------------------------------------------- the actions


@pytest.mark.parametrize(
    ("on_violation", "rules", "output", "decision", "expected", "action"),
    [
        ("flag", {"max_words": 1}, "one two", Decision.PASS, "one two", Action.FLAG),
        ("block", {"max_words": 1}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        # strip on a document-level rule means block
        ("strip", {"max_words": 1}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        ("strip", {"max_chars": 1}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        ("strip", {"min_words": 5}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        ("strip", {"min_bullets": 1}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        ("strip", {"required_sections": ["Sources"]}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        ("strip", {"must_match": ["zzz"]}, "one two", Decision.BLOCKED, BLOCKED, Action.BLOCK),
        # strip on a located rule removes the statement
        ("strip", {"must_not_match": ["TODO"]}, "Keep this. TODO drop this.", Decision.MODIFIED, "Keep this.",
         Action.STRIP),
        ("strip", {"no_emoji": True}, "Keep this.\nDrop \U0001f389 this.", Decision.MODIFIED, "Keep this.",
         Action.STRIP),
        ("block", {"no_emoji": True}, "Keep this. Drop \U0001f389 this.", Decision.BLOCKED, BLOCKED, Action.BLOCK),
    ],
)
def test_on_violation(on_violation: str, rules: dict[str, Any], output: str, decision: Decision, expected: str,
                      action: Action) -> None:
    verdict = Guard.from_dict({"instructions": {**rules, "on_violation": on_violation}}).check(output)
    assert verdict.decision is decision
    assert verdict.output == expected
    assert [f.action for f in verdict.findings] == [action]


def test_on_violation_defaults_to_flag() -> None:
    verdict = Guard.from_dict({"instructions": {"max_words": 1, "no_emoji": True}}).check("one two \U0001f389")
    assert verdict.decision is Decision.PASS
    assert {f.action for f in verdict.findings} == {Action.FLAG}
    assert len(verdict.findings) == 2


def test_inline_sources_line_satisfies_required_sources() -> None:
    # A "Sources: ..." line is a Sources section line (text.py); an answer ending with one has its Sources section.
    verdict = Guard.from_dict({"instructions": {"required_sections": ["Sources"]}}).check(
        "Leave is 25 days [doc:hr-12].\nSources: [doc:hr-12]")
    assert verdict.findings == []


@pytest.mark.parametrize(("pattern", "safe"), [
    (r"\bTODO\b", True), (r"(?i)\bas an ai\b", True), (r"(?s)office.*March", True), (r"[^$^]+x", True),
    (r"(a|b)+c", True), (r"a(?=b)", False), (r"(a|b(?!c))+", False),
    (r"one\.\Z", False), (r"(?m)\.$", False), (r"^Sure", False), (r"\A\s*Bad", False), (r"(?<=\. )Bad", False),
    (r"(x|(?<!y)z)", False), (r"(?:a|\Ab)+", False), (r"\p{L}+", False),  # (regex syntax re cannot read: not known)
])
def test_which_patterns_a_streams_window_can_judge(pattern: str, safe: bool) -> None:
    """Anchors and lookarounds depend on text a stream's window does not hold (where the output starts and ends,
    what was released, what follows the part a look checks again): a pattern that acts with one holds the stream to
    its end."""
    from guardrail.checks.instructions import window_safe

    assert window_safe(pattern) is safe
    guard = Guard.from_dict({"instructions": {"must_not_match": [pattern], "on_violation": "strip"}})
    assert guard.compiled.whole_output is not safe
    flagged = Guard.from_dict({"instructions": {"must_not_match": [pattern], "on_violation": "flag"}})
    assert not flagged.compiled.whole_output
