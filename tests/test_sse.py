"""Streaming framing: incremental UTF-8, server-sent events and the OpenAI chunk codec."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guardrail._sse import (
    DEFAULT_MAX_EVENT_BYTES,
    ChunkEncoder,
    ChunkInfo,
    Comment,
    Event,
    SSEDecoder,
    StreamFormatError,
    Utf8Decoder,
    content_chunk,
    dumps,
    encode_comment,
    encode_done,
    encode_error,
    encode_event,
    finish_chunk,
    parse_chunk,
)
from guardrail.exceptions import GuardrailError

TEMPLATE = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "gpt-4o",
    "system_fingerprint": "fp_1",
    "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}],
}


def feed_all(chunks: list[bytes], **kwargs: int) -> tuple[list[Event], SSEDecoder]:
    """Feed every chunk, then close; return the events and the closed decoder."""
    decoder = SSEDecoder(**kwargs)
    events = [event for chunk in chunks for event in decoder.feed(chunk)]
    assert decoder.close() == []
    return events, decoder


def split_at(raw: bytes, cuts: list[int]) -> list[bytes]:
    """``raw`` cut at the given offsets (any order, repeats allowed: they give empty chunks)."""
    bounds = [0, *sorted(cuts), len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(bounds)]


def assert_no_echo(message: str, raw: bytes) -> None:
    """The error message names no byte of the input, in any spelling."""
    for byte in set(raw) - set(b"0123456789"):
        assert f"{byte:#04x}" not in message and f"\\x{byte:02x}" not in message


def assert_not_chained(exc: BaseException) -> None:
    """No chained exception (a UnicodeDecodeError, a JSONDecodeError) shows the input in a traceback."""
    assert exc.__cause__ is None and (exc.__context__ is None or exc.__suppress_context__)


# --- SSE framing -------------------------------------------------------------------------------------------------

NO_SURROGATES = st.characters(exclude_categories=["Cs"])

M = Event  # Event(data, event="message", id=None, retry=None)

FRAMING = [
    ("lf", [b"data: a\n\n"], [M("a")]),
    ("crlf", [b"data: a\r\n\r\n"], [M("a")]),
    ("cr", [b"data: a\r\r"], [M("a")]),
    ("mixed", [b"data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r\n"], [M("a\nb\nc"), M("d")]),
    ("lf cr is two line ends", [b"data: a\n\rdata: b\n\n"], [M("a"), M("b")]),
    ("crlf split after cr", [b"data: a\r", b"\ndata: b\r\n\r\n"], [M("a\nb")]),
    ("cr at end then not lf", [b"data: a\r", b"data: b\r\r"], [M("a\nb")]),
    ("cr, empty chunk, lf", [b"data: a\r", b"", b"\ndata: b\n\n"], [M("a\nb")]),
    ("cr lf cr lf split", [b"data: a\r", b"\n\r", b"\n"], [M("a")]),
    ("lone lf after cr-terminated blank line", [b"data: a\r\r", b"\n"], [M("a")]),
    ("byte by byte crlf", [bytes([b]) for b in b"data: a\r\n\r\n"], [M("a")]),
    ("comments", [b": ping\ndata: a\n:\n: x\n\n"], [M("a")]),
    ("comment-only block", [b": ping\n\n"], []),
    ("multi-line data", [b"data: a\ndata: b\ndata: c\n\n"], [M("a\nb\nc")]),
    ("no space after colon", [b"data:x\n\n"], [M("x")]),
    ("one space removed", [b"data: x\n\n"], [M("x")]),
    ("only one space removed", [b"data:  x \n\n"], [M(" x ")]),
    ("colon in value", [b"data: a: b\n\n"], [M("a: b")]),
    ("field without colon", [b"data\n\n"], [M("")]),
    ("two empty data lines", [b"data\ndata\n\n"], [M("\n")]),
    ("empty data value", [b"data:\n\n"], [M("")]),
    ("unknown field ignored", [b"foo: bar\ndata: a\nDATA: no\n\n"], [M("a")]),
    ("no data, no event", [b"event: x\nid: 1\n\n\n\n"], []),
    ("event name", [b"event: delta\ndata: a\n\n"], [M("a", "delta")]),
    ("empty event name", [b"event\ndata: a\n\n"], [M("a")]),
    ("event name reset after a dataless block", [b"event: x\n\ndata: a\n\n"], [M("a")]),
    ("id persists", [b"id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"], [M("a", id="1"), M("b", id="1"), M("c", id="")]),
    ("id with nul ignored", [b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n"], [M("a", id="1"), M("b", id="1")]),
    ("retry", [b"retry: 3000\ndata: a\n\ndata: b\n\n"], [M("a", retry=3000), M("b")]),
    (
        "retry not digits",
        [b"retry: 3s\ndata: a\n\nretry: \xc2\xb2\ndata: b\n\nretry:\ndata: c\n\n"],
        [M("a"), M("b"), M("c")],
    ),
    ("bom", [b"\xef\xbb\xbfdata: a\n\n"], [M("a")]),
    ("bom split", [b"\xef", b"\xbb", b"\xbfdata: a\n\n"], [M("a")]),
    ("bom then blank line", [b"\xef\xbb\xbf\ndata: a\n\n"], [M("a")]),
    ("second bom is text", [b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\n"], []),
    ("bom later is text", [b"data: \xef\xbb\xbfa\n\n"], [M("\ufeffa")]),
    (
        "unicode separators are not line ends",
        ["data: a\x0bb\x0cc\x1cd\x1de\x1ef\x85g\u2028h\u2029i\n\n".encode()],
        [M("a\x0bb\x0cc\x1cd\x1de\x1ef\x85g\u2028h\u2029i")],
    ),
    ("nul kept in data", [b"data: a\x00b\n\n"], [M("a\x00b")]),
    (
        "events after [DONE] still framed",
        [b'data: {"a":1}\n\ndata: [DONE]\n\ndata: {"b":2}\n\n'],
        [M('{"a":1}'), M("[DONE]"), M('{"b":2}')],
    ),
    ("truncated final event", [b"data: a\n\ndata: b\n"], [M("a")]),
    ("truncated final line", [b"data: a\n\ndata: b"], [M("a")]),
]


@pytest.mark.parametrize(("chunks", "expected"), [c[1:] for c in FRAMING], ids=[c[0] for c in FRAMING])
def test_framing(chunks: list[bytes], expected: list[Event]) -> None:
    events, _ = feed_all(chunks)
    assert events == expected
    # The same bytes in one piece and one byte at a time frame identically.
    raw = b"".join(chunks)
    assert feed_all([raw])[0] == expected
    assert feed_all([raw[i : i + 1] for i in range(len(raw))])[0] == expected


@pytest.mark.parametrize(
    ("raw", "truncated"),
    [
        (b"", False),
        (b"data: a\n\n", False),
        (b"data: a\r\n\r\n", False),
        (b"data: a\n\r", False),
        (b"data: a\n\n: ping\n", False),
        (b"data: a\n\n\n\n", False),
        (b"data: a\n", True),
        (b"data: a\r", True),
        (b"data: a", True),
        (b"data: a\n\n: pi", True),
        (b"event: x\n", True),
        (b"data: a\n\nid: 7\n", True),
        (b"\xef\xbb", True),
        (b"\xef\xbb\xbf", False),
        (b"\xef\xbb\xbfdata", True),
    ],
)
def test_truncated(raw: bytes, truncated: bool) -> None:
    _, decoder = feed_all([raw])
    assert decoder.truncated is truncated


def test_decoder_state() -> None:
    decoder = SSEDecoder()
    assert not decoder.truncated and decoder.retry is None and decoder.last_event_id is None
    assert decoder.feed(b": hi\n\nretry: 5\n\n: again\nid: x\n\n") == []
    assert (decoder.comments, decoder.retry, decoder.last_event_id) == (2, 5, "x")
    assert decoder.feed(b"data: a\n\n") == [Event("a", id="x")]
    decoder.close()
    with pytest.raises(ValueError, match="after close"):
        decoder.feed(b"data: b\n\n")


def test_event_defaults() -> None:
    event = Event("x")
    assert (event.event, event.data, event.id, event.retry) == ("message", "x", None, None)
    with pytest.raises(AttributeError):
        event.data = "y"  # type: ignore[misc]


# --- UTF-8 -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["é", "€", "😀"], ids=["2-byte", "3-byte", "4-byte"])
def test_utf8_split_inside_character(char: str) -> None:
    raw = f"a{char}b".encode()
    for cut in range(2, 1 + len(char.encode())):
        decoder = Utf8Decoder()
        head = decoder.decode(raw[:cut])
        assert head == "a"  # the partial character is held, not guessed
        assert head + decoder.decode(raw[cut:]) + decoder.flush() == f"a{char}b"
        sse = f"data: {char}\n\n".encode()
        pieces = [sse[: 6 + cut - 1], sse[6 + cut - 1 :]]
        assert feed_all(pieces)[0] == [Event(char)]


def test_utf8_every_byte_alone() -> None:
    text = "héllo €uro 😀 ok\u2028"
    decoder = Utf8Decoder()
    assert "".join(decoder.decode(bytes([b])) for b in text.encode()) + decoder.flush() == text


@pytest.mark.parametrize(
    ("chunks", "offset"),
    [
        ([b"ab\xffcd"], 2),
        ([b"abc", b"\xff"], 3),
        ([b"a\xe2\x82", b"x"], 1),  # the bad sequence started in the previous chunk
        ([b"a\xe2", b"\x82", b"\x28"], 1),
        ([b"ok\xc3\xa9", b"\xed\xa0\x80"], 4),  # an encoded surrogate is not UTF-8
        ([b"\xc0\xaf"], 0),  # overlong
    ],
)
def test_utf8_invalid_raises_with_offset(chunks: list[bytes], offset: int) -> None:
    decoder = Utf8Decoder()
    with pytest.raises(StreamFormatError) as info:
        for chunk in chunks:
            decoder.decode(chunk)
        decoder.flush()
    assert info.value.offset == offset
    assert f"invalid UTF-8 at byte offset {offset} of the stream" in str(info.value)
    assert_no_echo(str(info.value), b"".join(chunks))
    assert_not_chained(info.value)
    assert isinstance(info.value, GuardrailError)


def test_utf8_truncated_at_flush() -> None:
    decoder = Utf8Decoder()
    assert decoder.decode(b"ab\xf0\x9f\x98") == "ab"
    with pytest.raises(StreamFormatError, match=r"byte offset 2 .*unexpected end of data") as info:
        decoder.flush()
    assert_no_echo(str(info.value), b"\xf0\x9f\x98")


@pytest.mark.parametrize(
    ("chunks", "offset"),
    [
        ([b"data: ok\n\ndata: \xc3(\n\n"], 16),
        ([b"data: ok\n\nda", b"ta: \xc3", b"(\n\n"], 16),
        ([b"data: ok\r\n\r\ndata: \xc3(\r\n\r\n"], 18),
        ([b"data: ok\r", b"\n\r", b"\ndata: \xc3(\r\n\r\n"], 18),
        ([b"data: ok\r\n\ndata: \xc3(\n\n"], 17),  # LF and CRLF mixed: each line end keeps its own length
        ([b"data: ok\r\rdata: \xc3(\r\r"], 16),
        ([b"\xef\xbb\xbfdata: \xff\n\n"], 9),
        ([b": \x80 in a comment\n\n"], 2),
        ([b"event: \xfe\ndata: a\n\n"], 7),
    ],
)
def test_sse_invalid_utf8(chunks: list[bytes], offset: int) -> None:
    decoder = SSEDecoder()
    with pytest.raises(StreamFormatError) as info:
        for chunk in chunks:
            decoder.feed(chunk)
    assert info.value.offset == offset
    assert str(info.value).startswith(f"invalid UTF-8 at byte offset {offset} of the stream")
    assert_no_echo(str(info.value), b"".join(chunks))
    assert_not_chained(info.value)


# --- memory bound ------------------------------------------------------------------------------------------------


def test_default_bound_is_one_mebibyte() -> None:
    assert DEFAULT_MAX_EVENT_BYTES == 1 << 20
    big = b"data: " + b"x" * (DEFAULT_MAX_EVENT_BYTES - 7) + b"\n\n"  # the line and its LF: exactly the bound
    assert feed_all([big])[0] == [Event("x" * (DEFAULT_MAX_EVENT_BYTES - 7))]
    with pytest.raises(StreamFormatError, match=f"over {DEFAULT_MAX_EVENT_BYTES} bytes at byte offset 0"):
        SSEDecoder().feed(b"data: " + b"x" * DEFAULT_MAX_EVENT_BYTES + b"\n\n")


@pytest.mark.parametrize(
    "chunks",
    [
        [b"data: " + b"x" * 200 + b"\n\n"],  # one line, one chunk
        [b"data: " + b"x" * 95 + b"\n"],  # the line with its LF is one byte over
        [b"data: 0123456789\n"] * 7,  # many small lines, one event
        [b"data: a\n", b": " + b"c" * 90 + b"\n\n"],  # comments count inside an event's block
        [b"x" * 101],  # a line with no end yet
    ],
)
def test_oversized_event_raises(chunks: list[bytes]) -> None:
    decoder = SSEDecoder(max_event_bytes=100)
    with pytest.raises(StreamFormatError, match="over 100 bytes at byte offset 0 of the stream"):
        for chunk in chunks:
            decoder.feed(chunk)


def test_endless_line_is_bounded_while_it_arrives() -> None:
    decoder = SSEDecoder(max_event_bytes=1000)
    fed = 0
    with pytest.raises(StreamFormatError):
        decoder.feed(b"data: ok\n\n")
        while True:
            fed += 7
            decoder.feed(b"y" * 7)
    assert 1000 < fed <= 1007  # raised as soon as the pending line passed the bound, not at its end


def test_bound_is_per_event() -> None:
    line = b"data: " + b"z" * 90 + b"\n\n"
    events, _ = feed_all([line * 50], max_event_bytes=100)
    assert len(events) == 50
    with pytest.raises(StreamFormatError, match=f"at byte offset {len(line) * 3} "):
        SSEDecoder(max_event_bytes=100).feed(line * 3 + b"data: " + b"z" * 99 + b"\n\n")


def test_bound_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        SSEDecoder(max_event_bytes=0)


# --- OpenAI chunks -----------------------------------------------------------------------------------------------


def test_parse_chunk_role_and_content() -> None:
    info = parse_chunk(json.dumps(TEMPLATE))
    assert isinstance(info, ChunkInfo)
    assert (info.content, info.finish_reason, info.role, info.obj) == ({0: ""}, {}, "assistant", TEMPLATE)


@pytest.mark.parametrize(
    ("choices", "content", "finish"),
    [
        ([{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}], {0: "Hi"}, {}),
        ([{"index": 0, "delta": {"content": None}, "finish_reason": None}], {0: ""}, {}),
        ([{"index": 0, "delta": {}, "finish_reason": "stop"}], {0: ""}, {0: "stop"}),
        ([{"index": 0, "finish_reason": "length"}], {0: ""}, {0: "length"}),
        ([{"index": 0, "delta": {"tool_calls": [{"index": 0}]}}], {0: ""}, {}),
        (
            [{"index": 1, "delta": {"content": "b"}}, {"index": 0, "delta": {"content": "a"}, "finish_reason": "stop"}],
            {1: "b", 0: "a"},
            {0: "stop"},
        ),
        ([{"delta": {"content": "x"}}, {"delta": {"content": "y"}}], {0: "x", 1: "y"}, {}),  # no index: position
        ([], {}, {}),
        (None, {}, {}),
    ],
)
def test_parse_chunk_choices(choices: object, content: dict[int, str], finish: dict[int, str]) -> None:
    obj = {"id": "c", "choices": choices} if choices is not None else {"id": "c", "usage": {"total_tokens": 3}}
    info = parse_chunk(json.dumps(obj))
    assert info is not None
    assert (info.content, info.finish_reason, info.role) == (content, finish, None)


@pytest.mark.parametrize("data", ["[DONE]", " [DONE] "])
def test_parse_chunk_done(data: str) -> None:
    assert parse_chunk(data) is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ('{"secret": tru', r"stream chunk is not JSON \(line 1 column"),
        ("secret words", "stream chunk is not JSON"),
        ("", "stream chunk is not JSON"),
        ('["secret"]', "stream chunk is JSON list, not an object"),
        ('"secret"', "stream chunk is JSON str, not an object"),
        ("[" * 200_000 + "]" * 200_000, "stream chunk is not JSON"),
        ('{"choices": {"secret": 1}}', "choices is not a list"),
        ('{"choices": ["secret"]}', r"choices\[0\] is not an object"),
        ('{"choices": [{"index": "0"}]}', r"choices\[0\].index is not an integer"),
        ('{"choices": [{"index": true}]}', r"choices\[0\].index is not an integer"),
        ('{"choices": [{"index": 0, "delta": "secret"}]}', r"choices\[0\].delta is not an object"),
        ('{"choices": [{"index": 0, "delta": {"content": ["secret"]}}]}', r"delta.content is not a string"),
        ('{"choices": [{"index": 0, "finish_reason": 1}]}', r"finish_reason is not a string"),
    ],
)
def test_parse_chunk_rejects(data: str, message: str) -> None:
    with pytest.raises(StreamFormatError, match=message) as info:
        parse_chunk(data)
    assert "secret" not in str(info.value)
    assert_not_chained(info.value)


@pytest.mark.parametrize(
    ("data", "kwargs", "raw"),
    [
        ("a", {}, b"data: a\n\n"),
        ("", {}, b"data: \n\n"),
        (" a", {}, b"data:  a\n\n"),
        ("a\nb", {}, b"data: a\ndata: b\n\n"),
        ("a\r\nb\rc\n", {}, b"data: a\ndata: b\ndata: c\ndata: \n\n"),
        ("é\u2028x", {}, "data: é\u2028x\n\n".encode()),
        ("a", {"event": "delta"}, b"event: delta\ndata: a\n\n"),
        ("a", {"event": "delta", "id": "7"}, b"event: delta\nid: 7\ndata: a\n\n"),
    ],
)
def test_encode_event(data: str, kwargs: dict[str, str], raw: bytes) -> None:
    assert encode_event(data, **kwargs) == raw
    expected = re.sub(r"\r\n?", "\n", data)
    assert feed_all([raw])[0] == [Event(expected, kwargs.get("event", "message"), kwargs.get("id"))]


@pytest.mark.parametrize("kwargs", [{"event": "a\nb"}, {"event": "a\rb"}, {"id": "1\n"}, {"id": "1\x00"}])
def test_encode_event_rejects_unframeable(kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="cannot contain"):
        encode_event("x", **kwargs)


def test_encode_done() -> None:
    assert encode_done() == b"data: [DONE]\n\n"
    assert parse_chunk(feed_all([encode_done()])[0][0].data) is None


def test_content_chunk_bytes() -> None:
    assert content_chunk(TEMPLATE, 0, "héllo\n") == (
        b'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o",'
        b'"system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"content":"h\xc3\xa9llo\\n"},'
        b'"finish_reason":null}]}\n\n'
    )


def test_finish_chunk_bytes() -> None:
    assert finish_chunk({"id": "c", "model": "m", "usage": {"x": 1}}, 2, "content_filter") == (
        b'data: {"id":"c","model":"m","object":"chat.completion.chunk",'
        b'"choices":[{"index":2,"delta":{},"logprobs":null,"finish_reason":"content_filter"}]}\n\n'
    )
    (event,) = feed_all([finish_chunk(TEMPLATE, 0, "content_filter")])[0]
    info = parse_chunk(event.data)
    assert info is not None and info.finish_reason == {0: "content_filter"} and info.content == {0: ""}


def test_content_chunk_lone_surrogate_is_escaped() -> None:
    raw = content_chunk(TEMPLATE, 0, "a\ud83d")
    assert b"\\ud83d" in raw
    (event,) = feed_all([raw])[0]
    info = parse_chunk(event.data)
    assert info is not None and info.content == {0: "a\ud83d"}


@given(st.text(), st.integers(0, 7))
@example("line\nbreak\r\nand\rcr\u2028\x85\x00", 3)
def test_content_chunk_round_trip(text: str, index: int) -> None:
    events, decoder = feed_all([content_chunk(TEMPLATE, index, text)])
    assert len(events) == 1 and not decoder.truncated
    info = parse_chunk(events[0].data)
    assert info is not None
    assert info.content == {index: text} and info.finish_reason == {}
    assert {k: info.obj[k] for k in ("id", "object", "created", "model", "system_fingerprint")} == {
        k: TEMPLATE[k] for k in ("id", "object", "created", "model", "system_fingerprint")
    }


@given(
    st.text(NO_SURROGATES),
    st.integers(0, 1000),
    st.fixed_dictionaries(
        {"id": st.text(NO_SURROGATES), "model": st.text(NO_SURROGATES)}, optional={"created": st.integers()}
    ),
)
def test_chunk_encoder_matches_json_dumps(text: str, index: int, template: dict[str, object]) -> None:
    encoder = ChunkEncoder(template)
    head = {key: template[key] for key in ("id", "object", "created", "model") if key in template}
    head.setdefault("object", "chat.completion.chunk")

    def reference(choice: dict[str, object]) -> bytes:
        return (
            b"data: "
            + json.dumps({**head, "choices": [choice]}, ensure_ascii=False, separators=(",", ":")).encode()
            + b"\n\n"
        )

    assert encoder.content(index, text) == content_chunk(template, index, text)
    assert encoder.content(index, text) == reference(
        {"index": index, "delta": {"content": text}, "finish_reason": None}
    )
    assert encoder.finish(index, text) == reference({"index": index, "delta": {}, "logprobs": None,
                                                      "finish_reason": text})
    assert encoder.finish(index, "content_filter", text) == reference(
        {"index": index, "delta": {"content": text}, "logprobs": None, "finish_reason": "content_filter"})


def test_comments_come_out_in_order_when_asked() -> None:
    raw = b": ping\n\ndata: a\n:inside\ndata: b\n\n:\n\n"
    assert SSEDecoder().feed(raw) == [Event("a\nb")]
    decoder = SSEDecoder(comments=True)
    assert decoder.feed(raw[:9]) + decoder.feed(raw[9:]) == [Comment(" ping"), Comment("inside"), Event("a\nb"),
                                                             Comment("")]
    assert decoder.comments == 3


def test_comment_error_and_dumps_encoders() -> None:
    assert encode_comment(" keep-alive") == b": keep-alive\n\n"
    with pytest.raises(ValueError):
        encode_comment("a\nb")
    assert json.loads(encode_error("it broke", "upstream_truncated")[6:]) == {
        "error": {"message": "it broke", "type": "guardrail_error", "code": "upstream_truncated"}}
    assert dumps({"t": "é"}) == '{"t":"é"}'.encode()
    assert dumps({"t": "a\ud83d"}) == b'{"t":"a\\ud83d"}'  # a lone surrogate has no UTF-8 form: escaped


# --- properties: any chunking frames like the whole -------------------------------------------------------------

DATA = st.text(st.one_of(NO_SURROGATES, st.sampled_from("\r\n:é€😀\u2028 ")), max_size=40)
NAME = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"), max_size=12)
ID = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n\x00"), max_size=8)
COMMENT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"), max_size=12)
ITEM = st.one_of(
    st.tuples(DATA, st.none() | NAME, st.none() | ID),
    COMMENT.map(lambda text: f":{text}\n\n"),
)


def build(items: list[tuple[str, str | None, str | None] | str]) -> tuple[bytes, list[Event], int]:
    """Encode events (and comment blocks) with LF; return the bytes, the events a reader must see and the comments."""
    raw, expected, comments, last_id = [], [], 0, None
    for item in items:
        if isinstance(item, str):
            raw.append(item.encode())
            comments += 1
            continue
        data, name, id_ = item
        raw.append(encode_event(data, event=name, id=id_))
        last_id = id_ if id_ is not None else last_id
        expected.append(Event(re.sub(r"\r\n?", "\n", data), name or "message", last_id))
    return b"".join(raw), expected, comments


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(ITEM, max_size=8),
    st.sampled_from([b"\n", b"\r\n", b"\r"]),
    st.booleans(),
    st.data(),
)
def test_any_chunking_gives_the_encoded_events(
    items: list[tuple[str, str | None, str | None] | str], eol: bytes, bom: bool, data: st.DataObject
) -> None:
    raw, expected, comments = build(items)
    # Encoded data never holds a raw LF byte except as a line end (UTF-8 has no 0x0A inside a character).
    raw = (b"\xef\xbb\xbf" if bom else b"") + raw.replace(b"\n", eol)
    cr_lf = [i + 1 for i in range(len(raw) - 1) if raw[i : i + 2] == b"\r\n"]
    cuts = data.draw(st.lists(st.integers(0, len(raw)) | st.sampled_from(cr_lf or [0]), max_size=12))
    whole, whole_decoder = feed_all([raw])
    chunked, chunked_decoder = feed_all(split_at(raw, cuts))
    assert chunked == whole == expected
    assert chunked_decoder.comments == whole_decoder.comments == comments
    assert not chunked_decoder.truncated and not whole_decoder.truncated


@settings(max_examples=50)
@given(st.lists(ITEM, min_size=1, max_size=4), st.sampled_from([b"\n", b"\r\n", b"\r"]))
def test_byte_at_a_time_gives_the_encoded_events(
    items: list[tuple[str, str | None, str | None] | str], eol: bytes
) -> None:
    raw, expected, _ = build(items)
    raw = raw.replace(b"\n", eol)
    assert feed_all([raw[i : i + 1] for i in range(len(raw))])[0] == expected


# Field names, separators, line ends, a BOM, whole and broken multi-byte characters: the pieces that matter.
PIECES = st.sampled_from(
    [
        *(b"data", b"event", b"id", b"retry", b":", b" ", b"\r", b"\n", b"x", b"7", b"\x00"),
        *(b"\xc3", b"\xa9", b"\xff", b"\xef\xbb\xbf", b"\xf0\x9f\x98\x80", b"\xe2\x80\xa8"),
    ]
)
RAW = st.one_of(st.lists(PIECES, max_size=40).map(b"".join), st.binary(max_size=60))


def outcome(chunks: list[bytes], max_event_bytes: int) -> tuple[object, ...]:
    """Everything a reader can observe: the events and final state, or the error message."""
    decoder = SSEDecoder(max_event_bytes=max_event_bytes)
    events = []
    try:
        for chunk in chunks:
            events += decoder.feed(chunk)
        decoder.close()
    except StreamFormatError as exc:
        return ("error", str(exc))
    return ("ok", events, decoder.truncated, decoder.comments, decoder.retry, decoder.last_event_id)


@settings(max_examples=500)
@given(RAW, st.integers(1, 40), st.data())
def test_any_bytes_any_chunking_same_outcome(raw: bytes, max_event_bytes: int, data: st.DataObject) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=10))
    assert outcome(split_at(raw, cuts), max_event_bytes) == outcome([raw], max_event_bytes)


@settings(max_examples=300)
@given(RAW, st.data())
def test_utf8_any_chunking_same_outcome(raw: bytes, data: st.DataObject) -> None:
    def run(chunks: list[bytes]) -> tuple[str, str]:
        decoder = Utf8Decoder()
        try:
            return ("ok", "".join(decoder.decode(c) for c in chunks) + decoder.flush())
        except StreamFormatError as exc:
            return ("error", str(exc))

    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=10))
    result = run(split_at(raw, cuts))
    assert result == run([raw])
    try:
        assert result == ("ok", raw.decode())
    except UnicodeDecodeError as exc:
        assert result[0] == "error" and f"byte offset {exc.start} " in result[1]
