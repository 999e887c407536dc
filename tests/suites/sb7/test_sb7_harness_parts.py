"""The sb-7 harness's parts that need no running app: the boot lines as argv, the tokens
file, the tree as the static phase reads it, the vendor trace's list requests as the
record keeps them, where the page's assets are, and the fixture's truth."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchwright.sandbox import UNCONFINED
from benchwright.services._launch import fill
from benchwright.services.meridian_v3 import build_fixture_v3
from benchwright.suites.kit.services import ServiceGroup
from benchwright.suites.sb7.context import (
    LEDGERD,
    NOTIFIERD,
    ROLES,
    Tokens,
    combined_line,
    services,
)
from benchwright.suites.sb7.grader import expected_notifications, truth
from benchwright.suites.sb7.observations import StreamRead
from benchwright.suites.sb7.phases._trace import list_request
from benchwright.suites.sb7.phases._waits import until
from benchwright.suites.sb7.phases.reads import asset_path
from benchwright.suites.sb7.phases.static import observe_tree
from benchwright.suites.sb7.phases.stream import ReadSampler
from benchwright.suites.sb7.schedule import derive

REFERENCE = Path(__file__).parents[3] / "suites" / "sb7" / "reference"
VENDOR = "http://127.0.0.1:8850"


def test_the_services_are_told_the_spec_boot_lines(tmp_path: Path) -> None:
    """ledgerd: ``--db-dir P --port N --notifier http://127.0.0.1:M --vendor URL
    --tokens-file T`` with M notifierd's own port; notifierd: ``--db-dir P --port M``;
    notifierd boots first; only ledgerd dials the vendor and the other service."""
    tokens = tmp_path / "db dir" / "tokens.json"
    group = ServiceGroup(services(VENDOR, tokens), LEDGERD, 20001, tree=tmp_path,
                         db_dir=tmp_path / "db dir", log_path=tmp_path / "app.log",
                         budget_s=5.0, confinement=UNCONFINED, vendor=None)  # fmt: skip
    try:
        m = group.ports[NOTIFIERD]
        ledgerd, notifierd = group[LEDGERD].argv, group[NOTIFIERD].argv
        assert ledgerd[1:] == ["-m", "app.ledgerd", "--db-dir", str(tmp_path / "db dir"),
                               "--port", "20001", "--notifier", f"http://127.0.0.1:{m}",
                               "--vendor", VENDOR, "--tokens-file", str(tokens)]  # fmt: skip
        assert notifierd[1:] == ["-m", "app.notifierd", "--db-dir", str(tmp_path / "db dir"),
                                 "--port", str(m)]  # fmt: skip
        assert group.order == (NOTIFIERD, LEDGERD)
        assert group[LEDGERD].health_path == "/" and not group[LEDGERD].policy.require_json
        assert group[NOTIFIERD].health_path == "/health"
        assert [p.port for p in group[LEDGERD].peers] == [m] and not group[NOTIFIERD].peers
    finally:
        group.stop()


def test_the_combined_line_boots_both_services_with_the_full_flag_set(tmp_path: Path) -> None:
    argv = fill(combined_line(9999, VENDOR, tmp_path / "t.json"), db=tmp_path / "l.db",
                db_dir=tmp_path, port=8888, tree=tmp_path)  # fmt: skip
    assert argv[1:] == ["-m", "app", "--db-dir", str(tmp_path), "--ledger-port", "8888",
                        "--notifier-port", "9999", "--vendor", VENDOR, "--tokens-file",
                        str(tmp_path / "t.json")]  # fmt: skip


def test_the_tokens_are_fresh_32_hex_per_role_and_written_as_the_spec_says(
    tmp_path: Path,
) -> None:
    first, second = Tokens.fresh(), Tokens.fresh()
    written = json.loads(first.write(tmp_path / "sub" / "tokens.json").read_text())
    assert sorted(written) == sorted(ROLES)
    assert all(re.fullmatch(r"[0-9a-f]{32}", token) for token in written.values())
    assert len(set(written.values())) == 3
    assert first != second  # never derived from anything an entrant can know


def test_the_static_phase_reads_the_golden_tree() -> None:
    seen = observe_tree(REFERENCE)
    assert {"app/__main__.py", "DECISIONS.md", "app/web/index.html"} <= seen.files
    assert set(seen.web_bytes) == {"index.html", "styles.css", "app.js", "viz.js"}
    assert seen.web_bytes["viz.js"] == (REFERENCE / "app" / "web" / "viz.js").stat().st_size
    assert "## D2" in (seen.decisions or "")
    assert "app/ledgerd/__main__.py" in seen.backend


def test_a_tree_without_the_deliverables_reads_as_missing(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__main__.py").write_text("print('hi')\n")
    seen = observe_tree(tmp_path)
    assert seen.files == frozenset({"app/__main__.py"})
    assert seen.web_bytes == {} and seen.decisions is None


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ({"status": 200, "page": 3, "query": {"cursor": "c3"}, "if_none_match": None,
          "last": False}, {"status": 200, "page": 2, "cursor": "c3", "fault": None}),
        ({"status": 0, "page": 5, "query": {"cursor": "c5"}, "fault": "drop"},
         {"status": None, "page": None, "fault": "drop"}),
        ({"status": 500, "page": 7, "query": {"cursor": "c7"}, "fault": "error",
          "retry_after_secs": 2}, {"status": 500, "page": None, "fault": "http500",
                                   "retry_after_s": 2.0}),
        ({"status": 304, "page": 9, "query": {"cursor": "c9", "limit": "64"},
          "if_none_match": '"e"', "stale_lie": True},
         {"status": 304, "page": 8, "fault": "stale304", "params": ("cursor", "limit")}),
        ({"status": 200, "page": 1, "query": {}, "last": True},
         {"cursor": None, "page": 0, "last": True}),
    ],
)  # fmt: skip
def test_a_traced_list_request_becomes_the_records_list_request(line: dict, want: dict) -> None:
    found = list_request({"seq": 4, "t": 12.5, "method": "GET", **line})
    assert found.seq == 4 and found.at == 12.5
    for name, value in want.items():
        assert getattr(found, name) == value, name


@pytest.mark.parametrize(
    ("html", "name", "path"),
    [
        ('<link rel="stylesheet" href="styles.css">', "styles.css", "/styles.css"),
        ("<script src='/static/app.js?v=3'></script>", "app.js", "/static/app.js?v=3"),
        ('<script src="./web/viz.js"></script>', "viz.js", "/web/viz.js"),
        ('<script src="https://cdn.example/viz.js"></script>', "viz.js", "/viz.js"),
        ("<p>no assets</p>", "app.js", "/app.js"),
    ],
)
def test_the_assets_are_fetched_where_the_page_references_them(
    html: str, name: str, path: str
) -> None:
    assert asset_path(html, name) == path


def test_the_truth_is_the_fixture_at_load_in_berlin_days() -> None:
    fixture = build_fixture_v3(0)
    found = truth(fixture, 0)
    assert found.total == 12_288 and len(found.days) == 96
    assert found.dst_day == fixture.dst_day.isoformat() and found.dst_day in found.days
    assert {row.day for row in found.rows.values()} == set(found.days)
    assert len(found.reversals) == len(fixture.reversals)
    steps = [s.action for s in derive(0).partition]
    assert expected_notifications(len(fixture.reversals), 0) == {
        "reversal.created": len(fixture.reversals) + 1,
        "draft.submitted": steps.count("submit") + 3,
        "draft.rejected": steps.count("reject") + 1,
        "draft.approved": 1,
    }


def test_the_refund_baseline_is_a_summary_answered_before_the_vendor_committed() -> None:
    """A summary read that started before the commit but was answered after it (a slow read
    on a busy host) may already hold the group: it is never the baseline."""
    sampler = ReadSampler(lambda: "http://127.0.0.1:1", "pay_00001", [], offsets=[0],
                          interval_s=0.25, timeout_s=1.0)  # fmt: skip
    done_before = StreamRead(10.0, 10.1, summary={"reversals": []})
    answered_after = StreamRead(11.0, 13.0, summary={"reversals": []})
    sampler.walls[:] = [100.0, 101.0]
    sampler._reads[:] = [done_before, answered_after]
    assert sampler.baseline(102.0) == 0  # the second read ended at 103.0, after the commit
    assert sampler.baseline(103.5) == 1
    assert sampler.baseline(100.05) is None


def test_a_wait_for_a_dead_service_gives_up_instead_of_waiting_its_budget() -> None:
    """A service that died for good cannot answer: the wait stops after one look, with a
    budget far beyond the test's patience, and without ``alive`` it keeps asking."""
    asked: list[int] = []
    assert until(lambda: asked.append(1), 3600.0, 0.01, alive=lambda: False) is None
    assert asked == [1]
    answers = iter([0, 0, 7])
    assert until(lambda: next(answers), 3600.0, 0.0) == 7
