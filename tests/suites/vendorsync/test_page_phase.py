"""The vendorsync ``browser`` phase for real: headless Chromium against the reference app
(a real process synced from the Meridian v1 mock through the vendor's update pass) and a
second instance on a fresh database. The golden page earns 1.0 on all 12 browser rows; a
copy whose dates are shown raw loses exactly ``v_dates_readable``; with no browser every
row is UNAVAILABLE with ``PROBE UNAVAILABLE``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from meridian_v1 import serve_meridian_v1
from page_context import synced_after_update

from benchwright.model import Status
from benchwright.services.meridian import MeridianMock
from benchwright.services.ports import lease_port
from benchwright.suites.kit import PhaseLog
from benchwright.suites.vendorsync.browser import SCENARIOS, browser
from benchwright.suites.vendorsync.checks import BROWSER_CHECKS, CheckSettings, build_table

REFERENCE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync" / "reference"
RAW_DATES = ("function formatDate(iso) {", "function formatDate(iso) {\n  return iso;")
"""The one defect of the broken copy: every date (cells and last sync) shown as sent."""


@pytest.fixture(scope="module")
def mock() -> Iterator[MeridianMock]:
    served = serve_meridian_v1()
    yield served
    served.stop()


def _phase(tree: Path, work: Path, mock: MeridianMock) -> tuple[Any, dict[str, Any]]:
    """The phase's record and the 12 rows it earns (the timing rule applied)."""
    from benchwright.suites.vendorsync.checks._timing import judge_timing

    with lease_port() as lease:
        ctx = synced_after_update(tree, work, mock, lease.port)
        try:
            seen = browser(ctx, None)
        finally:
            ctx.app.stop()
    obs = PhaseLog(phases={"browser": seen})
    table = build_table()
    rows = judge_timing([table.get(c).run(obs, CheckSettings()) for c in BROWSER_CHECKS], obs)
    return seen, {r.check_id: r for r in rows}


@pytest.fixture(scope="module")
def golden(vendorsync_golden) -> tuple[Any, dict[str, Any], Any]:
    """The session's grading of the golden (sandboxed, every phase in order, the browser
    after the update pass): its browser record, its 12 browser rows, the phase's record."""
    grading, _ = vendorsync_golden
    rows = {r.check_id: r for r in grading.rows if r.check_id in BROWSER_CHECKS}
    phase = next(p for p in grading.phases if p.name == "browser")
    return grading.observations["browser"], rows, phase


def test_the_golden_page_is_seen_in_every_scenario(golden):
    seen, _, phase = golden
    assert phase.outcome == "ok" and set(phase.parts) >= set(SCENARIOS)
    assert seen.unavailable is None and not seen.scenario_errors and not seen.no_page
    assert set(seen.scenarios) == set(SCENARIOS)
    assert seen.scenarios["sync"].before.empty_visible and seen.scenarios["sync"].after.rows == 25
    assert {c.text for c in seen.scenarios["load"].statuses} == {"settled", "refunded"}
    shots = {p.stem for p in seen.screenshots}
    assert {"load-1280", "load-375", "error", "empty", "sync-after"} <= shots


def test_the_golden_page_earns_every_browser_row(golden, vendorsync_golden):
    _, rows, _ = golden
    assert set(rows) == set(BROWSER_CHECKS) and not vendorsync_golden[0].staged
    # a timing row the host left unproven is UNAVAILABLE with the reason, never lower
    measured = {c: r for c, r in rows.items() if not r.detail.startswith("host contended: ")}
    short = {c: r.detail for c, r in measured.items() if r.score < 1.0}
    assert not short
    assert all(r.status is Status.PASS for r in measured.values())


def test_a_page_showing_raw_dates_loses_the_dates_row_only_naming_its_screenshot(mock, tmp_path):
    tree = tmp_path / "raw-dates"
    shutil.copytree(REFERENCE, tree, ignore=shutil.ignore_patterns("__pycache__", "*.db*"))
    script = tree / "vendorsync" / "web" / "app.js"
    source = script.read_text()
    assert RAW_DATES[0] in source
    script.write_text(source.replace(*RAW_DATES))
    _, rows = _phase(tree, tmp_path / "work", mock)
    dates = rows["v_dates_readable"]
    assert dates.score == 0.0 and "raw ISO-8601 timestamp(s) on the page" in dates.detail
    short = {c: r.detail for c, r in rows.items() if r.score < 1.0}
    assert set(short) - {"p_page_interactive"} == {"v_dates_readable"}, short
    assert rows["p_page_interactive"].score == 1.0 or short["p_page_interactive"].startswith(
        "host contended: ")  # fmt: skip
    for check_id in ("j_error_state", "j_empty_state", "v_responsive_375", "v_dates_readable"):
        named = rows[check_id].evidence["screenshots"]  # the PNGs the card keeps for the row
        assert named and all(Path(p).is_file() for p in named), check_id


def test_without_chromium_every_browser_row_is_probe_unavailable(mock, tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHWRIGHT_CHROMIUM", "/nonexistent/chromium")
    seen = browser(_NoApp(tmp_path), None)  # no lane runs: nothing touches the app
    assert seen.unavailable.startswith("Chromium not found at /nonexistent/chromium")
    obs = PhaseLog(phases={"browser": seen})
    rows = [build_table().get(c).run(obs, CheckSettings()) for c in BROWSER_CHECKS]
    assert {r.status for r in rows} == {Status.UNAVAILABLE}
    assert all(r.detail.startswith("PROBE UNAVAILABLE: browser unavailable: Chromium not "
                                   "found") for r in rows)  # fmt: skip


class _NoApp:
    """A context whose app is never reached: the browser is missing before any lane."""

    def __init__(self, work: Path) -> None:
        self.work = work
