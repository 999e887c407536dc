"""``view`` and ``report --html`` show each trial's and run's verification state, and a
tampered trial is never counted as passed (issue #13): real sealed runs, edited on disk,
served by a real ``benchwright view`` and read over HTTP."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from execution.sealed_runs import drop_key

from viewer.conftest import XSS, cli, serving

pytestmark = pytest.mark.slow


@pytest.fixture
def runs(sealed_runs: dict[str, Path]) -> dict[str, Path]:
    return sealed_runs


def _flip(run: Path, verdict: str = "passed") -> None:
    """Turn the nop run's failed fix-01 into ``verdict``, keeping the old MAC."""
    path = run / "trials" / "fix-01" / "1" / "result.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "verdict": verdict}))


def _row(html: str, run_id: str) -> str:
    found = re.search(rf'<tr class="run" data-run="{re.escape(run_id)}">(.*?)</tr>', html, re.S)
    assert found, run_id
    return found.group(1)


def _pages(url: str, runs: dict[str, Path]) -> dict[str, str]:
    nop, oracle = runs["nop"].name, runs["oracle"].name
    paths = {
        "index": "/",
        "run": f"/runs/{nop}",
        "trial": f"/runs/{nop}/trials/fix-01/1",
        "task": f"/runs/{nop}/tasks/fix-01",
        "compare": f"/compare?a=run:{oracle}&b=run:{nop}",
    }
    pages = {}
    for name, path in paths.items():
        got = httpx.get(url + path)
        assert got.status_code == 200, (path, got.text)
        pages[name] = got.text
    return pages


def test_verified_runs_show_verified_badges_and_their_pass_rates(runs):
    with serving(runs["oracle"].parent) as url:
        pages = _pages(url, runs)
    row = _row(pages["index"], runs["oracle"].name)
    assert 'data-seal="verified"' in row and "2/2" in row
    assert "TAMPERED" not in pages["run"] and "UNVERIFIED" not in pages["run"]


def test_a_flipped_verdict_shows_tampered_everywhere_and_is_never_counted(runs, tmp_path):
    _flip(runs["nop"])
    with serving(runs["nop"].parent) as url:
        pages = _pages(url, runs)
    row = _row(pages["index"], runs["nop"].name)
    assert "TAMPERED: MAC mismatch" in row and "withheld (tampered)" in row
    assert "0/2" not in row and "1/2" not in row
    trial_cell = pages["run"].split('data-task="fix-01"', 1)[1].split("</tr>", 1)[0]
    assert "badge-tampered" in trial_cell and "badge-passed" not in trial_cell
    assert "the file claims passed" in trial_cell
    assert "TAMPERED: MAC mismatch" in pages["trial"]
    assert "fails verification: it claims passed" in pages["trial"]
    assert "badge-passed" not in pages["trial"] and "badge-passed" not in pages["task"]
    fix01 = pages["compare"].split('data-task="fix-01"', 1)[1].split("</tr>", 1)[0]
    assert "badge-tampered" in fix01 and "newly passing" not in fix01
    assert "B: TAMPERED: MAC mismatch" in pages["compare"]
    report = tmp_path / "r.html"
    assert cli("report", str(runs["nop"].parent), "--html", str(report)).returncode == 0
    html = report.read_text()
    assert "TAMPERED: MAC mismatch" in _row(html, runs["nop"].name)
    assert "fix-01 #1 tampered (TAMPERED: MAC mismatch)" in html


def test_a_tampered_claim_is_shown_as_text(runs):
    _flip(runs["nop"], XSS)
    with serving(runs["nop"].parent) as url:
        page = httpx.get(url + f"/runs/{runs['nop'].name}/trials/fix-01/1").text
    assert XSS not in page and "&lt;script&gt;" in page


def test_an_edited_summary_is_flagged_and_its_figures_withheld(runs):
    path = runs["nop"] / "summary.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "correctness_pass_rate": 1.0}))
    with serving(runs["nop"].parent) as url:
        pages = _pages(url, runs)
    assert "withheld (tampered)" in _row(pages["index"], runs["nop"].name)
    flagged = pages["run"].split('class="banner seal-banner"', 1)[1].split("</div>", 1)[0]
    assert "TAMPERED: MAC mismatch" in flagged and f"{path}</span>" in flagged


def test_without_the_key_every_badge_says_unverified_and_the_pages_still_work(runs):
    drop_key(runs["nop"].name)
    with serving(runs["nop"].parent) as url:
        pages = _pages(url, runs)
    row = _row(pages["index"], runs["nop"].name)
    assert "UNVERIFIED: no key on this machine" in row and "0/2" in row
    assert "UNVERIFIED: no key on this machine" in pages["trial"]
    assert "A: UNVERIFIED" not in pages["compare"]
    assert "B: UNVERIFIED: no key on this machine" in pages["compare"]
