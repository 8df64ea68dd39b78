"""Which words say the same thing, or one a broader thing than the other, or the opposite: WordNet's synonyms,
derivations, direct hypernyms and antonyms, as ``nli/build_lexicon.py`` distilled them into
``guardrail/data/lexicon.tsv.gz`` (keyed by the lexical judge's stems). Read on first use, ~63,000 stems; nothing of
WordNet is needed at run time."""

from __future__ import annotations

import gzip
from functools import cache
from importlib.resources import files

_NONE: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())


@cache
def _table() -> dict[str, str]:
    """stem -> its line's two fields, unparsed (most stems are never asked for)."""
    data = gzip.decompress(files("guardrail").joinpath("data", "lexicon.tsv.gz").read_bytes()).decode()
    out: dict[str, str] = {}
    for line in data.splitlines():
        if line and line[0] != "#":
            stem, _, rest = line.partition("\t")
            out[stem] = rest
    return out


@cache
def concepts(stem: str) -> tuple[frozenset[int], frozenset[int]]:
    """A stem's own concepts and its broader ones (both empty for a word WordNet does not relate)."""
    rest = _table().get(stem)
    if rest is None:
        return _NONE
    own, broader, _ = rest.split("\t")
    return frozenset(map(int, own.split())), frozenset(map(int, broader.split()))


@cache
def antonyms(stem: str) -> frozenset[str]:
    """The stems of a stem's antonyms in its frequent senses ("includ" -> {"exclud"})."""
    rest = _table().get(stem)
    return frozenset(rest.rsplit("\t", 1)[1].split()) if rest else frozenset()
