"""The ``guardrail`` command line: ``check``, ``audit``, ``serve``, ``demo``, ``policy validate``, ``nli evaluate``."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections import Counter
from collections.abc import Iterator
from typing import IO, Any, TextIO, cast

from . import __version__
from .exceptions import PolicyError

EXIT_OK, EXIT_FAIL_ON, EXIT_ERROR = 0, 1, 2
_STRICTNESS = {"pass": 0, "modified": 1, "blocked": 2}
_PROGRESS_MIN_LINES = 5000
_AUDIT_PROGRESS_MIN_LINES = 200  # scoring is slower than checking: a bar is worth it sooner


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``guardrail`` command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):  # a command that needs an action, given none: its own help
        getattr(args, "help_of", parser).print_help(sys.stderr)
        return EXIT_ERROR
    try:
        return int(args.run(args))
    except PolicyError as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guardrail", description="Guard LLM chat outputs against a policy.")
    parser.add_argument("--version", action="version", version=f"guardrail {__version__}")
    commands = parser.add_subparsers(metavar="COMMAND")

    check = commands.add_parser("check", help="check JSONL records of outputs against a policy")
    check.add_argument("--policy", required=True, help="the policy file (YAML)")
    check.add_argument("input", nargs="?", default="-", help="JSONL input file, or - for stdin (the default)")
    check.add_argument("--output", "-o", default="-", help="JSONL output file (default: stdout)")
    check.add_argument("--fail-on", choices=["modified", "blocked"],
                       help="exit with status 1 when any record reaches this decision or a stricter one")
    check.set_defaults(run=_check)

    audit = commands.add_parser(
        "audit", help="check and score JSONL records offline: citation support with intervals, as a release gate",
        description="Check every record against the policy and score its citation support with an NLI judge "
                    "(ALCE recall and precision, per-citation verdicts); a summary with 95% Wilson intervals goes "
                    "to stderr, and --gate expressions decide the exit status (1 when one fails, 2 for malformed "
                    "lines or gates).")
    audit.add_argument("--policy", required=True, help="the policy file (YAML)")
    audit.add_argument("--judge", default="lexical", metavar="J",
                       help="lexical (the default, built in), onnx:DIR or llm:URL?model=NAME")
    audit.add_argument("input", nargs="?", default="-", help="JSONL input file, or - for stdin (the default)")
    audit.add_argument("--output", "-o", default="-", help="JSONL output file (default: stdout)")
    audit.add_argument("--summary", metavar="FILE.json", help="also write the summary as JSON (report --json shape)")
    audit.add_argument("--gate", action="append", default=[], metavar="EXPR",
                       help="METRIC[.FIELD] OP NUMBER, e.g. 'citation_recall.low>=0.8'; repeatable, all must hold")
    audit.add_argument("--workers", type=_at_least_one, default=1, metavar="N",
                       help="judge in N processes (threads for an llm judge); results stay in input order")
    audit.set_defaults(run=_audit)

    serve = commands.add_parser(
        "serve", help="run the OpenAI-compatible guarding proxy in front of a model server",
        description="Run the OpenAI-compatible guarding proxy. POST /v1/chat/completions is guarded; every other path "
                    "under /v1/ is forwarded to the upstream unguarded. Callers must send Authorization: Bearer "
                    "$GUARDRAIL_API_KEY (required, not blank); the upstream gets $GUARDRAIL_UPSTREAM_API_KEY, if set.")
    serve.add_argument("--policy", required=True, help="the policy file (YAML)")
    serve.add_argument("--upstream", required=True, help="the model server's base URL, e.g. http://127.0.0.1:8000/v1")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8080, help="the port to listen on (default: %(default)s)")
    serve.add_argument("--max-connections", type=_at_least_one, default=1000, metavar="N",
                       help="at most N requests in flight to the upstream at once; more wait for a free connection "
                            "(default: %(default)s)")
    serve.add_argument("--timeout", type=_seconds, default=120.0, metavar="SECONDS",
                       help="how long to wait for the upstream's next bytes, or for a free connection, before "
                            "answering 504 (or 503); connecting takes at most 10 s (default: %(default)g)")
    serve.set_defaults(run=_serve)

    worker = commands.add_parser(
        "worker", help="score sampled turns from the queue into the results store (citation support)",
        description="Lease samples from the queue in batches, score their citation support with the judge and "
                    "store the results (each sample exactly once). SIGTERM finishes the batch in flight and exits 0.")
    worker.add_argument("--queue", default="sqlite:///.guardrail/queue.db", metavar="URL",
                        help="memory://, sqlite:///PATH or redis://HOST:PORT/DB (default: %(default)s)")
    worker.add_argument("--results", default="sqlite:///.guardrail/results.db", metavar="URL",
                        help="sqlite:///PATH or postgresql://... (default: %(default)s)")
    worker.add_argument("--judge", default="lexical", metavar="J", help="lexical (default), onnx:DIR or llm:URL")
    worker.add_argument("--batch", type=_at_least_one, default=32, metavar="N", help="samples a batch (default 32)")
    worker.add_argument("--lease", type=_seconds, default=60.0, metavar="SECONDS",
                        help="visibility timeout: a sample leased this long by a worker that died is delivered "
                             "again (default: %(default)g)")
    worker.add_argument("--once", action="store_true", help="drain the queue, then exit")
    worker.set_defaults(run=_worker)

    report = commands.add_parser(
        "report", help="the monitor's rates with 95%% intervals, per policy and per day; release gates",
        description="Report every metric as k/n, rate and 95% Wilson interval from the results store; --gate "
                    "expressions set the exit status (1 when one fails, 2 when one is malformed).")
    report.add_argument("--results", default="sqlite:///.guardrail/results.db", metavar="URL",
                        help="sqlite:///PATH or postgresql://... (default: %(default)s)")
    report.add_argument("--policy", metavar="NAME", help="only this policy")
    report.add_argument("--since", metavar="DATE", help="from this day (YYYY-MM-DD, UTC), inclusive")
    report.add_argument("--until", metavar="DATE", help="up to this day (YYYY-MM-DD, UTC), inclusive")
    report.add_argument("--json", action="store_true", help="print one JSON object")
    report.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page")
    report.add_argument("--gate", action="append", default=[], metavar="EXPR",
                        help="METRIC[.FIELD] OP NUMBER, e.g. 'citation_recall.low>=0.8'; repeatable, all must hold")
    report.set_defaults(run=_report)

    demo = commands.add_parser("demo", help="run the guarded demo chat endpoint on recorded conversations")
    demo.set_defaults(run=_demo)

    policy = commands.add_parser("policy", help="work with policy files")
    policy.set_defaults(help_of=policy)
    policy_commands = policy.add_subparsers(metavar="ACTION")
    validate = policy_commands.add_parser("validate", help="load and compile a policy file, report what is wrong")
    validate.add_argument("path")
    validate.set_defaults(run=_validate)

    nli = commands.add_parser("nli", help="work with NLI judges")
    nli.set_defaults(help_of=nli)
    nli_commands = nli.add_subparsers(metavar="ACTION")
    evaluate = nli_commands.add_parser("evaluate", help="measure a judge on labelled claim/passage pairs")
    evaluate.add_argument("--backend", default="lexical", metavar="J",
                          help="lexical (the default), onnx:DIR or llm:URL?model=NAME")
    evaluate.add_argument("--pairs", required=True, help='JSONL of {"premise", "hypothesis", "label", "slice"?}')
    evaluate.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    evaluate.set_defaults(run=_nli_evaluate)
    return parser


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0 seconds, not {text}")
    return value


def _serve(args: argparse.Namespace) -> int:
    import os

    key = os.environ.get("GUARDRAIL_API_KEY", "")
    if not key.strip():
        state = "is blank" if key else "is not set"  # (an empty variable counts as not set, as in most shells)
        print(f"guardrail: GUARDRAIL_API_KEY {state}: the proxy refuses to start without a key, because it trusts the "
              "roles its callers send; set it to a secret the calling application presents as its API key",
              file=sys.stderr)
        return EXIT_ERROR
    import uvicorn

    from ._log import configure_cli_logging
    from .guard import Guard
    from .proxy import create_proxy
    from .telemetry import configure_from_env

    configure_cli_logging()
    configure_from_env("guardrail-serve")
    guard = Guard.from_policy(args.policy)
    try:
        app = create_proxy(guard, args.upstream, api_key=key,
                           upstream_api_key=os.environ.get("GUARDRAIL_UPSTREAM_API_KEY") or None,
                           max_connections=args.max_connections, timeout=args.timeout)
    except ValueError as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(f"guardrail: guarding {args.upstream} with policy {guard.policy.name!r} on http://{args.host}:{args.port} "
          f"(at most {args.max_connections} upstream connections, timeout {args.timeout:g} s)", file=sys.stderr)
    # uvicorn shuts down gracefully on SIGTERM (the lifespan flushes samples and telemetry), then raises the signal
    # again with the handler it found: a handler that ignores it lets the process end normally, atexit and all.
    import gc
    import signal

    # What is loaded now (the modules, the compiled policy, its term automaton) lives as long as the process: out of
    # the cyclic collector's passes, which otherwise walk it again and again (a few per cent of a check's time).
    gc.collect()
    gc.freeze()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        signal.signal(signal.SIGTERM, previous)
    return EXIT_OK


def _parse_gates(texts: list[str]) -> list[Any] | None:
    """The gates, checked against the metric names; None after reporting a malformed one."""
    from .metrics import METRIC_NAMES
    from .stats import Gate, GateError

    try:
        gates = [Gate.parse(text) for text in texts]
        for gate in gates:
            if gate.metric not in METRIC_NAMES:
                raise GateError(f"unknown metric {gate.metric!r} in gate {gate.text!r}; known: "
                                + ", ".join(METRIC_NAMES))
    except GateError as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return None
    return gates


def _worker(args: argparse.Namespace) -> int:
    import signal

    from . import telemetry
    from ._log import configure_cli_logging
    from .judges import JudgeError, load_judge
    from .monitor.queues import QueueError, open_queue
    from .monitor.results import ResultsError, open_results
    from .monitor.worker import Worker

    configure_cli_logging()
    telemetry.configure_from_env("guardrail-worker")
    try:
        judge = load_judge(args.judge)
        queue = open_queue(args.queue)
        results = open_results(args.results)
    except (JudgeError, QueueError, ResultsError) as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    shown = sys.stderr.isatty()

    def progress(w: Worker) -> None:
        if shown:
            s = w.stats
            sys.stderr.write(f"\rscored {s.scored}, errors {s.errors}, retried {s.retried}   ")
            sys.stderr.flush()

    worker = Worker(queue, results, judge, batch=args.batch, lease=args.lease, on_batch=progress)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: worker.stop())
    print(f"guardrail: worker on {queue.url} -> {results.url} (judge {judge.name} {judge.version})"
          + (", draining once" if args.once else ""), file=sys.stderr)
    try:
        stats = worker.run(once=args.once)
    except QueueError as exc:
        print(f"\nguardrail: the queue failed: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        signal.signal(signal.SIGTERM, previous)
        queue.close()
        results.close()
        telemetry.flush()
    if shown:
        sys.stderr.write("\n")
    print(f"guardrail: scored {stats.scored} samples, {stats.errors} errors, {stats.retried} retried",
          file=sys.stderr)
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from .metrics import gated
    from .monitor.report import build_report, html_report, parse_day, text_report
    from .monitor.results import ResultsError, open_results
    from .stats import check_gates

    gates = _parse_gates(args.gate)
    if gates is None:
        return EXIT_ERROR
    try:
        since = parse_day(args.since) if args.since else None
        until = parse_day(args.until, end=True) if args.until else None
        if args.results.lower().startswith("sqlite:"):  # a reader makes no store: a mistyped path is an error
            from .monitor.results._sqlite import parse_sqlite_url

            path = parse_sqlite_url(args.results)
            if not path.exists():
                raise ResultsError(f"no results store at {path} (nothing scored there yet, or a mistyped --results)")
        store = open_results(args.results)
    except (ValueError, ResultsError) as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        report = build_report(store, args.policy, since, until)
        if args.policy and not report["samples"] and not report["errors"]:
            known = sorted(build_report(store, None, since, until)["by_policy"])
            print(f"guardrail: no results for policy {args.policy!r}"
                  + (f" (policies in the store: {', '.join(known)})" if known else ""), file=sys.stderr)
    finally:
        store.close()
    print(json.dumps(report, indent=2) if args.json else text_report(report))
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as fh:
                fh.write(html_report(report))
        except OSError as exc:
            print(f"guardrail: cannot write {args.html}: {exc.strerror}", file=sys.stderr)
            return EXIT_ERROR
    failures = check_gates(gates, gated(report["metrics"]))
    for failure in failures:
        print(f"guardrail: {failure}", file=sys.stderr)
    return EXIT_FAIL_ON if failures else EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo
    from .telemetry import configure_from_env

    configure_from_env("guardrail-demo")
    return run_demo()


def _validate(args: argparse.Namespace) -> int:
    from .guard import Guard

    guard = Guard.from_policy(args.path)
    # (each check once: rules and the section's own instructions are both the instructions check)
    names = ", ".join(dict.fromkeys(check.name for check in guard.compiled.checks)) or "none"
    print(f"{args.path}: valid policy {guard.policy.name!r} (checks: {names})")
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from .audit import check_record, gold_row
    from .guard import Guard
    from .metrics import TurnSummary

    guard = Guard.from_policy(args.policy)
    opened = _open(args)
    if opened is None:
        return EXIT_ERROR
    source, sink = opened
    total = _count_lines(args.input) if args.input != "-" and sys.stderr.isatty() else 0
    progress = _Progress(total) if total > _PROGRESS_MIN_LINES else None
    decisions: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    turns: list[TurnSummary] = []
    bad = 0
    worst = -1
    try:
        for lineno, record in _records(source, progress):
            if isinstance(record, str):
                print(f"line {lineno}: {record}", file=sys.stderr)
                bad += 1
                continue
            try:
                verdict, offline = check_record(guard, record)
            except RecursionError:
                print(f"line {lineno}: a field is nested too deep", file=sys.stderr)
                bad += 1
                continue
            except (TypeError, ValueError) as exc:
                print(f"line {lineno}: {exc}", file=sys.stderr)
                bad += 1
                continue
            decisions[verdict.decision.value] += 1
            labels.update(f.label.value for f in verdict.findings)
            worst = max(worst, _STRICTNESS[verdict.decision.value])
            turns.append(TurnSummary(verdict.decision.value, **offline))
            row = {"id": record.get("id", lineno), **verdict.to_dict(), **gold_row(offline)}
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        _close(source, sink, progress)
    _summary(decisions, labels, bad)
    _offline_summary(turns)
    if bad:
        return EXIT_ERROR
    if args.fail_on and worst >= _STRICTNESS[args.fail_on]:
        return EXIT_FAIL_ON
    return EXIT_OK


def _open(args: argparse.Namespace) -> tuple[IO[str], IO[str]] | None:
    """The input and output streams of ``check`` and ``audit`` (None after reporting what cannot be opened)."""
    try:
        source = sys.stdin if args.input == "-" else open(args.input, encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        print(f"guardrail: cannot read {args.input}: {exc.strerror}", file=sys.stderr)
        return None
    try:
        sink = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as exc:
        print(f"guardrail: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return None
    if source is sys.stdin and isinstance(source, io.TextIOWrapper):
        source.reconfigure(errors="surrogateescape")
    if sink is sys.stdout and isinstance(sink, io.TextIOWrapper):
        sink.reconfigure(errors="backslashreplace")
    return source, sink


def _close(source: IO[str], sink: IO[str], progress: _Progress | None) -> None:
    """End a ``check`` or ``audit`` run: the progress bar cleared, the output flushed, the files closed."""
    if progress:
        progress.done()
    if sink is not sys.stdout:
        sink.close()
    else:
        sink.flush()
    if source is not sys.stdin:
        source.close()


def _audit(args: argparse.Namespace) -> int:
    from .guard import Guard
    from .judges import JudgeError, load_judge
    from .metrics import TurnSummary, gated, summarize, table
    from .stats import check_gates

    gates = _parse_gates(args.gate)
    if gates is None:
        return EXIT_ERROR
    Guard.from_policy(args.policy)  # fail early, in this process, on a bad policy or judge
    try:
        judge = load_judge(args.judge)
    except JudgeError as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    opened = _open(args)
    if opened is None:
        return EXIT_ERROR
    from .audit import audit_records

    source, sink = opened
    total = _count_lines(args.input) if args.input != "-" and sys.stderr.isatty() else 0
    progress = _Progress(total) if total > _AUDIT_PROGRESS_MIN_LINES else None
    turns: list[TurnSummary] = []
    bad = 0
    try:
        for lineno, outcome in audit_records(args.policy, args.judge, _records(source, progress), args.workers):
            if isinstance(outcome, str):
                print(f"line {lineno}: {outcome}", file=sys.stderr)
                bad += 1
                continue
            row, summary = outcome
            turns.append(TurnSummary.from_dict(summary))
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        _close(source, sink, progress)
    report = summarize(turns, {"name": judge.name, "version": judge.version})
    report["malformed"] = bad
    print(table(report), file=sys.stderr)
    if bad:
        print(f"guardrail: {bad} malformed line{'s' if bad != 1 else ''} skipped", file=sys.stderr)
    if args.summary:
        try:
            with open(args.summary, "w", encoding="utf-8") as fh:
                json.dump(report, fh, indent=2)
                fh.write("\n")
        except OSError as exc:
            print(f"guardrail: cannot write {args.summary}: {exc.strerror}", file=sys.stderr)
            return EXIT_ERROR
    failures = check_gates(gates, gated(report["metrics"]))
    for failure in failures:
        print(f"guardrail: {failure}", file=sys.stderr)
    if bad:
        return EXIT_ERROR
    return EXIT_FAIL_ON if failures else EXIT_OK


def _nli_evaluate(args: argparse.Namespace) -> int:
    from .judges import LABELS, JudgeError, load_judge
    from .judges.evaluate import evaluate_pairs, format_evaluation

    try:
        judge = load_judge(args.backend)
    except JudgeError as exc:
        print(f"guardrail: {exc}", file=sys.stderr)
        return EXIT_ERROR
    pairs, bad = [], 0
    try:
        fh = open(args.pairs, encoding="utf-8")
    except OSError as exc:
        print(f"guardrail: cannot read {args.pairs}: {exc.strerror}", file=sys.stderr)
        return EXIT_ERROR
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                pair = json.loads(line)
            except ValueError as exc:
                problem: str | None = f"not valid JSON ({getattr(exc, 'msg', exc)})"
            else:
                problem = _pair_problem(pair, LABELS)
            if problem:
                print(f"line {lineno}: {problem}", file=sys.stderr)
                bad += 1
            else:
                pairs.append(pair)
    result = evaluate_pairs(judge, pairs)
    print(json.dumps(result, indent=2) if args.json else format_evaluation(result))
    return EXIT_ERROR if bad else EXIT_OK


def _pair_problem(pair: Any, labels: tuple[str, ...]) -> str | None:
    if not isinstance(pair, dict):
        return f"expected a JSON object, got {type(pair).__name__}"
    for key in ("premise", "hypothesis"):
        if not isinstance(pair.get(key), str):
            return f"'{key}' must be a string"
    if pair.get("label") not in labels:
        return f"'label' must be one of {', '.join(labels)}"
    return None


def _records(source: IO[str], progress: _Progress | None = None) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """Yield ``(line number, record)`` or ``(line number, what is wrong with it)``; blank lines are skipped."""
    for lineno, line in enumerate(source, 1):
        if progress:
            progress.update(lineno)
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            yield lineno, f"not valid JSON ({exc.__class__.__name__}: {getattr(exc, 'msg', exc)})"
            continue
        except RecursionError:
            yield lineno, "not valid JSON here (nested too deep)"
            continue
        if not isinstance(record, dict):
            yield lineno, f"expected a JSON object, got {type(record).__name__}"
            continue
        problem = _record_problem(record)
        yield lineno, problem or record


def _record_problem(record: dict[str, Any]) -> str | None:
    output = record.get("output")
    if not isinstance(output, str):
        return "'output' must be a string" if "output" in record else "missing 'output'"
    try:
        output.encode("utf-8")
    except UnicodeEncodeError:
        return "'output' is not valid UTF-8 text"
    sources = record.get("sources")
    if sources is not None and not isinstance(sources, list):
        return "'sources' must be a list of objects"
    roles = record.get("roles")
    if roles is not None and (not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)):
        return "'roles' must be a list of strings"
    if "id" in record and not isinstance(record["id"], str | int):
        return "'id' must be a string or a number"
    return None


def _summary(decisions: Counter[str], labels: Counter[str], bad: int) -> None:
    total = sum(decisions.values())
    parts = [f"{decisions[d]} {d}" for d in ("pass", "modified", "blocked")]
    line = f"guardrail: {total} record{'s' if total != 1 else ''} checked: " + ", ".join(parts)
    if labels:
        line += "; findings: " + ", ".join(f"{label} {n}" for label, n in labels.most_common())
    if bad:
        line += f"; {bad} malformed line{'s' if bad != 1 else ''} skipped"
    print(line, file=sys.stderr)


def _offline_summary(turns: list[Any]) -> None:
    """The adherence and gold metrics of a ``check`` run, on stderr, when records carried what they need."""
    from .metrics import offline_metrics

    for name, m in offline_metrics(turns).items():
        rate = "-" if m["rate"] is None else f"{m['rate']:.1%}"
        print(f"guardrail: {name}: {m['k']}/{m['n']} = {rate} [{m['low']:.1%}, {m['high']:.1%}]", file=sys.stderr)
    inconclusive = sum(1 for t in turns if not t.instructions)
    if inconclusive and len(turns) > inconclusive:
        print(f"guardrail: {inconclusive} record{'s' if inconclusive != 1 else ''} without instructions "
              "(inconclusive)", file=sys.stderr)


def _count_lines(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    except OSError:
        return 0


class _Progress:
    """A one-line progress bar on a terminal's stderr.

    While it is shown, ``sys.stderr`` is a :class:`_BelowTheBar` stream: whatever else is written there (``line N:``
    reports, warnings) first clears the bar's line, so that every message starts at column 0 on a line of its own,
    and the bar is drawn again under it.
    """

    def __init__(self, total: int):
        self.total = total
        self.shown = -1
        self.bar = ""  # what the bar's line shows now ("" when it is cleared)
        self.text = ""  # the bar as last drawn
        self.partial = False  # a message's line is not finished yet: the bar waits for its end
        self.terminal: TextIO = sys.stderr
        sys.stderr = cast(TextIO, _BelowTheBar(self))

    def update(self, n: int) -> None:
        pct = min(100, n * 100 // self.total)
        if pct != self.shown:
            self.shown = pct
            self.text = f"[{'#' * (pct // 4):<25}] {pct:3d}% {n}/{self.total}"
            self.draw()

    def draw(self) -> None:
        if self.text and not self.partial:
            self.terminal.write("\r" + self.text + " " * max(0, len(self.bar) - len(self.text)))
            self.bar = self.text
            self.terminal.flush()

    def clear(self) -> None:
        if self.bar:
            self.terminal.write("\r" + " " * len(self.bar) + "\r")
            self.bar = ""

    def done(self) -> None:
        if isinstance(sys.stderr, _BelowTheBar) and sys.stderr.progress is self:
            sys.stderr = self.terminal
        self.clear()
        self.text = ""
        self.terminal.flush()


class _BelowTheBar:
    """``sys.stderr`` while a progress bar is shown: messages are written on their own lines, above the bar."""

    def __init__(self, progress: _Progress):
        self.progress = progress

    def write(self, text: str) -> int:
        if not text:
            return 0
        progress = self.progress
        progress.clear()
        written = progress.terminal.write(text)
        progress.partial = not text.endswith("\n")
        progress.draw()
        return written

    def flush(self) -> None:
        self.progress.terminal.flush()

    def isatty(self) -> bool:
        return self.progress.terminal.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.progress.terminal, name)


if __name__ == "__main__":
    sys.exit(main())
