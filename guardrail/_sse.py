"""Incremental framing for streamed responses: UTF-8, server-sent events and OpenAI chat-completion chunks.

Bodies arrive as arbitrary byte chunks: a chunk may end inside a multi-byte character, inside a line or between the
CR and the LF of a CRLF. The decoders here keep just enough state to give the same result for every chunking of the
same bytes. Lines end at CR, LF or CRLF and nowhere else (WHATWG HTML, "Server-sent events", 9.2.5-9.2.6): not at the
other characters ``str.splitlines`` splits on (VT, FF, FS, NEL, U+2028, ...), which are ordinary text in SSE and JSON.

Nothing here does I/O; the middleware feeds bytes in and writes the bytes that come out.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

import orjson

from guardrail.exceptions import GuardrailError
from guardrail.text import _SPEEDUPS

__all__ = [
    "DEFAULT_MAX_EVENT_BYTES",
    "DONE",
    "ChunkEncoder",
    "ChunkInfo",
    "Comment",
    "Event",
    "SSEDecoder",
    "StreamFormatError",
    "Utf8Decoder",
    "content_chunk",
    "dumps",
    "encode_comment",
    "encode_done",
    "encode_error",
    "encode_event",
    "finish_chunk",
    "parse_chunk",
]

DEFAULT_MAX_EVENT_BYTES = 1 << 20
"""How many bytes of one event's lines an :class:`SSEDecoder` holds by default: 1 MiB."""

DONE = "[DONE]"
"""The data of the event that ends an OpenAI stream."""

_BOM = b"\xef\xbb\xbf"
_EOL = re.compile(rb"(\r\n?|\n)")  # captured: the line ends' lengths keep error offsets exact
_TEXT_EOL = re.compile(r"\r\n?|\n")
_CHUNK_KEYS = ("id", "object", "created", "model", "system_fingerprint")
_DONE_EVENT = b"data: [DONE]\n\n"
# Built once: json.dumps with any non-default option makes a new encoder per call. Both escape every control character,
# so their output never holds a CR or LF and is always a single ``data:`` line.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_JSON_ASCII = json.JSONEncoder(separators=(",", ":"))


class StreamFormatError(GuardrailError):
    """A streamed body is not the format it claims to be (bad UTF-8, an oversized event, a chunk that is not JSON).

    The message says where (a byte offset in the stream when there is one, also in ``offset``) and never repeats the
    offending bytes: they are model output, which telemetry and logs must not carry unless the policy opts in.
    """

    def __init__(self, message: str, *, offset: int | None = None) -> None:
        self.offset = offset
        super().__init__(message)


def _utf8_error(exc: UnicodeDecodeError, offset: int) -> StreamFormatError:
    return StreamFormatError(f"invalid UTF-8 at byte offset {offset} of the stream: {exc.reason}", offset=offset)


class Utf8Decoder:
    """Incremental strict UTF-8: ``decode`` each chunk, ``flush`` at the end; a character may span chunks."""

    __slots__ = ("_decoder", "_offset")

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._offset = 0  # bytes passed to decode() so far

    def decode(self, data: bytes) -> str:
        """Decode one chunk; an incomplete character at its end is held for the next chunk."""
        try:
            text = self._decoder.decode(data)
        except UnicodeDecodeError as exc:
            # exc.start counts from the held bytes, which are still held: the decoder raises before updating them.
            held = len(self._decoder.getstate()[0])
            raise _utf8_error(exc, self._offset - held + exc.start) from None
        self._offset += len(data)
        return text

    def flush(self) -> str:
        """End of stream: raises :class:`StreamFormatError` if it ends inside a character."""
        try:
            return self._decoder.decode(b"", True)
        except UnicodeDecodeError as exc:
            held = len(self._decoder.getstate()[0])
            raise _utf8_error(exc, self._offset - held + exc.start) from None


