"""Guarding OpenAI chat completions, whole (JSON) or streamed (chunks): which fields are text, and what goes with them.

Every user-visible text of a choice is guarded with the same policy, each field on its own (CONTRACT section 2):
``content`` (a string, or a list whose ``text`` parts are one text, joined as a client renders them, and whose
``refusal`` parts are another), ``refusal``, ``reasoning_content``, ``reasoning`` and the ``transcript`` of an audio
answer; the ``arguments`` of tool calls (and of the legacy ``function_call``) when the policy lists ``tool_calls`` in
``fields``. An edited text of a list goes whole into its first part, the others emptied (in a stream, the text a
chunk releases goes into the first of its parts). A block in any field blocks the whole choice: it then carries only
the blocked message, with ``finish_reason: "content_filter"`` and no logprobs.

Logprobs travel with the text they describe. In a completion, ``logprobs.content`` (``logprobs.refusal``) is kept when
``content`` (``refusal``) goes out unchanged and is ``null`` otherwise. In a stream, a chunk's logprobs go out with the
chunk that releases the last of its text, when everything released of that field so far is the upstream's text
unchanged; from the first edit on, a field's logprobs are dropped. Chosen tokens are read as a client may rebuild the
text, from their ``token`` strings joined or from their ``bytes`` joined: tokens that spell a banned term or an
invisible source's ID either way take their logprobs with them. Kept or not, no ``top_logprobs`` alternative that
would spell one (its token after the tokens before it, its bytes after their bytes) goes out.

Nothing here does I/O: :func:`guard_completion` rewrites a parsed completion; :class:`ChunkStream` turns the bytes of
an upstream stream into the bytes to send. The middleware moves bytes and reports.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ._scrub import Scrubber
from ._sse import (
    DONE,
    ChunkEncoder,
    Comment,
    SSEDecoder,
    StreamFormatError,
    choice_index,
    dumps,
    encode_comment,
    encode_done,
    encode_error,
    encode_event,
    has_duplicate_keys,
    is_index,
)
from .models import Action, Decision, Finding, Label, Verdict
from .stream import StreamGuard
from .text import _SPEEDUPS

Check = Callable[[str], Verdict]
FieldKey = tuple[Any, ...]
Pieces = list[tuple[dict[str, Any], str]]
"""Where a guarded text stands: the dicts holding its pieces, and their keys, in order."""
Tail = tuple[str, bytes]
"""The last chosen tokens released of a field, their text and their bytes: what alternatives are read after."""

_TEXT_FIELDS = ("content", "refusal", "reasoning_content", "reasoning")
_LOGPROB_KEYS = {"content": "content", "refusal": "refusal"}
_CHUNK_KEYS = frozenset({"id", "object", "created", "model", "system_fingerprint", "service_tier", "obfuscation"})
_TEMPLATE_KEYS = ("id", "object", "created", "model", "system_fingerprint")
_RANK = {Decision.PASS: 0, Decision.MODIFIED: 1, Decision.BLOCKED: 2}
_SURROGATES = re.compile("[\ud800-\udfff]")


class ShapeError(ValueError):
    """A response on a guarded route is not the chat completion it claims to be (the message says where, no text)."""


@dataclass(frozen=True, slots=True)
class FieldVerdict:
    """The verdict on one guarded field of one choice."""

    choice: int
    field: str
    verdict: Verdict
    text: str = ""
    """The field's text as generated."""


def worst(decisions: Iterator[Decision] | list[Decision]) -> Decision:
    """The strictest of ``decisions`` (``pass`` for none)."""
    out = Decision.PASS
    for d in decisions:
        if _RANK[d] > _RANK[out]:
            out = d
    return out


def guard_error(verdict: Verdict) -> Finding | None:
    """The ``GUARD_ERROR`` that blocked ``verdict``, when no policy finding did: an error, not a content block."""
    if verdict.decision is not Decision.BLOCKED:
        return None
    error = None
    for f in verdict.findings:
        if f.action is Action.BLOCK:
            if f.label is not Label.GUARD_ERROR:
                return None
            error = error or f
    return error


def _fields(container: dict[str, Any], tool_calls: bool) -> Iterator[tuple[FieldKey, str, Pieces, str]]:
    """``(state key, field name, its pieces, its text)`` for each guarded text of a message or delta. A content
    list's text parts are one text, as a client renders them (joined, in order), and its refusal parts another.
    Raise :class:`ShapeError` for a guarded field of the wrong type."""
    for name in _TEXT_FIELDS:
        value = container.get(name)
        if value is None:
            continue
        if isinstance(value, str):
            yield (name,), name, [(container, name)], value
        elif name == "content" and isinstance(value, list):
            kinds: dict[str, Pieces] = {"text": [], "refusal": []}
            for k, part in enumerate(value):
                if not isinstance(part, dict):
                    raise ShapeError(f"content[{k}] is not an object")
                for key, pieces in kinds.items():
                    text = part.get(key)
                    if text is not None:
                        if not isinstance(text, str):
                            raise ShapeError(f"content[{k}].{key} is not a string")
                        pieces.append((part, key))
            for key, pieces in kinds.items():
                if pieces:
                    yield ("content", key), "content" if key == "text" else "content.refusal", pieces, \
                        "".join(holder[k] for holder, k in pieces)
        else:
            raise ShapeError(f"{name} is not a string")
    audio = container.get("audio")
    if isinstance(audio, dict) and audio.get("transcript") is not None:
        if not isinstance(audio["transcript"], str):
            raise ShapeError("audio.transcript is not a string")
        yield ("audio",), "audio.transcript", [(audio, "transcript")], audio["transcript"]
    if not tool_calls:
        return
    calls = container.get("tool_calls")
    if isinstance(calls, list):
        for k, call in enumerate(calls):
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict) and function.get("arguments") is not None:
                if not isinstance(function["arguments"], str):
                    raise ShapeError(f"tool_calls[{k}].function.arguments is not a string")
                index = call.get("index", k)
                if not is_index(index):
                    raise ShapeError(f"tool_calls[{k}].index is not an integer")
                yield ("tool_calls", index), f"tool_calls[{index}]", [(function, "arguments")], function["arguments"]
    legacy = container.get("function_call")
    if isinstance(legacy, dict) and isinstance(legacy.get("arguments"), str):
        yield ("function_call",), "function_call", [(legacy, "arguments")], legacy["arguments"]


