"""Hypothesis properties of `compose` over every shipped scorer config."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchwright.model import CheckResult, Status
from benchwright.scoring import Scorer, compose, perfect_rows
from scoring.conftest import shipped

CONFIGS = [("sb6", None), ("sb7", None), ("sb52", None), ("ace", "L7_full_platform"),
           ("ace", "L3p_point_in_time")]  # fmt: skip
MEASURED = [c for c in CONFIGS if c[0] in ("sb6", "sb7")]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scores = st.one_of(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.floats(0.0, 1.0))
statuses = st.sampled_from(list(Status))


@cache
def scorer_for(name: str, rung: str | None) -> Scorer:
    return shipped(name, rung)


def runs(config: tuple[str, str | None]) -> st.SearchStrategy[list[CheckResult]]:
    """Random complete rows files for a scorer: any status, any score."""
    scorer = scorer_for(*config)
    n = len(scorer.wanted)
    pairs = st.lists(st.tuples(statuses, scores), min_size=n, max_size=n)
    return pairs.map(
        lambda ps: [
            CheckResult(c, s, v, "random") for c, (s, v) in zip(scorer.wanted, ps, strict=True)
        ]
    )


def _dedupe_roots(scorer: Scorer) -> set[str]:
    """Critical roots whose recovery can unsuppress dependents (see the pinned exception)."""
    crit = scorer.config.criticals
    if crit is None or not crit.dedupe_by_root:
        return set()
    critical = {c.check for c in crit.checks}
    return {r for r, deps in scorer.config.roots.items() if r in critical and critical & set(deps)}


def _replace(rows: list[CheckResult], i: int, row: CheckResult) -> list[CheckResult]:
    """``rows`` with row ``i`` swapped for ``row``."""
    return [*rows[:i], row, *rows[i + 1 :]]


@pytest.mark.parametrize("config", CONFIGS)
def test_a_perfect_run_scores_exactly_one(config: tuple[str, str | None]) -> None:
    scorer = scorer_for(*config)
    card = compose(perfect_rows(scorer), scorer)
    assert card.score == 1.0
    assert card.flags.excellent and not card.flags.partial


@pytest.mark.parametrize("config", CONFIGS)
@FAST
@given(data=st.data())
def test_every_score_is_in_the_unit_interval(
    config: tuple[str, str | None], data: st.DataObject
) -> None:
    scorer = scorer_for(*config)
    card = compose(data.draw(runs(config)), scorer)
    assert 0.0 <= card.score <= card.composed <= 1.0


@pytest.mark.parametrize("config", CONFIGS)
@FAST
@given(data=st.data())
def test_raising_one_score_never_lowers_the_total(
    config: tuple[str, str | None], data: st.DataObject
) -> None:
    scorer = scorer_for(*config)
    rows = data.draw(runs(config))
    i = data.draw(st.integers(0, len(rows) - 1))
    row = rows[i]
    if row.check_id in _dedupe_roots(scorer):
        return  # the seed's one-defect-multiplies-once rule; pinned in test_criticals
    higher = data.draw(st.floats(row.score, 1.0))
    raised = _replace(rows, i, CheckResult(row.check_id, row.status, higher, "raised"))
    assert compose(raised, scorer).score >= compose(rows, scorer).score


@pytest.mark.parametrize("config", MEASURED)
@FAST
@given(data=st.data())
def test_an_unavailable_row_leaves_its_tier_mean_and_clears_excellent(
    config: tuple[str, str | None], data: st.DataObject
) -> None:
    scorer = scorer_for(*config)
    rows = data.draw(runs(config))
    i = data.draw(st.integers(0, len(rows) - 1))
    check = rows[i].check_id
    gone = _replace(rows, i, CheckResult(check, Status.UNAVAILABLE, rows[i].score, "probe"))
    zero = _replace(rows, i, CheckResult(check, Status.FAIL, 0.0, "zero"))
    card, zero_card = compose(gone, scorer), compose(zero, scorer)
    assert not card.flags.excellent
    assert check in card.unavailable
    tier = scorer.tier_of.get(check)
    if tier is not None:
        without, with_zero = card.tier(tier).mean, zero_card.tier(tier).mean
        assert check in card.tier(tier).excluded
        assert with_zero is not None
        assert without is None or without >= with_zero - 1e-12


@pytest.mark.parametrize("config", CONFIGS)
@FAST
@given(data=st.data())
def test_an_unavailable_row_always_clears_excellent(
    config: tuple[str, str | None], data: st.DataObject
) -> None:
    scorer = scorer_for(*config)
    rows = perfect_rows(scorer)
    i = data.draw(st.integers(0, len(rows) - 1))
    status = data.draw(st.sampled_from([Status.UNAVAILABLE, Status.SKIPPED, Status.INFRA]))
    rows[i] = CheckResult(rows[i].check_id, status, 1.0, "probe could not measure")
    card = compose(rows, scorer)
    assert not card.flags.excellent
    assert card.flags.partial


@pytest.mark.parametrize("config", CONFIGS)
@FAST
@given(data=st.data())
def test_a_missing_wanted_row_counts_as_fail(
    config: tuple[str, str | None], data: st.DataObject
) -> None:
    scorer = scorer_for(*config)
    rows = data.draw(runs(config))
    i = data.draw(st.integers(0, len(rows) - 1))
    check = rows[i].check_id
    missing = compose([*rows[:i], *rows[i + 1 :]], scorer)
    failed = compose(_replace(rows, i, CheckResult(check, Status.FAIL, 0.0, "x")), scorer)
    assert missing.score == failed.score
    assert missing.row(check).status is Status.FAIL
    assert missing.row(check).missing
    assert missing.row(check).counted == 0.0
