"""The vendorsync grader as the rest of benchwright sees it: a registered `SuiteGrader`,
its phases, its check table against the sb-5.2 scorer, the staged browser rows and the
build-phase trace the docs row reads."""

import json

import pytest
from test_golden import SCORER

from benchwright.errors import SpecError
from benchwright.scoring import load_scorer
from benchwright.suites import GRADERS, grader_for
from benchwright.suites.kit import SuiteGrader
from benchwright.suites.vendorsync import BROWSER_CHECKS, PHASE_NAMES, build_table, checks
from benchwright.suites.vendorsync.grader import docs_reads
from benchwright.suites.vendorsync.phases import select_phases


def test_vendorsync_is_a_registered_suite_grader():
    assert GRADERS["vendorsync"] == "benchwright.suites.vendorsync"
    module = grader_for("suites/vendorsync")
    assert isinstance(module, SuiteGrader) and module.SCORER == "sb52.yaml"
    assert module.CALIBRATION == () and module.CheckSettings.from_scorer(load_scorer(SCORER))


def test_the_phases_run_in_the_documented_order():
    assert PHASE_NAMES[:10] == ("static", "boot", "health", "sync1", "concurrent", "sync2",
                                "reads", "validation", "client", "update")  # fmt: skip
    assert PHASE_NAMES[-3:] == ("restart", "perf", "trace")


def test_any_app_phase_brings_the_boot_and_the_trace():
    assert [p.name for p in select_phases(["reads"])] == ["boot", "reads", "trace"]
    assert [p.name for p in select_phases(["static"])] == ["static"]
    with pytest.raises(SpecError, match="unknown phase"):
        select_phases(["browse"])


def test_the_table_and_the_staged_rows_cover_the_scorer_exactly():
    table = set(build_table().ids)
    assert table.isdisjoint(checks.staged())
    assert table | set(checks.staged()) == set(load_scorer(SCORER).wanted)
    assert set(BROWSER_CHECKS) | table == set(load_scorer(SCORER).wanted)


def test_every_check_has_a_one_line_summary():
    table = build_table()
    assert all(table.get(i).summary for i in table.ids)


def test_staging_lists_the_browser_checks_no_module_registers(monkeypatch):
    assert checks.staged() == ()  # tiers J, V and p_page_interactive are registered
    without = tuple(m for m in checks.MODULES if not m.__name__.endswith(".tier_j"))
    monkeypatch.setattr(checks, "MODULES", without)
    assert "j_loads_data" in checks.staged() and "v_filter" not in checks.staged()
    assert [r.check_id for r in checks.staged_browser_rows()] == list(checks.staged())


def test_docs_reads_counts_gets_of_either_docs_path(tmp_path):
    trace = tmp_path / "build-trace.jsonl"
    lines = [{"method": "GET", "path": "/v1/docs"}, {"method": "GET", "path": "/docs"},
             {"method": "GET", "path": "/v1/payments"}, {"method": "POST", "path": "/docs"},
             {"__phase__": "sync1"}]  # fmt: skip
    trace.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert docs_reads(trace) == 2


def test_a_bad_build_trace_is_refused_naming_the_file(tmp_path):
    with pytest.raises(SpecError, match=r"missing\.jsonl"):
        docs_reads(tmp_path / "missing.jsonl")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    with pytest.raises(SpecError, match=r"broken\.jsonl"):
        docs_reads(broken)


def test_one_grading_sets_up_the_v1_mock_the_truth_and_the_builds_docs_reads(tmp_path):
    from benchwright.suites.kit.workspace import Workspace
    from benchwright.suites.vendorsync.grader import GRADER, _judge, recorder

    ctx, obs = GRADER.suite(recorder(3), _judge).prepare(Workspace(tmp_path, tmp_path))
    assert obs.build_docs_reads == 3 and obs.truth.total == 247
    assert obs.truth.optimal_requests == 7 and obs.truth.mutated == 25
    assert ctx.mock.api.list_path == "/v1/payments" and ctx.vendor_url == "http://127.0.0.1:8787"
