"""The onnx judge on tiny models built here (tests/nli_model.py): label order, batching, padding, truncation, errors."""

from __future__ import annotations

import json
import math
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")
pytest.importorskip("onnx")

import numpy as np
import onnxruntime as ort
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nli_model import ORDER, build_model

from guardrail.judges import JudgeError, JudgeFailure, Probabilities, load_judge
from guardrail.judges.onnx import OnnxJudge

PAIRS = [
    ("leave is 25 days", "leave is 25 days"),
    ("the office closes in march", "the office closes"),
    ("laptops are replaced every three years", "laptops are replaced every 5 years"),
    ("employees get 25 paid annual leave days", "employees get leave"),
    ("leave", "days"),
    ("the office closes in march and laptops are replaced every three years", "march"),
    ("unknown words here", "more unknown words"),
]
SIGNALS = {"yes": "entailment", "no": "contradiction"}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def random_dir(models: Path) -> Path:
    return build_model(models / "random", seed=7)


@pytest.fixture(scope="module")
def judge(random_dir: Path) -> OnnxJudge:
    return OnnxJudge(random_dir)


@pytest.fixture(scope="module")
def signal_judge(models: Path) -> OnnxJudge:
    return OnnxJudge(build_model(models / "signals", signals=SIGNALS, max_positions=16))


def probabilities(results: list[Probabilities | JudgeFailure]) -> list[Probabilities]:
    assert all(isinstance(r, Probabilities) for r in results), results
    return [r for r in results if isinstance(r, Probabilities)]


def close(a: Probabilities, b: Probabilities) -> bool:
    return all(math.isclose(x, y, rel_tol=1e-5, abs_tol=1e-6) for x, y in zip(a, b, strict=True))


def test_results_are_distributions_in_order(judge: OnnxJudge) -> None:
    results = probabilities(judge.judge(PAIRS))
    assert len(results) == len(PAIRS)
    for r in results:
        assert math.isclose(sum(r), 1.0, abs_tol=1e-9) and all(0 <= p <= 1 for p in r)
    assert len({round(r.entailment, 6) for r in results}) > 1  # the pairs are told apart
    assert judge.judge([]) == []


@pytest.mark.parametrize("order", [("entailment", "neutral", "contradiction"), ("NEUTRAL", "Contradiction",
                                                                              "ENTAILMENT")])
def test_label_order_follows_id2label(models: Path, judge: OnnxJudge, order: tuple[str, ...]) -> None:
    # Same weights (same seed), other names for the logits: each logit's probability moves to its new name.
    permuted = OnnxJudge(build_model(models / f"permuted-{'-'.join(order)}", seed=7, id2label=order))
    for base, moved in zip(probabilities(judge.judge(PAIRS)), probabilities(permuted.judge(PAIRS)), strict=True):
        for column in range(3):
            assert math.isclose(getattr(base, ORDER[column]), getattr(moved, order[column].lower()), rel_tol=1e-6)
    assert permuted.version != judge.version


@pytest.mark.parametrize("batch_size", [1, 2, 3, 16])
def test_batching_gives_the_same_results_as_one_by_one(random_dir: Path, judge: OnnxJudge, batch_size: int) -> None:
    alone = [probabilities(judge.judge([pair]))[0] for pair in PAIRS]
    batched = probabilities(OnnxJudge(random_dir, batch_size=batch_size).judge(PAIRS * 3))
    assert all(close(a, b) for a, b in zip(alone * 3, batched, strict=True))


def test_padding_does_not_change_results(judge: OnnxJudge) -> None:
    short, long = ("leave", "days"), ("the office closes in march and laptops are replaced every three years", "no")
    alone = probabilities(judge.judge([short]))[0]
    padded = probabilities(OnnxJudge(judge.directory, batch_size=2).judge([short, long]))[0]
    assert close(alone, padded)
    # The control: the model does notice padding when the mask is not honoured, so the check above means something.
    feeds = judge._arrays(judge._encode([short, long]))
    honoured = judge._session.run(None, feeds)[0][0]
    feeds["attention_mask"][:] = 1
    ignored = judge._session.run(None, feeds)[0][0]
    assert not np.allclose(honoured, ignored)


@pytest.mark.parametrize(("hypothesis", "label"), [("yes", "entailment"), ("no", "contradiction"),
                                                    ("maybe", "neutral"), ("leave is yes", "entailment")])
