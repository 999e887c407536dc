"""The SVG charts: every mark where its number puts it, every text escaped, no style
attribute (the pages' policy refuses inline style), nothing drawn for no data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from benchwright.matrix.stats import Rate
from benchwright.web import environment
from benchwright.web.charts import (
    BAR_W,
    BAR_X,
    MAX_MODELS,
    Entry,
    conditions,
    entry_scores,
    pass_rates,
    tier_means,
)

NS = {"s": "http://www.w3.org/2000/svg"}
XSS = '<script>alert("x")</script>&'
TIERS = [
    {"name": "A", "weight": 0.06, "mean": 1.0},
    {"name": "B", "weight": 0.12, "mean": 0.25},
    {"name": "HARD", "weight": 0.2, "mean": None},
    {"name": "E", "weight": 0.0, "mean": 0.5},
]
EXCELLENCE = {
    "tier": "E",
    "weight": 0.12,
    "conditions": [
        {"name": "j_first_use == 1", "met": True},
        {"name": "p_sync_wall == 1", "met": False},
        {"name": "p_cold_load == 1", "met": False, "excluded": True},
    ],
}


def parse(svg: str) -> ET.Element:
    """The chart as XML: it must be well-formed on its own (it is inlined in HTML)."""
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img" and root.get("aria-label")
    assert root.find("s:title", NS) is not None
    assert not [e for e in root.iter() if "style" in e.attrib or e.tag.endswith("style")]
    return root


def x_of(value: float) -> float:
    return BAR_X + value * BAR_W


def at(value: float) -> object:
    """The axis position of ``value``, as drawn (two decimals)."""
    return pytest.approx(x_of(value), abs=0.01)


def test_tier_bars_are_as_long_as_their_means_and_say_their_weights() -> None:
    root = parse(tier_means(TIERS, EXCELLENCE))
    rows = root.findall("s:g[@class='row']", NS)
    assert [r.findtext("s:text", namespaces=NS) for r in rows] == ["A", "B", "HARD", "E"]
    widths = [float(b.get("width")) for r in rows for b in r.findall("s:rect[@class='bar']", NS)]
    assert widths == [pytest.approx(BAR_W * m) for m in (1.0, 0.25, 0.5)]  # HARD: no bar
    figures = [r.findall("s:text", NS)[1].text for r in rows]
    assert figures == ["mean 1.0000 · weight 0.06", "mean 0.2500 · weight 0.12",
                       "not measured · weight 0.20", "mean 0.5000 · slice 0.12"]  # fmt: skip
    ys = [float(r.find("s:rect", NS).get("y")) for r in rows]
    assert ys == sorted(ys) and len(set(ys)) == 4  # one row each, top to bottom


def test_excellence_conditions_are_ticks_crosses_and_dashes() -> None:
    root = parse(conditions(EXCELLENCE))
    marks = [(g.get("data-state"), g.find("s:path", NS).get("class"))
             for g in root.findall("s:g[@class='condition']", NS)]  # fmt: skip
    assert marks == [("met", "tick"), ("not met", "cross"), ("excluded", "dash")]
    assert root.get("aria-label") == "excellence conditions: 1 of 2 met"


def test_pass_rate_bars_carry_their_wilson_intervals_as_whiskers() -> None:
    rates = [("fix", Rate(3, 4)), ("feature", Rate(0, 5)), ("refactor", Rate(7, 7))]
    root = parse(pass_rates(rates, "Pass rate per class, 95 % Wilson intervals"))
    for row, (_, rate) in zip(root.findall("s:g[@class='row']", NS), rates, strict=True):
        bars = row.findall("s:rect[@class='bar']", NS)
        assert float(bars[0].get("width")) == pytest.approx(BAR_W * rate.value, abs=0.01)
        whisker = row.find("s:g[@class='interval']", NS)
        low, high = rate.interval
        line = whisker.find("s:line", NS)
        assert float(line.get("x1")) == at(low)
        assert float(line.get("x2")) == at(high)
    low, high = Rate(3, 4).interval  # the figures beside the bar, the same interval
    assert f"3/4 · 75% [{low:.0%}, {high:.0%}]" in pass_rates(rates, "t")


def test_entries_are_dots_by_model_and_baselines_dashed_lines_at_their_scores() -> None:
    entries = [Entry("qwen", 0.5, "calm-otter"), Entry("llama", 0.8, "fox"),
               Entry("qwen", 0.7, "owl", partial=True)]  # fmt: skip
    baselines = [Entry("Claude Opus 5", 0.9755, "Claude Opus 5"),
                 Entry("Claude Haiku 4.5", 0.7861, "Claude Haiku 4.5")]  # fmt: skip
    root = parse(entry_scores(entries, baselines))
    models = root.findall("s:g[@class='model']", NS)
    assert [m.get("data-model") for m in models] == ["llama", "qwen"]  # best entry first
    dots = models[1].findall("s:circle", NS)
    assert [float(d.get("cx")) for d in dots] == [at(0.7), at(0.5)]
    assert [d.get("fill") for d in dots] == ["none", "#1f4e8c"]  # the partial one is hollow
    assert len({float(d.get("cy")) for d in dots}) == 1  # one row per model
    lines = [g.find("s:line", NS) for g in root.findall("s:g[@class='baseline']", NS)]
    assert [float(line.get("x1")) for line in lines] == [at(0.9755), at(0.7861)]
    assert all(line.get("stroke-dasharray") for line in lines)
    assert root.get("aria-label") == (
        "score of every entry by model (3 entries), 2 published baselines as dashed lines"
    )
    bottom = max(float(d.get("cy")) for m in models for d in m.findall("s:circle", NS))
    assert all(float(line.get("y2")) > bottom for line in lines)  # the lines span every row


def test_models_past_the_cap_are_counted_not_drawn() -> None:
    entries = [Entry(f"m{n}", n / 100, f"h{n}") for n in range(MAX_MODELS + 3)]
    root = parse(entry_scores(entries, []))
    assert len(root.findall("s:g[@class='model']", NS)) == MAX_MODELS
    assert root.find("s:text[@class='more']", NS).text == "3 more models: see the table"
    assert root.get("aria-label") == f"score of every entry by model ({MAX_MODELS} entries)"


def test_every_text_is_escaped() -> None:
    charts = [
        tier_means([{"name": XSS, "weight": 1.0, "mean": 0.5}]),
        conditions({"tier": "E", "weight": 0.1, "conditions": [{"name": XSS, "met": True}]}),
        pass_rates([(XSS, Rate(1, 2))], XSS),
        entry_scores([Entry(XSS, 0.5, XSS)], [Entry(XSS, 0.9, XSS)]),
    ]
    for svg in charts:
        root = parse(svg)  # a raw '<' or '&' would not parse
        assert "<script" not in svg and not root.findall(".//script")
        texts = " ".join(root.itertext())
        assert "<script>" in texts  # shown as text (cut where it is long)


def test_no_data_draws_nothing() -> None:
    assert tier_means([]) == "" and conditions(None) == "" and conditions({"conditions": []}) == ""
    assert pass_rates([], "t") == "" and entry_scores([], []) == ""


def test_the_partial_wraps_a_chart_in_a_figure_and_leaves_out_an_empty_one() -> None:
    env = environment()
    page = env.from_string(
        '{% import "charts.html" as charts %}{{ charts.card(tiers, excellence) }}'
        "{{ charts.rates(rates, 'Pass rate per class') }}{{ charts.entries([], []) }}"
    )
    html = page.render(tiers=TIERS, excellence=None, rates=[])
    assert html.count("<figure") == 1 and 'data-chart="tiers"' in html
    assert "<svg" in html and "&lt;svg" not in html  # markup, not escaped text
