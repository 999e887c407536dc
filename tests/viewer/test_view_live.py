"""``benchwright view`` keeps up without a restart: a run started after the viewer, and
a run still adding trials, show on the next page load (a run in progress with how far
it got), runs listed newest first as ``runs list`` lists them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from viewer.conftest import serving


def _listed(page: Any, url: str) -> dict[str, str]:
    """Each listed run's id and its ``complete`` cell, in the order listed."""
    page.goto(url + "/")
    rows = page.locator("#runs tbody tr")
    return {
        rows.nth(n).get_attribute("data-run"): rows.nth(n).locator("td").nth(8).inner_text()
        for n in range(rows.count())
    }


def test_runs_made_and_growing_after_view_started_show_without_a_restart(
    runs: dict[str, Any], tmp_path: Path, page: Any
) -> None:
    served, made = tmp_path / "runs", runs["dir"]
    served.mkdir()
    shutil.copytree(made / runs["oracle"], served / runs["oracle"])
    with serving(served) as url:
        assert list(_listed(page, url)) == [runs["oracle"]]
        # a run starts: its run.json, then one finished trial of six
        growing, source = served / runs["nop"], made / runs["nop"]
        growing.mkdir()
        shutil.copy(source / "run.json", growing / "run.json")
        shutil.copytree(source / "trials" / "fix-01", growing / "trials" / "fix-01")
        listed = _listed(page, url)
        assert listed[runs["nop"]] == "in progress 1/6", listed
        page.goto(url + f"/runs/{runs['nop']}")
        assert page.locator("p.running").inner_text().startswith("In progress: 1 of 6 trials")
        # a second trial finishes
        shutil.copytree(source / "trials" / "fix-02", growing / "trials" / "fix-02")
        assert _listed(page, url)[runs["nop"]] == "in progress 2/6"
        # ... and the rest, then its summary
        shutil.copytree(source / "trials", growing / "trials", dirs_exist_ok=True)
        shutil.copy(source / "summary.json", growing / "summary.json")
        listed = _listed(page, url)
        assert listed[runs["nop"]] == "complete"
        created = {r: json.loads((served / r / "run.json").read_text())["created_at"]
                   for r in listed}  # fmt: skip
        newest_first = sorted(listed, key=lambda r: (created[r], r), reverse=True)
        assert list(listed) == newest_first
        # a run removed while serving leaves the list, the directory emptied is no error
        shutil.rmtree(served / runs["oracle"])
        shutil.rmtree(growing)
        page.goto(url + "/")
        assert page.locator("#runs tbody tr").count() == 0
        assert page.locator("p.empty").first.is_visible()
