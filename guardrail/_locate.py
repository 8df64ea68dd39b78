"""What loading a policy needs before pydantic is imported: the defaults, and where a key stands in its file."""

from __future__ import annotations

from typing import Any

from .exceptions import PolicyError

DEFAULT_CITATION_PATTERN = r"\[doc:(?P<id>[^\]\s]+)\]"
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
