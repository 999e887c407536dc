"""vspro timing rows on a contended host: the rule applied to the grader's own windows."""

import pytest
from vspro_canned import grade_one, latency, perfect, swap

from benchwright.model import Status
from benchwright.probes.host import HostState
from benchwright.suites.vspro.checks import build_table
from benchwright.suites.vspro.checks._timing import TIMED, host_of, judge_timing

BUSY = HostState(0.4, 2, 0.71, 0.0, 0.95, 5.1, attempts=3)
QUIET = HostState(0.4, 2, 0.01, 0.0, 0.05, 0.3)


def test_every_timed_row_is_a_check_and_names_a_window_the_grader_keeps() -> None:
    ids = set(build_table().ids)
    assert set(TIMED) <= ids
    assert {phase for phase, _ in TIMED.values()} == {"idle_perf", "under_load", "browser"}


@pytest.mark.parametrize("host", [BUSY, QUIET])
def test_a_slow_list_read_is_unavailable_only_when_the_host_was_contended(host) -> None:
    obs = swap(perfect(), "idle_perf", payments=latency("/x", 212.0),
               host={"payments": host})  # fmt: skip
    (row,) = judge_timing([grade_one(obs, "p_list_latency")], obs)
    assert host_of(obs, "idle_perf", "payments") is host
    if host is BUSY:
        assert row.status is Status.UNAVAILABLE
        assert row.detail.startswith("host contended: other processes took 71% of 2 CPUs")
        assert "as measured: 0.75: p95 212 ms" in row.detail
    else:
        assert row.status is Status.FAIL and row.score == 0.75
        assert row.evidence["host"]["contended"] is False


def test_a_fast_read_on_a_contended_host_keeps_its_full_marks() -> None:
    obs = swap(perfect(), "idle_perf", payments=latency("/x", 12.0), host={"payments": BUSY})
    (row,) = judge_timing([grade_one(obs, "p_list_latency")], obs)
    assert row.status is Status.PASS and row.score == 1.0
    assert "top rung earned on a contended host" in row.detail


def test_a_wrong_read_under_load_stays_zero_on_a_contended_host() -> None:
    """Wrong answers are not a timing matter: contention does not excuse them."""
    from vspro_canned import ROWS, load, page

    obs = swap(perfect(), "under_load", load=load(body=page(ROWS[:49])), host=BUSY)
    (row,) = judge_timing([grade_one(obs, "e_under_load_latency")], obs)
    assert row.status is Status.FAIL and row.score == 0.0
    assert "reads wrong under load" in row.detail


def test_rows_of_phases_that_did_not_run_pass_through() -> None:
    obs = perfect()
    rows = [grade_one(obs, "p_list_latency"), grade_one(obs, "b_error_envelope")]
    judged = judge_timing(rows, obs)
    assert judged[1] is rows[1]
    assert judged[0].status is Status.PASS


def test_the_report_lists_the_host_across_every_timing_row() -> None:
    from benchwright.suites.report import host_lines

    busy = swap(perfect(), "idle_perf", payments=latency("/x", 212.0), host={"payments": BUSY})
    quiet = swap(perfect(), "idle_perf", host={"summary": QUIET})
    rows = judge_timing([grade_one(busy, "p_list_latency")], busy)
    rows += judge_timing([grade_one(quiet, "p_summary_latency")], quiet)
    lines = host_lines(rows)
    assert lines[0] == (
        "host across 2 timing rows (1 contended; bound: other processes > 25% of the CPU):"
    )
    assert " ".join(lines[1].split()) == (
        "p_list_latency UNAVAILABLE others 71% of 2 CPUs over 0.40 s, 3 attempts CONTENDED"
    )
    assert lines[2].split()[:4] == ["p_summary_latency", "PASS", "others", "1%"]
    assert host_lines([grade_one(perfect(), "b_error_envelope")]) == []


def test_a_repeat_that_loses_its_browser_keeps_the_first_run(tmp_path) -> None:
    """The lanes' results are in before any repeat: a repeat whose browser dies ends the
    repeats, and the first view stands with its contended state (never a lost phase)."""
    from benchwright.probes.browser import BrowserUnavailable, browser_available
    from benchwright.suites.kit.browser import ScenarioLog, retime

    if browser_available() is not None:
        pytest.skip("no headless Chromium here")

    def dies(session, ctx, shots):
        raise BrowserUnavailable("the browser process exited (signal 9)")

    seen = ScenarioLog()
    seen.scenarios["load"], seen.host["load"] = "first view", BUSY
    retime({"load": dies}, None, tmp_path, seen)  # type: ignore[arg-type]
    assert seen.scenarios == {"load": "first view"} and not seen.retimed
    assert seen.host["load"].contended and seen.host["load"].attempts == 1
    assert "load retimed" in seen.seconds
