"""The ``client`` phase for real: the driver runs the tree's ``MeridianClient`` in a
subprocess against the v1 mock and reports what it returned, errors included, without
the grader ever importing the entrant's code."""

import sys
import types
from pathlib import Path

from vendorsync_canned import REFERENCE

from benchwright.sandbox import UNCONFINED
from benchwright.suites.vendorsync.context import GradeContext, GradeSettings
from benchwright.suites.vendorsync.observations import Observations, Truth
from benchwright.suites.vendorsync.phases.client import client

BROKEN = """
class MeridianClient:
    def __init__(self, base_url, api_key):
        self.base_url = base_url

    def fetch_all_payments(self):
        return [{"id": "pay_0000", "amount_minor": 12.5}]

    def total_count(self):
        raise RuntimeError("no count today")

    def create_payment(self, amount_minor, currency, idempotency_key):
        return None
"""


def _run(tree: Path, work: Path, mock) -> Observations:
    ctx = GradeContext(tree, work, types.SimpleNamespace(confinement=UNCONFINED), mock,
                       GradeSettings(client_budget_s=60.0), mock.base_url)  # fmt: skip
    obs = Observations(seed=0, truth=Truth.of(mock.fixture))
    return obs.with_phase("client", client(ctx, obs))


def test_the_driver_reports_what_a_broken_client_returned(tmp_path, own_vendor):
    tree = tmp_path / "tree"
    (tree / "vendorsync").mkdir(parents=True)
    (tree / "vendorsync" / "__init__.py").write_text("")
    (tree / "vendorsync" / "meridian.py").write_text(BROKEN)
    (tmp_path / "work").mkdir()
    before = {name: id(module) for name, module in sys.modules.items()}
    seen = _run(tree, tmp_path / "work", own_vendor)["client"]
    after = {name: id(module) for name, module in sys.modules.items()}
    assert {n for n in after.items() if n[0].split(".")[0] == "vendorsync"} <= set(before.items())
    assert seen.failure is None
    walk = seen.report["fetch_all_payments"]["ok"]
    assert walk["count"] == 1 and walk["amount_types"] == ["float"]
    assert seen.report["total_count"] == {"error": "RuntimeError: no count today"}
    assert seen.report["creates"][0] == {"ok": {"type": "NoneType", "value": None}}


def test_the_driver_reports_a_missing_client(tmp_path, own_vendor):
    tree = tmp_path / "tree"
    (tree / "vendorsync").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    seen = _run(tree, tmp_path / "work", own_vendor)["client"]
    assert "cannot construct MeridianClient" in seen.report["error"]


def test_the_reference_client_walks_the_vendor_in_true_order(tmp_path, own_vendor):
    (tmp_path / "work").mkdir()
    seen = _run(REFERENCE, tmp_path / "work", own_vendor)["client"]
    walk = seen.report["fetch_all_payments"]["ok"]
    assert tuple(walk["ids"]) == tuple(own_vendor.fixture.true_order)
    ledger = own_vendor.contract_ledger("client")
    assert ledger.creates == 2 == ledger.keyed_creates and ledger.replayed_creates == 1
