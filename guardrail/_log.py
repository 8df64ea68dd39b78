"""The ``guardrail`` logger: one line per decision that is not a pass and per guard error, never any content.

A line names the request, the policy, the choice and field, the decision, the labels, the actions and the offsets
of the findings: enough to find the turn in an audit trail, nothing of what it said. The library adds no handler;
configure ``logging.getLogger("guardrail")`` as for any library (``guardrail serve`` and ``guardrail worker`` log
to stderr).
"""

from __future__ import annotations

import logging

from .models import Decision, Verdict

logger = logging.getLogger("guardrail")
logger.addHandler(logging.NullHandler())  # a library prints nothing unless the application configures logging


def configure_cli_logging() -> None:
    """For the commands that run services (``serve``, ``worker``): the ``guardrail`` lines on stderr, unless the
    application configured logging itself."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        # httpx logs each upstream request at INFO with the status line the upstream wrote (its reason phrase is
        # the upstream's to choose, and may spell anything): only its warnings.
        for name in ("httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.WARNING)


def logs(verdict: Verdict, error: str | None = None) -> bool:
    """Whether :func:`log_verdict` would write a line for this verdict (what the line needs is worked out only
    then)."""
    if verdict.decision is Decision.PASS and error is None and not verdict.findings:
        return False
    return logger.isEnabledFor(_level(verdict, error))


def _level(verdict: Verdict, error: str | None) -> int:
    return logging.WARNING if verdict.decision is Decision.BLOCKED or error else logging.INFO


def log_verdict(policy: str, verdict: Verdict, *, request_id: str, choice: int | None = None,
                field: str | None = None, error: str | None = None, trace_id: str | None = None) -> None:
    """Log one verdict if it is not a clean pass (``error``: the code of a guard error, if the turn had one)."""
    if not logs(verdict, error):
        return
    level = _level(verdict, error)
    where = "" if choice is None else f" choice={choice}"
    if field is not None:
        where += f" field={field}"
    findings = verdict.findings
    labels = ",".join(dict.fromkeys(f.label.value for f in findings)) or "-"
    actions = ",".join(dict.fromkeys(f.action.value for f in findings)) or "-"
    offsets = ",".join(f"{f.start}-{f.end}" for f in findings[:20]) or "-"
    if len(findings) > 20:
        offsets += f",+{len(findings) - 20}"
    logger.log(level, "request=%s policy=%s%s decision=%s%s labels=%s actions=%s offsets=%s%s", request_id, policy,
               where, verdict.decision.value, f" error={error}" if error else "", labels, actions, offsets,
               f" trace_id={trace_id}" if trace_id else "")
