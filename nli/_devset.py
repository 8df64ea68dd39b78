"""What the development-set builders here share: writing and reading their JSON lines, the checks every set passes
(the shape of ``pairs.jsonl``: fields, labels, slices and their id prefixes, the perturbation groups), the table of
labels by slice, and the command line (no flag: write; ``--check``; ``--stats``). Each builder adds the checks of
its own design."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

E, N, C = "entailment", "neutral", "contradiction"
FIELDS = {"id", "premise", "hypothesis", "label", "slice"}
Row = dict[str, Any]


def write(path: Path, rows: Iterable[Row]) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def load(path: Path) -> list[Row]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def replace_once(text: str, old: str, new: str, where: str) -> str:
    """``text`` with its one occurrence of ``old`` replaced (a flip of one fact); a builder error if not once."""
    if text.count(old) != 1:
        raise SystemExit(f"{where}: {old!r} occurs {text.count(old)} times")
    return text.replace(old, new)


def errors(rows: list[Row], prefix: dict[str, str]) -> list[str]:
    """What breaks the shape every set has. ``prefix`` maps each slice (``perturbation`` too) to its id prefix."""
    out: list[str] = []
    ids: set[str] = set()
    groups: dict[str, list[Row]] = {}
    for r in rows:
        rid = r.get("id", "?")
        extra = {"group", "perturbation"} if r.get("slice") == "perturbation" else set()
        if not FIELDS <= set(r) <= FIELDS | extra:
            out.append(f"{rid}: fields {sorted(r)}")
        for k in sorted(FIELDS):
            if not isinstance(r.get(k), str) or not r.get(k).strip():
                out.append(f"{rid}: empty or non-string {k}")
        if rid in ids:
            out.append(f"{rid}: duplicate id")
        ids.add(rid)
        if r.get("label") not in (E, N, C):
            out.append(f"{rid}: bad label {r.get('label')!r}")
        s = r.get("slice")
        if s not in prefix:
            out.append(f"{rid}: bad slice {s!r}")
            continue
        if not str(rid).startswith(prefix[s] + "-"):
            out.append(f"{rid}: id prefix does not match slice {s}")
        if s in ("distractor", "added_specifics") and r.get("label") == C:
            out.append(f"{rid}: no contradictions in {s}")
        if s == "multi_passage" and str(r.get("premise")).count("\n\n") != 1:
            out.append(f"{rid}: multi_passage premise needs exactly one blank line")
        if s == "perturbation":
            if "group" not in r:
                out.append(f"{rid}: perturbation row without a group")
            else:
                groups.setdefault(r["group"], []).append(r)
    for gid, members in groups.items():
        bases = [m for m in members if "perturbation" not in m]
        orders = [m for m in members if m.get("perturbation") == "order"]
        flips = [m for m in members if m.get("perturbation") == "flip"]
        if len(bases) + len(orders) + len(flips) != len(members):
            out.append(f"{gid}: unknown perturbation kind")
        if len(bases) != 1 or bases[0]["id"] != gid:
            out.append(f"{gid}: needs exactly one base whose id is the group id")
            continue
        base = bases[0]
        if base["label"] != E:
            out.append(f"{gid}: base must be entailment")
        if len(orders) != 1:
            out.append(f"{gid}: needs exactly one order variant")
        for o in orders:
            if o["label"] != E or o["hypothesis"] != base["hypothesis"] or o["premise"] == base["premise"] \
                    or sorted(o["premise"]) != sorted(base["premise"]):
                out.append(f"{o['id']}: an order variant keeps the hypothesis, the characters and the label")
        if not 1 <= len(flips) <= 2:
            out.append(f"{gid}: needs one or two flips")
        for f in flips:
            if f["label"] == E:
                out.append(f"{f['id']}: a flip is not entailment")
            if f["premise"] == base["premise"] and f["hypothesis"] == base["hypothesis"]:
                out.append(f"{f['id']}: flip changes nothing")
    return out


def table(rows: list[Row], slices: Iterable[str]) -> str:
    """Labels by slice, as a Markdown table, and the share of entailment."""
    counts: dict[str, Counter[str]] = {}
    for r in rows:
        counts.setdefault(r["slice"], Counter())[r["label"]] += 1
    lines = ["| slice | entailment | neutral | contradiction | total |", "|---|---:|---:|---:|---:|"]
    total: Counter[str] = Counter()
    for s in slices:
        c = counts.get(s, Counter())
        total.update(c)
        lines.append(f"| {s} | {c[E]} | {c[N]} | {c[C]} | {sum(c.values())} |")
    n = sum(total.values())
    lines.append(f"| **all** | **{total[E]}** | **{total[N]}** | **{total[C]}** | **{n}** |")
    lines.append(f"{100 * total[E] / n:.1f} % entailment")
    return "\n".join(lines)


def main(argv: list[str], path: Path, build: Callable[[], list[Row]], prefix: dict[str, str],
         own: Callable[[list[Row]], list[str]] = lambda rows: []) -> int:
    """A builder's command line: write ``path`` from ``build()``; ``--check`` it (the shared checks, the builder's
    ``own``, and that the file is what the builder writes); ``--stats``."""
    if "--check" in argv:
        rows = load(path)
        problems = errors(rows, prefix) + own(rows)
        if rows != build():
            problems.append(f"{path.name} is out of date: run {Path(sys.argv[0]).name} without flags")
        for p in problems:
            print(p)
        print(f"{len(rows)} rows, {len(problems)} problems")
        return 1 if problems else 0
    if "--stats" in argv:
        print(table(load(path), prefix))
        return 0
    rows = build()
    write(path, rows)
    print(f"wrote {len(rows)} rows to {path}")
    return 0