class Event(NamedTuple):
    """One dispatched server-sent event (``data`` first, so ``Event("text")`` is a plain message)."""

    data: str
    event: str = "message"
    id: str | None = None
    """The last event ID seen so far in the stream (it persists across events, per the spec); None if none was."""
    retry: int | None = None
    """The ``retry:`` value given in this event's own block, if any."""


class Comment(NamedTuple):
    """A comment line (``:...``, often a keep-alive), given by an :class:`SSEDecoder` made with ``comments=True``."""

    text: str
    """What follows the colon."""


class SSEDecoder:
    """Incremental server-sent-events parser: ``feed`` byte chunks, get the events each one completes.

    Invalid UTF-8 anywhere in a complete line, or an event's block of lines (comments included, each line end counted
    as one byte) longer than ``max_event_bytes``, raises :class:`StreamFormatError`; the decoder is then unusable.
    At the end call ``close``: per the spec an event without its terminating blank line is not dispatched, and
    ``truncated`` says whether the stream stopped inside one. With ``comments=True`` comment lines come out too, as
    :class:`Comment` items in stream order (a proxy forwards keep-alives at once).
    """

    __slots__ = (
        "_block_bytes",
        "_block_start",
        "_buf",
        "_buf_len",
        "_buf_offset",
        "_closed",
        "_comments",
        "_data",
        "_event_type",
        "_keep_comments",
        "_last_id",
        "_max",
        "_pending",
        "_retry",
        "_retry_block",
        "_skip_lf",
        "_truncated",
    )

    def __init__(self, *, max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES, comments: bool = False) -> None:
        if max_event_bytes < 1:
            raise ValueError("max_event_bytes must be positive")
        self._max = max_event_bytes
        self._keep_comments = comments
        # The incomplete last line, as parts: joining on every chunk would be quadratic for a long line.
        self._buf: list[bytes] = []
        self._buf_len = 0
        self._buf_offset = 0  # stream offset of the incomplete line, for error messages
        self._skip_lf = False  # the last chunk ended with CR: an LF starting the next one is the rest of a CRLF
        self._data: list[str] = []
        self._event_type = ""
        self._last_id: str | None = None
        self._retry: int | None = None
        self._retry_block: int | None = None
        # Bytes of the lines since the last blank line (one event's block, comments included), bounded by
        # max_event_bytes; counted the same way whatever the chunking, so streaming and buffered reads agree.
        self._block_bytes = 0
        self._block_start = 0
        self._pending = False  # a field line was seen since the last blank line
        self._comments = 0
        self._closed = False
        self._truncated = False

    @property
    def comments(self) -> int:
        """How many comment lines (``:...``, often keep-alives) the stream has carried so far."""
        return self._comments

    @property
    def last_event_id(self) -> str | None:
        """The last event ID buffer of the spec, or None if the stream never set one."""
        return self._last_id

    @property
    def retry(self) -> int | None:
        """The latest reconnection time (``retry:``, in ms) the stream asked for, even in a block with no data."""
        return self._retry

    @property
    def truncated(self) -> bool:
        """After ``close``: the stream ended inside an event or a line, so something was never dispatched."""
        return self._truncated

    def feed(self, data: bytes) -> list[Event | Comment]:
        """Take the next chunk of the body; return the events it completes (and comments, if asked), in order."""
        if self._closed:
            raise ValueError("feed() after close()")
        if self._skip_lf and data:
            self._skip_lf = False
            if data[0] == 0x0A:
                data = data[1:]
                self._buf_offset += 1
        if b"\n" not in data and b"\r" not in data:
            # No line ends here: hold the bytes, and check the bound now so a line that never ends cannot grow forever.
            if data:
                self._buf.append(data)
                self._buf_len += len(data)
                if self._block_bytes + self._buf_len > self._max:
                    raise self._too_big()
            return []
        if self._buf:
            self._buf.append(data)
            data = b"".join(self._buf)
            self._buf.clear()
        events: list[Event | Comment] = []
        offset = self._buf_offset
        # Two fast paths where bytes.split does the scanning in C: every line end is LF, or every one is CRLF (as
        # sse-starlette writes). Only a mix, a lone CR or a CR at the chunk's end takes the regex.
        eol = 1
        if b"\r" in data:
            lf_only = data.replace(b"\r\n", b"\n")
            if b"\r" not in lf_only and len(data) - len(lf_only) == lf_only.count(b"\n"):
                data, eol = lf_only, 2
            else:
                eol = 0
        if eol:
            lines = data.split(b"\n")
            rest = lines.pop()
            for line in lines:
                if (event := self._line(line, offset)) is not None:
                    events.append(event)
                offset += len(line) + eol
        else:
            parts = _EOL.split(data)  # line, end, line, end, ..., the incomplete rest
            rest = parts.pop()
            for line, end in zip(parts[::2], parts[1::2], strict=True):
                if (event := self._line(line, offset)) is not None:
                    events.append(event)
                offset += len(line) + len(end)
            # A CR ends its line at once (so nothing waits on the next chunk); an LF that follows it is not a new line.
            self._skip_lf = data[-1] == 0x0D
        self._buf_offset = offset
        if rest:
            self._buf.append(rest)
        self._buf_len = len(rest)
        if self._block_bytes + self._buf_len > self._max:
            raise self._too_big()
        return events

    def close(self) -> list[Event]:
        """End of stream. Always returns no events (the spec discards an unterminated one); see ``truncated``."""
        if not self._closed:
            self._closed = True
            line = b"".join(self._buf)
            if self._buf_offset == 0 and line.startswith(_BOM):
                line = line[3:]  # a body of just a BOM is empty, not cut short
            self._truncated = self._pending or bool(line)
            self._buf.clear()
            self._data = []
        return []

    def _too_big(self) -> StreamFormatError:
        offset = self._block_start if self._block_bytes else self._buf_offset
        return StreamFormatError(
            f"server-sent event over {self._max} bytes at byte offset {offset} of the stream", offset=offset
        )

    def _line(self, line: bytes, offset: int) -> Event | Comment | None:
        if line:
            if not self._block_bytes:
                self._block_start = offset
            self._block_bytes += len(line) + 1
            if self._block_bytes > self._max:
                raise self._too_big()
            if offset == 0 and line[:3] == _BOM:
                line = line[3:]
                offset = 3
        if not line:
            return self._dispatch()
        try:
            text = line.decode()
        except UnicodeDecodeError as exc:
            raise _utf8_error(exc, offset + exc.start) from None
        if text[0] == ":":
            self._comments += 1
            return Comment(text[1:]) if self._keep_comments else None
        self._pending = True
        name, _, value = text.partition(":")
        if value[:1] == " ":
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event_type = value
        elif name == "id":
            if "\0" not in value:
                self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = self._retry_block = int(value)
        return None

    def _dispatch(self) -> Event | None:
        self._pending = False
        self._block_bytes = 0
        retry, self._retry_block = self._retry_block, None
        event_type, self._event_type = self._event_type, ""
        if not self._data:
            return None
        data = self._data[0] if len(self._data) == 1 else "\n".join(self._data)
        self._data = []
        return Event(data, event_type or "message", self._last_id, retry)


