"""The shared components: every value a poster or an app controls is rendered as text."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from jinja2 import UndefinedError

from benchwright.web import environment, fmt_secs, fmt_when

XSS = '<script>alert("x")</script>'

CARD = {
    "scorerVersion": "sb-6.0-rc",
    "score": 0.90291,
    "tiers": {"A": 1.0, "B": 0.875},
    "composition": {
        "components": {"inner": 0.9875},
        "excellenceGate": 0.9286,
        "excellenceMean": 1.0,
        "excellence": 0.1114,
        "preSeverityScore": 0.9804,
        "multiplier": 0.6,
        "excellent": False,
        "partial": True,
    },
    "checks": [
        {"id": "server_runs", "tier": "A", "status": "PASS", "score": 1.0, "detail": "ok",
         "weight": 1.0},
        {"id": "b_summary", "tier": "B", "status": "FAIL", "score": 0.0, "detail": XSS,
         "weight": 2.0},
    ],
}  # fmt: skip


def render(source: str, **values: object) -> str:
    env = environment()
    return env.from_string('{% import "components.html" as c %}' + source).render(**values)


def test_scorecard_summary_prints_score_version_composition_and_flags() -> None:
    html = render("{{ c.scorecard_summary(card) }}", card=CARD)
    for text in ("0.9029", "sb-6.0-rc", "inner", "0.9875", "0.9286", "x 0.6000", "partial"):
        assert text in html
    assert "excellent" not in html


def test_a_scorer_without_excellence_prints_no_gate() -> None:
    card = {**CARD, "composition": {**CARD["composition"], "excellenceGate": None}}
    assert "excellence gate" not in render("{{ c.scorecard_summary(card) }}", card=card)


def test_check_rows_escape_the_detail_and_badge_each_status() -> None:
    html = render("{{ c.check_rows(rows) }}", rows=CARD["checks"])
    assert XSS not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert 'class="badge badge-pass">PASS' in html and 'class="badge badge-fail">FAIL' in html


def test_gallery_and_meta_escape_names() -> None:
    html = render(
        "{{ c.gallery(shots) }}{{ c.run_meta(meta) }}",
        shots=[{"name": XSS, "url": "/runs/1/screenshots/0.png"}],
        meta={"model": XSS},
    )
    assert (
        XSS not in html and html.count("&lt;script&gt;") == 5
    )  # data-shot, both alts, the caption, the meta
    assert 'src="/runs/1/screenshots/0.png"' in html
    assert "No screenshots" in render("{{ c.gallery([]) }}")


def test_tier_table_lists_each_tier_mean() -> None:
    html = render("{{ c.tier_table(card.tiers) }}", card=CARD)
    assert '<th scope="col">B</th>' in html and "0.8750" in html


def test_a_missing_field_fails_loudly_instead_of_rendering_blank() -> None:
    with pytest.raises(UndefinedError):
        render("{{ c.scorecard_summary(card) }}", card={"score": 1.0})


@pytest.mark.parametrize(
    ("secs", "text"), [(None, "-"), (42.4, "42 s"), (1025, "17 min 05 s"), (3720, "1 h 02 min")]
)
def test_wall_time_reads_as_people_say_it(secs: float | None, text: str) -> None:
    assert fmt_secs(secs) == text


def test_timestamps_print_in_utc() -> None:
    assert fmt_when("2026-12-01T12:30:00+02:00") == "2026-12-01 10:30 UTC"
    assert fmt_when(datetime(2026, 12, 1, 10, 30)) == "2026-12-01 10:30 UTC"
    assert fmt_when(datetime(2026, 12, 1, 10, 30, tzinfo=UTC)) == "2026-12-01 10:30 UTC"


def test_empty_tiers_and_rows_say_so() -> None:
    html = render("{{ c.tier_table({}) }}{{ c.check_rows([]) }}")
    assert "No tier means were recorded" in html and "No per-check rows were recorded" in html
    assert "<table" not in html


def test_check_rows_fold_a_rows_evidence_as_escaped_text_and_only_when_given() -> None:
    rows = [{**CARD["checks"][1], "evidence": f"stdout:\n{XSS}"}, CARD["checks"][0]]
    html = render("{{ c.check_rows(rows) }}", rows=rows)
    assert html.count('<details class="evidence">') == 1
    assert "<summary>full output</summary><pre>stdout:\n&lt;script&gt;" in html
    assert XSS not in html


def test_base_inlines_the_stylesheet_only_when_asked() -> None:
    env = environment()
    served = env.get_template("base.html").render()
    assert '<link rel="stylesheet" href="/static/web.css">' in served and "<style>" not in served
    inline = env.get_template("base.html").render(inline_css=".x { color: red; }")
    assert "<style>.x { color: red; }</style>" in inline and "<link" not in inline
