"""Rules: verifiable instructions (IFEval's catalogue and seed 002's constraints) about the whole output."""

from __future__ import annotations

from typing import ClassVar

from ..adherence import Rule, results
from ..models import Action, Finding, InstructionResult, Label
from .base import Turn


class RuleCheck:
    """``INSTRUCTION_VIOLATED`` for each rule not followed (strict, or loose where the rule says ``mode: loose``),
    covering the whole output, with the rule's action (``strip`` blocks: a rule is about the whole output). Every
    rule's result, followed or not, is kept on the turn for the verdict (:attr:`Turn.instruction_results`)."""

    name: ClassVar[str] = "instructions"

    def __init__(self, rules: tuple[Rule, ...], default: Action = Action.FLAG):
        self.rules = rules
        self.default = default
        self._actions = tuple(_document(rule.action or default) for rule in rules)
        self.actions = tuple(dict.fromkeys(self._actions))
        self.whole_output = any(a is not Action.FLAG for a in self._actions)

    def run(self, turn: Turn) -> list[Finding]:
        found = results(self.rules, turn.output, turn.deadline)
        turn.instruction_results = found
        return self._findings(turn, found)

    def recheck(self, turn: Turn) -> list[Finding]:
        """An edit can break a rule the output followed (take away a section, a keyword, a postscript)."""
        return self._findings(turn, results(self.rules, turn.output, turn.deadline))

    def _findings(self, turn: Turn, found: list[InstructionResult]) -> list[Finding]:
        out = []
        for rule, action, r in zip(self.rules, self._actions, found, strict=True):
            if not (r.followed_loose if rule.loose else r.followed):
                mode = " (loose)" if rule.loose else ""
                out.append(Finding(self.name, Label.INSTRUCTION_VIOLATED, action, 0, len(turn.output),
                                   f"{rule.id}: not followed{mode}"))
        return out


def _document(action: Action) -> Action:
    return Action.BLOCK if action is Action.STRIP else action