class ChunkInfo(NamedTuple):
    """What the guard needs from one OpenAI ``chat.completion.chunk``."""

    obj: dict[str, Any]
    """The parsed chunk, as sent."""
    content: dict[int, str]
    """``delta.content`` per choice index; "" where the delta has none (role-only, finish-only, tool-call deltas)."""
    finish_reason: dict[int, str]
    """``finish_reason`` per choice index, only for the choices that carry one."""
    role: str | None
    """The first ``delta.role`` in the chunk (OpenAI sends it once, in the first chunk), or None."""


def choice_index(choice: Any, position: int) -> int:
    """The ``index`` of a stream chunk's choice at ``position`` (that position when it names none). Raise
    :class:`StreamFormatError` for a choice that is no object or an index that is no integer."""
    if not isinstance(choice, dict):
        raise StreamFormatError(f"stream chunk: choices[{position}] is not an object")
    index = choice.get("index", position)
    if not is_index(index):
        raise StreamFormatError(f"stream chunk: choices[{position}].index is not an integer")
    return index


def is_index(value: Any) -> bool:
    """Whether an upstream's choice or tool-call ``index`` is an integer (not a bool): it keys the guard's state
    and names the field in logs, spans and samples, so nothing else it may spell gets there."""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_chunk(data: str) -> ChunkInfo | None:
    """Read one event's data: None for ``[DONE]``; :class:`StreamFormatError` unless it is a JSON object.

    A choice without ``index`` takes its position in ``choices``. An object without ``choices`` (a usage-only or an
    error chunk) gives empty ``content``; the caller decides what it means.
    """
    if data.strip() == DONE:
        return None
    try:
        try:
            obj = orjson.loads(data)
        except ValueError:  # orjson is strict where the json module is lenient (a lone surrogate's \uXXXX)
            obj = json.loads(data)
    except (ValueError, RecursionError) as exc:
        # The message says where only; the data is model output.
        where = f" (line {exc.lineno} column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise StreamFormatError(f"stream chunk is not JSON{where}") from None
    if not isinstance(obj, dict):
        raise StreamFormatError(f"stream chunk is JSON {type(obj).__name__}, not an object")
    content: dict[int, str] = {}
    finish: dict[int, str] = {}
    role: str | None = None
    choices = obj.get("choices")
    if choices is None:
        choices = []
    elif not isinstance(choices, list):
        raise StreamFormatError("stream chunk: choices is not a list")
    for position, choice in enumerate(choices):
        index = choice_index(choice, position)
        delta = choice.get("delta")
        text = ""
        if delta is not None:
            if not isinstance(delta, dict):
                raise StreamFormatError(f"stream chunk: choices[{position}].delta is not an object")
            text = delta.get("content") or ""
            if not isinstance(text, str):
                raise StreamFormatError(f"stream chunk: choices[{position}].delta.content is not a string")
            if role is None and isinstance(delta.get("role"), str):
                role = delta["role"]
        content[index] = content.get(index, "") + text
        reason = choice.get("finish_reason")
        if reason is not None:
            if not isinstance(reason, str):
                raise StreamFormatError(f"stream chunk: choices[{position}].finish_reason is not a string")
            finish[index] = reason
    return ChunkInfo(obj, content, finish, role)


