"""docs/sb7.md's "Checks" chapter is the registry's: generated from ``scorers/sb7.yaml``
and ``suites/sb7/checks.yaml``, which must name exactly the scorer's ids (its 91 checks
and the excellence gate's ``console_clean`` evidence); each heading's sentence says what
the scorer does with the row, read from the scorer."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from benchwright.errors import SpecError
from benchwright.suites.kit.checks_chapter import chapter_of, row_weights
from benchwright.suites.sb7.docs_page import load_registry, main, render

REPO = Path(__file__).resolve().parents[3]
SUITE = REPO / "suites" / "sb7"
PAGE = REPO / "docs" / "sb7.md"
REGISTRY = load_registry(SUITE)


def test_the_docs_page_s_checks_chapter_is_the_generated_one() -> None:
    chapter = chapter_of(PAGE.read_text(encoding="utf-8"))
    assert chapter == render(REGISTRY), "docs/sb7.md is stale: run make docs-sb7"


def test_checks_yaml_names_every_scorer_id_and_no_other() -> None:
    doc = yaml.safe_load((SUITE / "checks.yaml").read_text(encoding="utf-8"))
    assert sorted(doc["checks"]) == sorted(REGISTRY.scorer.wanted)
    assert len(doc["checks"]) == 92  # 91 checks and the console_clean gate evidence
    assert list(doc["tiers"]) == list(REGISTRY.scorer.config.tiers)
    chapter = render(REGISTRY)
    for check in REGISTRY.scorer.wanted:
        assert chapter.count(f"#### `{check}`\n") == 1


def _drop_tier(doc: dict) -> None:
    del doc["tiers"]["E"]


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d["checks"].update(x_no_such_check={"earns": "x", "lowers": "y"}),
         "checks.x_no_such_check"),
        (lambda d: d["checks"].pop("r_cache_truth"), "checks.r_cache_truth"),
        (lambda d: d["checks"]["b_events_log"].update(home="B"), "checks.b_events_log.home"),
        (lambda d: d["checks"]["x_l4_convergence"].update(lowers=" "),
         "checks.x_l4_convergence.lowers"),
        (_drop_tier, "tiers"),
    ],
)  # fmt: skip
def test_a_checks_file_that_drifts_from_the_scorer_is_refused_naming_the_field(
    tmp_path: Path, edit, field: str
) -> None:
    doc = yaml.safe_load((SUITE / "checks.yaml").read_text(encoding="utf-8"))
    edit(doc)
    suite = tmp_path / "suites" / "sb7"
    suite.mkdir(parents=True)
    (suite / "checks.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_registry(suite)
    assert [f for f, _ in caught.value.problems] == [field]
    assert main(["--suite", str(suite)]) == 2


def test_row_weights_share_out_0_88_by_tier_and_the_0_12_slice_over_e() -> None:
    scorer = REGISTRY.scorer
    weights = row_weights(scorer)
    assert "j_loads_data" not in weights and "console_clean" not in weights
    assert weights["b_buckets_dst"] == pytest.approx(0.88 * 0.09 / 11)
    assert weights["x_no_lost_write"] == pytest.approx(0.88 * 0.16 / 12)
    assert weights["e_mastery"] == pytest.approx(0.12 / 5)
    assert sum(weights.values()) == pytest.approx(1.0)


def _sentence(check: str) -> str:
    chapter = render(REGISTRY)
    return chapter.split(f"#### `{check}`\n\n", 1)[1].split("\n", 1)[0]


def test_each_heading_says_what_the_scorer_does_with_the_row() -> None:
    assert _sentence("b_buckets_dst") == (
        "Tier B, gamma core; weight 0.720 % of the score. CRITICAL (wrong-money): multiplies "
        "the score by 0.6 + 0.4 x severity, severity read from the row's `severity_leg`, "
        "0 on any shortfall."
    )
    assert "severity 0 below 0.4, else the score. Root of 16 rows" in _sentence("server_runs")
    assert "capped at 0.5 on any shortfall" in _sentence("sync_completeness")
    assert "its multiplier stands for theirs" in _sentence("sync_completeness")
    assert _sentence("t_vs7dbg_truth").endswith("Root of 12 rows: their shortfalls are "
                                                "attributed to it.")  # fmt: skip
    assert "gamma hard" in _sentence("x_l3_monotonic_reads")
    assert _sentence("j_console_clean").startswith("Weight-zero diagnostic")
    assert "CRITICAL (dead-flow)" in _sentence("j_loads_data")
    assert _sentence("console_clean").endswith("condition `console_clean`: 1/16 of the gate.")
    assert "weight 2.400 % of the score with the gate fully open" in _sentence("e_mastery")


def test_write_fills_the_page_and_is_idempotent(tmp_path: Path) -> None:
    page = tmp_path / "sb7.md"
    page.write_text("# sb-7\n\n## Checks\n\nold\n", encoding="utf-8")
    assert main(["--suite", str(SUITE), "--write", str(page)]) == 0
    written = page.read_text(encoding="utf-8")
    assert written == "# sb-7\n\n" + render(REGISTRY)
    main(["--suite", str(SUITE), "--write", str(page)])
    assert page.read_text(encoding="utf-8") == written
