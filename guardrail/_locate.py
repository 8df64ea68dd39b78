"""What loading a policy needs before pydantic is imported: the defaults, and where a key stands in its file."""

from __future__ import annotations

from typing import Any

from .exceptions import PolicyError

DEFAULT_CITATION_PATTERN = r"\[doc:(?P<id>[^\]\s]+)\]"
"""The policy's default ``citations.pattern``, as the contract's example spells it. A policy with this pattern (or
none) does not get this regex but the default reader, :data:`GROUPED_CITATION_PATTERN`."""

GROUPED_CITATION_PATTERN = (
    r"\[[Dd][Oo][Cc]:[ \t]*(?P<id>[^\][,;\s]+)"
    r"(?P<more>(?:[,;][ \t]*(?>(?:[Dd][Oo][Cc]:[ \t]*)?)[^\][,;\s]+)*)\]"
)
"""The default citation reader: one marker group in brackets, ``[doc:a]``, ``[doc:a, doc:b]``, ``[doc:a; b]``,
``[doc: a]``, ``[DOC:a]``.

- The prefix ``doc:`` is read in any case, and spaces or tabs may follow it.
- A group holds one or more IDs separated by ``,`` or ``;`` (spaces or tabs may follow a separator); each ID after
  the first may repeat the prefix (``doc:b``) or not (``b``). Each ID is its own marker: for a one-ID group its span
  is the whole group, in a group of several IDs it is its item (``doc:b`` or ``b``).
- An ID is a run of characters other than whitespace, ``[``, ``]``, ``,`` and ``;``: an ID can no longer contain
  a comma or a semicolon (``[doc:a,b]`` cites ``a`` and ``b``), nor a bracket.
- No space may stand before a separator or before the closing ``]`` (``[doc:a ]`` is no marker): so no sentence
  can end inside a group, and a group never spans a line.
- After a prefix that is followed by an ID, ``doc:`` is always the prefix (``[doc:a, doc:b]`` cites ``b``; the
  group is atomic there, so a malformed group costs linear time).
"""
DEFAULT_BLOCKED_MESSAGE = "Sorry, I can't share that answer."


class Locator:
    """Finds the line of a key path in the YAML text a policy came from."""

    def __init__(self, file: str, lines: dict[tuple[Any, ...], int] | None = None):
        self.file = file
        self._lines = lines or {}

    def line(self, path: tuple[Any, ...]) -> int | None:
        """The line of the deepest known key on ``path`` (1-based), if any."""
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return None

    def error(self, message: str, path: tuple[Any, ...]) -> PolicyError:
        """A :class:`PolicyError` for the key at ``path``."""
        return PolicyError(message, file=self.file, key=_dotted(path), line=self.line(path))


def _dotted(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<root>"