def _scrub_entries(entries: Any, scrubber: Scrubber, tail: Tail) -> tuple[Any, Tail]:
    """``entries`` (logprob entries of text released unchanged) without the ``top_logprobs`` alternatives that would
    spell what the user must not see, alone or after the chosen tokens before them (``tail``); and the tail after
    them. The same list when nothing was dropped."""
    if not scrubber.active or not isinstance(entries, list):
        return entries, tail
    out, changed = [], False
    tokens, raw = tail
    for entry in entries:
        if not isinstance(entry, dict):
            return None, tail
        alternatives = entry.get("top_logprobs")
        if isinstance(alternatives, list) and alternatives:
            kept = [alt for alt in alternatives
                    if not (isinstance(alt, dict) and (
                        any(scrubber.carries(t) or scrubber.carries(tokens + t, len(tokens)) for t in _spellings(alt))
                        or _bytes_carry(scrubber, _bytes_of(alt), raw)))]
            if len(kept) != len(alternatives):
                entry = {**entry, "top_logprobs": kept}
                changed = True
        out.append(entry)
        token = entry.get("token")
        if isinstance(token, str):
            tokens = (tokens + token)[-scrubber.context:]
        raw = (raw + _bytes_of(entry))[-4 * scrubber.context:]  # (at least as many characters)
    return (out if changed else entries), (tokens, raw)


def _bytes_of(entry: dict[str, Any]) -> bytes:
    """A logprob entry's ``bytes`` (none unless a list of byte values)."""
    raw = entry.get("bytes")
    if isinstance(raw, list) and all(isinstance(b, int) and 0 <= b < 256 for b in raw):
        return bytes(raw)
    return b""


def _spellings(entry: dict[str, Any]) -> list[str]:
    """What a logprob entry (or an alternative) spells: its token, and its bytes read as UTF-8."""
    out = []
    token = entry.get("token")
    if isinstance(token, str):
        out.append(token)
    raw = _bytes_of(entry)
    if raw:
        out.append(raw.decode("utf-8", "replace"))
    return out


def _bytes_carry(scrubber: Scrubber, raw: bytes, before: bytes) -> bool:
    """Whether ``raw`` read as UTF-8 after the bytes ``before`` carries a banned term or an invisible ID that reaches
    into it (a character split between the two read whole)."""
    if not raw or not before:
        return False
    start = len(codecs.utf_8_decode(before, "replace", False)[0])  # (less a character that ``raw`` may finish)
    return scrubber.carries((before + raw).decode("utf-8", "replace"), start)


def _tokens_carry(entries: Any, scrubber: Scrubber, tail: Tail = ("", b"")) -> bool:
    """Whether the chosen tokens of logprob entries spell a banned term or an invisible ID: one alone (its text or
    its bytes), their texts joined or their bytes joined (read as UTF-8, as a client rebuilds the text), alone or
    after ``tail`` (the tokens before them). Logprobs that do not match their text are not trusted to."""
    if not scrubber.active or not isinstance(entries, list):
        return False
    if not all(isinstance(entry, dict) for entry in entries):
        return True
    before, before_bytes = tail
    tokens = "".join(t for entry in entries if isinstance(t := entry.get("token"), str))
    raw = b"".join(_bytes_of(entry) for entry in entries)
    texts = [t for entry in entries for t in _spellings(entry)]
    return any(scrubber.carries(t) for t in [*texts, tokens, raw.decode("utf-8", "replace")]) \
        or (bool(before) and scrubber.carries(before + tokens, len(before))) \
        or _bytes_carry(scrubber, raw, before_bytes)


def scrub_extras(obj: Any, scrubber: Scrubber, tool_calls: bool = False) -> bool:
    """Scrub every string of a completion or chunk that is not guarded text, object keys too (ids, model names,
    annotations, tool-call names, a choice's ``text``, fields of events without choices): banned terms and invisible
    IDs become the replacement. Guarded text, the tokens of logprobs, tool-call arguments and audio data are left to
    their own rules. Whether anything changed."""
    if not scrubber.active or not isinstance(obj, _CONTAINERS):  # (a bare string: the caller's own rules)
        return False
    return _walk(obj, _TOP, scrubber)


