"""``benchwright matrix --html``: one offline page whose bars and whiskers are the rates and
Wilson intervals the JSON document holds, per cell, per model and per prompt."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from benchwright.web.charts import BAR_W, BAR_X

CONFIG = Path(__file__).parent.parent / "data" / "matrix" / "matrix.yaml"
NS = {"s": "http://www.w3.org/2000/svg"}


def test_the_html_page_charts_every_rate_with_its_interval(cli, tmp_path: Path) -> None:
    proc = cli("matrix", str(CONFIG), "--json", "m.json", "--html", "out/m.html")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    page = (tmp_path / "out" / "m.html").read_text()
    assert "<script" not in page and "<link" not in page and "<style>" in page  # one file
    charts = [ET.fromstring(svg) for svg in re.findall(r"<svg.*?</svg>", page, re.S)]
    expected = [
        {f"{c['model']}/{c['prompt']}": c for c in doc["cells"]},
        doc["by_model"],
        doc["by_prompt"],
    ]
    assert len(charts) == len(expected)
    for svg, rates in zip(charts, expected, strict=True):
        assert "95 % Wilson intervals" in svg.get("aria-label")
        rows = svg.findall("s:g[@class='row']", NS)
        assert [r.findtext("s:text", namespaces=NS) for r in rows] == list(rates)
        for row, rate in zip(rows, rates.values(), strict=True):
            bar = row.find("s:rect[@class='bar']", NS)
            assert float(bar.get("width")) == pytest.approx(rate["pass_rate"] * BAR_W, abs=0.01)
            low, high = rate["ci"]
            line = row.find("s:g[@class='interval']/s:line", NS)
            assert float(line.get("x1")) == pytest.approx(BAR_X + low * BAR_W, abs=0.01)
            assert float(line.get("x2")) == pytest.approx(BAR_X + high * BAR_W, abs=0.01)
    assert '<td class="num wide">[9.7%, 70.0%]</td>' in page  # beta/direct, as the terminal says