def test_hand_set_model_gives_the_expected_label(signal_judge: OnnxJudge, hypothesis: str, label: str) -> None:
    (result,) = probabilities(signal_judge.judge([("leave is 25 days", hypothesis)]))
    assert result.label == label
    assert getattr(result, label) > 0.9


def test_long_premise_is_truncated_premise_first(signal_judge: OnnxJudge) -> None:
    premise = " ".join(["leave is 25 days"] * 200)
    encodings = signal_judge._encode([(premise, "no"), ("days", "yes")])
    assert [len(e.ids) for e in encodings] == [16, 5]
    assert encodings[0].tokens[-3:] == ["[SEP]", "no", "[SEP]"]  # the claim survives whole
    results = probabilities(signal_judge.judge([(premise, "no"), (premise + " yes", "maybe")]))
    assert [r.label for r in results] == ["contradiction", "neutral"]  # the premise's last word was cut


def test_a_hypothesis_longer_than_the_model_still_fits(signal_judge: OnnxJudge) -> None:
    pairs = [("days", " ".join(["leave"] * 40) + " yes"), ("leave is 25 days", "yes")]
    assert all(len(e.ids) <= signal_judge.max_length for e in signal_judge._encode(pairs))
    assert len(probabilities(signal_judge.judge(pairs))) == 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.text(max_size=300), st.text(max_size=120)), max_size=6))
def test_any_text_gives_distributions_within_the_max_length(signal_judge: OnnxJudge,
                                                            pairs: list[tuple[str, str]]) -> None:
    assert all(len(e.ids) <= signal_judge.max_length for e in signal_judge._encode(pairs))
    results = probabilities(signal_judge.judge(pairs))
    assert len(results) == len(pairs) and all(math.isclose(sum(r), 1.0, abs_tol=1e-9) for r in results)


def test_a_model_without_token_type_ids_or_with_int32_inputs(models: Path, judge: OnnxJudge) -> None:
    plain = OnnxJudge(build_model(models / "no-types", seed=7, token_type_ids=False, int32=True))
    assert set(plain._feeds) == {"input_ids", "attention_mask"}
    assert len(probabilities(plain.judge(PAIRS))) == len(PAIRS)


def test_a_sequence_the_model_rejects_is_a_failure_not_a_crash(models: Path) -> None:
    # max_length above the model's position table: onnxruntime fails on the long pair only.
    # A failing batch is rerun pair by pair, so the pairs that fit still get their judgement.
    judge = OnnxJudge(build_model(models / "short-positions", max_positions=8, seed=1), max_length=64)
    long, short = ("leave is 25 days and the office closes in march", "days"), ("leave", "days")
    failed, fine, again = judge.judge([long, short, short])
    assert isinstance(failed, JudgeFailure) and failed.reason.startswith("model failed:")
    assert "leave" not in failed.reason
    assert isinstance(fine, Probabilities) and fine == again


@pytest.mark.parametrize(("config", "tokenizer_config", "expected"), [
    ({"max_position_embeddings": 64}, None, 64),
    ({"max_position_embeddings": None}, None, 512),
    ({"model_type": "roberta", "max_position_embeddings": 514, "pad_token_id": 1}, None, 512),
    ({"max_position_embeddings": 64}, {"model_max_length": 32}, 32),
    ({"max_position_embeddings": 64}, {"model_max_length": 1000000000000000019884624838656}, 64),
])
def test_max_length_and_window(models: Path, config: dict[str, object], tokenizer_config: dict[str, object] | None,
                               expected: int) -> None:
    directory = build_model(models / f"length-{expected}-{len(config)}-{tokenizer_config is None}", config=config)
    if tokenizer_config is not None:
        (directory / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    judge = OnnxJudge(directory)
    assert judge.max_length == expected
    assert judge.window_chars == 3 * (expected - 3 - min(64, expected // 4))
    assert OnnxJudge(directory, max_length=20).max_length == 20


def test_version_names_the_model_and_follows_its_files(models: Path, random_dir: Path, judge: OnnxJudge) -> None:
    assert judge.name == "onnx"
    assert judge.version == OnnxJudge(random_dir).version
    name, _, digest = judge.version.partition("@")
    assert name == "random" and len(digest) == 12
    other = build_model(models / "random-copy", seed=7)
    assert OnnxJudge(other).version.endswith(digest)  # same files, same digest
    config = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "pad_token_id": 1}))
    assert not OnnxJudge(other).version.endswith(digest)