# Where a list or dict stands in a completion or chunk, for the scrub walk: what it leaves to other rules, and where
# its keys lead. Only a completion's own structure counts (a "message" elsewhere is any object).
_ANY, _TOP, _CHOICE, _MESSAGE, _PART, _CALL, _FUNCTION, _AUDIO, _LOGPROBS, _ENTRY = range(10)
_LEFT_ALONE: dict[int, frozenset[str]] = {
    _MESSAGE: frozenset(_TEXT_FIELDS),  # guarded text (a content list's parts: below)
    _PART: frozenset({"text", "refusal"}),
    _FUNCTION: frozenset({"arguments"}),  # guarded when the policy says so, else the application's
    _AUDIO: frozenset({"transcript", "data"}),  # guarded text, and the audio itself (base64)
    _ENTRY: frozenset({"token"}),  # travels with its text (the logprob rules)
}
_INSIDE: dict[int, dict[str, int]] = {  # a list's items stand where the list does
    _TOP: {"choices": _CHOICE},
    _CHOICE: {"message": _MESSAGE, "delta": _MESSAGE, "logprobs": _LOGPROBS},
    _MESSAGE: {"content": _PART, "tool_calls": _CALL, "function_call": _FUNCTION, "audio": _AUDIO},
    _CALL: {"function": _FUNCTION},
    _LOGPROBS: {"content": _ENTRY, "refusal": _ENTRY},
    _ENTRY: {"top_logprobs": _ENTRY},
}
_CONTAINERS = (list, dict)
_SCHEMA_KEYS = frozenset({
    # A completion's and a chunk's own keys (OpenAI's chat completions), never scrubbed: a banned "Delta" must not
    # rename every chunk's "delta". Any other key is the upstream's to choose, and is.
    "id", "object", "created", "model", "choices", "usage", "system_fingerprint", "service_tier", "obfuscation",
    "error", "message", "code", "param", "type", "index", "delta", "logprobs", "finish_reason", "role", "content",
    "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call", "function", "name", "arguments",
    "audio", "data", "transcript", "expires_at", "annotations", "url_citation", "url", "title", "start_index",
    "end_index", "text", "image_url", "detail", "token", "logprob", "bytes", "top_logprobs", "prompt_tokens",
    "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details", "cached_tokens",
    "audio_tokens", "reasoning_tokens", "accepted_prediction_tokens", "rejected_prediction_tokens", "tool_call_id",
})


def _walk_py(value: list[Any] | dict[str, Any], mode: int, scrub: Callable[[str], str]) -> bool:
    """Scrub the strings inside a list or dict in place, its keys too but a completion's own (``mode``: where it
    stands); whether any changed. (A function of the module, not a closure: a closure that calls itself is a
    reference cycle, and every response would leave one for the garbage collector.) Values are replaced while the
    dict is iterated; a key that changes has the dict rebuilt after, in its order."""
    changed = False
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                new = scrub(item)
                if new is not item:
                    value[i], changed = new, True
            elif isinstance(item, dict):
                changed |= _walk_py(item, mode, scrub)
            elif isinstance(item, list):
                changed |= _walk_py(item, _ANY, scrub)
        return changed
    left = _LEFT_ALONE.get(mode, frozenset())
    inside = _INSIDE.get(mode, {})
    renamed = False
    for k, item in value.items():
        if isinstance(k, str) and k not in _SCHEMA_KEYS and scrub(k) is not k:
            renamed = True
        if isinstance(item, str):
            if k in left:
                continue
            new = scrub(item)
            if new is not item:
                value[k], changed = new, True
        elif isinstance(item, _CONTAINERS):
            changed |= _walk_py(item, inside.get(k, _ANY), scrub)
    if renamed:
        items = [(scrub(k) if isinstance(k, str) and k not in _SCHEMA_KEYS else k, v) for k, v in value.items()]
        value.clear()
        value.update(items)
        changed = True
    return changed


def _walk(value: list[Any] | dict[str, Any], mode: int, scrubber: Scrubber) -> bool:
    """:func:`_walk_py` with ``scrubber.scrub``, in C when it can be (a response's skeleton: ids, names, roles, keys;
    its short strings found in the scrubber's memos without a call)."""
    if _SPEEDUPS is None:
        return _walk_py(value, mode, scrubber.scrub)
    return _SPEEDUPS.walk(value, mode, scrubber.scrub, scrubber.memos, _SCHEMA_KEYS)  # type: ignore[no-any-return]


