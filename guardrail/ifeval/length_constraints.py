"""``length_constraints:*``: sentences, paragraphs, words, and the first word of the nth paragraph."""

from __future__ import annotations

import re
from typing import Any

from . import _text
from ._core import Checker, InstructionError, Param, compare


class NumberSentences(Checker):
    """``length_constraints:number_sentences``: the Punkt English sentence count, by relation.

    Newlines, bullets and headings are no boundaries by themselves. With NLTK's Punkt model installed the count
    is Punkt's; otherwise the built-in splitter's (the result's ``sentence_splitter`` says which).
    """

    id = "length_constraints:number_sentences"
    params = (Param("num_sentences", "count"), Param("relation", "relation"))

    def setup(self, kw: dict[str, Any]) -> None:
        self.sentence_splitter = _text.resolve_splitter(self.splitter_choice, self.id)
        self._num, self._relation = kw["num_sentences"], kw["relation"]

    def check(self, text: str) -> bool:
        if self._relation == "less than" and _text.sentence_upper_bound(text) < self._num:
            return True
        assert self.sentence_splitter is not None
        return compare(self._relation, _text.count_sentences(text, self.sentence_splitter, self._num), self._num)


_DIVIDER = re.compile(r"\s?\*\*\*\s?")


class NumberParagraphs(Checker):
    """``length_constraints:number_paragraphs``: exactly N pieces between ``***`` dividers (each may have one
    whitespace character either side). A blank first or last piece is not counted; a blank piece between two
    dividers fails. Blank lines do not separate paragraphs here, and ``***bold italic***`` is a divider."""

    id = "length_constraints:number_paragraphs"
    params = (Param("num_paragraphs", "count"),)

    def setup(self, kw: dict[str, Any]) -> None:
        self._num = kw["num_paragraphs"]

    def check(self, text: str) -> bool:
        if "***" not in text:
            return self._num == (0 if not text or text.isspace() else 1)
        pieces = _DIVIDER.split(text)
        n = len(pieces)
        last = n - 1
        for i, p in enumerate(pieces):
            if not p or p.isspace():
                if i == 0 or i == last:
                    n -= 1
                else:
                    return False
        return n == self._num


class NumberWords(Checker):
    """``length_constraints:number_words``: the number of ``\\w+`` runs, by relation ("don't" is 2 words,
    "state-of-the-art" 4, a run of CJK characters 1)."""

    id = "length_constraints:number_words"
    params = (Param("num_words", "count"), Param("relation", "relation"))

    def setup(self, kw: dict[str, Any]) -> None:
        self._num, self._relation = kw["num_words"], kw["relation"]

    def check(self, text: str) -> bool:
        return compare(self._relation, _text.count_words(text), self._num)


_FIRST_WORD_STOP = re.compile(r"[.,?!'\"]")


class NthParagraphFirstWord(Checker):
    """``length_constraints:nth_paragraph_first_word``: exactly N non-blank paragraphs (pieces between ``\\n\\n``)
    and the nth piece starts with the word.

    As in IFEval the nth paragraph is looked up among all pieces, blank ones included, so four newlines in a row
    shift the numbering. The first whitespace-separated token loses leading ``'`` then ``"``, is cut at the first
    of ``. , ? ! ' "`` and lowercased; markdown (``**Word**``, ``#``) is not removed.
    """

    id = "length_constraints:nth_paragraph_first_word"
    params = (Param("num_paragraphs", "positive"), Param("nth_paragraph", "positive"), Param("first_word", "text"))

    def setup(self, kw: dict[str, Any]) -> None:
        num_paragraphs, nth_paragraph, first_word = kw["num_paragraphs"], kw["nth_paragraph"], kw["first_word"]
        if nth_paragraph > num_paragraphs:
            raise InstructionError(
                self.id,
                f"nth_paragraph must be at most num_paragraphs ({num_paragraphs}), got {nth_paragraph}",
                key="nth_paragraph",
            )
        self._num, self._nth, self._word = num_paragraphs, nth_paragraph, first_word.lower()

    def check(self, text: str) -> bool:
        pieces = text.split("\n\n")
        n = sum(1 for p in pieces if p and not p.isspace())
        if self._nth > n:
            return False
        paragraph = pieces[self._nth - 1].strip()
        if not paragraph:
            return False
        word = paragraph.split()[0].lstrip("'").lstrip('"')
        m = _FIRST_WORD_STOP.search(word)
        if m:
            word = word[: m.start()]
        # Lowercased character by character, as IFEval does (a word-final sigma stays σ).
        return n == self._num and "".join(c.lower() for c in word) == self._word
