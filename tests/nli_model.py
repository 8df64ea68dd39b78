"""Build a tiny ONNX "cross-encoder" NLI model in a directory, the way a real one is laid out, for the judge's tests.

The graph looks up token, position and segment embeddings, mean-pools them over the attention mask and projects the
result to one logit per label::

    logits = mean_{i: mask_i = 1}(E[input_ids_i] + P[i] + T[token_type_ids_i]) @ W + b

``P`` has ``max_positions`` rows, so a sequence longer than that fails inside onnxruntime, as it does in a real
transformer. With ``signals`` the weights are set by hand: a signal word pushes its label's logit up, so the expected
label is known; without, the weights are random (seeded): only the plumbing is under test then.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, pre_tokenizers, processors

SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]")
WORDS = ("leave", "is", "days", "the", "office", "closes", "in", "march", "laptops", "are", "replaced", "every",
         "three", "years", "yes", "no", "maybe", "25", "5", "10", "employees", "get", "paid", "annual")
ORDER = ("contradiction", "entailment", "neutral")


def vocabulary(words: Sequence[str] = WORDS) -> dict[str, int]:
    """Token ids: the special tokens first, then the words."""
    return {token: i for i, token in enumerate((*SPECIAL, *words))}


def build_tokenizer(words: Sequence[str] = WORDS) -> Tokenizer:
    """A BERT-shaped WordLevel tokenizer: ``[CLS] premise [SEP] hypothesis [SEP]``, segment 1 for the hypothesis."""
    vocab = vocabulary(words)
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(  # type: ignore[assignment]
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    return tokenizer


def build_graph(weights: Mapping[str, np.ndarray], *, token_type_ids: bool = True,
                int32: bool = False) -> onnx.ModelProto:
    """The pooled-embedding classifier over ``weights`` (``E``, ``P``, ``T``, ``W``, ``b``)."""
    index = TensorProto.INT32 if int32 else TensorProto.INT64
    inputs = [helper.make_tensor_value_info("input_ids", index, ["batch", "sequence"]),
              helper.make_tensor_value_info("attention_mask", index, ["batch", "sequence"])]
    if token_type_ids:
        inputs.append(helper.make_tensor_value_info("token_type_ids", index, ["batch", "sequence"]))
    labels = weights["W"].shape[1]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])
    constants = {
        "one_index": np.array(1, dtype=np.int64), "zero": np.array(0, dtype=np.int64),
        "one": np.array(1, dtype=np.int64), "axis_sequence": np.array([1], dtype=np.int64),
        "axis_feature": np.array([2], dtype=np.int64),
    }
    initializers = [numpy_helper.from_array(np.asarray(value, dtype=np.float32), name)
                    for name, value in weights.items() if name != "T" or token_type_ids]
    initializers += [numpy_helper.from_array(value, name) for name, value in constants.items()]
    nodes = [
        helper.make_node("Gather", ["E", "input_ids"], ["tokens"]),
        helper.make_node("Shape", ["input_ids"], ["shape"]),
        helper.make_node("Gather", ["shape", "one_index"], ["length"], axis=0),
        helper.make_node("Range", ["zero", "length", "one"], ["positions"]),
        helper.make_node("Gather", ["P", "positions"], ["placed"]),
        helper.make_node("Add", ["tokens", "placed"], ["embedded"]),
    ]
    if token_type_ids:
        nodes += [helper.make_node("Gather", ["T", "token_type_ids"], ["segments"]),
                  helper.make_node("Add", ["embedded", "segments"], ["summed"])]
    else:
        nodes.append(helper.make_node("Identity", ["embedded"], ["summed"]))
    nodes += [
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "axis_feature"], ["mask3"]),
        helper.make_node("Mul", ["summed", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis_sequence"], ["total"], keepdims=0),
        helper.make_node("ReduceSum", ["mask3", "axis_sequence"], ["count"], keepdims=0),
        helper.make_node("Div", ["total", "count"], ["pooled"]),
        helper.make_node("MatMul", ["pooled", "W"], ["projected"]),
        helper.make_node("Add", ["projected", "b"], ["logits"]),
    ]
    graph = helper.make_graph(nodes, "tiny-nli", inputs, [output], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="guardrail-tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def random_weights(vocab_size: int, max_positions: int, *, labels: int = 3, dim: int = 8,
                   seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded random weights: the same seed gives the same model."""
    rng = np.random.default_rng(seed)
    return {"E": rng.normal(size=(vocab_size, dim)), "P": rng.normal(scale=0.3, size=(max_positions, dim)),
            "T": rng.normal(scale=0.3, size=(2, dim)), "W": rng.normal(size=(dim, labels)),
            "b": rng.normal(scale=0.1, size=(labels,))}


def signal_weights(vocab: Mapping[str, int], max_positions: int, id2label: Sequence[str],
                   signals: Mapping[str, str], *, strength: float = 100.0) -> dict[str, np.ndarray]:
    """Hand-set weights: each signal word adds ``strength`` to its label's logit; without one, neutral wins."""
    dim = len(id2label)
    columns = {label.lower(): i for i, label in enumerate(id2label)}
    embeddings = np.zeros((len(vocab), dim))
    for word, label in signals.items():
        embeddings[vocab[word], columns[label]] = strength
    bias = np.zeros(dim)
    bias[columns["neutral"]] = 3.0
    return {"E": embeddings, "P": np.zeros((max_positions, dim)), "T": np.zeros((2, dim)), "W": np.eye(dim),
            "b": bias}


def build_model(directory: Path, *, id2label: Sequence[str] = ORDER, max_positions: int = 64,
                signals: Mapping[str, str] | None = None, seed: int = 0, token_type_ids: bool = True,
                int32: bool = False, model_file: str = "model.onnx", config: Mapping[str, Any] | None = None,
                words: Sequence[str] = WORDS) -> Path:
    """Write ``model_file``, ``tokenizer.json`` and ``config.json`` to ``directory`` (created) and return it.

    ``config`` entries are merged over the generated config (a ``None`` value removes the key).
    """
    directory.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary(words)
    if signals is None:
        weights = random_weights(len(vocab), max_positions, labels=len(id2label), seed=seed)
    else:
        weights = signal_weights(vocab, max_positions, id2label, signals)
    onnx.save(build_graph(weights, token_type_ids=token_type_ids, int32=int32), str(directory / model_file))
    build_tokenizer(words).save(str(directory / "tokenizer.json"))
    settings: dict[str, Any] = {"model_type": "bert", "max_position_embeddings": max_positions, "pad_token_id": 0,
                                "id2label": {str(i): label for i, label in enumerate(id2label)},
                                "label2id": {label: i for i, label in enumerate(id2label)}}
    for key, value in (config or {}).items():
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value
    (directory / "config.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return directory
