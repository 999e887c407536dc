"""The vspro browser controls: each seeds one defect in the golden's web files (app.js,
index.html, styles.css, viz.js) and must lower its own browser checks, graded through
``sync_full`` and ``browser`` only, against the golden graded the same way.

The slow test grades each control once (the browser phase takes ~15-25 s), two at a time
(`WORKERS`), and judges it against the session's golden.
"""

from functools import cache

import pytest
from control_cases import GOLDEN, SUITE, SessionGoldenAuditor, assert_control_costs, needs_golden

from benchwright.probes.browser import browser_available
from benchwright.suites.audit import Auditor, control_tree, load_controls

WEB = ("vspro/web/app.js", "vspro/web/index.html", "vspro/web/styles.css", "vspro/web/viz.js")
PHASES = ("sync_full", "browser")

SEVERITY = {
    "raw-iso-dates": "minor",
    "two-decimal-yen": "minor",
    "native-select-filters": "minor",
    "no-empty-state": "major",
    "blank-on-api-error": "major",
    "decorative-canvas": "major",
    "lying-vsdbg": "minor",  # users see the right chart; only the debug layer lies
    "horizontal-scroll-375": "minor",
}
CONTROLS = tuple(SEVERITY)

# What each defect costs, as (check, score, a phrase of its detail naming the evidence).
EXPECTED = {
    "raw-iso-dates": [("v_dates_readable", 0.0, "0: raw ISO-8601 shown to users")],
    "two-decimal-yen": [("v_currency_rendered", 0.65, "traps JPY wrong, KWD clean")],
    "native-select-filters": [("v_filter", 0.2, "'refunded' option could not be driven")],
    "no-empty-state": [("j_empty_state", 0.3, "content but no empty-state text")],
    "blank-on-api-error": [("j_error_state", 0.0, "no visible error state with the API blocked"),
                           ("ui_error_actionable", 0.0, "no visible error state")],
    "decorative-canvas": [("t_scene_binding", 0.25, "capped at 0.25: only 2 top colour(s)"),
                          ("t_camera", 0.218, "wheel 4/17 tops"),
                          ("t_context_real", 0.75, "grid 1/24")],
    "lying-vsdbg": [("t_vsdbg_truth", 0.6, "scene 0/55 bars exact (55 claimed, 55 expected)")],
    "horizontal-scroll-375": [("v_responsive_375", 0.0, "0: horizontal scroll at 375 px")],
}  # fmt: skip


@cache
def _no_browser() -> str | None:
    return browser_available()  # starts and stops Chromium once, only when a test needs it


@pytest.fixture(scope="module")
def auditor():
    return Auditor(str(SUITE))


WORKERS = 3
"""Controls graded three at a time (`prefetch`; vspro caps no browser slots; the module
84 s on a 2-core host, 103 s two at a time): none of their targets is a timed row, and
an audit's control grading retakes no contended scenario unless a target needs it
(`Auditor.grade_control`)."""


@pytest.fixture(scope="module")
def judged_by_the_session_golden(golden_twice):
    auditor = SessionGoldenAuditor(golden_twice[1][0][1])
    if _no_browser() is None:
        auditor.prefetch(CONTROLS, WORKERS)
    return auditor


@needs_golden
def test_the_browser_controls_load_validate_and_declare_their_severity(auditor):
    controls = {c.name: c for c in load_controls(SUITE, list(CONTROLS))}
    assert set(controls) == set(CONTROLS) == set(EXPECTED)
    for name, control in controls.items():
        auditor.validate(control)  # known phases and target checks; every edit applies
        assert control.severity == SEVERITY[name], name
        assert control.phases == PHASES and not control.critical, name
        assert control.description and control.trajectory is not None, name
        assert {check for check, _, _ in EXPECTED[name]} == set(control.targets), name
        edited = {e.path for e in control.trajectory.file_edits()}
        assert edited and edited <= set(WEB), name  # a web defect, never the backend
        with control_tree(control, GOLDEN) as tree:
            for path in edited:
                assert (tree / path).read_bytes() != (GOLDEN / path).read_bytes(), (name, path)


@pytest.mark.slow
@needs_golden
@pytest.mark.parametrize("name", CONTROLS)
def test_browser_control_lowers_its_targets_and_ranks_below_the_golden(
    judged_by_the_session_golden, name
):
    if reason := _no_browser():
        pytest.skip(f"no headless Chromium: {reason}")
    assert_control_costs(judged_by_the_session_golden, name, EXPECTED[name])
