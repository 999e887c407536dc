"""The sb-7 ``load`` and ``error`` scenarios in a real Chromium on small pages served on
127.0.0.1, through the real ``browser`` phase: an honest console page earns 1.0 on every
row that reads them; a defective one (yen with cents, a bare amount, raw ISO dates, a
page wider than a phone, no error state) fails exactly those rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sb7_browser_canned import SURFACES, load_view, with_browser
from sb7_observations import perfect, row, truth
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from benchwright.model import Status
from benchwright.probes.browser import browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.sb7.browser import browser, phase
from benchwright.suites.sb7.browser.lanes import own_lanes
from benchwright.suites.sb7.context import GradeSettings

TOTAL = 12_290
STATUSES = ("settled", "pending", "refunded", "failed")
HEX = {"settled": "#059669", "pending": "#D97706", "refunded": "#7C3AED", "failed": "#B91C1C"}
LOAD_ROWS = ("j_loads_data", "j_first_use", "b_money_rendered", "v_dates_readable",
             "v_money_presentation", "v_status_badges", "v_responsive_375",
             "v_styling")  # fmt: skip
needs_chromium = pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium")
pytestmark = [needs_chromium, pytest.mark.slow]


def _page(amounts: tuple, date: str, *, wide: bool, shows_errors: bool) -> str:
    """A console page: header, readout, the table (rows by data-id), and a fetch of
    /api/summary whose failure shows an error only when ``shows_errors``."""
    css = (f"body{{font-family:Inter,sans-serif;margin:0;background:{SURFACES[1]}}}"
           f"header{{background:{SURFACES[0]};color:#fff}}button{{background:{SURFACES[2]}}}"
           f"table{{background:{SURFACES[1]}}}"
           + "".join(f".b-{s}{{background:{h};color:#fff}}" for s, h in HEX.items()))  # fmt: skip
    rows = "".join(f"<tr data-id='{pid}'><td>{date}</td><td>{text}</td><td><span class="
                   f"'b-{STATUSES[i % 4]}'>{STATUSES[i % 4]}</span></td><td>Acme</td><td></td>"
                   "</tr>" for i, (pid, text) in enumerate(amounts))  # fmt: skip
    oops = ("document.getElementById('notice').textContent = 'Cannot reach ledgerd. Check "
            "that it is running, then refresh.'" if shows_errors else "")  # fmt: skip
    return (f"<!doctype html><html><head><style>{css}</style></head><body>"
            f"<header id='app-header'>Meridian</header><p id='notice' role='status'></p>"
            f"<p>showing 1\u201350 of {TOTAL:,}</p><table><thead><tr><th>Date</th><th>Amount</th>"
            f"<th>Status</th><th>Counterparty</th><th>Note</th></tr></thead><tbody>{rows}"
            "</tbody></table><button id='prev'>Prev</button><button id='next'>Next</button>"
            + ("<div style='width:900px'>wide</div>" if wide else "")
            + f"<script>fetch('/api/summary').catch(() => {{ {oops} }});</script>"
            "</body></html>")  # fmt: skip


def _serve(html: str) -> Iterator[SimpleNamespace]:
    app = Starlette(routes=[Route("/", lambda r: HTMLResponse(html)),
                            Route("/api/summary", lambda r: JSONResponse({}))])  # fmt: skip
    with BackgroundServer(app) as server:
        yield SimpleNamespace(
            base_url=server.base_url,
            mock=SimpleNamespace(truth=lambda: SimpleNamespace(total=TOTAL)),
        )


def _amounts() -> tuple:
    return load_view(truth(), TOTAL).amounts


@pytest.fixture(scope="module")
def honest() -> Iterator[SimpleNamespace]:
    yield from _serve(_page(_amounts(), "1 Mar 2026, 14:00", wide=False, shows_errors=True))


@pytest.fixture(scope="module")
def defective() -> Iterator[SimpleNamespace]:
    cents = tuple((pid, f"{text}.00" if text.startswith("¥") else text.lstrip("€"))
                  for pid, text in _amounts())  # fmt: skip
    yield from _serve(_page(cents, "2026-03-01T14:00:00+01:00", wide=True, shows_errors=False))


def _graded(monkeypatch, ctx: SimpleNamespace, work: Path) -> dict[str, Any]:
    """The real phase on ``ctx``'s page: this package's load and error lanes only."""
    load, states = own_lanes()
    monkeypatch.setattr(phase, "_plan", lambda modules: [load, states[:1]])
    on = SimpleNamespace(**vars(ctx), work=work, settings=GradeSettings())
    seen = browser(on, None)  # type: ignore[arg-type]
    assert seen.unavailable is None and not seen.scenario_errors, seen.scenario_errors
    obs = with_browser(perfect(), load=seen.scenarios["load"], error=seen.scenarios["error"])
    return {c: row(obs, c) for c in (*LOAD_ROWS, "j_error_state")}


def test_an_honest_page_earns_every_row(monkeypatch, tmp_path, honest) -> None:
    rows = _graded(monkeypatch, honest, tmp_path)
    short = {c: r.detail for c, r in rows.items() if (r.status, r.score) != (Status.PASS, 1.0)
             and c != "j_first_use"}  # fmt: skip
    assert short == {}
    assert rows["j_first_use"].score > 0  # its first-data rung is the host's to say


def test_a_defective_page_fails_the_rows_of_its_defects(monkeypatch, tmp_path, defective) -> None:
    rows = _graded(monkeypatch, defective, tmp_path)
    assert rows["b_money_rendered"].score < 0.8 and "JPY wrong" in rows["b_money_rendered"].detail
    assert rows["v_money_presentation"].score < 1.0
    assert rows["v_dates_readable"].score == 0.0
    assert rows["v_responsive_375"].score == 0.0
    assert rows["j_error_state"].score == 0.0
    assert rows["v_status_badges"].score == 1.0 and rows["v_styling"].score == 1.0