def test_load_judge_builds_it_and_finds_the_only_onnx_file(models: Path) -> None:
    directory = build_model(models / "named", model_file="nli-tiny.onnx", signals=SIGNALS)
    judge = load_judge(f"onnx:{directory}")
    assert isinstance(judge, OnnxJudge)
    (result,) = judge.judge([("leave", "yes")])
    assert isinstance(result, Probabilities) and result.label == "entailment"


Damage = Callable[[Path], object]


def _remove(name: str) -> Damage:
    return lambda d: (d / name).unlink()


def _config(value: object) -> Damage:
    return lambda d: (d / "config.json").write_text(value if isinstance(value, str) else json.dumps(value))


@pytest.mark.parametrize(("damage", "message"), [
    (_remove("tokenizer.json"), "tokenizer.json: missing from the model directory"),
    (_remove("config.json"), "config.json: missing from the model directory"),
    (_remove("model.onnx"), ": no model.onnx (nor any .onnx file) in the model directory"),
    (lambda d: [(d / "model.onnx").rename(d / "a.onnx"), shutil.copy(d / "a.onnx", d / "b.onnx")],
     "several .onnx files (a.onnx, b.onnx) and no model.onnx"),
    (_config("{not json"), "config.json: not readable JSON"),
    (_config([1, 2]), "config.json: expected a JSON object"),
    (_config({"max_position_embeddings": 16}), "config.json: id2label is missing"),
    (_config({"id2label": {"0": "entailment", "1": "not_entailment"}}),
     "id2label must name entailment, neutral and contradiction (any case) for logits 0, 1 and 2; "
     "got {0: entailment, 1: not_entailment}"),
    (_config({"id2label": {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}}), "id2label must name entailment"),
    (_config({"id2label": {"x": "entailment"}}), "id2label key 'x' is not a logit index"),
    (_config({"id2label": {"0": "entailment", "1": "neutral", "2": "contradiction"}, "max_position_embeddings": "x"}),
     "max_position_embeddings must be a positive integer"),
    (lambda d: (d / "tokenizer.json").write_text("{}"), "tokenizer.json: not a tokenizers file"),
    (lambda d: (d / "model.onnx").write_bytes(b"not a model"), "model.onnx: onnxruntime cannot load the model"),
])
def test_errors_name_the_file(tmp_path: Path, damage: Damage, message: str) -> None:
    directory = build_model(tmp_path / "model")
    damage(directory)
    with pytest.raises(JudgeError) as raised:
        OnnxJudge(directory)
    assert message in str(raised.value)
    assert str(directory) in str(raised.value)


def test_a_missing_directory_and_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match=r"nowhere: model directory not found"):
        OnnxJudge(tmp_path / "nowhere")
    with pytest.raises(JudgeError, match=r"unknown judge"):
        load_judge("onnx:")
    directory = build_model(tmp_path / "model")
    with pytest.raises(JudgeError, match="batch_size must be at least 1"):
        OnnxJudge(directory, batch_size=0)
    with pytest.raises(JudgeError, match="leaves no room"):
        OnnxJudge(directory, max_length=4)
    assert OnnxJudge(directory, threads=1).judge([("leave", "days")])


def test_an_unknown_model_input_is_refused(tmp_path: Path) -> None:
    import onnx

    directory = build_model(tmp_path / "model")
    model = onnx.load(str(directory / "model.onnx"))
    model.graph.input.append(onnx.helper.make_tensor_value_info("pixel_values", onnx.TensorProto.FLOAT, [1]))
    onnx.save(model, str(directory / "model.onnx"))
    with pytest.raises(JudgeError, match="model input 'pixel_values' is not one of input_ids, attention_mask, "
                                         "token_type_ids"):
        OnnxJudge(directory)


def test_a_missing_extra_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch, random_dir: Path) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(JudgeError, match=r"onnxruntime is missing\): pip install 'guardrail\[nli\]'"):
        OnnxJudge(random_dir)


def test_threads_reach_onnxruntime(monkeypatch: pytest.MonkeyPatch, random_dir: Path) -> None:
    seen: list[int] = []
    real = ort.InferenceSession

    def session(path: str, sess_options: ort.SessionOptions, providers: list[str]) -> ort.InferenceSession:
        seen.append(sess_options.intra_op_num_threads)
        assert providers == ["CPUExecutionProvider"]
        return real(path, sess_options=sess_options, providers=providers)

    monkeypatch.setattr(ort, "InferenceSession", session)
    OnnxJudge(random_dir, threads=2)
    assert seen == [2]