def scrub_body(body: bytes, scrubber: Scrubber, charset: str = "utf-8") -> bytes:
    """The body of a response that is no chat completion (an error, say) without banned terms or invisible IDs, as a
    client may read it, whatever its media type says (OpenAI's client parses an error's text as JSON): read as
    ``charset`` (as a client decodes it: bytes it cannot read as U+FFFD) and written back in it, JSON has every
    string and key scrubbed (a completion's own keys aside), and goes out as parsed when it was not plain UTF-8 or
    named a key twice; SSE has each event's data scrubbed so; other text is scrubbed whole. ``body`` itself when
    nothing changed; JSON nested too deeply to scrub, SSE whose lines carry together what each alone does not, or a
    body in a charset Python does not know, is not sent (empty)."""
    if not scrubber.active or not body:
        return body
    try:
        codec = codecs.lookup(charset).name
    except LookupError:
        return b""
    if codec != "utf-8":  # (its UTF-8 reading, scrubbed, written back: UTF-7's +AEI- is a "B" in JSON too)
        read = body.decode(codec, "replace").encode("utf-8", "surrogatepass")
        scrubbed = scrub_body(read, scrubber)
        return body if scrubbed is read else scrubbed.decode("utf-8", "surrogatepass").encode(codec, "replace")
    obj, strict = parse_json(body)
    if obj is not None:
        try:
            changed = _scrub_json(obj, scrubber)
        except RecursionError:
            return b""
        return dumps(obj[0]) if changed or not strict or has_duplicate_keys(body, obj[0]) else body
    text = body.decode("utf-8", "replace")
    if not text.startswith("data:") and "\ndata:" not in text:  # (text: scrubbed whole, a term across lines too)
        new = scrubber.scrub(text)
        return body if new is text else new.encode("utf-8", "replace")
    lines = text.split("\n")
    new_lines = [_scrub_line(line, scrubber) for line in lines]
    new = "\n".join(new_lines)
    if scrubber.carries(new):  # (what the lines carry only together: a term across a line break, say)
        return b""
    if all(a is b for a, b in zip(new_lines, lines, strict=True)):
        return body
    return new.encode("utf-8", "replace")


def parse_json(body: bytes) -> tuple[list[Any] | None, bool]:
    """``([value], strict)``: the JSON value of ``body`` (in a list, to be scrubbed in place), and whether orjson
    read it (plain UTF-8); ``(None, False)`` when it is no JSON."""
    import json

    import orjson

    try:
        return [orjson.loads(body)], True
    except (ValueError, RecursionError):
        pass
    try:  # (json reads what orjson does not: a lone surrogate's \uXXXX, UTF-16)
        return [json.loads(body)], False
    except (ValueError, RecursionError):
        return None, False


def _scrub_json(holder: list[Any], scrubber: Scrubber) -> bool:
    """Scrub the JSON value in ``holder`` (a one-item list) in place: every string, every key but a completion's
    own. Whether anything changed."""
    return _walk(holder, _ANY, scrubber)


def _scrub_line(line: str, scrubber: Scrubber) -> str:
    """A line of a text body, scrubbed (``line`` itself when it carries nothing): an SSE ``data:`` line's JSON as
    JSON, anything else as text."""
    if line.startswith("data:"):
        payload = line[5:].strip()
        obj, strict = parse_json(payload.encode("utf-8", "surrogatepass"))
        if obj is not None:
            try:
                if not _scrub_json(obj, scrubber) and strict and not has_duplicate_keys(payload, obj[0]):
                    return line
            except RecursionError:
                return "data: {}"
            return "data: " + dumps(obj[0]).decode("utf-8")
    return scrubber.scrub(line)


def scrub_strings(texts: list[str], scrubber: Scrubber) -> bool:
    """Scrub a list of strings in place (header names and values, say); whether any changed."""
    return _walk(texts, _ANY, scrubber)


# ----------------------------------------------------------------------------------------------- whole completions


def guard_completion(obj: Any, check: Check, scrubber: Scrubber, blocked_message: str,
                     tool_calls: bool = False) -> tuple[list[FieldVerdict], bool]:
    """Guard every choice of a parsed chat completion in place; return the verdict on each guarded field and whether
    ``obj`` changed. Raise :class:`ShapeError` when ``obj`` is not a chat completion."""
    choices = obj.get("choices") if isinstance(obj, dict) else None
    if not isinstance(choices, list) or not choices:
        raise ShapeError("the body has no choices")
    out: list[FieldVerdict] = []
    changed = False
    for position, choice in enumerate(choices):
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            raise ShapeError(f"choices[{position}] has no message")
        if choice.get("delta") is not None:  # (a client may read either: the guard reads one)
            raise ShapeError(f"choices[{position}] has both a message and a delta")
        index = choice.get("index", position)
        if not is_index(index):
            raise ShapeError(f"choices[{position}].index is not an integer")
        verdicts = []
        for _, name, pieces, text in list(_fields(message, tool_calls)):
            verdict = check(text)
            verdicts.append((name, pieces, verdict))
            out.append(FieldVerdict(index, name, verdict, text))
        if any(v.decision is Decision.BLOCKED for *_, v in verdicts):
            choice["message"] = {"role": message.get("role", "assistant"), "content": blocked_message}
            choice["finish_reason"] = "content_filter"
            if "logprobs" in choice:
                choice["logprobs"] = None
            changed = True
            continue
        logprobs = choice.get("logprobs")
        if not isinstance(logprobs, dict):  # (no tokens to keep in step with the text)
            for _, pieces, verdict in verdicts:
                if verdict.decision is Decision.MODIFIED:
                    _put(pieces, verdict.output)
                    changed = True
            continue
        present = {_LOGPROB_KEYS[n] for n, *_ in verdicts if n in _LOGPROB_KEYS}
        for field_key in _LOGPROB_KEYS.values():
            tokens = logprobs.get(field_key)
            if tokens and (field_key not in present or _tokens_carry(tokens, scrubber)):
                logprobs[field_key] = None  # tokens of no text, or tokens that spell what the text does not
                changed = True
        for name, pieces, verdict in verdicts:
            lp_key = _LOGPROB_KEYS.get(name)
            entries = logprobs.get(lp_key) if lp_key else None
            if verdict.decision is Decision.MODIFIED:
                _put(pieces, verdict.output)
                changed = True
                if entries is not None:
                    logprobs[lp_key] = None  # type: ignore[index]
            elif entries is not None:
                kept, _ = _scrub_entries(entries, scrubber, ("", b""))
                if kept is not entries:
                    logprobs[lp_key] = kept  # type: ignore[index]
                    changed = True
        if logprobs and all(v is None for v in logprobs.values()):
            choice["logprobs"] = None
    changed |= scrub_extras(obj, scrubber, tool_calls)
    return out, changed


