"""``guardrail report``: the monitor's results as a text table, one JSON object, or a self-contained HTML page.

The numbers are :func:`guardrail.metrics.summarize` over the stored turns (status ``ok``); errors are the samples
stored with status ``error``; the judge is the one (or ones) that produced the results. The HTML page needs no
network: the chart of the daily citation recall with its Wilson band is inline SVG.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..metrics import DECISIONS, summarize, table

if TYPE_CHECKING:
    from .results import ResultsStore


def parse_day(text: str, end: bool = False) -> float:
    """``YYYY-MM-DD`` (or an ISO time) as epoch seconds, UTC; ``end``: the start of the next day for a bare date."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not a date: {text!r} (expected YYYY-MM-DD)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    stamp = moment.timestamp()
    if end and len(text) == 10:
        stamp += 86_400
    return stamp


def build_report(store: ResultsStore, policy: str | None = None, since: float | None = None,
                 until: float | None = None) -> dict[str, Any]:
    """The report's JSON object (CONTRACT section 8.5) over what ``store`` holds."""
    turns = store.summaries(policy, since, until)
    judges = store.judges(policy, since, until)
    if len(judges) == 1:
        judge = {"name": judges[0][0], "version": judges[0][1]}
    else:
        judge = {"name": ", ".join(sorted({n for n, _ in judges})) or "none",
                 "version": ", ".join(f"{n} {v}" for n, v in judges)}
    report = summarize(turns, judge, errors=store.errors(policy, since, until))
    report["judges"] = [{"name": n, "version": v} for n, v in judges]
    return report


def text_report(report: Mapping[str, Any]) -> str:
    """The table of every metric, then one line a policy and one line a day for citation recall and the
    decisions."""
    lines = [table(report)]
    for key, heading in (("by_policy", "policy"), ("by_day", "day")):
        groups = report.get(key) or {}
        if not groups:
            continue
        width = max(12, *(len(name) for name in groups))
        lines += ["", f"{heading:{width}s} {'turns':>6s} {'citation_recall':>16s}  95% interval      "
                      + " ".join(f"{d:>8s}" for d in DECISIONS)]
        for name, entry in groups.items():
            m = entry["metrics"]
            r = m["citation_recall"]
            rate = "-" if r["rate"] is None else f"{r['rate']:.3f}"
            turns = m["decision.pass"]["n"]
            decisions = " ".join(f"{m['decision.' + d]['k']:8d}" for d in DECISIONS)
            lines.append(f"{name:{width}s} {turns:6d} {rate:>16s}  [{r['low']:.3f}, {r['high']:.3f}]  {decisions}")
    if report.get("labels"):
        lines += ["", "top labels: " + ", ".join(f"{k} {v}" for k, v in list(report["labels"].items())[:8])]
    return "\n".join(lines)


def html_report(report: Mapping[str, Any], title: str = "guardrail monitor") -> str:
    """A page that opens offline: the metrics table, the daily support rate with its interval band (inline SVG),
    the decision rates and the top labels."""
    esc = html.escape
    rows = []
    for name, m in report["metrics"].items():
        rate = "&ndash;" if m["rate"] is None else f"{m['rate']:.3f}"
        if m["k"] is None:
            rows.append(f"<tr><td>{esc(name)}</td><td>{m['n']} turns</td><td>{rate}</td><td>macro average</td></tr>")
        else:
            rows.append(f"<tr><td>{esc(name)}</td><td>{m['k']}/{m['n']}</td><td>{rate}</td>"
                        f"<td>[{m['low']:.3f}, {m['high']:.3f}]</td></tr>")
    labels = "".join(f"<li>{esc(k)}: {v}</li>" for k, v in list((report.get("labels") or {}).items())[:10]) \
        or "<li>none</li>"
    judge = report.get("judge") or {}
    decisions = "".join(
        f"<li>{d}: {report['metrics']['decision.' + d]['k']} of {report['metrics']['decision.' + d]['n']}</li>"
        for d in DECISIONS)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
table {{ border-collapse: collapse; }}
td, th {{ padding: .25em .8em; border-bottom: 1px solid #ddd; text-align: left; }}
th {{ background: #f4f4f4; }} .note {{ color: #666; }}
</style></head><body>
<h1>{esc(title)}</h1>
<p class="note">{report['samples']} scored turns, {report['errors']} errors, {report.get('drops', 0)} dropped samples;
judge {esc(str(judge.get('name', '?')))} {esc(str(judge.get('version', '')))}. Rates with 95% Wilson intervals.</p>
<h2>Daily citation recall</h2>
{_chart(report)}
<h2>Metrics</h2>
<table><tr><th>metric</th><th>k/n</th><th>rate</th><th>95% interval</th></tr>
{"".join(rows)}
</table>
<h2>Decisions</h2><ul>{decisions}</ul>
<h2>Top labels</h2><ul>{labels}</ul>
</body></html>
"""


def _chart(report: Mapping[str, Any], width: int = 640, height: int = 220) -> str:
    days = [(day, e["metrics"]["citation_recall"]) for day, e in (report.get("by_day") or {}).items()]
    days = [(d, m) for d, m in days if m["n"]]
    if not days:
        return '<p class="note">No day with scored statements yet.</p>'
    left, right, top, bottom = 40, 10, 10, 30
    w, h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (w * i / (len(days) - 1) if len(days) > 1 else w / 2)

    def y(v: float) -> float:
        return top + h * (1 - v)

    upper = " ".join(f"{x(i):.1f},{y(m['high']):.1f}" for i, (_, m) in enumerate(days))
    lower = " ".join(f"{x(i):.1f},{y(m['low']):.1f}" for i, (_, m) in reversed(list(enumerate(days))))
    line = " ".join(f"{x(i):.1f},{y(m['rate']):.1f}" for i, (_, m) in enumerate(days))
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(m["rate"]):.1f}" r="3"><title>{html.escape(d)}: '
                   f'{m["k"]}/{m["n"]} = {m["rate"]:.3f} [{m["low"]:.3f}, {m["high"]:.3f}]</title></circle>'
                   for i, (d, m) in enumerate(days))
    grid = "".join(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>'
                   f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="11">{v:.1f}</text>'
                   for v in (0.0, 0.25, 0.5, 0.75, 1.0))
    ticks = "".join(f'<text x="{x(i):.1f}" y="{height - 10}" text-anchor="middle" font-size="11">'
                    f'{html.escape(d[5:])}</text>' for i, (d, _) in enumerate(days)
                    if len(days) <= 14 or i % max(len(days) // 10, 1) == 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            f'aria-label="daily citation recall with its 95% Wilson band">{grid}'
            f'<polygon points="{upper} {lower}" fill="#4a7bd0" fill-opacity="0.2"/>'
            f'<polyline points="{line}" fill="none" stroke="#2b59a8" stroke-width="2"/>{dots}{ticks}</svg>')