def encode_event(data: str, *, event: str | None = None, id: str | None = None) -> bytes:
    """One SSE event: ``data: ...`` lines (one per line of ``data``) and the blank line that dispatches it.

    CR, LF and CRLF in ``data`` all become line breaks, so the receiver reads each of them back as LF.
    """
    head = ""
    if event is not None:
        if "\r" in event or "\n" in event:
            raise ValueError("an event name cannot contain CR or LF")
        head = f"event: {event}\n"
    if id is not None:
        if "\r" in id or "\n" in id or "\0" in id:
            raise ValueError("an event id cannot contain CR, LF or NUL")
        head += f"id: {id}\n"
    if "\n" in data or "\r" in data:
        body = "".join(f"data: {line}\n" for line in _TEXT_EOL.split(data))
    else:
        body = f"data: {data}\n"
    return f"{head}{body}\n".encode()


def encode_comment(text: str = "") -> bytes:
    """One SSE comment line and a blank line (``: ping`` keeps a proxy from cutting an idle stream)."""
    if "\r" in text or "\n" in text:
        raise ValueError("a comment cannot contain CR or LF")
    return f":{text}\n\n".encode()


def encode_error(message: str, code: str, kind: str = "guardrail_error") -> bytes:
    """An OpenAI-shaped error event: ``data: {"error": {"message", "type", "code"}}``."""
    return b"data: " + dumps({"error": {"message": message, "type": kind, "code": code}}) + b"\n\n"


