"""The viewer's charts on a served ``benchwright view`` and in ``report --html``: a card's
tier means against their weights and its excellence conditions, a run's pass rate per
class with 95 % Wilson intervals (none for a run with a tampered file), no script and no
inline style in any chart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
from web._charts_browser import assert_charts_render

from benchwright.matrix.stats import Rate
from benchwright.web.charts import BAR_W, BAR_X
from viewer.conftest import cli, serving

NS = {"s": "http://www.w3.org/2000/svg"}
POLICY = "default-src 'self'; script-src 'self'; object-src 'none'"


def charts(html: str, kind: str) -> list[ET.Element]:
    """Every ``<svg>`` of the page's ``data-chart=kind`` figures, parsed on its own."""
    found = re.findall(rf'<figure class="chart" data-chart="{kind}">(<svg.*?</svg>)', html, re.S)
    return [ET.fromstring(svg) for svg in found]


def class_rates(run: Path) -> dict[str, Rate]:
    """What the run's own summary says each class passed, as the chart must draw it."""
    classes = json.loads((run / "summary.json").read_text())["classes"]
    return {name: Rate(c["passed"], c["attempted"]) for name, c in classes.items()}


def assert_rates(svg: ET.Element, expected: dict[str, Rate]) -> None:
    rows = svg.findall("s:g[@class='row']", NS)
    assert [r.findtext("s:text", namespaces=NS) for r in rows] == list(expected)
    for row, rate in zip(rows, expected.values(), strict=True):
        assert float(row.get("data-value")) == pytest.approx(rate.value)
        whisker = row.find("s:g[@class='interval']", NS)
        low, high = rate.interval
        assert (float(whisker.get("data-low")), float(whisker.get("data-high"))) == (
            pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6))  # fmt: skip
        line = whisker.find("s:line", NS)
        assert float(line.get("x2")) - float(line.get("x1")) == pytest.approx(
            (high - low) * BAR_W, abs=0.02
        )


def test_a_card_page_charts_its_tier_means_weights_and_conditions(viewer, cards) -> None:
    page = httpx.get(viewer + "/cards/worse")
    assert page.status_code == 200 and page.headers["content-security-policy"] == POLICY
    doc = json.loads(cards["worse"].read_text())
    (tiers,) = charts(page.text, "tiers")
    rows = tiers.findall("s:g[@class='row']", NS)
    assert [r.findtext("s:text", namespaces=NS) for r in rows] == [t["name"] for t in doc["tiers"]]
    for row, tier in zip(rows, doc["tiers"], strict=True):
        bar = row.find("s:rect[@class='bar']", NS)
        assert float(bar.get("x")) == BAR_X
        assert float(bar.get("width")) == pytest.approx(tier["mean"] * BAR_W, abs=0.01)
    assert f"weight {doc['tiers'][0]['weight']:.2f}" in rows[0].findall("s:text", NS)[1].text
    (ticks,) = charts(page.text, "conditions")
    states = [g.get("data-state") for g in ticks.findall("s:g", NS)]
    assert states == ["met" if c["met"] else "not met" for c in doc["excellence"]["conditions"]]
    assert "style=" not in page.text.split('data-chart="tiers"', 1)[1].split("</figure>")[0]


def test_a_run_page_charts_pass_rate_per_class_with_wilson_intervals(viewer, runs) -> None:
    for agent in ("oracle", "nop"):
        page = httpx.get(f"{viewer}/runs/{runs[agent]}").text
        (svg,) = charts(page, "rates")
        assert_rates(svg, class_rates(runs["dir"] / runs[agent]))
        assert "95 % Wilson intervals" in svg.get("aria-label")


def test_the_report_carries_the_same_charts(runs, cards, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = cli("report", str(runs["dir"]), str(cards["good"]), "--html", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text()
    rates = charts(html, "rates")
    assert len(rates) == 2 and len(charts(html, "tiers")) == len(charts(html, "conditions")) == 1
    ids = re.findall(r'<section class="report-run" id="run-([^"]+)"', html)
    for svg, run_id in zip(rates, ids, strict=True):
        assert_rates(svg, class_rates(runs["dir"] / run_id))


@pytest.mark.slow
def test_a_run_with_a_tampered_file_draws_no_pass_rate(sealed_runs) -> None:
    nop = sealed_runs["nop"]
    result = nop / "trials" / "fix-01" / "1" / "result.json"
    result.write_text(json.dumps({**json.loads(result.read_text()), "verdict": "passed"}))
    with serving(nop.parent) as url:
        tampered = httpx.get(f"{url}/runs/{nop.name}").text
        verified = httpx.get(f"{url}/runs/{sealed_runs['oracle'].name}").text
    assert "TAMPERED" in tampered and not charts(tampered, "rates")
    assert charts(verified, "rates")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_charts_render_in_chromium_within_the_page_and_the_policy(
    viewer, runs, page, width: int
) -> None:
    assert_charts_render(page, viewer, ["/cards/worse", f"/runs/{runs['nop']}"], width)
