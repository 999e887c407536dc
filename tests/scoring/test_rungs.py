"""Latency ladders (k_P tightens only the top rung) and compounds (gate x min)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.scoring import Rung, compound, ladder_score


@pytest.mark.parametrize(
    ("ms", "k_p", "score", "detail"),
    [
        (150, 1.0, 1.0, "1: 150 ms (rung <=150 ms; top <=150 ms)"),
        (151, 1.0, 0.75, "0.75: 151 ms (rung <=300 ms; top <=150 ms)"),
        (212, 1.0, 0.75, "0.75: 212 ms (rung <=300 ms; top <=150 ms)"),
        (600, 1.0, 0.5, "0.5: 600 ms (rung <=600 ms; top <=150 ms)"),
        (1200, 1.0, 0.25, "0.25: 1200 ms (rung <=1200 ms; top <=150 ms)"),
        (1201, 1.0, 0.0, "0: 1201 ms (beyond the last rung <=1200 ms; top <=150 ms)"),
        (140, 1.25, 0.75, "0.75: 140 ms (rung <=300 ms; top <=120 ms)"),  # top tightened
        (290, 1.25, 0.75, "0.75: 290 ms (rung <=300 ms; top <=120 ms)"),  # others unchanged
    ],
)  # fmt: skip
def test_latency_ladder(ms: float, k_p: float, score: float, detail: str) -> None:
    result = ladder_score(ms, k_p=k_p)
    assert (result.score, result.detail) == (score, detail)


@given(st.floats(0, 5000), st.floats(0, 5000))
def test_a_faster_measurement_never_scores_lower(a: float, b: float) -> None:
    fast, slow = sorted((a, b))
    assert ladder_score(fast).score >= ladder_score(slow).score


@pytest.mark.parametrize(
    "rungs", [[], [Rung(300, 1.0), Rung(150, 0.5)], [Rung(150, 0.5), Rung(300, 0.75)]]
)
def test_a_malformed_ladder_is_refused(rungs: list[Rung]) -> None:
    with pytest.raises(ValueError, match="rungs must be"):
        ladder_score(100, rungs)


@pytest.mark.parametrize(
    ("gate", "parts", "expected"),
    [(1.0, (1.0, 1.0, 1.0), 1.0), (1.0, (1.0, 0.5, 0.9), 0.5), (0.0, (1.0, 1.0), 0.0),
     (0.5, (0.8,), 0.4)],
)  # fmt: skip
def test_compound_is_gate_times_the_weakest(gate: float, parts: tuple, expected: float) -> None:
    assert compound(gate, *parts) == expected


@pytest.mark.parametrize(("gate", "parts"), [(1.0, ()), (1.2, (1.0,)), (1.0, (-0.1,))])
def test_compound_refuses_bad_inputs(gate: float, parts: tuple) -> None:
    with pytest.raises(ValueError):
        compound(gate, *parts)


def test_ladders_come_from_the_pinned_thresholds_with_k_p() -> None:
    from scoring.conftest import shipped

    scorer = shipped("sb6")
    result = ladder_score(170, scorer.rungs("p_buckets_latency"), k_p=scorer.k_p)
    assert result.detail == "1: 170 ms (rung <=200 ms; top <=200 ms)"
    with pytest.raises(KeyError, match="known: e_under_load_latency"):
        scorer.rungs("p_nope")