def has_duplicate_keys(text: str | bytes, obj: Any) -> bool:
    """Whether the JSON ``text``, parsed into ``obj``, names a key twice in one object. A parser keeps the last
    value and another reader may keep the first: what was checked must then go out as parsed, not as written.
    In C: the members the text writes (a colon each, outside strings) against those the parsed objects hold."""
    if _SPEEDUPS is not None:
        written = _SPEEDUPS.json_members(text)
        if written >= 0:
            return bool(written != _SPEEDUPS.count_members(obj))
    return _has_duplicate_keys_py(text)


def _has_duplicate_keys_py(text: str | bytes) -> bool:
    """:func:`has_duplicate_keys`, in Python: the reference (the text parsed again, each object's pairs looked at)."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in items}) != len(items):
            raise _Duplicated
        return dict(items)

    try:
        json.loads(text, object_pairs_hook=pairs)
    except _Duplicated:
        return True
    except (ValueError, RecursionError):
        return False
    return False


class _Duplicated(Exception):
    pass


def dumps(obj: Any) -> bytes:
    """Compact JSON (``ensure_ascii=False``); a lone surrogate, which has no UTF-8 form, is written as ``\\uXXXX``."""
    try:
        return orjson.dumps(obj)
    except TypeError:  # orjson refuses lone surrogates (and integers beyond 64 bits): json escapes them
        return _JSON_ASCII.encode(obj).encode()


def encode_done() -> bytes:
    """The event that ends an OpenAI stream: ``data: [DONE]``."""
    return _DONE_EVENT


class ChunkEncoder:
    """Writes chunks in the shape of one upstream stream: its id/object/created/model/system_fingerprint.

    Make one per stream from the upstream's first chunk: the template is serialised once, and each chunk after that
    only serialises its own text. The bytes are ``json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))`` as
    one SSE event.
    """

    __slots__ = ("_head",)

    def __init__(self, template: Mapping[str, Any]) -> None:
        obj: dict[str, Any] = {key: template[key] for key in _CHUNK_KEYS if key in template}
        obj.setdefault("object", "chat.completion.chunk")
        self._head = _json_bytes("data: ", obj, "")[:-1] + b',"choices":[{"index":'

    def content(self, index: int, text: str) -> bytes:
        """A chunk carrying ``text`` as ``delta.content`` of choice ``index``."""
        return self._head + _json_bytes(f'{index:d},"delta":{{"content":', text, '},"finish_reason":null}]}\n\n')

    def finish(self, index: int, finish_reason: str, content: str | None = None) -> bytes:
        """A chunk that ends choice ``index``, e.g. ``finish_reason="content_filter"``: an empty delta, or one
        carrying ``content`` (a blocked stream's last chunk carries the blocked message), and no logprobs."""
        rest = {"delta": {} if content is None else {"content": content}, "logprobs": None,
                "finish_reason": finish_reason}
        return self._head + _json_bytes(f"{index:d},", rest, "]}\n\n", strip=1)


def _json_bytes(before: str, value: Any, after: str, strip: int = 0) -> bytes:
    """``before``, the JSON of ``value`` (less its first ``strip`` characters: an object's brace) and ``after``."""
    try:
        return (before + _JSON.encode(value)[strip:] + after).encode()
    except UnicodeEncodeError:
        # A lone surrogate (an upstream that split a \\uXXXX pair across chunks) has no UTF-8 form; JSON can escape it.
        return (before + _JSON_ASCII.encode(value)[strip:] + after).encode()


def content_chunk(template: Mapping[str, Any], index: int, text: str) -> bytes:
    """An SSE-encoded chunk carrying ``text`` for choice ``index``, with the template's id/object/created/model.

    For many chunks of one stream, :class:`ChunkEncoder` does the same without serialising the template each time.
    """
    return ChunkEncoder(template).content(index, text)


def finish_chunk(template: Mapping[str, Any], index: int, finish_reason: str, content: str | None = None) -> bytes:
    """An SSE-encoded chunk that ends choice ``index`` (an empty delta, or ``content``), e.g. ``"content_filter"``."""
    return ChunkEncoder(template).finish(index, finish_reason, content)
