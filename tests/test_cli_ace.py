"""``benchwright ace score`` and ``benchwright ace selftest`` through the real console script."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "suites" / "ace" / "selftest"
RUNGS = ("L1_migration_entity", "L3_point_in_time", "L7_full_platform")


def test_an_unknown_rung_exits_2_listing_the_rungs(cli, tmp_path):
    proc = cli("ace", "score", str(tmp_path), "--rung", "L3")
    assert proc.returncode == 2
    assert "unknown rung 'L3'" in proc.stderr
    for rung in RUNGS:
        assert rung in proc.stderr


def test_a_missing_workspace_exits_2_naming_it(cli, tmp_path):
    proc = cli("ace", "score", str(tmp_path / "nowhere"), "--rung", "L1_migration_entity")
    assert proc.returncode == 2
    assert "nowhere: no such workspace directory" in proc.stderr


def test_score_prints_every_wanted_id_and_writes_json(cli, tmp_path):
    out = tmp_path / "ace.json"
    good = FIXTURES / "good"
    proc = cli("ace", "score", str(good), "--rung", "L3_point_in_time", "--skip-docker",
               "--json", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    for ace_id in ("M1", "M2", "M4", "B1", "B2", "B3", "C2", "F1", "F2", "F3", "F8"):
        assert f"│ {ace_id} " in proc.stdout
    assert "(fixed denominator 34)" in proc.stdout
    assert "weighted_score_pct: null" in proc.stdout
    doc = json.loads(out.read_text())
    assert doc["rung"] == "L3_point_in_time"
    assert doc["full_denominator"] == 34
    assert doc["weighted_score_pct"] is None
    rows = {r["check_id"]: r for r in doc["rows"]}
    assert list(rows) == ["M1", "M2", "M4", "B1", "B2", "B3", "C2", "F1", "F2", "F3", "F8"]
    # Docker-gated rows are SKIPPED by the flag itself, never by a probe.
    assert rows["B1"]["status"] == "SKIPPED"
    assert "--skip-docker" in rows["B1"]["detail"]
    assert f"partial_score_pct: {doc['partial_score_pct']}" in proc.stdout


def _rows(cli, fixture: str, rung: str, out: Path) -> dict[str, dict]:
    proc = cli("ace", "score", str(FIXTURES / fixture), "--rung", rung, "--skip-docker",
               "--json", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return {r["check_id"]: r for r in json.loads(out.read_text())["rows"]}


def test_structure_ids_pass_the_good_fixture_and_fail_a_stub(cli, tmp_path):
    good_rows = _rows(cli, "good", "L6_compose_health", tmp_path / "good.json")
    stub_rows = _rows(cli, "cheat-stub-services", "L6_compose_health", tmp_path / "stub.json")
    assert good_rows["S4"]["status"] == good_rows["S5"]["status"] == "PASS"
    assert stub_rows["S4"]["status"] == stub_rows["S5"]["status"] == "FAIL"


def test_selftest_passes_the_shipped_fixtures(cli):
    proc = cli("ace", "selftest", str(FIXTURES))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ace selftest passed: 7 fixture(s)" in proc.stdout


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy)
    return copy


def test_selftest_exits_1_when_a_cheat_is_taken_for_the_good_workspace(cli, tmp_path):
    copy = _copy(tmp_path)
    exp = yaml.safe_load((copy / "expectations.yaml").read_text())
    exp["positive"]["workspace"] = "cheat-stub-services"
    (copy / "expectations.yaml").write_text(yaml.safe_dump(exp))
    proc = cli("ace", "selftest", str(copy))
    assert proc.returncode == 1
    assert "BROKEN cheat-stub-services" in proc.stdout
    assert "cheat-stub-services: S1 must pass, got FAIL" in proc.stderr
    assert "is under the floor 85%" in proc.stderr


def test_selftest_exits_1_when_a_must_fail_id_passes(cli, tmp_path):
    copy = _copy(tmp_path)
    exp = yaml.safe_load((copy / "expectations.yaml").read_text())
    exp["adversarial"][0]["workspace"] = "good"
    (copy / "expectations.yaml").write_text(yaml.safe_dump(exp))
    proc = cli("ace", "selftest", str(copy))
    assert proc.returncode == 1
    assert "good: S1 must fail by detection, got PASS" in proc.stderr


def test_selftest_exits_2_on_malformed_expectations_naming_file_and_field(cli, tmp_path):
    copy = _copy(tmp_path)
    exp = yaml.safe_load((copy / "expectations.yaml").read_text())
    exp["adversarial"][1]["must_fail"] = ["M9"]
    (copy / "expectations.yaml").write_text(yaml.safe_dump(exp))
    proc = cli("ace", "selftest", str(copy))
    assert proc.returncode == 2
    assert "fixtures/expectations.yaml: adversarial[1].must_fail: unknown ACE id 'M9'" in (
        proc.stderr
    )
    exp["adversarial"][1]["must_fail"] = ["M1"]
    exp["positive"]["workspace"] = "absent"
    exp["rung"] = "L9"
    (copy / "expectations.yaml").write_text(yaml.safe_dump(exp))
    proc = cli("ace", "selftest", str(copy))
    assert proc.returncode == 2
    assert "expectations.yaml: rung: unknown rung 'L9'" in proc.stderr
    assert "expectations.yaml: positive.workspace: no such fixture directory: absent" in (
        proc.stderr
    )


def test_selftest_on_workers_reports_as_one_worker_does_in_the_expectations_order(cli, tmp_path):
    copy = _copy(tmp_path)
    exp = yaml.safe_load((copy / "expectations.yaml").read_text())
    exp["adversarial"][0]["workspace"] = "good"  # a broken expectation, and "good" named twice
    (copy / "expectations.yaml").write_text(yaml.safe_dump(exp))
    one = cli("ace", "selftest", str(copy), "--workers", "1")
    pool = cli("ace", "selftest", str(copy), "--workers", "3")
    assert one.returncode == pool.returncode == 1
    assert pool.stdout == one.stdout
    assert pool.stdout.splitlines()[:2] == [
        "ok     good: partial 89.5%",
        "BROKEN good: partial 89.5%",
    ]
    assert "good: S1 must fail by detection, got PASS" in pool.stderr
    assert "(7/7 fixtures, 1 failed)" in pool.stderr  # the shared progress display counts


def test_selftest_with_an_unknown_executor_exits_2(cli):
    proc = cli("ace", "selftest", str(FIXTURES), "--executor", "slurm")
    assert proc.returncode == 2
    assert "--executor: unknown executor 'slurm'; known: local, ray" in proc.stderr


def test_the_python_reference_stack_is_refused_in_one_line_naming_the_workspace_that_works(cli):
    trading = REPO / "suites" / "ace" / "reference" / "trading"
    proc = cli("ace", "score", str(trading), "--rung", "L4_state_machine", "--skip-docker")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"error: {trading}: not a Java/Gradle workspace (a Python project): rung "
        "L4_state_machine grades a Java 21 / Spring Boot / Gradle project; score one such as "
        "suites/ace/selftest/good, and serve a running stack (suites/ace/reference: python -m "
        "trading) for --base-url\n"
    )
    works = cli("ace", "score", str(REPO / "suites/ace/selftest/good"), "--rung",
                "L4_state_machine", "--skip-docker")  # fmt: skip
    assert works.returncode == 0 and "│ M1 │ PASS" in works.stdout, works.stderr


def test_an_empty_workspace_is_refused_and_a_build_file_alone_is_graded(cli, tmp_path):
    proc = cli("ace", "score", str(tmp_path), "--rung", "L1_migration_entity", "--skip-docker")
    assert proc.returncode == 2 and "(no Java source): rung L1_migration_entity" in proc.stderr
    (tmp_path / "settings.gradle").write_text("rootProject.name = 'x'\n")
    graded = cli("ace", "score", str(tmp_path), "--rung", "L1_migration_entity", "--skip-docker")
    assert graded.returncode == 0, graded.stderr
    assert "│ M1 │ FAIL" in graded.stdout
