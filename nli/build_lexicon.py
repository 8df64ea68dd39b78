"""Write ``guardrail/data/lexicon.tsv.gz``: the word relations the ``lexical`` judge reads paraphrase with.

Built from WordNet 3.0 as Debian's ``wordnet-base`` package installs it (``apt-get install wordnet-base``); the
judge only reads the file this writes, so nothing is needed at run time. For each word of WordNet (single words,
letters and hyphens only), keyed by the judge's own stem of it:

- its *concepts*: the synsets of its three most frequent senses in each part of speech, and the synsets its
  derivational links in those senses lead to (``approve`` -> ``approval``, ``resolve`` -> ``resolution``) and an
  adjective's pertainyms (``annual`` -> ``year``); two words that share a concept are read as saying the same thing;
- its *broader* concepts: the direct hypernyms of those senses (``guest`` -> ``visitor``, ``lunch`` -> ``meal``);
- its *antonyms* in those senses, as stems (``include`` -> ``exclud``, ``accept`` -> ``refus``, ``reject``).

Concepts that no two words share (and that no word has as a broader one) are dropped, and the rest numbered
densely, so the file holds only what can relate two words. Deterministic: running it twice writes the same bytes.

    python nli/build_lexicon.py [WORDNET_DIR]     # default /usr/share/wordnet

WordNet's licence asks that its notice travel with every copy: the file's first lines carry it.
"""

from __future__ import annotations

import gzip
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from guardrail.judges.lexical import _SYNONYM_GROUPS, _stem, _stem_uncached  # the keys are the judge's stems

SENSES = 3  # the most frequent senses a word keeps, per part of speech
PARTS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
OUT = Path(__file__).resolve().parent.parent / "guardrail" / "data" / "lexicon.tsv.gz"
NOTICE = """\
# Word relations for guardrail's lexical judge, derived from WordNet 3.0 by nli/build_lexicon.py.
# Format: stem TAB concepts TAB broader concepts (space-separated integers) TAB antonyms (stems).
#
# WordNet Release 3.0. This software and database is being provided to you, the LICENSEE, by Princeton University
# under the following license. By obtaining, using and/or copying this software and database, you agree that you
# have read, understood, and will comply with these terms and conditions.: Permission to use, copy, modify and
# distribute this software and database and its documentation for any purpose and without fee or royalty is hereby
# granted, provided that you agree to comply with the following copyright notice and statements, including the
# disclaimer, and that the same appear on ALL copies of the software, database and documentation, including
# modifications that you make for internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton
# University. All rights reserved. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY
# MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
# OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS,
# TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton may not be used in advertising or
# publicity pertaining to distribution of the software and/or database. Title to copyright in this software,
# database and any associated documentation shall at all times remain with Princeton University and LICENSEE agrees
# to preserve same.
"""

Synset = tuple[list[str], list[tuple[str, str, int, int]]]  # its words; pointers (symbol, target, source, target word)


def _synsets(root: Path) -> dict[str, Synset]:
    """Every synset by "OFFSETp": its lower-case words and its pointers."""
    out: dict[str, Synset] = {}
    for name, part in PARTS.items():
        for line in (root / f"data.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):  # the licence header
                continue
            fields = line.split(" | ")[0].split()
            count = int(fields[3], 16)
            words = [fields[4 + 2 * i].lower().split("(")[0] for i in range(count)]
            i = 4 + 2 * count
            pointers = []
            for _ in range(int(fields[i])):
                symbol, target, target_part, source_target = fields[i + 1:i + 5]
                i += 4
                pointers.append((symbol, target + ("a" if target_part == "s" else target_part),
                                 int(source_target[:2], 16), int(source_target[2:], 16)))
            out[fields[0] + part] = (words, pointers)
    return out


def _senses(root: Path) -> dict[str, list[str]]:
    """Each lemma's synsets, most frequent first, at most ``SENSES`` a part of speech."""
    out: dict[str, list[str]] = defaultdict(list)
    for name, part in PARTS.items():
        for line in (root / f"index.{name}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            fields = line.split()
            offsets = fields[6 + int(fields[3]):]
            out[fields[0]] += [offset + part for offset in offsets[:SENSES]]
    return out


_HEADS = {group.split()[0] for group in _SYNONYM_GROUPS}


def build(root: Path) -> str:
    synsets, senses = _synsets(root), _senses(root)
    own: dict[str, set[str]] = defaultdict(set)
    broader: dict[str, set[str]] = defaultdict(set)
    opposite: dict[str, set[str]] = defaultdict(set)
    for lemma, offsets in senses.items():
        if len(lemma) < 3 or not lemma.replace("-", "").isalpha():
            continue
        stem = _stem(lemma)
        if stem != _stem_uncached(lemma) and lemma not in _HEADS:
            continue  # a member of one of the judge's own synonym groups: the group's first word speaks for it
        for offset in offsets:
            own[stem].add(offset)
            words, pointers = synsets[offset]
            for symbol, target, source, target_word in pointers:
                if symbol == "+" and (source == 0 or words[source - 1] == lemma):
                    own[stem].add(target)  # derivationally related: approve / approval
                elif symbol == "\\" and (source == 0 or words[source - 1] == lemma):
                    own[stem].add(target)  # pertainym: annual / year
                elif symbol in ("@", "@i"):
                    broader[stem].add(target)
                elif symbol == "!" and source and words[source - 1] == lemma:
                    other = synsets[target][0][target_word - 1]
                    if other.replace("-", "").isalpha() and _stem(other) != stem:
                        opposite[stem].add(_stem(other))
                        opposite[_stem(other)].add(stem)
    shared: dict[str, int] = defaultdict(int)
    for concepts in own.values():
        for c in concepts:
            shared[c] += 1
    is_broader = {c for concepts in broader.values() for c in concepts}
    keep = {c for c, n in shared.items() if n >= 2 or c in is_broader}
    numbers: dict[str, int] = {}

    def numbered(concepts: set[str], wanted: set[str] | dict[str, int]) -> str:
        return " ".join(str(n) for n in sorted(numbers.setdefault(c, len(numbers))
                                               for c in sorted(concepts) if c in wanted))

    lines = []
    for stem in sorted(own.keys() | opposite.keys()):
        a = numbered(own.get(stem, set()), keep)
        b = numbered(broader.get(stem, set()), shared)
        c = " ".join(sorted(opposite.get(stem, ())))
        if a or b or c:
            lines.append(f"{stem}\t{a}\t{b}\t{c}\n")
    return NOTICE + "".join(lines)


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet")
    text = build(root)
    with OUT.open("wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
        z.write(text.encode())
    print(f"wrote {OUT} ({text.count(chr(10)) - NOTICE.count(chr(10))} stems, {OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
