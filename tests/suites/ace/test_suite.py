"""suites/ace: the ladder as tasks, validated, and one rung run end to end by the oracle agent."""

from __future__ import annotations

import json

import pytest
import yaml
from builders import REPO

from benchwright.dsl import load_suite
from benchwright.errors import SpecError, SpecErrors

SUITE = REPO / "suites" / "ace"
LADDER = json.loads((REPO / "scorers" / "ace-ladder.json").read_text())


def test_one_task_per_rung_scoring_exactly_its_checks() -> None:
    suite = load_suite(SUITE)
    assert [t.id for t in suite.tasks] == sorted(r["name"] for r in LADDER["rungs"])
    for rung in LADDER["rungs"]:
        task = suite.task(rung["name"])
        assert task.rung == rung["name"]
        assert task.budget_s == rung["budget_min"] * 60
        assert {c.type for c in task.checks} == {"ace"}
        wanted = None if rung["checks"] == "all" else rung["checks"]
        assert wanted is None or [c.id for c in task.checks] == wanted
    assert len(suite.task("L7_full_platform").checks) == 30
    assert [p.name for p in suite.task("L3p_point_in_time").phases] == [
        "p1_plan",
        "p2_implementation",
    ]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"rung": "L3"}, "rung: unknown rung 'L3' (known: L1_migration_entity"),
        ({"checks": [{"id": "M1", "type": "ace"}, {"id": "S1", "type": "ace"}]},
         "checks: rung L3_point_in_time scores M1, M2, M4"),
    ],
)  # fmt: skip
def test_a_rung_task_that_strays_from_its_rung_is_refused(tmp_path, edit, message) -> None:
    doc = yaml.safe_load((SUITE / "tasks" / "L3_point_in_time.yaml").read_text())
    doc.pop("solution")
    doc |= edit
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "t.yaml").write_text(yaml.safe_dump(doc))
    (tmp_path / "suite.yaml").write_text((SUITE / "suite.yaml").read_text())
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_suite(tmp_path)
    assert message in str(caught.value)


def test_validate_passes(cli) -> None:
    proc = cli("validate", str(SUITE))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "valid: 8 tasks, 1 suite",
        # reference/: the golden app; selftest/ and contract/ are not in suite.yaml's tasks
        "skipped 15 file(s) that are not suite documents: 9 inside fixture or reference "
        "folders, 6 not listed by their suite file",
    ]


def test_the_oracle_scores_l3_with_the_fixed_denominator(cli, tmp_path) -> None:
    out, summary_file = tmp_path / "runs", tmp_path / "summary.json"
    proc = cli("run", str(SUITE), "--agent", "oracle", "--tasks", "L3_point_in_time",
               "--out", str(out), "--json", str(summary_file))  # fmt: skip
    summary = json.loads(summary_file.read_text())
    (ace,) = summary["tasks"]["L3_point_in_time"]["ace"]
    assert ace["rung"] == "L3_point_in_time"
    assert ace["full_denominator"] == 34
    assert ace["weighted_score_pct"] is None  # no engine here: Docker-gated rows unscored
    assert ace["categories"]["lint"] == {"pass": 3, "fail": 0, "unscored": 0, "weight": 3,
                                         "points": 3}  # fmt: skip
    assert ace["partial_score_pct"] == 100.0
    assert "L3_point_in_time #1: weighted_score_pct: null" in proc.stdout
    assert "(fixed denominator 34)" in proc.stdout
    (result,) = out.glob("*/trials/L3_point_in_time/1/result.json")
    rows = {c["check_id"]: c for c in json.loads(result.read_text())["checks"]}
    assert list(rows) == ["M1", "M2", "M4", "B1", "B2", "B3", "C2", "F1", "F2", "F3", "F8"]
    for ace_id in ("B1", "B2", "B3", "C2", "F1", "F2", "F3", "F8"):
        assert rows[ace_id]["status"] == "SKIPPED", rows[ace_id]
        assert "no Docker or Podman engine reachable" in rows[ace_id]["detail"]
