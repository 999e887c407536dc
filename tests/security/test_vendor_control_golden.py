"""The hostile golden: the vspro reference, which tries every control (`vendor_attacks`) at
its vendor address when it registers its webhook (at boot), before every walk of the
vendor's list, every batch and every write. Graded sandboxed through the phases whose rows
the mock's ledgers and trace decide (its traps, its half cap, its stall, its conflicts,
its batch log), it scores what the golden scores, and every attempt met an unknown path.

On a mock that served its controls beside the API, the same app reset the traps at each
walk, lifted the half cap, disarmed the stall and the conflicts, and read the ledgers.
One grading, shared by the module (about a minute).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchwright.sandbox import unavailable_reason
from benchwright.suites.vspro.grader import Grading, grade

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "suites" / "vspro" / "reference"
ATTACKS = Path(__file__).with_name("vendor_attacks.py")
PHASES = ["sync1", "sync_full", "reads", "batch", "conflict", "under_load", "traps"]
LEDGER_ROWS = (
    "vendor_traps",
    "request_efficiency",
    "vendor_cursor_paging",
    "uses_max_limit",
    "sync_shape",
    "sync_completeness",
    "c_batch_partial",
    "h_conflict_dance",
)
"""The rows these phases decide from what the mock saw: the golden's are all 1.0."""
STRIKES = {
    "    def fetch_all_payments(self) -> list[dict]:\n": "walk",
    "    def create_batch(self, items: list[dict]) -> dict:\n": "batch",
    "    def update_payment(self, payment_id: str, fields: dict, version: int) -> dict:\n": "write",
    "    def register_webhook(self, url: str) -> dict:\n": "register",
}
"""Where the hostile golden strikes: the first line of these client methods."""
STRIKE = """

def _strike(base_url: str, where: str) -> None:
    from urllib.parse import urlsplit

    from vspro import vendor_attacks

    vendor = urlsplit(base_url)
    vendor_attacks.report(where, vendor.hostname, vendor.port)
"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="no golden reference"),
    pytest.mark.skipif(unavailable_reason() is not None, reason=f"{unavailable_reason()}"),
]


def hostile_golden(root: Path) -> Path:
    """A copy of the golden whose vendor client strikes first in each of `STRIKES`."""
    tree = root / "hostile-golden"
    shutil.copytree(GOLDEN, tree, ignore=shutil.ignore_patterns("*.db*", "sb6-reference-pass*"))
    client = tree / "vspro" / "meridian.py"
    source = client.read_text()
    for line, where in STRIKES.items():
        assert line in source, f"the golden's client no longer has {line.strip()!r}"
        source = source.replace(line, f"{line}        _strike(self.base_url, {where!r})\n")
    client.write_text(source + STRIKE)
    shutil.copy(ATTACKS, tree / "vspro" / "vendor_attacks.py")
    return tree


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Grading, str]:
    """The hostile golden graded sandboxed, and its log."""
    root = tmp_path_factory.mktemp("hostile")
    grading = grade(hostile_golden(root), phases=PHASES, evidence_dir=root / "evidence")
    return grading, Path(grading.evidence["app_log"]).read_text()


def test_every_strike_of_the_hostile_golden_met_an_unknown_path(graded):
    _, log = graded
    strikes = re.findall(r"^vendor-attacks (\w+): (\d+) reached a control", log, re.M)
    assert {where for where, _ in strikes} == set(STRIKES.values()), log[-2000:]
    assert len([where for where, _ in strikes if where == "walk"]) >= 3  # one per sync phase
    assert [n for _, n in strikes] == ["0"] * len(strikes), log[-2000:]


def test_the_hostile_golden_scores_what_the_golden_scores_on_the_ledgers(graded):
    grading, _ = graded
    rows = {row.check_id: row for row in grading.rows}
    for check in LEDGER_ROWS:
        assert (rows[check].status.name, rows[check].score) == ("PASS", 1.0), rows[check]
    traps = grading.observations["traps"].results
    assert (traps.retry_after, traps.cursor_expiry, traps.stall) == (1.0, 1.0, 1.0)


def test_no_control_ran_during_the_hostile_grading(graded):
    """The trace the grader kept: only the grader's own markers, and the app's attempts
    as unknown paths."""
    grading, _ = graded
    lines = grading.observations["trace"].lines
    requests = [x for x in lines if x["method"] != "-"]
    assert not any("admin" in x for x in requests)
    phases = [x["__phase__"] for x in lines if "__phase__" in x]
    assert "hostile" not in phases
    unknown = [x for x in requests if x["status"] == 404 and "dmin" in x["path"].lower()]
    assert len(unknown) > 100, "the strikes did not reach the mock"
