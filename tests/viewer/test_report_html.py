"""``benchwright report --html``: one file that opens offline in Chromium over file://,
screenshots decoded from data: URIs, nothing requested from anywhere, markup as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from viewer.conftest import XSS, cli, thumbs_loaded


def _offline(page: Any) -> list[str]:
    """Every request that is neither the file itself nor an inline image."""
    asked: list[str] = []
    page.on("request", lambda r: r.url.startswith(("file:", "data:")) or asked.append(r.url))
    return asked


def test_the_report_opens_offline_with_its_screenshots_and_trials(
    runs, cards, tmp_path: Path, page
) -> None:
    out = tmp_path / "r.html"
    done = cli("report", str(runs["dir"]), str(cards["good"]), "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out} (") and "2 run(s), 1 scorecard(s)" in done.stdout
    asked = _offline(page)
    page.goto(out.as_uri())
    thumbs_loaded(page)
    widths = page.locator("img.thumb").evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert widths == [64, 24]
    assert all(s.startswith("data:image/png;base64,") for s in
               page.locator("img.thumb").evaluate_all("imgs => imgs.map(i => i.src)"))  # fmt: skip
    assert page.locator("link[rel=stylesheet]").count() == 0
    assert page.locator("section.report-run").count() == 2
    trial = page.locator(f"#trial-{runs['oracle']}-fix-01-1")
    trial.locator("summary").first.click()
    assert "abs(cents)" in trial.locator("pre.diff").inner_text()
    # each failed trial says why in the run's list, under the run's pass-rate headline
    nop = page.locator(f"#run-{runs['nop']}")
    assert nop.locator(".run-headline p.lead").inner_text().startswith("correctness: 0/6 passed")
    reason = nop.locator('tr[data-task="fix-01"] .reason').inner_text()
    assert reason.startswith("failing-test-passes: exit 1: 1 failed"), reason
    page.locator('[data-filter-for="runs"]').fill("nop")  # the inline script filters
    assert page.locator("#runs tbody tr:not([hidden])").count() == 1
    assert asked == []


def test_the_report_renders_hostile_text_as_text(runs, cards, tmp_path: Path, page) -> None:
    out = tmp_path / "evil.html"
    done = cli("report", str(runs["hostile"]), str(cards["evil"]), "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert XSS not in out.read_text()
    page.goto(out.as_uri())
    assert page.locator("script").count() == 1  # the report's own
    assert page.locator("img[src=x]").count() == 0
    trial = page.locator("#trial-evil-run-fix-01-1")
    trial.locator("summary").first.click()
    assert trial.locator("pre.prompt").inner_text() == XSS
    assert page.dialogs == []
