"""The conflict phase writes a note into the app's first row; ``load`` must still see the
fixture's data (docs/vspro.md), or an app loses ``v_responsive_375`` to the grader's own
note (issue #13). The phase gives the vendor's row its note back under a new version, and
the app's next sync brings its copy back."""

from __future__ import annotations

import pytest
from backend_harness import REFERENCE, call, synced

from benchwright.suites.vspro.observations import Observations
from benchwright.suites.vspro.phases.writes import FIRST_NOTE, conflict

pytestmark = pytest.mark.slow


def test_after_the_conflict_phase_a_sync_returns_the_row_to_pristine(tmp_path) -> None:
    with synced(REFERENCE, tmp_path) as (mock, app, ctx):
        obs = Observations(0, mock.fixture.expect, frozenset(r["id"] for r in mock.fixture.rows))
        seen = conflict(ctx, obs)
        pid = seen.payment_id
        assert call(app.base_url, f"/api/payments/{pid}").body["note"] == FIRST_NOTE
        assert mock.store.find(pid)["note"] == ""
        assert any(x.get("admin") == "restore-note" for x in mock.trace.lines())
        assert call(app.base_url, "/api/sync", "POST", timeout=120).status == 200
        row = call(app.base_url, f"/api/payments/{pid}").body
    assert isinstance(row, dict) and row["note"] == "", f"{pid} kept {row.get('note')!r}"