def _put(pieces: Pieces, text: str) -> None:
    """Write a field's edited text: whole in its first piece, the others emptied (a content list keeps its parts
    where they were)."""
    for n, (holder, key) in enumerate(pieces):
        holder[key] = "" if n else text


# ---------------------------------------------------------------------------------------------------------- streams


@dataclass(slots=True)
class _Field:
    """One guarded text of one choice, as it streams: its guard, the logprobs waiting for their text, and a high
    surrogate held until its pair arrives (an upstream may split a \\uXXXX pair across chunks)."""

    name: str
    guard: StreamGuard
    pending: list[list[Any]] = field(default_factory=list)  # [text, entries] fed but not yet wholly released
    head: int = 0  # characters of pending[0] already released
    synced: bool = True  # everything released so far is the upstream's text unchanged
    tail: Tail = ("", b"")  # the last released tokens, the context of the next alternatives
    carry: str = ""
    tracking: bool | None = None  # whether this field's chunks carry logprobs

    def feed(self, text: str, entries: Any) -> str:
        text = self.carry + text
        self.carry = ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self.carry = text[:-1], text[-1]
        if _SURROGATES.search(text):
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")  # join the pairs
        if self.tracking is None and text:
            # A stream sends logprobs with its first text on, or never (OpenAI's first chunk, the role's, has none).
            self.tracking = entries is not None
        if self.tracking and self.synced and text:
            self.pending.append([text, entries])
        return self.guard.feed(text) if text else ""

    def finish(self) -> tuple[str, Verdict]:
        if self.carry:
            self.guard.feed(self.carry)
            self.carry = ""
        return self.guard.finish()

    def logprobs(self, released: str, scrubber: Scrubber) -> list[Any] | None:
        """The logprob entries whose text ``released`` completes unchanged (None when there are none to send); the
        very list the upstream sent when that is all of it."""
        if not self.tracking or not self.synced or not released:
            return None
        kept: list[Any] = []
        i = 0
        while i < len(released):
            if not self.pending:
                self.synced = False
                break
            text, entries = self.pending[0]
            rest = text[self.head:]
            take = released[i:i + len(rest)]
            if not rest.startswith(take):
                self.synced = False
                break
            i += len(take)
            if len(take) < len(rest):
                self.head += len(take)
                break
            self.pending.pop(0)
            self.head = 0
            if isinstance(entries, list):
                if _tokens_carry(entries, scrubber, self.tail):  # tokens that spell what their text does not
                    self.synced = False
                    break
                entries, self.tail = _scrub_entries(entries, scrubber, self.tail)
                if isinstance(entries, list):
                    kept.append(entries)
        if not self.synced:
            self.pending.clear()  # from the first edit on, nothing of this field is known to match its tokens
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else [e for entries in kept for e in entries]


@dataclass(slots=True)
class _Choice:
    fields: dict[FieldKey, _Field] = field(default_factory=dict)
    ended: bool = False


