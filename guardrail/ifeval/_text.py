"""Text measures IFEval relies on: words, sentences, capitalised words and the language detector.

Words are counted exactly as IFEval does (``\\w+`` runs). Sentences and the word tokens of
``capital_word_frequency`` come from NLTK's Punkt English model when NLTK and that model are installed, and
otherwise from the built-in splitter below, which follows Punkt's decision procedure with a short abbreviation
list and a list of common words standing in for the statistics of the trained model. The language detector is
langdetect, imported on first use, seeded per detection so that a text always gets the same answer.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

from ._core import MissingDependencyError, Splitter, SplitterChoice

# ----------------------------------------------------------------------------------------------------------------
# words: the number of maximal \w+ runs


_WORD_BYTES = bytes((0x61 if c < 128 and (chr(c).isalnum() or c == 0x5F) else 0x20) for c in range(256))
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_BYTES = bytes(range(128))


def _classify_run(m: re.Match[str]) -> str:
    # Python's \w on one character is str.isalnum() or "_": a word character becomes "a", any other a space.
    return "".join("a" if c.isalnum() else " " for c in m.group())


def count_words(text: str) -> int:
    """The number of ``\\w+`` runs in ``text`` (NLTK's ``RegexpTokenizer(r"\\w+")``), without building them."""
    if text.isascii():
        b = text.encode("ascii").translate(_WORD_BYTES)
    else:
        raw = text.encode("utf-8", "surrogatepass")
        others = raw.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")  # the non-ASCII characters
        if not any(c.isalnum() or c == "_" for c in others):
            # Only quotes, dashes, emoji and the like: each of their UTF-8 bytes separates words as they do.
            b = raw.translate(_WORD_BYTES)
        else:
            b = _NON_ASCII.sub(_classify_run, text).encode("ascii").translate(_WORD_BYTES)
    return b.count(b" a") + (b[:1] == b"a")


# ----------------------------------------------------------------------------------------------------------------
# the built-in sentence splitter

# Punkt's English candidates: a sentence-end character followed by closing punctuation, or by whitespace and a
# token. Punkt's word tokenizer splits the context around a candidate into tokens.
_NONWORD = r"[)\";}\]*:@'({\[\u2018\u2019\u201c\u201d\xab\xbb?!]"
_MULTI = r"(?:-{2,}|\.{2,}|(?:\.\s){2,}\.)"
# Of candidates with no whitespace between them ("?!", "!!!") Punkt keeps the last; string.whitespace, not \s.
_CANDIDATE = re.compile(
    rf"[.?!](?=(?P<after>{_NONWORD}|\s+(?P<next>\S+)))(?![^ \t\n\r\x0b\x0c]*?[.?!](?:{_NONWORD}|\s+\S))"
)
_WORD_START = r"[^(\"`{\[:;&#*@)}\]\-,]"
_WORD_END = rf"(?=\s|$|{_NONWORD}|{_MULTI}|,(?=$|\s|{_NONWORD}|{_MULTI}))"
_TOKEN = re.compile(rf"{_MULTI}|(?={_WORD_START})\S+?{_WORD_END}|\S")
_NUMERIC = re.compile(r"^-?[.,]?\d[\d,.-]*\.?$")
_INITIAL = re.compile(r"[^\W\d]\.$")
_ELLIPSIS = re.compile(r"\.\.+$")
_SPACED_ELLIPSIS = re.compile(r"(?:\.\s){2,}\.$")

# Abbreviations after which a period does not end a sentence. Like Punkt's English model, and unlike a style
# guide, this does not include "e.g", "i.e", "etc" or "no": Punkt ends a sentence there, so the count does too.
_ABBREVIATIONS = frozenset(
    "mr mrs ms messrs dr prof st jr sr inc ltd co corp bros vs gen sen rep reps lt col maj adm ft ave "
    "jan feb aug sept sep oct nov dec tues wed fri yr ok mg "
    "u.s u.s.a u.k u.n u.s.s.r a.m p.m ph.d d.c n.y l.a j.k j.r "
    "c d e f g h k l m n p r s t v w".split()
)
# Words that Punkt's statistics treat as seen in lower case, hence as sentence starters when capitalised. A
# capitalised word outside this list after an abbreviation or an initial is taken for a name ("Dr. Smith").
_COMMON = frozenset(
    """a about above according after again against all also although always among an and another any are as at
    be because been before being below between both but by can could despite did do does doing during each
    either even every few first for from further furthermore had has have having he hence her here hers herself
    him himself his how however i if in indeed instead into is it its itself just last let like many may
    meanwhile more moreover most much my neither never nevertheless next no nonetheless nor not now of often on
    once one only or other others otherwise our ours out over overall perhaps please rather second similarly
    since so some still such than that the their theirs them then there therefore these they third this those
    though through thus to today too under unless until up upon us very was we were what whatever when where
    whether which while who whom whose why will with within without would yes yet you your yours""".split()
)
_PUNCT_TOKENS = frozenset(";:,.!?")
# Punkt's English model knows a few "number. Word" collocations where a period is no sentence end; these are
# the everyday words among them ("3. Review the document" stays one sentence with the item before it).
_NUMBER_COLLOCATIONS = frozenset(
    "business credit corrections dividend financing insider international leisure letters notable review who".split()
)


def _ortho(tok: str, typ: str) -> bool | None:
    """Punkt's orthographic heuristic for the token after a period: True starts a sentence, False does not,
    None unknown. Its trained table is replaced by the case of the first character and the common words."""
    if tok in _PUNCT_TOKENS:
        return False
    first = tok[0]
    if first.isupper():
        return True if typ in _COMMON else None
    if first.islower():
        return False
    return None


def _type(tok: str) -> str:
    low = tok.lower()
    return "##number##" if _NUMERIC.match(low) else low


def _no_period(typ: str) -> str:
    return typ[:-1] if len(typ) > 1 and typ[-1] == "." else typ


def _first_pass(tok: str) -> int:
    """0 nothing, 1 sentence break, 2 abbreviation, 3 ellipsis."""
    if tok in (".", "?", "!"):
        return 1
    if _ELLIPSIS.match(tok):
        return 3
    if tok.endswith(".") and not tok.endswith(".."):
        stem = tok[:-1].lower()
        if stem in _ABBREVIATIONS or stem.split("-")[-1] in _ABBREVIATIONS or _SPACED_ELLIPSIS.match(tok):
            return 2
        return 1
    return 0


def _lower_case_seen(typ: str, at_line_start: bool) -> bool:
    """Whether Punkt has likely seen the word in lower case: a common word, a single letter, or any word after
    an outline marker at the start of a line ("I. Introduction", "A. Brief history")."""
    return at_line_start or typ in _COMMON or (len(typ) == 1 and typ.isalpha())


def _context_has_break(context: str, at_line_start: bool = False) -> bool:
    """Whether Punkt's annotation of the candidate's context (the word before, the end character, what follows)
    puts a sentence break on a token that has a token after it."""
    toks = [t for line in context.split("\n") if line.strip() for t in _TOKEN.findall(line)]
    marks = [_first_pass(t) for t in toks]
    for i in range(len(toks) - 1):
        tok, mark = toks[i], marks[i]
        if tok.endswith("."):
            nxt, nmark = toks[i + 1], marks[i + 1]
            typ = _no_period(_type(tok))
            ntyp_full = _type(nxt)
            ntyp = _no_period(ntyp_full) if nmark == 1 else ntyp_full
            initial = _INITIAL.match(tok) is not None
            if typ == "##number##" and ntyp in _NUMBER_COLLOCATIONS:
                continue
            if mark in (2, 3) and not initial:
                if _ortho(nxt, ntyp) is True or (nxt[0].isupper() and ntyp in _COMMON):
                    mark = 1
            if initial or typ == "##number##":
                o = _ortho(nxt, ntyp)
                if o is False or (
                    o is None and initial and nxt[0].isupper() and not _lower_case_seen(ntyp, at_line_start and i == 0)
                ):
                    mark = 2
        if mark == 1:
            return True
    return False


def count_sentences_builtin(text: str, limit: int | None = None) -> int:
    """Sentences as Punkt's English model would split them, approximately (see the module docstring).

    Every candidate that ends a sentence adds one. Most are decided from the characters just before them: "?"
    and "!" always end a sentence, and so does a period after a word of two or more letters that cannot be an
    abbreviation, or after a closing bracket or quote with a word after it (a citation marker); the others go
    through the token-level procedure. Punkt moves closing quotes and brackets after
    a sentence end onto that sentence, which only changes the count when they are all that follows the last end.
    With ``limit``, counting stops once the count is sure to reach it (then the result is ``>= limit``, not the
    count): what a comparison with ``limit`` needs.
    """
    if not text or text.isspace():
        return 0
    n = 1
    last = 0
    for m in _CANDIDATE.finditer(text):
        p = m.start()
        if text[p] != "." or _plain_word_before(text, p) or (text[p - 1:p] in _CLOSER_BEFORE and m.group("next")):
            brk: bool | None = True
        else:
            brk = _number_break(text, p, m)
            if brk is None:
                brk = _slow_break(text, p, m)
        if brk:
            n += 1
            last = m.start("next") if m.group("next") else m.end()
            if limit is not None and n > limit:
                return n - 1  # at least this many whatever follows (the end can take one back): enough to compare
    if n > 1:
        tail = text[last : len(text.rstrip())]
        if tail and _CLOSING.issuperset(tail):
            n -= 1
    return n


_CLOSING = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")
# A period right after a closing bracket or quote ("... [doc:hr-12]. Next"): whatever token Punkt cuts around it,
# it is no abbreviation, initial, number or ellipsis, so with a word after it the sentence ends there.
_CLOSER_BEFORE = frozenset(_CLOSING)
# The last two letters of the abbreviations that end in two letters: a period after any other pair of letters
# ends a sentence without further ado.
_ABBREVIATION_ENDINGS = frozenset(a[-2:] for a in _ABBREVIATIONS if len(a) > 1 and a[-2:].isalpha())


def sentence_upper_bound(text: str) -> int:
    """A number no sentence count (Punkt's or the built-in one) exceeds: every sentence but the last ends at
    a ".", "?" or "!". Three C-level counts, so a "less than" threshold far above the count costs nothing."""
    return 1 + text.count(".") + text.count("?") + text.count("!")


def _plain_word_before(text: str, p: int) -> bool:
    """Whether the period at ``p`` follows a word of two or more letters that is no abbreviation: then Punkt's
    token is a plain word, and a plain word's period always ends a sentence."""
    two = text[p - 2 : p]
    if len(two) != 2 or not two.isalpha():
        return False
    if two.lower() not in _ABBREVIATION_ENDINGS:
        return True
    i, limit = p - 2, max(0, p - 7)
    while i > limit and text[i - 1].isalpha():
        i -= 1
    # Every abbreviation that ends in two letters is letters only, at most six of them.
    return p - i == 7 or text[i:p].lower() not in _ABBREVIATIONS


def _number_break(text: str, p: int, m: re.Match[str]) -> bool | None:
    """For "12." followed by a word: a break unless the word is lower case or a known collocation. None when
    the candidate is not of that simple shape."""
    nxt = m.group("next")
    if not nxt or not text[p - 1 : p].isdigit() or not nxt[0].isalpha():
        return None
    start = _word_start(text, p)
    if not text[start:p].isdigit():
        return None
    if nxt[0].islower():
        return False
    tok = _TOKEN.match(nxt)
    word = tok.group() if tok else nxt
    typ = _type(word)
    if _first_pass(word) == 1:
        typ = _no_period(typ)
    return typ not in _NUMBER_COLLOCATIONS


def _slow_break(text: str, p: int, m: re.Match[str]) -> bool:
    start = _word_start(text, p)
    line_start = text.rfind("\n", 0, start) + 1
    at_line_start = line_start == start or text[line_start:start].isspace()
    return _context_has_break(text[start:p] + m.group() + m.group("after"), at_line_start)


_ASCII_SPACE = frozenset(" \t\n\r\x0b\x0c")  # Punkt looks for the previous word with string.whitespace


def _word_start(text: str, end: int) -> int:
    i = end
    while i > 0 and text[i - 1] not in _ASCII_SPACE:
        i -= 1
    return i


# ----------------------------------------------------------------------------------------------------------------
# capitalised words: tokens as NLTK's word_tokenize would cut them, counted when upper case

_CAP_SPLIT = re.compile(
    r"[\s;@#$%&?!*()\[\]{}<>\"`\u2012-\u2015\u2018\u2019\u201c\u201d\u201e\xab\xbb]+|--|\.{2,}|[:,](?!\d)"
)
_CONTRACTION = re.compile(r"(?<=[^' ])(?:'[sSmMdD]|'ll|'LL|'re|'RE|'ve|'VE|n't|N'T)$")
_TWO_WORDS = re.compile(r"(?i)(?:can)(?:not)|(?:gim|lem)(?:me)|(?:gon|wan)(?:na)|(?:got)(?:ta)")


def count_capital_words_builtin(text: str) -> int:
    """Word tokens in upper case (``str.isupper``), cut like the Treebank tokenizer: "NASA's" gives "NASA",
    "I'M" gives "I" and "'M", "AT&T" gives "AT" and "T", "COVID-19" and "U.S." stay whole."""
    # Tokens never cross whitespace, and a lower-case word holds no upper-case token: most words are skipped.
    return sum(_count_capitals(word) for word in text.split() if not word.islower())


def _count_capitals(text: str) -> int:
    n = 0
    for piece in _CAP_SPLIT.split(text):
        if not piece or (not piece.isupper() and "'" not in piece):
            continue
        if "'" in piece:
            m = _CONTRACTION.search(piece)
            if m:
                head, tail = piece[: m.start()], m.group()
                n += head.isupper() + tail.isupper()
                continue
            piece = piece.strip("'") or piece
        if piece.isupper():
            n += 2 if _TWO_WORDS.fullmatch(piece) else 1
    return n


# ----------------------------------------------------------------------------------------------------------------
# NLTK's Punkt, when installed with its English model


@lru_cache(maxsize=1)
def _punkt() -> Any | None:
    """NLTK's Punkt English tokenizer (``punkt_tab``, NLTK >= 3.8.2), or None when NLTK or the model is missing.

    Older NLTK releases only ship the pickled model; pickles are not loaded.
    """
    try:
        from nltk.tokenize.punkt import PunktTokenizer
    except ImportError:
        return None
    try:
        return PunktTokenizer("english")
    except (LookupError, OSError, ValueError):
        return None


@lru_cache(maxsize=1)
def _treebank() -> Any:
    from nltk.tokenize.destructive import NLTKWordTokenizer

    return NLTKWordTokenizer()


def resolve_splitter(choice: SplitterChoice, instruction_id: str) -> Splitter:
    """``auto`` is Punkt when available, else the built-in splitter; ``punkt`` insists on Punkt."""
    if choice == "builtin":
        return "builtin"
    if _punkt() is not None:
        return "punkt"
    if choice == "punkt":
        raise MissingDependencyError(
            f"{instruction_id}: sentence_splitter 'punkt' needs NLTK >= 3.8.2 with its Punkt English model "
            "(pip install 'guardrail[lang]', then nltk.download('punkt_tab'))"
        )
    return "builtin"


def count_sentences(text: str, splitter: Splitter, limit: int | None = None) -> int:
    """The number of sentences by the given splitter (with ``limit``: or any number ``>= limit`` once it is sure
    the count reaches it)."""
    if splitter == "punkt":
        punkt = _punkt()
        assert punkt is not None  # resolve_splitter gave "punkt"
        return len(punkt.tokenize(text))
    return count_sentences_builtin(text, limit)


def count_capital_words(text: str, splitter: Splitter) -> int:
    """The number of upper-case word tokens (``nltk.word_tokenize`` when Punkt is in use)."""
    if splitter == "punkt":
        punkt, treebank = _punkt(), _treebank()
        assert punkt is not None
        return sum(1 for s in punkt.tokenize(text) for t in treebank.tokenize(s) if t.isupper())
    return count_capital_words_builtin(text)


# ----------------------------------------------------------------------------------------------------------------
# language detection

_langdetect_lock = threading.Lock()
_langdetect: tuple[Any, type[Exception]] | None = None


def _detector_factory() -> tuple[Any, type[Exception]]:
    global _langdetect
    if _langdetect is None:
        with _langdetect_lock:
            if _langdetect is None:
                try:
                    from langdetect import detector_factory
                    from langdetect.lang_detect_exception import LangDetectException
                except ImportError as e:
                    raise MissingDependencyError(
                        "language detection needs langdetect: pip install 'guardrail[lang]'"
                    ) from e
                detector_factory.init_factory()  # loads the 55 profiles once (about a second)
                _langdetect = (detector_factory._factory, LangDetectException)
    return _langdetect


def langdetect_available() -> bool:
    """Whether langdetect can be imported."""
    try:
        _detector_factory()
    except MissingDependencyError:
        return False
    return True


def require_langdetect(instruction_id: str) -> None:
    """Raise ``MissingDependencyError`` naming ``instruction_id`` when langdetect is not installed."""
    try:
        _detector_factory()
    except MissingDependencyError as e:
        raise MissingDependencyError(f"{instruction_id}: {e}") from None


def detect_language(text: str) -> str | None:
    """langdetect's best guess for ``text`` (seed 0, so always the same), or None when it finds no features.

    Seeding the one detector rather than ``DetectorFactory.seed`` leaves the application's own use of
    langdetect as it was.
    """
    factory, no_features = _detector_factory()
    detector = factory.create()
    detector.seed = 0
    detector.append(text)
    try:
        return str(detector.detect())
    except no_features:
        return None
