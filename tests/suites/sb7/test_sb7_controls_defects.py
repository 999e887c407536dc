"""Each sb-7 control's defect, seen without the grader: the golden with the control's
edits runs for real (its services as processes on loopback with the vendor absent, or
its own modules over a real SQLite file in a subprocess) and shows the very fault the
control is named for, next to the golden that does not. The grader's rows for the same
controls are ``test_sb7_controls_graded.py``'s; the defects that need the vendor's
schedule to show (a lying 304, a held-open create, a dropped page) are shown there only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sb7_reference_app
from sb7_reference_app import TOKENS, Golden, dead_vendor_url

from benchwright.suites.audit import control_tree, load_controls

SUITE = Path(__file__).resolve().parents[3] / "suites" / "sb7"
GOLDEN = SUITE / "reference"
MAKER = TOKENS["maker"]
DRAFT = {"amount_minor": 98765, "currency": "JPY",
         "counterparty": {"name": "Cinder Labs", "country": "NL"}, "note": "control"}  # fmt: skip


@contextmanager
def edited(name: str | None) -> Iterator[Path]:
    """The golden with control ``name``'s edits applied (the golden itself for None)."""
    if name is None:
        yield GOLDEN
        return
    (control,) = load_controls(SUITE, [name])
    with control_tree(control, GOLDEN) as tree:
        yield tree


@contextmanager
def services(name: str | None, root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Golden]:
    """Both services of control ``name``'s tree (not started), the vendor absent."""
    with edited(name) as tree:
        monkeypatch.setattr(sb7_reference_app, "REFERENCE", tree)
        root.mkdir(parents=True, exist_ok=True)
        vendor_url, lease = dead_vendor_url()
        running = Golden(root, vendor_url)
        try:
            yield running
        finally:
            running.close()
            lease.release()