class ChunkStream:
    """The guard of one streamed chat completion: ``feed`` it the upstream's bytes, send what it returns; ``close``
    at the end. Comments and chunks without guarded text go out at once and in order; a chunk whose text is held
    goes out without it (or not at all when nothing else is in it); a chunk released unchanged goes out as the
    upstream's own event.

    The end of a stream: ``data: [DONE]`` after every choice's rest; a blocked choice's last chunk carries the blocked
    message with ``finish_reason: "content_filter"``. A ``GUARD_ERROR`` under ``fail_mode: closed`` (a broken or
    truncated stream, a check that failed) ends the stream with an error event, then ``[DONE]``; under ``open``, a
    broken stream has what is held released and the rest sent unchecked, as it comes. An upstream's own error event
    is forwarded with banned terms and invisible IDs redacted, and ends it too.
    """

    def __init__(self, make_guard: Callable[[], StreamGuard], scrubber: Scrubber, *, blocked_message: str,
                 fail_closed: bool, tool_calls: bool = False, max_bytes: int = 4 << 20):
        self._make_guard = make_guard
        self._scrubber = scrubber
        self._blocked_message = blocked_message
        self._fail_closed = fail_closed
        self._tool_calls = tool_calls
        self._decoder = SSEDecoder(max_event_bytes=max_bytes, comments=True)
        self._max_bytes = max_bytes  # what one stream may bring in all: its text is held for the final verdict
        self._size = 0
        self._choices: dict[int, _Choice] = {}
        self._encoder: ChunkEncoder | None = None
        self._template: dict[str, Any] = {}
        self.verdicts: list[FieldVerdict] = []
        self.error: tuple[str, str] | None = None
        """``(code, message)`` when the stream ended in an error (the guard's or the upstream's); never content."""
        self.upstream_error = False
        self.finished = False  # [DONE] went out
        self._unchecked = False  # fail open, after a break: the rest goes out as it comes
        self._raw = False  # ... and the decoder broke too: as bytes

    def stats(self, started: float) -> Any:
        """The stream's figures for its span: chunks, the most text held back, the time to the first release."""
        from .telemetry import StreamStats

        guards = [f.guard for c in self._choices.values() for f in c.fields.values()]
        firsts = [g.first_release for g in guards if g.first_release is not None]
        return StreamStats(max((g.chunks for g in guards), default=0), max((g.held_max for g in guards), default=0),
                           min(firsts) - started if firsts else None)

    @property
    def decision(self) -> Decision:
        """The strictest decision so far (an error fail closed counts as blocked: the answer was not delivered)."""
        if self.error is not None and not self._unchecked:
            return Decision.BLOCKED
        return worst([v.verdict.decision for v in self.verdicts])

    def feed(self, chunk: bytes) -> bytes:
        """The bytes to send for the next piece of the upstream's body."""
        if self.finished or not chunk:
            return b""
        if self._raw:
            return chunk
        self._size += len(chunk)
        head = b""
        if self._size > self._max_bytes and not self._unchecked:
            head = self._broken("upstream_too_large", f"the stream is over {self._max_bytes} bytes")
            if self.finished:
                return head
        try:
            items = self._decoder.feed(chunk)
        except StreamFormatError as exc:
            head += self._broken("upstream_malformed", str(exc))
            if self._unchecked:  # (the events of this chunk, and the event the decoder held, are lost to it)
                self._raw = True
                head += chunk
            return head
        out = [head]
        for item in items:
            out.append(self._item(item))
            if self.finished:
                break
        return b"".join(out)

    def broken_off(self, code: str, message: str) -> bytes:
        """The bytes that end the stream when the upstream's body was cut short (``code``: why)."""
        if self.finished:
            return b""
        out = self._broken(code, message)
        self.finished = True  # (fail open: as the upstream ended it)
        return out

    def close(self) -> bytes:
        """The bytes that end the stream, once the upstream's body is complete."""
        if self.finished:
            return b""
        if not self._raw:
            self._decoder.close()
        if self.upstream_error:
            self.finished = True
            return encode_done()
        return self.broken_off("upstream_truncated", "the upstream stream ended before [DONE]")

    # -------------------------------------------------------------------------------------------------- internals

    def _item(self, item: Any) -> bytes:
        if self._unchecked:
            if isinstance(item, Comment):
                return encode_comment(item.text)
            if item.data.strip() == DONE:
                self.finished = True
            return _event(item.data, item.event)
        if isinstance(item, Comment):
            return encode_comment(self._scrubber.scrub(item.text) if self._scrubber.active else item.text)
        if item.data.strip() == DONE:
            return self._end_all() + self._done()
        if self.upstream_error:
            return b""  # after the upstream's error, nothing of the answer goes out
        try:
            obj = _loads(item.data)
        except StreamFormatError as exc:
            return self._malformed(item, str(exc))
        if ("error" in obj or item.event == "error") and not obj.get("choices"):
            return self._upstream_error(obj)
        # A key written twice is read as its last value here, perhaps as its first by the client: then the event
        # goes out as parsed, never as written.
        written = not has_duplicate_keys(item.data, obj)
        event = item.event
        if self._scrubber.active and event != "message":  # (an event's name is the upstream's to choose, too)
            event = self._scrubber.scrub(event)
        if self._encoder is None:
            # The chunks this guard writes itself (re-sent text, the end of a blocked choice) repeat the first
            # chunk's id, model and fingerprint: scrubbed, as every chunk's are.
            self._template = {k: obj[k] for k in _TEMPLATE_KEYS if k in obj}
            scrub_extras(self._template, self._scrubber, self._tool_calls)
            self._encoder = ChunkEncoder(self._template)
        choices = obj.get("choices")
        if not choices:  # a usage chunk, say: no text to guard, but nothing in it may spell what the user must not see
            if scrub_extras(obj, self._scrubber, self._tool_calls) or not written:
                return b"data: " + dumps(obj) + b"\n\n"
            return _event(item.data, event)
        if not isinstance(choices, list):
            return self._malformed(item, "stream chunk: choices is not a list")
        try:
            changed, tail = self._choices_of(choices)
        except StreamFormatError as exc:
            return self._malformed(item, str(exc))
        if self.error is not None:
            return tail
        if scrub_extras(obj, self._scrubber, self._tool_calls):
            changed = True
        if not changed and written:
            return _event(item.data, event) + tail
        kept = [c for c in choices if _carries(c)]
        if not kept and set(obj) <= _CHUNK_KEYS | {"choices", "usage"} and obj.get("usage") is None:
            return tail  # nothing left in it to say
        obj["choices"] = kept
        return b"data: " + dumps(obj) + b"\n\n" + tail

    def _choices_of(self, choices: list[Any]) -> tuple[bool, bytes]:
        """Guard the choices of one chunk in place; whether anything changed, and the chunks to send after it."""
        changed = False
        tail = b""
        for position, choice, index, state, delta, located in self._read(choices):
            if state.ended:  # blocked (or finished) earlier: nothing more of it goes out
                choices[position] = {"index": index, "delta": {}}
                changed = True
                continue
            logprobs = choice.get("logprobs")
            out_logprobs: dict[str, Any] = {}
            blocked = False
            for key, name, pieces, text in located:
                f = state.fields.get(key)
                if f is None:
                    f = state.fields[key] = _Field(name, self._make_guard())
                lp_key = _LOGPROB_KEYS.get(name)
                entries = logprobs.get(lp_key) if lp_key and isinstance(logprobs, dict) else None
                released = f.feed(text, entries)
                if f.guard.blocked:
                    blocked = True
                    break
                if released != text:
                    changed = True
                    for n, (holder, hkey) in enumerate(pieces):  # (what is released goes in the first piece)
                        if released and not n:
                            holder[hkey] = released
                        else:
                            del holder[hkey]
                if lp_key:
                    sent = f.logprobs(released, self._scrubber)
                    if sent is not entries and (sent or entries):
                        changed = True
                    if sent is not None:
                        out_logprobs[lp_key] = sent
            reason = choice.get("finish_reason")
            if not blocked and reason is not None:
                rest_changed, blocked = self._finish_choice(index, state, delta, out_logprobs)
                changed = changed or rest_changed
            if blocked:
                tail += self._block(index, state)
                if self.error is not None:
                    return True, tail
                choices[position] = {"index": index, "delta": {}}
                changed = True
                continue
            if isinstance(logprobs, dict):
                new = {**logprobs, **out_logprobs}
                for lp_key in _LOGPROB_KEYS.values():
                    if lp_key not in out_logprobs and logprobs.get(lp_key):
                        new[lp_key] = None  # their text is held back (or was edited)
                if new != logprobs:
                    changed = True
                    choice["logprobs"] = None if all(v is None for v in new.values()) else new
            elif out_logprobs:
                changed = True
                choice["logprobs"] = out_logprobs
        return changed, tail

    def _read(self, choices: list[Any]) -> list[tuple[int, dict[str, Any], int, _Choice, dict[str, Any],
                                                      list[tuple[FieldKey, str, Pieces, str]]]]:
        """``(position, choice, index, state, delta, located fields)`` of each choice of a chunk, every shape error
        raised before any text is guarded (fail open, a chunk that breaks the stream goes out as it came: no text of
        it may have been fed to a guard)."""
        read = []
        for position, choice in enumerate(choices):
            index = choice_index(choice, position)
            state = self._choices.get(index)
            if state is None:
                state = self._choices[index] = _Choice()
            delta = choice.get("delta")
            if delta is None and isinstance(choice.get("message"), dict):
                delta = choice["message"]  # a chunk written like a completion's choice: its text is guarded too
            elif delta is not None and choice.get("message") is not None:  # (a client may read either)
                raise StreamFormatError(f"stream chunk: choices[{position}] has both a delta and a message")
            located: list[tuple[FieldKey, str, Pieces, str]] = []
            if delta is None:
                delta = {}
                if choice.get("finish_reason") is not None:  # (where the rest of a choice goes)
                    choice["delta"] = delta
            elif state.ended:
                pass
            elif not isinstance(delta, dict):
                raise StreamFormatError(f"stream chunk: choices[{position}].delta is not an object")
            else:
                try:
                    located = list(_fields(delta, self._tool_calls))
                except ShapeError as exc:
                    raise StreamFormatError(f"stream chunk: choices[{position}].delta.{exc}") from None
                for key, *_ in located:
                    if key[0] == "content" and key not in state.fields and \
                            any(k[0] == "content" and len(k) != len(key) for k in state.fields):
                        raise StreamFormatError(f"stream chunk: choices[{position}].delta.content changed its type")
            read.append((position, choice, index, state, delta, located))
        return read

    def _finish_choice(self, index: int, state: _Choice, delta: dict[str, Any],
                       logprobs: dict[str, Any] | None = None) -> tuple[bool, bool]:
        """The choice's finish chunk: the rest of every field goes into its delta (and the logprobs of what that
        completes into ``logprobs``). Whether that changed the delta, and whether the choice is blocked."""
        changed = False
        rests = []
        for key, f in state.fields.items():
            rest, verdict = f.finish()
            self.verdicts.append(FieldVerdict(index, f.name, verdict, f.guard.text))
            if f.guard.blocked:
                self._note_error(verdict)
                return True, True
            rests.append((key, f, rest))
        state.ended = True
        for key, f, rest in rests:
            if not rest:
                continue
            changed = True
            _append(delta, key, rest)
            lp_key = _LOGPROB_KEYS.get(f.name)
            if lp_key is None or logprobs is None:
                continue
            sent = f.logprobs(rest, self._scrubber)
            if sent is not None:
                logprobs[lp_key] = [*(logprobs.get(lp_key) or ()), *sent]
        return changed, False

    def _block(self, index: int, state: _Choice) -> bytes:
        """End a blocked choice: the blocked message, or (a guard error, fail closed) the error event."""
        if not state.ended:
            for f in state.fields.values():
                if f.guard.blocked and not any(v.choice == index and v.field == f.name for v in self.verdicts):
                    _, verdict = f.finish()
                    verdict = Verdict(Decision.BLOCKED, self._blocked_message,
                                      [*f.guard.findings] or verdict.findings, verdict.elapsed_us)
                    self.verdicts.append(FieldVerdict(index, f.name, verdict, f.guard.text))
                    self._note_error(verdict)
        state.ended = True
        if self.error is not None:
            return self._error_end()
        assert self._encoder is not None
        return self._encoder.finish(index, "content_filter", self._blocked_message)

    def _note_error(self, verdict: Verdict) -> None:
        error = guard_error(verdict)
        if error is not None and self.error is None:
            self.error = ("guard_error", error.message)

    def _end_all(self) -> bytes:
        """Release what each unfinished choice still holds (an upstream that sent [DONE] without finish_reason)."""
        out = []
        for index, state in self._choices.items():
            if state.ended:
                continue
            delta: dict[str, Any] = {}
            _, blocked = self._finish_choice(index, state, delta)
            if blocked:
                out.append(self._block(index, state))
                if self.error is not None:
                    break
            elif delta and self._encoder is not None:
                out.append(self._chunk(index, delta))
        return b"".join(out)

    def _chunk(self, index: int, delta: dict[str, Any]) -> bytes:
        assert self._encoder is not None
        if set(delta) == {"content"}:
            return self._encoder.content(index, delta["content"])
        obj = {**self._template, "choices": [{"index": index, "delta": delta, "finish_reason": None}]}
        return b"data: " + dumps(obj) + b"\n\n"

    def _broken(self, code: str, message: str) -> bytes:
        """A broken stream: fail closed ends it with an error event. Fail open releases what is held and flags the
        error; the rest of the upstream's stream then goes out unchecked, as it comes (as a body over the size cap
        does), and ends as the upstream ends it, unless a choice was blocked: then the stream ends there."""
        if self._fail_closed:
            self.error = (code, message)
            return self._error_end()
        if self._unchecked:
            return b""
        out = self._end_all()
        self.error = self.error or (code, message)
        if any(v.verdict.decision is Decision.BLOCKED for v in self.verdicts):
            # (a choice blocked stays blocked: nothing after the break is looked at, so nothing of it goes)
            return out + self._done()
        self._unchecked = True
        return out

    def _malformed(self, item: Any, message: str) -> bytes:
        """An event that is no chunk: the stream is broken there (fail open: the event goes out as it came)."""
        out = self._broken("upstream_malformed", message)
        return out + self._item(item) if self._unchecked else out

    def _error_end(self) -> bytes:
        assert self.error is not None
        code, message = self.error
        return encode_error(message, code) + self._done()

    def _done(self) -> bytes:
        self.finished = True
        return encode_done()

    def _upstream_error(self, obj: dict[str, Any]) -> bytes:
        self.upstream_error = True
        self.error = ("upstream_error", "the upstream sent an error event")
        holder: list[Any] = [obj]
        try:
            _scrub_json(holder, self._scrubber)
        except RecursionError:  # (too deep to scrub: what it said is not sent)
            return encode_error("the upstream sent an error event", "upstream_error", "upstream_error")
        return b"data: " + dumps(holder[0]) + b"\n\n"


