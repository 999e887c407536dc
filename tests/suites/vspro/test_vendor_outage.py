"""The validation phase's unreachable-vendor sync on a real grading of the golden, where
the sandbox cannot cut the vendor (unconfined); sandboxed, the golden's 503 is asserted by
the ``unavailable-as-502`` control test (its golden keeps ``x_status_duties`` at 1)."""

from __future__ import annotations

import pytest
from control_cases import GOLDEN, needs_golden

from benchwright.sandbox import UNCONFINED
from benchwright.services.ports import lease_port
from benchwright.suites.vspro.checks.spec_duties import OUTAGE_NOT_PROBED
from benchwright.suites.vspro.grader import grade

PHASES = ["sync_full", "validation"]
"""What x_status_duties needs."""


@pytest.mark.slow
@needs_golden
def test_unconfined_the_outage_is_not_probed_and_its_cell_is_absent(tmp_path):
    """The mock owns the port the app dials: no sync while the vendor is down, 5 cells, full
    marks, and the detail says why the 503 cell is missing."""
    with lease_port(lock_dir=tmp_path) as lease:  # held: the mock takes it while we grade
        url = f"http://127.0.0.1:{lease.port}"
        grading = grade(GOLDEN, phases=PHASES, confinement=UNCONFINED, vendor_url=url)
    validation = grading.observations["validation"]
    assert validation.vendor_fault is not None and validation.vendor_fault.status == 502
    assert validation.vendor_outage is None
    rows = {r.check_id: r for r in grading.rows}
    assert rows["x_status_duties"].detail == f"1: 5/5; {OUTAGE_NOT_PROBED}"
