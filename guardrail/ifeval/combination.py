"""``combination:*``: two responses separated by six asterisks; repeating the prompt first."""

from __future__ import annotations

from typing import Any

from ._core import Checker, InstructionError, Param


class TwoResponses(Checker):
    """``combination:two_responses``: split on ``******``, a blank piece only first or last, exactly two
    non-blank pieces that differ once stripped. Seven asterisks pass; twelve in a row fail."""

    id = "combination:two_responses"

    def check(self, text: str) -> bool:
        pieces = text.split("******")
        last = len(pieces) - 1
        valid = []
        for i, p in enumerate(pieces):
            if not p or p.isspace():
                if i != 0 and i != last:
                    return False
            else:
                valid.append(p)
        return len(valid) == 2 and valid[0].strip() != valid[1].strip()


class RepeatPrompt(Checker):
    """``combination:repeat_prompt``: the stripped, lowercased response starts with the stripped, lowercased
    ``prompt_to_repeat``; character-exact apart from case.

    IFEval's data always gives ``prompt_to_repeat`` (the request without the sentence asking for the
    repetition). When it is left out, the ``prompt`` passed to ``compile``/``evaluate`` is used whole.
    """

    id = "combination:repeat_prompt"
    params = (Param("prompt_to_repeat", "text", required=False),)

    def setup(self, kw: dict[str, Any]) -> None:
        target = kw.get("prompt_to_repeat", self.prompt)
        if not isinstance(target, str) or not target.strip():
            raise InstructionError(
                self.id,
                "missing kwarg 'prompt_to_repeat' (a non-blank string), and no prompt was given",
                key="prompt_to_repeat",
            )
        self._prefix = target.strip().lower()

    def check(self, text: str) -> bool:
        return text.strip().lower().startswith(self._prefix)
