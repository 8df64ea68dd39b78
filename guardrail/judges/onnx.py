"""The ``onnx:DIR`` judge: a local cross-encoder NLI model, run on CPU with onnxruntime.

``DIR`` holds what a Hugging Face cross-encoder exported to ONNX holds: the model (``model.onnx``, the one ``.onnx``
file there, or ``onnx/model.onnx``), ``tokenizer.json`` (the ``tokenizers`` format, with the model's own pair
template) and ``config.json`` (``id2label`` names the logits). Each pair is encoded as (premise, hypothesis); a pair
too long for the model loses the end of its premise first. Pairs are sorted by length and run in padded batches;
the logits are softmaxed into :class:`~guardrail.judges.base.Probabilities`. Nothing is downloaded: the directory is
all there is. onnxruntime, tokenizers and numpy are the ``nli`` extra, imported only when a judge is built.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .base import LABELS, JudgeError, JudgeFailure, Judgement, Probabilities

if TYPE_CHECKING:
    import numpy as np
    from tokenizers import Encoding, Tokenizer

logger = logging.getLogger("guardrail.judges")

INSTALL_HINT = "pip install 'guardrail[nli]'"
FEEDS = ("input_ids", "attention_mask", "token_type_ids")
DEFAULT_MAX_LENGTH = 512
CHARS_PER_TOKEN = 3
HYPOTHESIS_TOKENS = 64
"""Room left in the window for the claim: a premise window of ``window_chars`` plus a claim of about this many
tokens fits the model without truncation."""
# These families number positions from pad_token_id + 1, so max_position_embeddings overstates the usable length
# (514 for RoBERTa: feeding 514 tokens fails).
OFFSET_POSITIONS = frozenset({"roberta", "xlm-roberta", "camembert", "longformer", "bart", "mbart", "xlm-roberta-xl",
                              "data2vec-text", "markuplm", "ibert", "mpnet"})


def _runtime() -> tuple[Any, Any, Any]:
    try:
        import numpy
        import onnxruntime
        import tokenizers
    except ImportError as exc:
        raise JudgeError(f"the onnx judge needs onnxruntime, tokenizers and numpy ({exc.name or exc} is missing): "
                         f"{INSTALL_HINT}") from exc
    return numpy, onnxruntime, tokenizers


def _model_file(directory: Path) -> Path:
    if (directory / "model.onnx").is_file():
        return directory / "model.onnx"
    found = sorted(p for p in directory.glob("*.onnx") if p.is_file())
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise JudgeError(f"{directory}: several .onnx files ({names}) and no model.onnx: keep one, or name the one "
                         "to use model.onnx")
    if found:
        return found[0]
    if (directory / "onnx" / "model.onnx").is_file():
        return directory / "onnx" / "model.onnx"
    raise JudgeError(f"{directory}: no model.onnx (nor any .onnx file) in the model directory")


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise JudgeError(f"{path}: missing from the model directory")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JudgeError(f"{path}: not readable JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise JudgeError(f"{path}: expected a JSON object")
    return data


def _label_columns(config: dict[str, Any], path: Path) -> tuple[int, int, int]:
    """The logit columns of entailment, neutral and contradiction, from ``id2label`` (names in any case)."""
    id2label = config.get("id2label")
    if not isinstance(id2label, dict) or not id2label:
        raise JudgeError(f"{path}: id2label is missing: it must map the logits to entailment, neutral and "
                         "contradiction")
    columns: dict[str, int] = {}
    for key, name in id2label.items():
        try:
            column = int(key)
        except (TypeError, ValueError):
            raise JudgeError(f"{path}: id2label key {key!r} is not a logit index") from None
        if not isinstance(name, str):
            raise JudgeError(f"{path}: id2label[{key!r}] is not a label name")
        columns[name.strip().lower()] = column
    if set(columns) != set(LABELS) or sorted(columns.values()) != [0, 1, 2]:
        got = ", ".join(f"{k}: {v}" for k, v in sorted(id2label.items(), key=lambda kv: str(kv[0])))
        raise JudgeError(f"{path}: id2label must name entailment, neutral and contradiction (any case) for logits "
                         f"0, 1 and 2; got {{{got}}}")
    return columns["entailment"], columns["neutral"], columns["contradiction"]


def _max_length(config: dict[str, Any], directory: Path, path: Path) -> int:
    extra = directory / "tokenizer_config.json"
    if extra.is_file():
        try:
            value = json.loads(extra.read_text(encoding="utf-8")).get("model_max_length")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            value = None
        # Hugging Face writes a huge sentinel when the tokenizer sets no limit.
        if isinstance(value, int) and 0 < value < 1_000_000:
            return value
    positions = config.get("max_position_embeddings")
    if positions is None:
        return DEFAULT_MAX_LENGTH
    if not isinstance(positions, int) or isinstance(positions, bool) or positions < 1:
        raise JudgeError(f"{path}: max_position_embeddings must be a positive integer")
    pad = config.get("pad_token_id")
    if str(config.get("model_type", "")).lower() in OFFSET_POSITIONS and isinstance(pad, int):
        positions -= pad + 1
    return positions


def _digest(files: Sequence[Path], *extra: str) -> str:
    sha = hashlib.sha256()
    for file in files:
        with file.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                sha.update(chunk)
        sha.update(b"\0")
    for text in extra:
        sha.update(text.encode())
    return sha.hexdigest()[:12]


class OnnxJudge:
    """A cross-encoder NLI model in a local directory, run with onnxruntime on CPU.

    ``max_length`` (tokens, premise and hypothesis together) defaults to the tokenizer's ``model_max_length``
    (``tokenizer_config.json``), else ``max_position_embeddings`` in ``config.json``, else 512; ``threads`` sets
    onnxruntime's intra-op threads (its default: one per core).
    """

    name: ClassVar[str] = "onnx"

    def __init__(self, directory: str | os.PathLike[str], *, batch_size: int = 16, max_length: int | None = None,
                 threads: int | None = None) -> None:
        if batch_size < 1:
            raise JudgeError(f"batch_size must be at least 1, got {batch_size}")
        if threads is not None and threads < 1:
            raise JudgeError(f"threads must be at least 1, got {threads}")
        folder = Path(directory).expanduser()
        if not folder.is_dir():
            raise JudgeError(f"{folder}: model directory not found")
        np, ort, tokenizers = _runtime()
        self._np = np
        self.directory = folder
        self.batch_size = batch_size
        model_path = _model_file(folder)
        config_path, tokenizer_path = folder / "config.json", folder / "tokenizer.json"
        config = _read_json(config_path)
        self._columns = _label_columns(config, config_path)
        if not tokenizer_path.is_file():
            raise JudgeError(f"{tokenizer_path}: missing from the model directory")
        self.max_length = max_length if max_length is not None else _max_length(config, folder, config_path)
        try:
            tokenizer: Tokenizer = tokenizers.Tokenizer.from_file(str(tokenizer_path))
        except Exception as exc:  # the tokenizers library raises plain Exception for a bad file
            raise JudgeError(f"{tokenizer_path}: not a tokenizers file: {exc}") from exc
        special = tokenizer.num_special_tokens_to_add(True)
        if self.max_length < special + 2:
            raise JudgeError(f"max_length {self.max_length} leaves no room for a premise and a hypothesis")
        tokenizer.no_padding()  # padded here, per batch, with the model's pad id
        # A copy that trims the longest side, for a claim too long to fit beside any premise (rare); two tokenizers
        # rather than one switched back and forth, so that concurrent calls never see the other's setting.
        fallback = tokenizers.Tokenizer.from_str(tokenizer.to_str())
        tokenizer.enable_truncation(self.max_length, strategy="only_first")
        fallback.enable_truncation(self.max_length, strategy="longest_first")
        self._tokenizer, self._fallback = tokenizer, fallback
        self._pad_id = self._find_pad_id(config, tokenizer)
        self._session, self._feeds, self._output = self._open(np, ort, model_path, threads)
        digest = _digest([model_path, config_path, tokenizer_path], str(self.max_length))
        self.version = f"{folder.resolve().name}@{digest}"
        room = self.max_length - special - min(HYPOTHESIS_TOKENS, self.max_length // 4)
        self.window_chars = max(CHARS_PER_TOKEN * room, 32)

    @staticmethod
    def _find_pad_id(config: dict[str, Any], tokenizer: Tokenizer) -> int:
        pad = config.get("pad_token_id")
        if isinstance(pad, int) and not isinstance(pad, bool) and pad >= 0:
            return pad
        for token in ("[PAD]", "<pad>", "<|pad|>"):
            found = tokenizer.token_to_id(token)
            if found is not None:
                return int(found)
        return 0

    @staticmethod
    def _open(np: Any, ort: Any, path: Path, threads: int | None) -> tuple[Any, dict[str, Any], str]:
        options = ort.SessionOptions()
        options.inter_op_num_threads = 1
        if threads is not None:
            options.intra_op_num_threads = threads
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception classes, not importable portably
            raise JudgeError(f"{path}: onnxruntime cannot load the model: {exc}") from exc
        dtypes = {"tensor(int64)": np.int64, "tensor(int32)": np.int32}
        feeds: dict[str, Any] = {}
        for declared in session.get_inputs():
            if declared.name not in FEEDS:
                raise JudgeError(f"{path}: model input {declared.name!r} is not one of {', '.join(FEEDS)}")
            if declared.type not in dtypes:
                raise JudgeError(f"{path}: model input {declared.name!r} has type {declared.type}, expected int64 "
                                 "or int32")
            feeds[declared.name] = dtypes[declared.type]
        if "input_ids" not in feeds:
            raise JudgeError(f"{path}: the model takes no input_ids")
        outputs = session.get_outputs()
        output = next((o for o in outputs if o.name == "logits"), outputs[0])
        shape = output.shape
        if isinstance(shape, list) and len(shape) == 2 and isinstance(shape[1], int) and shape[1] != 3:
            raise JudgeError(f"{path}: output {output.name!r} has {shape[1]} logits, expected 3 (one per NLI label)")
        return session, feeds, output.name

    def _encode(self, pairs: Sequence[tuple[str, str]]) -> list[Encoding]:
        try:
            return list(self._tokenizer.encode_batch(list(pairs)))
        except Exception:  # one pair whose hypothesis alone is too long fails the whole batch: redo one by one
            return [self._encode_one(premise, hypothesis) for premise, hypothesis in pairs]

    def _encode_one(self, premise: str, hypothesis: str) -> Encoding:
        try:
            return self._tokenizer.encode(premise, hypothesis)
        except Exception:  # the hypothesis alone does not fit: trim both, longest first
            return self._fallback.encode(premise, hypothesis)

    def _arrays(self, encodings: Sequence[Encoding]) -> dict[str, np.ndarray]:
        np = self._np
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = 1
            types[row, :n] = encoding.type_ids
        arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {name: arrays[name].astype(dtype, copy=False) for name, dtype in self._feeds.items()}

    def _run(self, encodings: Sequence[Encoding]) -> list[Judgement]:
        np = self._np
        try:
            (logits,) = self._session.run([self._output], self._arrays(encodings))
        except Exception as exc:  # a failing model is a judgement that could not be made, not a crash
            if len(encodings) > 1:  # find the pairs that fail: the others still get their judgement
                return [judgement for encoding in encodings for judgement in self._run([encoding])]
            message = str(exc).splitlines()[0][:200] if str(exc) else ""
            reason = f"model failed: {type(exc).__name__}: {message}"
            logger.warning("onnx judge: %s", reason)
            return [JudgeFailure(reason)]
        logits = np.asarray(logits, dtype=np.float64)
        if logits.shape != (len(encodings), 3):
            raise JudgeError(f"{self.directory}: the model returned logits of shape {logits.shape}, expected "
                             f"({len(encodings)}, 3)")
        logits = logits[:, list(self._columns)]
        results: list[Judgement] = []
        for row in logits:
            if not np.isfinite(row).all():
                results.append(JudgeFailure("model returned non-finite logits"))
                continue
            exp = np.exp(row - row.max())
            e, n, c = (exp / exp.sum()).tolist()
            results.append(Probabilities(e, n, c))
        return results

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        """One judgement per ``(premise, hypothesis)`` pair, in order."""
        if not pairs:
            return []
        encodings = self._encode(pairs)
        # Similar lengths share a batch: less padding, and each result is independent of its neighbours.
        order = sorted(range(len(pairs)), key=lambda i: len(encodings[i].ids))
        results: dict[int, Judgement] = {}
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            results.update(zip(chunk, self._run([encodings[i] for i in chunk]), strict=True))
        return [results[i] for i in range(len(pairs))]
