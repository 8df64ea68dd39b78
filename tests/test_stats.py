"""Statistics against hand-computed values: Wilson intervals, Cohen's kappa, macro-F1, the cluster bootstrap, gates."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guardrail.stats import Gate, GateError, check_gates, cluster_bootstrap, cohen_kappa, macro_f1, proportion, wilson


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # By hand: centre = (p + z²/2n) / (1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n), z = 1.95996.
    (8, 10, 0.4902, 0.9433),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (45, 50, 0.7864, 0.9565),
    (1, 2, 0.0945, 0.9055),
    (500, 1000, 0.4691, 0.5309),
])
def test_wilson_against_hand_computed_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))


@given(n=st.integers(1, 10_000), data=st.data())
def test_wilson_contains_the_rate_and_stays_in_bounds(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_without_data_and_bad_counts() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert proportion(0, 0) == {"k": 0, "n": 0, "rate": None, "low": 0.0, "high": 1.0}
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_cohen_kappa_by_hand() -> None:
    # observed 5/6; expected .5·(2/6) + .5·(4/6) = .5; kappa = (5/6 - .5) / .5 = 2/3
    assert cohen_kappa(list("aabbab"), list("abbbab")) == pytest.approx(2 / 3)
    assert cohen_kappa(list("abab"), list("abab")) == 1.0
    assert cohen_kappa(list("abab"), list("baba")) == pytest.approx(-1.0)
    assert cohen_kappa(list("aaaa"), list("aaaa")) == 1.0
    with pytest.raises(ValueError):
        cohen_kappa(["a"], [])


def test_macro_f1_by_hand() -> None:
    gold, pred = list("eennc"), list("ennnc")
    # e: tp 1 fp 0 fn 1 -> 2/3; n: tp 2 fp 1 fn 0 -> 4/5; c: 1
    assert macro_f1(gold, pred, ["e", "n", "c"]) == pytest.approx((2 / 3 + 4 / 5 + 1) / 3)


def test_cluster_bootstrap_resamples_whole_answers() -> None:
    assert cluster_bootstrap([(3, 3)] * 5) == (1.0, 1.0)
    low, high = cluster_bootstrap([(1, 2), (2, 2), (0, 3), (5, 5)], iterations=4000)
    assert 0.0 < low < 8 / 12 < high <= 1.0
    assert cluster_bootstrap([(1, 2), (2, 2)], seed=7) == cluster_bootstrap([(1, 2), (2, 2)], seed=7)
    # Clustered: one answer with all 20 claims wrong and 19 right ones widen the interval beyond the Wilson one,
    # which would treat the 40 claims as independent.
    clusters = [(0, 20)] + [(1, 1)] * 20
    boot = cluster_bootstrap(clusters)
    assert boot[1] - boot[0] > wilson(20, 40)[1] - wilson(20, 40)[0]
    assert cluster_bootstrap([]) == (0.0, 1.0)


METRICS = {"citation_recall": proportion(90, 100), "hallucinated_source_rate": proportion(0, 100),
           "decision.blocked": proportion(3, 100)}


@pytest.mark.parametrize(("text", "holds"), [
    ("citation_recall>=0.9", True), ("citation_recall.rate>0.9", False), ("citation_recall.low>=0.8", True),
    ("citation_recall.low>=0.9", False), ("citation_recall.high<0.95", True), ("hallucinated_source_rate.k==0", True),
    ("citation_recall.n>=100", True), ("decision.blocked<=0.05", True), ("decision.blocked.high < 0.05", False),
])
def test_gates(text: str, holds: bool) -> None:
    assert Gate.parse(text).check(METRICS)[0] is holds
    assert bool(check_gates([Gate.parse(text)], METRICS)) is not holds


@pytest.mark.parametrize("text", ["citation_recall", "citation_recall=>0.8", "recall >= high", ">= 0.8", ""])
def test_malformed_gates(text: str) -> None:
    with pytest.raises(GateError):
        Gate.parse(text)


def test_unknown_metric_and_no_data() -> None:
    with pytest.raises(GateError, match="unknown metric 'citation_recal'"):
        Gate.parse("citation_recal>=0.8").check(METRICS)
    assert Gate.parse("x.rate>=0").check({"x": proportion(0, 0)}) == (False, None)
    assert check_gates([Gate.parse("x>=0")], {"x": proportion(0, 0)}) == ["gate failed: x>=0 (no data)"]
    # Nothing counted is no evidence of nothing wrong: a count's gate fails too, but one on how many were seen.
    assert check_gates([Gate.parse("x.k==0"), Gate.parse("x.k<=1")], {"x": proportion(0, 0)}) == [
        "gate failed: x.k==0 (no data)", "gate failed: x.k<=1 (no data)"]
    assert Gate.parse("x.n==0").check({"x": proportion(0, 0)}) == (True, 0.0)
    assert not math.isnan(Gate.parse("x.low>=0").check({"x": proportion(0, 0)})[1] or 0)
