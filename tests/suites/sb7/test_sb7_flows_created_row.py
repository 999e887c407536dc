"""Which list row is the draft the probe typed: in a real Chromium against a booted golden
whose list rows show no counterparty name (§7 asks them for ``data-draft-id`` and
``data-state`` only) and whose drafts list answers 1.5 s late, with an older draft already
listed. A probe that took "the rows added since a snapshot" saw the older draft arrive
with the late answer and either named none or acted on the wrong draft (the golden's
j_workflow_reject once scored 1/3 that way); the probe finds the row of the draft ledgerd
holds under the tagged counterparty name, and both journeys earn 1.0."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sb7_flows_host import Defective, Host, booted
from sb7_flows_views import FLOWS
from sb7_observations import perfect, row

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.suites.kit.wire import rows_of
from benchwright.suites.sb7.browser.flows.flow import observe_flow
from benchwright.suites.sb7.browser.record import Sb7BrowserRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(browser_available() is not None, reason="no Chromium here"),
]
NAME_SPAN = 'el("span", { class: "who" }, `${d.counterparty.name} · ${d.counterparty.country}`),'
LIST_CALL = 'const drafts = await api("/api/drafts", { headers: bearer() });'
OLDER = {"amount_minor": 700, "currency": "EUR", "note": "older",
         "counterparty": {"name": "Older Draft GmbH", "country": "DE"}}  # fmt: skip


def _nameless_slow_list(js: str) -> str:
    """List rows without the counterparty, and every drafts list answered 1.5 s late."""
    assert NAME_SPAN in js and LIST_CALL in js
    late = "await new Promise((done) => setTimeout(done, 1500)); " + LIST_CALL
    return js.replace(NAME_SPAN, "").replace(LIST_CALL, late)


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    with booted(tmp_path_factory.mktemp("sb7-created-row")) as running:
        assert running.call("/api/drafts", method="POST", json=OLDER, role="maker").status == 201
        yield running


def _held(host: Host, prefix: str) -> list[str]:
    """The ids of the drafts ledgerd holds under a counterparty name starting ``prefix``."""
    rows = rows_of(host.call("/api/drafts", role="admin")) or []
    return [str(r["id"]) for r in rows if r["counterparty"]["name"].startswith(prefix)]


def test_the_typed_draft_is_found_however_late_the_list_and_whatever_its_rows_show(
    host: Host, tmp_path: Path
) -> None:
    with BrowserSession(artifacts=tmp_path / "browser") as session:
        seen = observe_flow(Defective(session, _nameless_slow_list), host, tmp_path / "flow")
    assert [seen.approval.draft_id] == _held(host, "Benchwright approval")
    assert [seen.rejection.draft_id] == _held(host, "Benchwright rejection")
    obs = perfect().with_phase(
        "browser", Sb7BrowserRecord(unavailable=None, scenarios={**FLOWS, "flow": seen})
    )
    for check_id in ("j_workflow_journey", "j_workflow_reject"):
        found = row(obs, check_id)
        assert found.score == 1.0, found.detail
