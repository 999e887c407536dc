"""Critical multipliers (transforms, compounding, one-defect dedupe) and root attribution."""

from __future__ import annotations

import pytest

from benchwright.model import Status
from benchwright.scoring import compose
from benchwright.scoring.config import CriticalEntry
from benchwright.scoring.criticals import severity
from scoring.conftest import shipped, with_rows

FAIL = Status.FAIL


@pytest.mark.parametrize(
    ("transform", "extra", "score", "expected"),
    [
        ("linear", {}, 0.714, 0.714),
        ("cliff", {}, 0.99, 0.0),          # wrong money: any shortfall is severity 0
        ("cliff", {}, 1.0, 1.0),
        ("cliff", {"below": 0.4}, 0.39, 0.0),  # server_runs: below 0.4 the input is 0
        ("cliff", {"below": 0.4}, 0.6, 0.6),
        ("data_loss", {}, 0.9, 0.5),       # any confirmed loss caps severity at 0.5
        ("data_loss", {}, 0.3, 0.3),
        ("data_loss", {}, 1.0, 1.0),
        ("presence", {}, 0.5, 1.0),        # j_loads_data: only a total absence counts
        ("presence", {}, 0.0, 0.0),
    ],
)  # fmt: skip
def test_severity_transforms(transform: str, extra: dict, score: float, expected: float) -> None:
    entry = CriticalEntry(check="x", consequence="c", transform=transform, **extra)  # type: ignore[arg-type]
    assert severity(entry, score) == expected


def test_criticals_compound() -> None:
    scorer = shipped("sb6")
    rows = with_rows(scorer, b_summary_currency=(FAIL, 0.0), h_durability=(FAIL, 0.0))
    card = compose(rows, scorer)
    assert [f.check_id for f in card.factors if f.applied] == ["b_summary_currency", "h_durability"]
    assert card.score == round(card.composed * 0.6 * 0.6, 4)


def test_an_unmeasured_critical_never_multiplies() -> None:
    scorer = shipped("sb7")
    card = compose(with_rows(scorer, b_money_rendered=(Status.UNAVAILABLE, 0.0)), scorer)
    factor = next(f for f in card.factors if f.check_id == "b_money_rendered")
    assert factor.factor == 1.0 and factor.score is None
    assert "b_money_rendered" in card.unavailable


def test_sb7_a_critical_root_multiplies_once_for_its_dependents() -> None:
    scorer = shipped("sb7")
    rows = with_rows(
        scorer,
        sync_completeness=(FAIL, 0.4),
        b_money_rendered=(FAIL, 0.0),
        r_no_row_loss=(FAIL, 0.0),
    )
    card = compose(rows, scorer)
    applied = {f.check_id: f.factor for f in card.factors if f.applied}
    assert applied == {"sync_completeness": 0.76}  # 0.6 + 0.4 x min(0.4, 0.5)
    suppressed = {f.check_id: f.suppressed_by for f in card.factors if f.suppressed_by}
    assert suppressed == {
        "b_money_rendered": "sync_completeness",
        "r_no_row_loss": "sync_completeness",
    }
    assert card.score == round(card.composed * 0.76, 4)


def test_sb7_dedupe_is_transitive_through_a_suppressed_root() -> None:
    scorer = shipped("sb7")
    rows = with_rows(
        scorer, server_runs=(FAIL, 0.0), sync_completeness=(FAIL, 0.0), x_no_lost_write=(FAIL, 0.0)
    )
    card = compose(rows, scorer)
    assert [f.check_id for f in card.factors if f.applied] == ["server_runs"]
    by_id = {f.check_id: f.suppressed_by for f in card.factors}
    assert by_id["sync_completeness"] == "server_runs"
    assert by_id["x_no_lost_write"] == "sync_completeness"


def test_sb6_does_not_dedupe_multipliers() -> None:
    scorer = shipped("sb6")
    rows = with_rows(scorer, sync_completeness=(FAIL, 0.5), b_buckets_dst=(FAIL, 0.0))
    card = compose(rows, scorer)
    assert {f.check_id for f in card.factors if f.applied} == {"sync_completeness", "b_buckets_dst"}


def test_pinned_exception_fixing_a_critical_root_can_expose_its_dependents() -> None:
    """The seed's dedupe makes the total non-monotone at exactly one point: the root's repair.

    While sync_completeness is short it prices b_money_rendered's cliff once (x0.96);
    once it is perfect, the wrong-money cliff multiplies on its own (x0.6). This is
    the seed's rule (§11), so the monotonicity property excludes critical roots.
    """
    scorer = shipped("sb7")
    short = compose(
        with_rows(scorer, sync_completeness=(FAIL, 0.99), b_money_rendered=(FAIL, 0.0)), scorer
    )
    fixed = compose(with_rows(scorer, b_money_rendered=(FAIL, 0.0)), scorer)
    assert fixed.score < short.score


def test_attribution_reads_one_defect_and_never_changes_a_score() -> None:
    scorer = shipped("sb6")
    deps = [
        "payment_row_shape",
        "total_field",
        "chronological_order",
        "b_summary_currency",
        "summary_bounds_utc",
        "b_buckets_dst",
        "row_integrity",
        "h_sync_discipline",
    ]
    rows = with_rows(scorer, sync_completeness=(FAIL, 0.9), **{d: (FAIL, 0.5) for d in deps})
    card = compose(rows, scorer)
    (attribution,) = card.attribution
    assert attribution.root == "sync_completeness"
    assert attribution.dependents == tuple(deps)
    assert attribution.line().endswith("ONE defect, not 9")
    no_roots = scorer.config.model_copy(update={"roots": {}})
    plain = compose(rows, type(scorer)(no_roots, scorer.source, scorer.thresholds))
    assert plain.score == card.score and plain.attribution == ()


def test_a_perfect_root_attributes_nothing() -> None:
    scorer = shipped("sb6")
    card = compose(with_rows(scorer, total_field=(FAIL, 0.5)), scorer)
    assert card.attribution == ()


def test_a_blocking_row_is_the_root_of_the_rows_it_blocked() -> None:
    """An app that never booted: every row it blocked names ``server_runs``
    (``blocked_by`` evidence), so the boot is the one root, not ``sync_completeness`` (a
    configured root that is itself blocked), and the score is what it was without it."""
    from dataclasses import replace

    scorer = shipped("sb6")
    blocked = ["sync_completeness", "payment_row_shape", "total_field", "j_first_use"]
    rows = with_rows(scorer, server_runs=(FAIL, 0.0), **{d: (FAIL, 0.0) for d in blocked})
    marked = [replace(r, evidence={"blocked_by": "server_runs"}) if r.check_id in blocked
              else r for r in rows]  # fmt: skip
    card = compose(marked, scorer)
    (attribution,) = card.attribution
    assert attribution.root == "server_runs"
    assert set(attribution.dependents) == set(blocked)
    unmarked = compose(rows, scorer)
    assert [a.root for a in unmarked.attribution] == ["sync_completeness"]
    assert unmarked.score == card.score
