"""The text model: normalisation (with an offset map back to the original) and statement segmentation.

Normalisation, used to compare quotes with sources and to match banned terms:
Unicode NFKC, invisible characters (:data:`ZERO_WIDTH`: U+200B, U+200C, U+200D, U+2060, U+FEFF, U+00AD and the
other default-ignorable code points) removed, curly single quotes
to ``'``, curly double quotes to ``"``, en/em dashes to ``-``, every run of whitespace to one space, and (optionally)
case folding. :func:`normalize` gives the bare string; :func:`normalize_mapped` also maps every normalised character
back to the original characters it came from, so a match found in the normalised text covers the right original span.

Words (:func:`words`, :func:`word_bytes`, :func:`word_spans`), used to find text copied from a source: the runs of
word characters of the normalised text.

Segmentation splits an output into statements (see :func:`segment`). It works line by line: a statement never spans
a line break (chat answers do not hard-wrap), except a fenced code block, which is one statement. On a line:

- a Markdown heading (``# ...``), a line that is bold text only, or a "Sources" heading is one ``HEADING`` statement;
- a list item (``-``, ``*``, ``+``, ``•``, ``1.``, ``1)``) is one ``ITEM`` statement;
- in a Sources section (the non-blank lines after a Sources heading, up to a blank line or a heading) and on a line
  starting ``Sources:``, the line is one ``SOURCE`` statement;
- any other line is split into ``SENTENCE`` statements. A sentence ends at ``.``, ``!``, ``?`` or ``…`` (and any
  closing quotes or brackets) followed by whitespace and a character that is not lower-case, or by the end of the line.
  It does not end after an abbreviation ("e.g.", "Dr.", "U.S."), inside a number or URL (no whitespace follows), or
  inside a quotation. Citation markers right after the final punctuation belong to the sentence, a whole group
  of them too (``Claim. [doc:a, doc:b]``: the marker finder reports group spans); the sentence then ends after
  them if whitespace or the end of the line follows them (``Claim.[doc:a]Next`` is one sentence, as a bold line
  ``**Note.[doc:a]**`` stays a heading). A line-ending sentence of at most eight words that ends in a colon is a
  ``HEADING``.

Segmentation is prefix-stable: a statement reported for a prefix of a text (``final=False``) is reported identically
for the whole text, because every decision looks only at the text before it and a bounded stretch after it, and a
statement whose end needs text not yet seen is not reported.
"""

from __future__ import annotations

import os
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from types import ModuleType
from typing import Literal, NamedTuple

import regex

_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x17B4, 0x17B5), (0x180B, 0x180F),
              (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F), (0xE0100, 0xE01EF))
ZERO_WIDTH = "".join(chr(c) for a, b in _IGNORABLE for c in range(a, b + 1))
"""The characters that show as nothing and are read as nothing here: Unicode's default-ignorable code points
(zero-width spaces and joiners, the soft hyphen, direction marks, variation selectors, tag characters, invisible
operators...) that are assigned, but the Hangul fillers (:data:`BLANKS`). An attacker's BLUE\u200eJAY is
BLUEJAY."""
INVISIBLE = frozenset(ZERO_WIDTH)  # (for membership: ZERO_WIDTH is some 400 characters)


def char_class(chars: str) -> str:
    """A regex character class of ``chars`` written as ranges (the regex engines test a class of many single
    characters, or of several ranges beyond the BMP, a character at a time: a hundred times slower)."""
    codes = sorted(set(map(ord, chars)))
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "[" + "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                         for a, b in ranges) + "]"


_BMP_INVISIBLE = "".join(c for c in ZERO_WIDTH if c <= "\uffff")
MAYBE_INVISIBLE = re.compile(char_class(_BMP_INVISIBLE)[:-1] + "\U00010000-\U0010ffff]")
"""What may be an invisible character: those of the BMP, and any character beyond it (the few invisible ones there
are told apart by :data:`INVISIBLE`). A class the regex engines test at a glance, where ZERO_WIDTH's own ranges
beyond the BMP cost some twenty times more on every character."""


def _visible(m: re.Match[str]) -> str:
    c = m.group()
    return "" if c in INVISIBLE else c


def drop_invisible(text: str) -> str:
    """``text`` without its invisible characters (:data:`ZERO_WIDTH`); ``text`` itself when it has none."""
    return MAYBE_INVISIBLE.sub(_visible, text) if MAYBE_INVISIBLE.search(text) is not None else text