def _append(delta: dict[str, Any], key: FieldKey, rest: str) -> None:
    """Add the rest of a field to a finish chunk's delta, after what the chunk itself releases of it."""
    name = key[0]
    if name in _TEXT_FIELDS and len(key) == 1:
        delta[name] = (delta.get(name) or "") + rest
    elif name == "content":
        _slot(delta, "content", []).append({"type": key[1], key[1]: rest})
    elif name == "tool_calls":
        _slot(delta, "tool_calls", []).append({"index": key[1], "function": {"arguments": rest}})
    else:
        holder = _slot(delta, name, {})
        field_name = "transcript" if name == "audio" else "arguments"
        holder[field_name] = (holder.get(field_name) or "") + rest


def _slot(delta: dict[str, Any], name: str, empty: list[Any] | dict[str, Any]) -> Any:
    """``delta[name]``, set to ``empty`` when the chunk has none of that kind there (null, say)."""
    value = delta.get(name)
    if not isinstance(value, type(empty)):
        value = delta[name] = empty
    return value


def _carries(choice: Any) -> bool:
    """Whether a rewritten choice still says anything (text, a role, tool calls, logprobs, a finish reason)."""
    if not isinstance(choice, dict):
        return True
    return bool(choice.get("delta")) or choice.get("finish_reason") is not None or choice.get("logprobs") is not None


def _event(data: str, event: str) -> bytes:
    return encode_event(data, event=None if event == "message" else event)


def _loads(data: str) -> dict[str, Any]:
    import json

    import orjson

    try:
        try:
            obj = orjson.loads(data)
        except ValueError:  # orjson is strict where json is lenient (a lone surrogate's \\uXXXX)
            obj = json.loads(data)
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno} column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise StreamFormatError(f"stream chunk is not JSON{where}") from None
    if not isinstance(obj, dict):
        raise StreamFormatError(f"stream chunk is JSON {type(obj).__name__}, not an object")
    return obj