def in_tree(name: str | None, script: str, db_dir: Path) -> Any:
    """Run ``script`` with the tree's ``app`` importable and ``DB`` its db dir; the JSON
    it prints last."""
    with edited(name) as tree:
        done = subprocess.run(
            [sys.executable, "-c", f"from pathlib import Path\nDB = Path({str(db_dir)!r})\n"
             + script],
            cwd=db_dir.parent, capture_output=True, text=True, timeout=60,
            env={"PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


# -- boot -------------------------------------------------------------------------------


def boot_failure(start: Any, service: Any = None) -> str:
    """What ``start()`` said when its process exited at boot; ``service``'s dead process
    is forgotten (it was reaped and its output read: there is nothing left to kill)."""
    with pytest.raises(AssertionError, match="exited at boot") as caught:
        start()
    if service is not None:
        service.proc = None
    return str(caught.value)


def test_dead_server_exits_at_boot_on_a_fresh_db_dir(tmp_path, monkeypatch) -> None:
    with services("dead-server", tmp_path / "apart", monkeypatch) as app:
        app.notifierd.start()
        assert "no ledger.db in" in boot_failure(app.ledgerd.start, app.ledgerd)
    with services("dead-server", tmp_path / "combined", monkeypatch) as app:
        assert "no ledger.db in" in boot_failure(app.combined)


def test_needs_peer_to_boot_dies_while_the_notifier_is_down(tmp_path, monkeypatch) -> None:
    with services("needs-peer-to-boot", tmp_path, monkeypatch) as app:
        assert "Connection refused" in boot_failure(app.ledgerd.start, app.ledgerd)
        app.notifierd.start()
        app.ledgerd.start()  # with its peer up it boots
        assert app.ledgerd.get("/api/health").status == 200


# -- durability across a SIGKILL --------------------------------------------------------


@pytest.mark.parametrize(("name", "after"), [(None, "submitted"),
                                             ("undo-transitions-at-boot", "draft")])  # fmt: skip
def test_a_submitted_draft_after_a_sigkill(tmp_path, monkeypatch, name, after) -> None:
    with services(name, tmp_path, monkeypatch) as app:
        app.notifierd.start()
        app.ledgerd.start()
        draft = app.ledgerd.post("/api/drafts", DRAFT, MAKER).body["id"]
        assert app.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER).status == 200
        app.ledgerd.kill()
        app.ledgerd.start()
        assert app.ledgerd.get(f"/api/drafts/{draft}", MAKER).body["state"] == after


@pytest.mark.parametrize(("name", "kept"), [(None, [7, 8]), ("volatile-processed-set", [])])
def test_the_processed_set_after_a_sigkill(tmp_path, monkeypatch, name, kept) -> None:
    batch = {"events": [{"seq": 7, "type": "draft.submitted", "draft_id": "drf_1"},
                        {"seq": 8, "type": "payment.sent", "payment_id": "pay_1"}]}  # fmt: skip
    with services(name, tmp_path, monkeypatch) as app:
        app.notifierd.start()
        assert app.notifierd.post("/notify/events", batch).body["accepted"] == [7, 8]
        app.notifierd.kill()
        app.notifierd.start()
        processed = app.notifierd.get("/notify/processed?after=0").body["processed"]
        assert [p["seq"] for p in processed] == kept


# -- the store's own rules, over a real ledger.db -----------------------------------------

PAYMENT = ("P = {'id': 'pay_1', 'amount_minor': 123456, 'currency': 'KWD', 'status': 'settled',"
           " 'created_at': '2026-03-28T23:30:00Z', 'version': 1, 'note': ''}\n")  # fmt: skip
UPSERTS = PAYMENT + (
    "from app.ledgerd.ledger import Ledger\n"
    "ledger = Ledger(DB)\n"
    "for version in (1, 3, 2):\n"
    "    with ledger.transaction() as w:\n"
    "        w.upsert({**P, 'version': version}, 'webhook')\n"
    "with ledger.db.read() as c:\n"
    "    stored = c.execute('SELECT version FROM payments').fetchone()[0]\n"
    "    log = [r[0] for r in c.execute('SELECT version FROM events ORDER BY seq')]\n"
    "import json; print(json.dumps([stored, log]))\n"
)  # fmt: skip


@pytest.mark.parametrize(("name", "stored", "log"), [
    (None, 3, [1, 3]),                     # v2 after v3 is stale: nothing changes
    ("blind-upsert", 2, [1, 3, 2]),        # the late v2 overwrites v3: the log goes back
    ("insert-only-upsert", 1, [1]),        # v3 acknowledged, never applied
])  # fmt: skip
def test_upserts_of_versions_1_3_2(tmp_path, name, stored, log) -> None:
    assert in_tree(name, UPSERTS, tmp_path / "db") == [stored, log]


def test_kwd_two_decimals_stores_a_truncated_amount(tmp_path) -> None:
    script = PAYMENT + ("from app.ledgerd.ledger import payment_values\nimport json\n"
                        "print(json.dumps(payment_values(P)['amount_minor']))\n")  # fmt: skip
    assert in_tree(None, script, tmp_path / "db") == 123456
    assert in_tree("kwd-two-decimals", script, tmp_path / "db") == 123450


def test_utc_day_buckets_puts_a_berlin_small_hour_on_the_day_before(tmp_path) -> None:
    script = ("from app.times import berlin_day\nimport json\n"
              "print(json.dumps([berlin_day('2026-03-28T23:30:00Z'),"
              " berlin_day('2026-07-01T22:15:00+00:00')]))\n")  # fmt: skip
    assert in_tree(None, script, tmp_path / "db") == ["2026-03-29", "2026-07-02"]
    assert in_tree("utc-day-buckets", script, tmp_path / "db") == ["2026-03-28", "2026-07-01"]


def test_wipe_cache_on_boot_loses_committed_rows_at_the_next_start(tmp_path) -> None:
    script = PAYMENT + (
        "from app.ledgerd.ledger import Ledger\n"
        "with Ledger(DB).transaction() as w:\n    w.upsert(P, 'sync')\n"
        "with Ledger(DB).db.read() as c:\n"
        "    import json; print(json.dumps(c.execute('SELECT COUNT(*) FROM payments')"
        ".fetchone()[0]))\n"
    )  # fmt: skip
    assert in_tree(None, script, tmp_path / "golden") == 1
    assert in_tree("wipe-cache-on-boot", script, tmp_path / "wiped") == 0


def test_lossy_sync_skips_a_page_row_whose_amount_is_a_multiple_of_97(tmp_path) -> None:
    script = PAYMENT + (
        "from app.ledgerd.ledger import Ledger\n"
        "from app.ledgerd.sync import Syncer, Validator, Walk\n"
        "syncer = Syncer(Ledger(DB), None)\nwalk = Walk()\n"
        "rows = [{**P, 'id': 'pay_a', 'amount_minor': 97 * 1000}, {**P, 'id': 'pay_b'}]\n"
        "syncer._apply_page(walk, 0, rows, Validator('e1', None), 'g1')\n"
        "import json; print(json.dumps(walk.inserted))\n"
    )  # fmt: skip
    assert in_tree(None, script, tmp_path / "golden") == 2
    assert in_tree("lossy-sync", script, tmp_path / "lossy") == 1


def test_half_applied_refund_applies_the_flip_and_drops_the_reversal(tmp_path) -> None:
    script = PAYMENT.replace("'KWD'", "'EUR'") + (
        "from app.ledgerd.ledger import Ledger\nfrom app.ledgerd.webhooks import _stage\n"
        "ledger = Ledger(DB)\n"
        "with ledger.transaction() as w:\n    w.upsert(P, 'sync')\n"
        "txn = {'id': 'txn_9', 'of': 2}\n"
        "flip = {'id': 'evt_1', 'type': 'payment.updated', 'txn': {**txn, 'part': 1},"
        " 'data': {**P, 'status': 'refunded', 'version': 2}}\n"
        "rev = {'id': 'evt_2', 'type': 'reversal.created', 'txn': {**txn, 'part': 2},"
        " 'data': {'id': 'rev_1', 'payment_id': 'pay_1', 'amount_minor': 123456,"
        " 'currency': 'EUR', 'created_at': '2026-03-29T10:00:00Z'}}\n"
        "for event in (rev, flip):\n"
        "    with ledger.transaction() as w:\n        _stage(w, event['txn'], event['id'], event)\n"
        "with ledger.db.read() as c:\n"
        "    status = c.execute('SELECT status FROM payments').fetchone()[0]\n"
        "    reversals = c.execute('SELECT COUNT(*) FROM reversals').fetchone()[0]\n"
        "import json; print(json.dumps([status, reversals]))\n"
    )  # fmt: skip
    assert in_tree(None, script, tmp_path / "golden") == ["refunded", 1]
    assert in_tree("half-applied-refund", script, tmp_path / "half") == ["refunded", 0]


def test_seq_gap_deletes_a_payment_s_earlier_events_when_it_moves_on(tmp_path) -> None:
    script = PAYMENT + (
        "from app.ledgerd.ledger import Ledger\nledger = Ledger(DB)\n"
        "for version in (1, 2):\n    with ledger.transaction() as w:\n"
        "        w.upsert({**P, 'version': version}, 'webhook')\n"
        "with ledger.transaction() as w:\n"
        "    w.event('draft.created', 'approval', draft_id='drf_1')\n"
        "with ledger.db.read() as c:\n"
        "    import json; print(json.dumps([r[0] for r in c.execute('SELECT seq FROM events')]))\n"
    )  # fmt: skip
    assert in_tree(None, script, tmp_path / "golden") == [1, 2, 3]
    assert in_tree("seq-gap", script, tmp_path / "gap") == [2, 3]  # a hole at seq 1