BLANKS = "\u115f\u1160\u2800\u3164\uffa0"
"""Characters that show as a blank the width of a letter (the Hangul fillers, the blank Braille pattern), which
``str.split`` does not take for whitespace: read as a space. An attacker's Project\u3164Falcon is Project Falcon."""
_MAPPING: dict[str, str] = dict.fromkeys(ZERO_WIDTH, "")
_MAPPING.update(dict.fromkeys(BLANKS, " "))
_MAPPING.update(dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"))
_MAPPING.update(dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'))
_MAPPING.update(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"))
# str.translate with a dict costs a lookup per character; a regex that stops only at these characters is far faster.
_MAPPED_CHAR = re.compile(char_class("".join(_MAPPING)))


def _map_chars_py(text: str) -> str:
    return _MAPPED_CHAR.sub(lambda m: _MAPPING[m.group()], text) if _MAPPED_CHAR.search(text) else text


def _collapse_py(text: str) -> str:
    return " ".join(text.split())


def _load_speedups() -> ModuleType | None:
    """The compiled fast paths (``guardrail/_speedups.c``), when the extension was built and the environment does
    not ask for the pure-Python code (``GUARDRAIL_PURE_PYTHON``). They give the same results, faster; the tests
    compare each with the Python function it stands for."""
    if os.environ.get("GUARDRAIL_PURE_PYTHON"):
        return None
    try:
        from . import _speedups  # type: ignore[attr-defined]
    except ImportError:
        return None
    _speedups.configure_mapping(_MAPPING)
    return _speedups  # type: ignore[no-any-return]


_SPEEDUPS = _load_speedups()
_map_chars: Callable[[str], str] = _SPEEDUPS.map_chars if _SPEEDUPS else _map_chars_py
_collapse: Callable[[str], str] = _SPEEDUPS.collapse if _SPEEDUPS else _collapse_py


def is_word_char(c: str) -> bool:
    """A word character for term boundaries: a letter, digit or underscore (any script)."""
    return c.isalnum() or c == "_"


def normalize(text: str, fold: bool = True) -> str:
    """The normalised form of ``text`` (see the module docstring), without leading or trailing whitespace."""
    if not text.isascii():
        mapped = _map_chars(text)
        text = unicodedata.normalize("NFKC", mapped)
        if text is not mapped:  # NFKC changed something (it returns its argument when there is nothing to do)
            text = _map_chars(text)
    text = _collapse(text)
    if fold:
        return text.lower() if text.isascii() else text.casefold()
    return text


@lru_cache(maxsize=4096)
def normalize_source(text: str) -> str:
    """:func:`normalize` with case folding, cached: retrieved passages repeat across turns."""
    return normalize(text, True)


# ------------------------------------------------------------------------------------------------ words of a text

_WORD = re.compile(r"\w+")  # a word of copied text: a run of word characters (those of is_word_char), normalised
_BLANK = re.compile(char_class(BLANKS))
_NON_ASCII_NON_WORD = re.compile(r"[^\x00-\x7f\w]+")
# ASCII: upper case to lower, every non-word character to a space; other bytes (UTF-8 sequences) as they are.
_ASCII_WORDS = bytes(c if is_word_char(chr(c)) else 32 for c in range(128)).lower() + bytes(range(128, 256))
_ASCII_WORDS_ONLY = _ASCII_WORDS[:128] + b" " * 128  # ... and every non-ASCII character a separator


def words(text: str) -> list[str]:
    r"""The words of ``normalize(text)``: its runs of word characters (so punctuation, case, line breaks and
    zero-width characters do not tell two copies of a text apart). Equal to ``re.findall(r"\w+", normalize(text))``,
    computed without the whitespace and punctuation mapping, which cannot change a word."""
    if not text.isascii():
        text = drop_invisible(text)  # before NFKC, as in normalize: "e\u200b\u0301" is "é"
        if _BLANK.search(text) is not None:
            text = _BLANK.sub(" ", text)
        text = unicodedata.normalize("NFKC", text).casefold()
        if not text.isascii():
            text = _NON_ASCII_NON_WORD.sub(" ", text)
            return text.encode("utf-8", "surrogatepass").translate(_ASCII_WORDS).decode(
                "utf-8", "surrogatepass").split()
    return text.encode("ascii").translate(_ASCII_WORDS).decode("ascii").split()


_ASCII = bytes(range(128))
_CHARS: dict[str, bytes | None] = {}  # a non-ASCII character: what word_bytes puts in its place (None: cannot)
_JAMO = ((0x1100, 0x11FF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF))


def _char_bytes(c: str) -> bytes | None:
    """What a non-ASCII character becomes among the words of a text, in UTF-8: its NFKC form case folded, with
    non-word characters as spaces (a zero-width character: nothing). None for a character whose normal form
    depends on its neighbours (a combining mark, a conjoining Hangul jamo)."""
    if c in INVISIBLE:
        return b""
    if c in BLANKS:
        return b" "
    code = ord(c)
    if unicodedata.category(c).startswith("M") or any(a <= code <= b for a, b in _JAMO):
        return None
    folded = unicodedata.normalize("NFKC", c).casefold()
    return "".join(x if is_word_char(x) else " " for x in folded).encode("utf-8", "surrogatepass")


def only_separators(chars: set[str]) -> bool:
    """Whether every one of these non-ASCII characters separates words (is no word character, nor nothing): then
    the words of a text holding no others are its runs of ASCII word characters."""
    known = _CHARS
    for c in chars:
        rep = known.get(c, b"?")
        if rep == b"?":
            rep = known[c] = _char_bytes(c)
        if rep is None or not rep.isspace():
            return False
    return True


def _non_ascii_chars_py(text: str, utf8: bytes | None = None) -> set[str]:
    if text.isascii():
        return set()
    if utf8 is None:
        utf8 = text.encode("utf-8", "surrogatepass")
    return set(utf8.translate(None, _ASCII).decode("utf-8", "surrogatepass"))


def non_ascii_chars(text: str, utf8: bytes | None = None) -> set[str]:
    """The distinct non-ASCII characters of ``text``: one compiled pass over it, or bytes operations (``utf8``: the
    text in UTF-8 with ``surrogatepass``, if already encoded)."""
    if _SPEEDUPS is not None:
        return _SPEEDUPS.non_ascii_chars(text)  # type: ignore[no-any-return]
    return _non_ascii_chars_py(text, utf8)


def word_bytes(text: str, chars: set[str] | None = None, utf8: bytes | None = None) -> list[bytes]:
    """:func:`words`, in UTF-8, faster: bytes operations only, the non-ASCII characters of the text mapped one
    by one (each once per process); the exact way when one cannot be (a combining mark, a conjoining jamo).
    ``chars``: a superset of :func:`non_ascii_chars` of the text, if known; ``utf8``: the text encoded."""
    raw = word_utf8(text, chars, utf8)
    if raw is None:
        return [w.encode("utf-8", "surrogatepass") for w in words(text)]
    return raw.split()


def word_utf8(text: str, chars: set[str] | None = None, utf8: bytes | None = None) -> bytes | None:
    """UTF-8 whose ``split()`` is :func:`word_bytes` of ``text`` (every character that is no word character a
    space), or None when only :func:`words` can say (see :func:`word_bytes`)."""
    raw = text.encode("utf-8", "surrogatepass") if utf8 is None else utf8
    if text.isascii():
        return raw.translate(_ASCII_WORDS)
    known = _CHARS
    reps = []
    separators = True
    for c in non_ascii_chars(text, raw) if chars is None else chars:
        rep = known.get(c, b"?")
        if rep == b"?":
            rep = known[c] = _char_bytes(c)
        if rep is None:
            return None
        separators = separators and rep.isspace()  # not a word character, nor nothing (a zero-width one)
        reps.append((c, rep))
    if separators:  # every non-ASCII character separates words (quotes, dashes, emoji...)
        return raw.translate(_ASCII_WORDS_ONLY)
    for c, rep in reps:
        mine = c.encode("utf-8", "surrogatepass")
        if rep != mine:
            raw = raw.replace(mine, rep)
    return raw.translate(_ASCII_WORDS)


def word_spans(
    text: str, start: int, end: int, cuts: Sequence[tuple[int, int]] = ()
) -> list[tuple[str, int, int]]:
    """The words of ``text[start:end]`` with the spans ``cuts`` (sorted, disjoint) taken out, as :func:`words`
    gives them, each with the span of the original characters it came from. Slow (it maps back every word): for
    text known to hold something of interest."""
    pieces: list[str] = []
    origins: list[int] = []  # where each piece starts in `text`
    starts: list[int] = []  # ... and in the text without the cuts
    pos = start
    size = 0
    for a, b in cuts:
        if b <= pos or a >= end:
            continue
        if a > pos:
            pieces.append(text[pos:a])
            origins.append(pos)
            starts.append(size)
            size += a - pos
        pos = max(pos, b)
    if pos < end:
        pieces.append(text[pos:end])
        origins.append(pos)
        starts.append(size)
    if not pieces:
        return []
    mapped = Mapped("".join(pieces))

    def original(at: int) -> int:
        k = bisect_right(starts, at) - 1
        return origins[k] + at - starts[k]

    out = []
    for m in _WORD.finditer(mapped.text):
        a, b = mapped.original_span(m.start(), m.end())
        out.append((m.group(), original(a), original(b - 1) + 1))
    return out


_BLOCK = 512  # normalise long texts in blocks cut at whitespace, so only the block of a match is mapped back
_SPACE = re.compile(r"\s")
_TOKEN = re.compile(r"\S+")


class Mapped:
    """:func:`normalize` of a text, with the way back to the original characters.

    ``text`` equals ``normalize(original)`` by construction: the original is cut at whitespace into blocks and each
    block into tokens, each normalised with :func:`normalize` itself (no character composes across whitespace).
    A normalised offset maps back through its token, by normalising the token's prefixes.
    """

    def __init__(self, original: str, fold: bool = True):
        self.original = original
        self.fold = fold
        self._blocks: list[tuple[int, int]] = []  # (original start, original end)
        self._block_norm: list[int] = []  # where each block starts in the normalised text
        self._tokens: dict[int, list[tuple[int, int, int, int]]] = {}
        parts: list[str] = []
        n = len(original)
        pos = norm = 0
        while pos < n:
            cut = min(pos + _BLOCK, n)
            if cut < n:
                m = _SPACE.search(original, cut)
                cut = m.start() if m else n
            piece = normalize(original[pos:cut], fold)
            if piece:
                if parts:
                    norm += 1
                self._blocks.append((pos, cut))
                self._block_norm.append(norm)
                parts.append(piece)
                norm += len(piece)
            pos = cut
        self.text = " ".join(parts)

    def _block_tokens(self, k: int) -> list[tuple[int, int, int, int]]:
        """``(normalised start, normalised length, original start, original end)`` of each token of block ``k``."""
        tokens = self._tokens.get(k)
        if tokens is None:
            start, end = self._blocks[k]
            tokens = self._tokens[k] = _block_tokens(self.original, start, end, self._block_norm[k], self.fold)
        return tokens

    def _locate(self, pos: int, end: bool) -> int:
        """The original offset of normalised offset ``pos``: where its character starts, or with ``end``, where
        the character before it ends."""
        at = pos - 1 if end else pos
        k = bisect_right(self._block_norm, at) - 1
        tokens = self._block_tokens(k)
        i = bisect_right(tokens, (at, 1 << 62)) - 1
        norm_start, size, orig_start, orig_end = tokens[i]
        if at >= norm_start + size:  # the space joining two tokens stands for the whitespace between them
            if not end:
                return orig_end
            following = tokens[i + 1] if i + 1 < len(tokens) else self._block_tokens(k + 1)[0]
            return following[2]
        local = pos - norm_start
        word = self.original[orig_start:orig_end]
        if word.isascii():
            return orig_start + local
        piece = normalize(word, self.fold)
        if end:  # the shortest prefix of the token whose normalisation covers `local` characters
            for j in range(1, len(word) + 1):
                prefix = normalize(word[:j], self.fold)
                if len(prefix) >= local and piece.startswith(prefix[:local]):
                    return orig_start + j
            return orig_end
        best = 0  # the longest prefix whose normalisation ends at or before `local`
        for j in range(1, len(word) + 1):
            prefix = normalize(word[:j], self.fold)
            if len(prefix) > local:
                break
            if piece.startswith(prefix):
                best = j
        return orig_start + best

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original span that normalised characters ``[start, end)`` (non-empty) came from."""
        return self._locate(start, False), self._locate(end, True)


def _block_tokens_py(original: str, start: int, end: int, norm: int, fold: bool) -> list[tuple[int, int, int, int]]:
    """:meth:`Mapped._block_tokens` of ``original[start:end]``, whose normalised text starts at ``norm`` (compiled:
    ``_speedups.block_tokens``, the same)."""
    tokens: list[tuple[int, int, int, int]] = []
    for m in _TOKEN.finditer(original, start, end):
        word = m.group()
        size = len(word) if word.isascii() else len(normalize(word, fold))
        if size:
            if tokens:
                norm += 1
            tokens.append((norm, size, m.start(), m.end()))
            norm += size
    return tokens


def _block_tokens_c(original: str, start: int, end: int, norm: int, fold: bool) -> list[tuple[int, int, int, int]]:
    return _SPEEDUPS.block_tokens(original, start, end, norm, fold, normalize)  # type: ignore[union-attr,no-any-return]


_block_tokens = _block_tokens_c if _SPEEDUPS is not None else _block_tokens_py


def normalize_mapped(text: str, fold: bool = True) -> Mapped:
    """Normalise ``text`` and keep the way back to it (see :class:`Mapped`)."""
    return Mapped(text, fold)


# --------------------------------------------------------------------------------------------------- segmentation


class Kind(StrEnum):
    """What sort of statement a span of the output is."""

    SENTENCE = "sentence"
    ITEM = "item"
    HEADING = "heading"
    SOURCE = "source"
    CODE = "code"


class Statement(NamedTuple):
    """One claim-sized unit: ``text[start:end]``, on the line starting at ``line_start`` (a code block: its first).

    ``section`` is, for a Sources heading and the ``SOURCE`` statements under it, the start offset of that heading;
    else -1.
    """

    start: int
    end: int
    kind: Kind
    line_start: int
    section: int = -1


_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot loop)

MarkerFinder = Callable[[str, int, int, bool], "tuple[int, int] | Literal[True] | None"]
"""``finder(text, pos, endpos, partial)``: the span of a citation marker starting at ``pos`` (of the whole marker
group, ``[doc:a, doc:b]``, for grouped citations), or ``None`` if there is none; with ``partial``, ``True`` if
``text[pos:endpos]`` could be the beginning of one."""

_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
# What a line is, from its start; one match a line. The alternatives are tried in this order.
_LINE = re.compile(
    r"""(?P<fence>[ ]{0,3}(?:`{3,}|~{3,}))
    |(?P<sources_heading>[ \t]*(?:\#{1,6}[ \t]*)?(?:\*\*|__)?(?i:sources|references)(?:\*\*|__)?[ \t]*:?[ \t]*
        (?:\*\*|__)?[ \t]*$)
    |(?P<heading>[ ]{0,3}\#{1,6}(?:[ \t]|$))
    # Bold text alone on a line. It cannot hold a sentence end, so its prefixes never hold a complete sentence.
    |(?P<bold>\s*(?:\*\*|__)(?:[^*_\n.!?…]|[.!?…](?!\s))+(?:\*\*|__)\s*:?\s*$)
    |(?P<sources_inline>[ \t]*(?:\*\*|__)?(?i:sources|references)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*\S)
    |(?P<item>[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+\S)""",
    re.VERBOSE,
)
_SENTENCE = Kind.SENTENCE


def _names_sources(text: str, cs: int) -> bool:
    """Whether the line content at ``cs`` begins with "sources" or "references" as ``_LINE``'s ``(?i:...)`` reads
    them (ASCII case, and "ſ" for a later "s"): of the lines that start with a letter, only those can match
    ``_LINE`` (a line that starts with "ſ" was never looked at)."""
    if text[cs] not in "SsRr":
        return False
    return text[cs:cs + 10].lower().replace("\u017f", "s").startswith(("sources", "references"))


_FINAL = ".!?…"  # punctuation that can end a sentence
_CLOSERS = "\"'”’»)]"  # may follow it and still belong to the sentence
_WORDS = regex.compile(r"\w+")
_ABBREVIATIONS = frozenset(
    """e.g. i.e. cf. vs. viz. approx. ca. dr. mr. mrs. ms. mx. prof. sr. jr. st. mt. vol. fig. figs. pp. eds.
    dept. jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec. gov. sen. rev. hon. lb. oz. al.""".split()
)
_DOTTED_ACRONYM = regex.compile(r"(?:\p{L}\.){2,}")


@dataclass(slots=True)
class _State:
    fence: str | None = None  # the opening fence while inside a code block
    fence_start: int = 0
    fence_line: int = 0
    sources: int = 0  # 0: not in a Sources section; 1: after its heading, before content; 2: in its lines
    sources_heading: int = -1


def segment(
    text: str,
    markers: MarkerFinder,
    *,
    final: bool = True,
    plain_lines: set[int] | None = None,
    continued: bool = False,
) -> list[Statement]:
    """Split ``text`` into statements, in order. With ``final=False`` the text is a prefix of a longer one and
    only statements that are complete whatever follows are returned. ``plain_lines``, if given, receives the start
    of every line that begins outside any code block or Sources section (where a stream may start afresh).
    ``continued``: the text starts inside an ordinary line, after a complete sentence (a stream's window)."""
    out: list[Statement] = []
    state = _State()
    finals = _finals(text)
    pos, n = 0, len(text)
    if continued and n:
        nl = text.find("\n")
        le = n if nl < 0 else (nl - 1 if nl > 0 and text[nl - 1] == "\r" else nl)
        cs = _skip_space(text, 0, le)
        end = le
        if nl >= 0 or final:
            while end > cs and text[end - 1] in " \t\r":
                end -= 1
        if cs < end:
            _sentences(text, cs, end, 0, nl >= 0 or final, markers, out, finals)
        pos = n if nl < 0 else nl + 1
    while pos < n:
        if plain_lines is not None and state.fence is None and not state.sources:
            plain_lines.add(pos)
        nl = text.find("\n", pos)
        if nl < 0:
            _segment_line(text, pos, n, final, state, markers, out, finals)
            break
        end = nl - 1 if nl > pos and text[nl - 1] == "\r" else nl
        _segment_line(text, pos, end, True, state, markers, out, finals)
        pos = nl + 1
    if final and state.fence is not None:
        # An unclosed fence runs to the end of the text.
        end = len(text)
        while end > state.fence_start and text[end - 1].isspace():
            end -= 1
        out.append(Statement(state.fence_start, end, Kind.CODE, state.fence_line))
    return out


def _finals(text: str) -> list[int]:
    """Where ``.``, ``!``, ``?`` and ``…`` occur, in order."""
    return positions_of(text, _FINAL)


def positions_of(text: str, chars: Iterable[str]) -> list[int]:
    """Where any of ``chars`` (single characters) occurs in ``text``, in order (``str.find`` for each: many times
    faster than a regex scan, for a few characters)."""
    out = []
    for ch in chars:
        i = text.find(ch)
        while i >= 0:
            out.append(i)
            i = text.find(ch, i + 1)
    out.sort()
    return out


def _segment_line(
    text: str,
    ls: int,
    le: int,
    complete: bool,
    st: _State,
    markers: MarkerFinder,
    out: list[Statement],
    finals: list[int],
) -> None:
    if st.fence is not None:
        m = _FENCE.match(text, ls, le)
        if complete and m and m.group(1)[0] == st.fence[0] and len(m.group(1)) >= len(st.fence) \
                and not text[m.end():le].strip():
            out.append(Statement(st.fence_start, le, Kind.CODE, st.fence_line))
            st.fence = None
        return
    cs = ls
    while cs < le and text[cs] in " \t":
        cs += 1
    if cs == le:  # blank line (or only spaces so far)
        if complete and st.sources == 2:
            st.sources = 0
        return
    first = text[cs]
    if first.isalpha() and not _names_sources(text, cs):  # an ordinary line (the usual case): no pattern matches
        m, kind = None, None
    else:
        m = _LINE.match(text, ls, le)
        kind = m.lastgroup if m is not None else None
    if kind == "fence":
        st.fence, st.fence_start, st.fence_line = text[cs:m.end()], cs, ls  # type: ignore[union-attr]
        st.sources = 0
        return
    if not complete:
        # Only sentences of an ordinary line can be complete before the line is.
        if not (st.sources or kind in ("heading", "sources_inline", "item")):
            _sentences(text, cs, le, ls, False, markers, out, finals)
        return
    end = le
    while end > cs and text[end - 1] in " \t\r":
        end -= 1
    if kind == "sources_heading":
        out.append(Statement(cs, end, Kind.HEADING, ls, cs))
        st.sources, st.sources_heading = 1, cs
    elif kind == "heading" or kind == "bold":
        out.append(Statement(cs, end, Kind.HEADING, ls))
        st.sources = 0
    elif st.sources:
        out.append(Statement(cs, end, Kind.SOURCE, ls, st.sources_heading))
        st.sources = 2
    elif kind == "sources_inline":
        out.append(Statement(cs, end, Kind.SOURCE, ls))
    elif kind == "item":
        out.append(Statement(cs, end, Kind.ITEM, ls))
    else:
        _sentences(text, cs, end, ls, True, markers, out, finals)


def _sentences(
    text: str,
    cs: int,
    le: int,
    ls: int,
    complete: bool,
    markers: MarkerFinder,
    out: list[Statement],
    finals: list[int],
) -> None:
    """Split the ordinary line content ``text[cs:le]`` into sentences."""
    start = cs
    quotes = text.find('"', cs, le) >= 0 or text.find("“", cs, le) >= 0
    scanned = cs  # quote state is known up to here
    straight = 0  # straight double quotes seen since `start`
    curly = 0  # whether a curly quotation is open (its “ the last curly mark since `start`)
    t_end = cs
    for t_start in finals[bisect_left(finals, cs):]:
        if t_start >= le:
            break
        if t_start < t_end or t_start < start:
            continue  # inside a run of final punctuation already looked at, or inside absorbed markers
        t_end = t_start + 1
        while t_end < le and text[t_end] in _FINAL:
            t_end += 1
        while t_end < le and text[t_end] in _CLOSERS:
            t_end += 1
        if t_end < le and (text[t_end].isalnum() or text[t_end] == "_"):
            continue  # a decimal, a version, a URL: no sentence ends here
        if quotes:
            straight += text.count('"', scanned, t_end)
            curly = _curly(text, scanned, t_end, curly)
            scanned = t_end
            if straight % 2 or curly > 0:
                continue  # inside a quotation
        j = t_end
        while j < le and text[j].isspace():
            j += 1
        end = _sentence_end(text, t_start, t_end, j, le, complete, markers)
        if end is None:
            continue
        if end < 0:  # undecidable until more text arrives
            return
        out.append(_new(Statement, (start, end, _SENTENCE, ls, -1)))
        start = scanned = j if end == t_end else _skip_space(text, end, le)
        straight = curly = 0
        if start >= le:
            return
    if complete and start < le:
        end = le
        kind = Kind.SENTENCE
        if text[end - 1] == ":" and len(_WORDS.findall(text, start, end)) <= 8:
            kind = Kind.HEADING
        out.append(Statement(start, end, kind, ls))


def _sentence_end(
    text: str, t_start: int, t_end: int, j: int, le: int, complete: bool, markers: MarkerFinder
) -> int | None:
    """Where a sentence whose final punctuation is ``text[t_start:t_end]``, followed by whitespace up to ``j``,
    ends: an offset, ``None`` if it does not end there, or -1 if that cannot be known before more of the line
    arrives."""
    if j == le:
        return t_end if complete else -1
    found = markers(text, j, le, not complete)
    if found is True:
        return -1
    if found is None:
        if j == t_end or text[j].islower():
            return None
        if t_end - t_start == 1 and text[t_start] == "." and _is_abbreviation(text, t_start):
            return None
        return t_end
    end = found[1]
    while True:  # markers after the final punctuation belong to the sentence
        k = _skip_space(text, end, le)
        if k == le:
            return end if complete else -1
        more = markers(text, k, le, not complete)
        if more is True:
            return -1
        if more is None:
            # As after the punctuation itself, whitespace must follow ("**Note.[doc:a]**" is one bold line).
            return end if k > end else None
        end = more[1]


_CODE = Kind.CODE
# An abbreviation ends the lowered text up to its period, and is at most 7 characters: a period that 8 characters
# before it (lowered) end with none of them, and that does not follow "x." (a dotted acronym), closes none.
_ABBREVIATION_ENDINGS = tuple(sorted(_ABBREVIATIONS))
assert max(map(len, _ABBREVIATIONS)) <= 8
_HEADING = Kind.HEADING
_SOURCE = Kind.SOURCE
_ITEM = Kind.ITEM


def segment_text_py(text: str, groups: dict[int, int]) -> list[Statement]:
    """:func:`segment` of a complete text (``final=True``, not ``continued``), faster: ``groups`` maps the start of
    every citation marker group of the text to its end (what :func:`~guardrail.checks.base.marker_finder` knows).
    The same statements as ``segment`` by construction (one pass per line; a compiled scan finds where sentences
    may end), and a property test holds it to that (``tests/test_fast_paths.py``). :data:`segment_text` is this
    function, or its compiled twin when the ``_speedups`` extension was built."""
    out: list[Statement] = []
    n = len(text)
    pos = 0
    fence: str | None = None
    fence_start = fence_line = 0
    sources = 0
    sources_heading = -1
    find = text.find
    finals = _finals(text)
    while pos < n:
        ls = pos
        nl = find("\n", pos)
        if nl < 0:
            le = pos = n
        else:
            le = nl - 1 if nl > ls and text[nl - 1] == "\r" else nl
            pos = nl + 1
        if fence is not None:
            m = _FENCE.match(text, ls, le)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not text[m.end():le].strip():
                out.append(_new(Statement, (fence_start, le, _CODE, fence_line, -1)))
                fence = None
            continue
        cs = ls
        while cs < le and text[cs] in " \t":
            cs += 1
        if cs == le:
            if sources == 2:
                sources = 0
            continue
        first = text[cs]
        kind: str | None
        if first.isalpha() and not _names_sources(text, cs):
            kind = None
        else:
            m = _LINE.match(text, ls, le)
            kind = m.lastgroup if m is not None else None
            if kind == "fence":
                fence, fence_start, fence_line = text[cs:m.end()], cs, ls  # type: ignore[union-attr]
                sources = 0
                continue
        end = le
        while end > cs and text[end - 1] in " \t\r":
            end -= 1
        if kind is None and not sources:
            _sentences_of(text, cs, end, ls, groups, out, finals)
        elif kind == "sources_heading":
            out.append(_new(Statement, (cs, end, _HEADING, ls, cs)))
            sources, sources_heading = 1, cs
        elif kind == "heading" or kind == "bold":
            out.append(_new(Statement, (cs, end, _HEADING, ls, -1)))
            sources = 0
        elif sources:
            out.append(_new(Statement, (cs, end, _SOURCE, ls, sources_heading)))
            sources = 2
        elif kind == "sources_inline":
            out.append(_new(Statement, (cs, end, _SOURCE, ls, -1)))
        elif kind == "item":
            out.append(_new(Statement, (cs, end, _ITEM, ls, -1)))
        else:
            _sentences_of(text, cs, end, ls, groups, out, finals)
    if fence is not None:
        end = n
        while end > fence_start and text[end - 1].isspace():
            end -= 1
        out.append(_new(Statement, (fence_start, end, _CODE, fence_line, -1)))
    return out


def _curly(text: str, a: int, b: int, open_: int) -> int:
    """Whether a curly quotation is open after ``text[a:b]`` (1 or 0), ``open_`` before it: as the quote check pairs
    them, a “ is open until a ” follows it (a ” before a “ closes nothing of it)."""
    last_open, last_close = text.rfind("“", a, b), text.rfind("”", a, b)
    if last_open > last_close:
        return 1
    return 0 if last_close >= 0 else open_


def _sentences_of(
    text: str, cs: int, le: int, ls: int, groups: dict[int, int], out: list[Statement], finals: list[int]
) -> None:
    """:func:`_sentences` of a complete line, with the marker groups ``groups``."""
    start = cs
    quotes = text.find('"', cs, le) >= 0 or text.find("“", cs, le) >= 0
    scanned = cs
    straight = curly = 0
    t_end = cs
    k = bisect_left(finals, cs)
    nf = len(finals)
    while k < nf:
        t_start = finals[k]
        k += 1
        if t_start >= le:
            break
        if t_start < t_end or t_start < start:
            continue
        t_end = t_start + 1
        while t_end < le and text[t_end] in _FINAL:
            t_end += 1
        while t_end < le and text[t_end] in _CLOSERS:
            t_end += 1
        if t_end == le:
            if quotes:
                straight += text.count('"', scanned, t_end)
                curly = _curly(text, scanned, t_end, curly)
                if straight % 2 or curly > 0:
                    break
            out.append(_new(Statement, (start, t_end, _SENTENCE, ls, -1)))
            return
        c = text[t_end]
        if c.isalnum() or c == "_":
            continue  # a decimal, a version, a URL: no sentence ends here
        if quotes:
            straight += text.count('"', scanned, t_end)
            curly = _curly(text, scanned, t_end, curly)
            scanned = t_end
            if straight % 2 or curly > 0:
                continue  # inside a quotation
        j = t_end
        while j < le and text[j].isspace():
            j += 1
        if j == le:
            out.append(_new(Statement, (start, t_end, _SENTENCE, ls, -1)))
            return
        end = groups.get(j, le + 1)
        if end > le:
            if j == t_end or text[j].islower():
                continue
            if t_end - t_start == 1 and text[t_start] == "." and (
                    (t_start >= 2 and text[t_start - 2] == ".")
                    or text[max(t_start - 8, 0):t_end].lower().endswith(_ABBREVIATION_ENDINGS)) \
                    and _is_abbreviation(text, t_start):
                continue  # (the test before _is_abbreviation only saves time: see _ABBREVIATION_ENDINGS)
            out.append(_new(Statement, (start, t_end, _SENTENCE, ls, -1)))
            start = scanned = j
        else:
            while True:  # markers after the final punctuation belong to the sentence
                i = end
                while i < le and text[i].isspace():
                    i += 1
                if i == le:
                    out.append(_new(Statement, (start, end, _SENTENCE, ls, -1)))
                    return
                more = groups.get(i, le + 1)
                if more > le:
                    break
                end = more
            if i == end:
                continue  # the markers are followed by more of the sentence
            out.append(_new(Statement, (start, end, _SENTENCE, ls, -1)))
            start = scanned = i
        straight = curly = 0
    if start < le:
        kind = _SENTENCE
        if text[le - 1] == ":" and len(_WORDS.findall(text, start, le)) <= 8:
            kind = _HEADING
        out.append(_new(Statement, (start, le, kind, ls, -1)))


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the period at ``dot`` closes an abbreviation such as "e.g.", "Dr." or "U.S."."""
    low = max(dot - 24, 0)  # abbreviations are short: never look further back (a long line must stay linear)
    k = max(text.rfind(" ", low, dot), text.rfind("\t", low, dot), text.rfind("\n", low, dot),
            text.rfind("\u00a0", low, dot))
    if k < 0 and low > 0:
        return False
    word = text[k + 1:dot + 1].lstrip("(\"“'‘[")
    if word.lower() in _ABBREVIATIONS:
        return True
    return dot >= 2 and text[dot - 2] == "." and _DOTTED_ACRONYM.fullmatch(word) is not None



def _compiled_segment_text() -> Callable[[str, dict[int, int]], list[Statement]]:
    """The compiled :func:`segment_text_py`, when the fast paths are there."""
    if _SPEEDUPS is None:
        return segment_text_py
    _SPEEDUPS.configure(Statement, (Kind.SENTENCE, Kind.ITEM, Kind.HEADING, Kind.SOURCE, Kind.CODE), _LINE, _FENCE,
                        _WORDS, _is_abbreviation, _ABBREVIATION_ENDINGS)
    return _SPEEDUPS.segment_text  # type: ignore[no-any-return]


segment_text = _compiled_segment_text()
"""The statements of a complete text: :func:`segment_text_py`, compiled when it could be (the same results)."""

_GREETINGS = regex.compile(
    r"(?:hi|hello|hey|greetings|dear|thanks|thank\s+you|many\s+thanks|sure|certainly|absolutely|of\s+course|ok|okay"
    r"|you(?:'|’)?re\s+welcome|you\s+are\s+welcome|glad\s+to\s+help|happy\s+to\s+help|hope\s+(?:this|that)\s+helps"
    r"|cheers|regards|best\s+regards|kind\s+regards|best\s+wishes|bye|goodbye|good\s+(?:morning|afternoon|evening)"
    r"|here\s+you\s+go|here\s+it\s+is|no\s+problem|great\s+question|good\s+question)\b",
    regex.IGNORECASE,
)


def is_exempt(text: str, st: Statement, marker_spans: list[tuple[int, int]]) -> bool:
    """Whether a statement never needs a citation: headings, Sources lines, code, questions, short greetings and
    sign-offs (at most four words), and statements with no word character outside citation markers."""
    kind = st.kind
    if kind is not _SENTENCE and kind is not _ITEM:
        return True
    body = without_spans(text, st.start, st.end, marker_spans)
    if body.rstrip().rstrip("\"'”’»)]*_ ").endswith("?"):
        return True
    if kind is _ITEM:
        body = _without_list_marker(body)
    if len(body.split(None, 4)) <= 4 and _GREETINGS.match(body.lstrip(" *_\"“")) is not None:
        return True
    first = body.lstrip()[:1]
    if first.isascii() and (first.isalnum() or first == "_"):
        return False  # a word character: what _WORDS finds (the usual case, without the regex)
    return _WORDS.search(body) is None


_LIST_MARKER = regex.compile(r"^[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+")


def _without_list_marker(body: str) -> str:
    """``body`` without the list marker it starts with (what ``_LIST_MARKER`` takes away); a bullet, or no marker
    at all, seen without the regex (the usual items)."""
    rest = body.lstrip(" \t")
    c = rest[:1]
    if c in ("-", "*", "+", "•"):
        after = rest[1:]
        words = after.lstrip(" \t")
        return words if len(words) < len(after) else body
    if c.isascii() and not c.isdigit():
        return body
    return _LIST_MARKER.sub("", body, count=1)


def _without_spans_py(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    if start == 0 and end == len(text):
        if not spans:
            return text
        pieces = []
        pos = 0
        for a, b in spans:
            pieces.append(text[pos:a])
            pos = b
        pieces.append(text[pos:])
        return "".join(pieces)
    return _without_markers(text, start, end, spans)


without_spans: Callable[[str, int, int, list[tuple[int, int]]], str] = \
    _SPEEDUPS.without_spans if _SPEEDUPS is not None else _without_spans_py
"""``text[start:end]`` with the sorted, disjoint ``spans`` (citation marker groups) that start in it taken out
(:func:`_without_spans_py`, compiled when it could be: the same results)."""


def _without_markers(text: str, start: int, end: int, marker_spans: list[tuple[int, int]]) -> str:
    parts = []
    pos = start
    for a, b in marker_spans[bisect_right(marker_spans, (start, -1)):]:
        if a >= end:
            break
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:end])
    return "".join(parts)


def has_substance(text: str, st: Statement, marker_spans: list[tuple[int, int]]) -> bool:
    """Whether a statement is worth sending on its own: code, or a statement that is not exempt."""
    return st.kind is Kind.CODE or not is_exempt(text, st, marker_spans)
