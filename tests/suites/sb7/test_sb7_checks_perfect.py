"""The sb-7 check table as a whole: every id the scorer wants has a row, a correct app's
evidence earns 1.0 on every implemented row (part one's 51 and the browser rows issue 29
has given an instrument), and the browser rows still staged are UNAVAILABLE naming issue
29."""

from __future__ import annotations

from pathlib import Path

import yaml
from sb7_observations import perfect

from benchwright.model import Status
from benchwright.suites.sb7.checks import BROWSER_CHECKS, build_table, judge, staged

SCORER = Path(__file__).resolve().parents[3] / "scorers" / "sb7.yaml"
PART_ONE = ("A", "B", "C", "D", "X", "R")


def _scorer() -> dict:
    return yaml.safe_load(SCORER.read_text(encoding="utf-8"))


def test_the_table_and_the_staged_rows_are_exactly_the_scorers_ids() -> None:
    config = _scorer()
    wanted = [c for tier in config["tiers"].values() for c in tier["checks"]]
    wanted += config["diagnostics"]
    special = [c["special"] for c in config["excellence"]["conditions"] if "special" in c]
    wanted += special  # console_clean: the excellence condition proven by its own row
    rows = judge(perfect())
    assert sorted(r.check_id for r in rows) == sorted(wanted)
    part_one = {c for t in PART_ONE for c in config["tiers"][t]["checks"]}
    assert len(part_one) == 51
    browser = set(BROWSER_CHECKS) - set(staged())
    assert set(build_table().ids) == part_one - {"b_money_rendered"} | browser | set(special)


def test_a_correct_app_scores_one_on_every_implemented_row() -> None:
    ids = set(build_table().ids) - set(BROWSER_CHECKS)
    short = {r.check_id: (r.score, r.detail) for r in judge(perfect())
             if r.check_id in ids and (r.status is not Status.PASS or r.score != 1.0)}  # fmt: skip
    assert short == {}


def test_browser_rows_are_unavailable_and_name_issue_29() -> None:
    rows = {r.check_id: r for r in judge(perfect())}
    for check in staged():
        assert rows[check].status is Status.UNAVAILABLE
        assert "issue 29" in rows[check].detail
