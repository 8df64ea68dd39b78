"""The ``guardrail`` command line: ``check`` and ``policy validate``."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections import Counter
from collections.abc import Iterator
from typing import IO, Any

from .exceptions import PolicyError

EXIT_OK, EXIT_FAIL_ON, EXIT_ERROR = 0, 1, 2
_STRICTNESS = {"pass": 0, "modified": 1, "blocked": 2}
_PROGRESS_MIN_LINES = 5000


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``guardrail`` command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
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
    commands = parser.add_subparsers(metavar="COMMAND")

    check = commands.add_parser("check", help="check JSONL records of outputs against a policy")
    check.add_argument("--policy", required=True, help="the policy file (YAML)")
    check.add_argument("input", nargs="?", default="-", help="JSONL input file, or - for stdin (the default)")
    check.add_argument("--output", "-o", default="-", help="JSONL output file (default: stdout)")
    check.add_argument("--fail-on", choices=["modified", "blocked"],
                       help="exit with status 1 when any record reaches this decision or a stricter one")
    check.set_defaults(run=_check)

    serve = commands.add_parser("serve", help="run the OpenAI-compatible guarding proxy in front of a model server")
    serve.add_argument("--policy", required=True, help="the policy file (YAML)")
    serve.add_argument("--upstream", required=True, help="the model server's base URL, e.g. http://127.0.0.1:8000/v1")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    serve.set_defaults(run=_serve)

    demo = commands.add_parser("demo", help="run the guarded demo chat endpoint on recorded conversations")
    demo.set_defaults(run=_demo)

    policy = commands.add_parser("policy", help="work with policy files")
    policy_commands = policy.add_subparsers(metavar="ACTION")
    validate = policy_commands.add_parser("validate", help="load and compile a policy file, report what is wrong")
    validate.add_argument("path")
    validate.set_defaults(run=_validate)
    return parser


def _serve(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    from .guard import Guard
    from .proxy import create_proxy

    key = os.environ.get("GUARDRAIL_API_KEY", "")
    if not key:
        print("guardrail: set GUARDRAIL_API_KEY: the proxy admits only callers that present it, because it trusts "
              "the roles they send", file=sys.stderr)
        return EXIT_ERROR
    guard = Guard.from_policy(args.policy)
    app = create_proxy(guard, args.upstream, api_key=key,
                       upstream_api_key=os.environ.get("GUARDRAIL_UPSTREAM_API_KEY") or None)
    print(f"guardrail: guarding {args.upstream} with policy {guard.policy.name!r} on http://{args.host}:{args.port}",
          file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo()


def _validate(args: argparse.Namespace) -> int:
    from .guard import Guard

    guard = Guard.from_policy(args.path)
    names = ", ".join(check.name for check in guard.compiled.checks) or "none"
    print(f"{args.path}: valid policy {guard.policy.name!r} (checks: {names})")
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from .guard import Guard

    guard = Guard.from_policy(args.policy)
    try:
        source = sys.stdin if args.input == "-" else open(args.input, encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        print(f"guardrail: cannot read {args.input}: {exc.strerror}", file=sys.stderr)
        return EXIT_ERROR
    try:
        sink = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as exc:
        print(f"guardrail: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return EXIT_ERROR
    if source is sys.stdin and isinstance(source, io.TextIOWrapper):
        source.reconfigure(errors="surrogateescape")
    if sink is sys.stdout and isinstance(sink, io.TextIOWrapper):
        sink.reconfigure(errors="backslashreplace")
    total = _count_lines(args.input) if args.input != "-" and sys.stderr.isatty() else 0
    decisions: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    bad = 0
    worst = -1
    try:
        for lineno, record in _records(source, total):
            if isinstance(record, str):
                print(f"line {lineno}: {record}", file=sys.stderr)
                bad += 1
                continue
            try:
                verdict = guard.check(record["output"], record.get("sources"), record.get("roles"))
            except TypeError as exc:
                print(f"line {lineno}: {exc}", file=sys.stderr)
                bad += 1
                continue
            decisions[verdict.decision.value] += 1
            labels.update(f.label.value for f in verdict.findings)
            worst = max(worst, _STRICTNESS[verdict.decision.value])
            row = {"id": record.get("id", lineno), **verdict.to_dict()}
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        if sink is not sys.stdout:
            sink.close()
        else:
            sink.flush()
        if source is not sys.stdin:
            source.close()
    _summary(decisions, labels, bad)
    if bad:
        return EXIT_ERROR
    if args.fail_on and worst >= _STRICTNESS[args.fail_on]:
        return EXIT_FAIL_ON
    return EXIT_OK


def _records(source: IO[str], total: int) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """Yield ``(line number, record)`` or ``(line number, what is wrong with it)``; blank lines are skipped."""
    progress = _Progress(total) if total > _PROGRESS_MIN_LINES else None
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
        if not isinstance(record, dict):
            yield lineno, f"expected a JSON object, got {type(record).__name__}"
            continue
        problem = _record_problem(record)
        yield lineno, problem or record
    if progress:
        progress.done()


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


def _count_lines(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    except OSError:
        return 0


class _Progress:
    """A one-line progress bar on a terminal's stderr."""

    def __init__(self, total: int):
        self.total = total
        self.shown = -1

    def update(self, n: int) -> None:
        pct = min(100, n * 100 // self.total)
        if pct != self.shown:
            self.shown = pct
            bar = "#" * (pct // 4)
            sys.stderr.write(f"\r[{bar:<25}] {pct:3d}% {n}/{self.total}")
            sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\r" + " " * 60 + "\r")
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())
