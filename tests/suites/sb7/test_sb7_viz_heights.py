"""t_height_pixels on canned views built from the truth's own scene at the close pose: a
truthful field earns 1.0 with JPY and KWD among the measured tops; a column drawn taller
(a forgotten exponent), a wrong top colour, or a run without the exponent traps each lose
what §12 says; a lost section is UNAVAILABLE, never the app's 0."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import row
from sb7_viz_canned import BG, RECORDS, heights_run, strips, viz_view, with_viz

from benchwright.model import Status
from benchwright.suites.sb7.checks.tier_t_height import rendered_top
from benchwright.suites.sb7.viz.view import HeightStrip


def _row(**changes):
    return row(with_viz(viz_view(**changes)), "t_height_pixels")


def _currency(strip: HeightStrip) -> str:
    return RECORDS["currency"][RECORDS["id"].index(strip.id)]


def _taller(strip: HeightStrip, px: int) -> HeightStrip:
    """The strip of a column drawn ``px`` pixels too tall (background turned column)."""
    shown = list(strip.pixels)
    first = rendered_top(strip) - strip.top
    for y in range(max(0, first - px), first):
        shown[y] = shown[first]
    return replace(strip, pixels=tuple(shown))


def test_a_truthful_field_measures_jpy_and_kwd_and_earns_one() -> None:
    assert {"JPY", "KWD"} <= {_currency(s) for s in strips()}
    got = _row()
    assert (got.status, got.score) == (Status.PASS, 1.0), got.detail


def test_a_top_drawn_too_tall_fails_its_case() -> None:
    bad = [_taller(s, 6) if _currency(s) == "KWD" else s for s in strips()]
    kwd = sum(_currency(s) == "KWD" for s in strips())
    got = _row(heights=heights_run(strips=tuple(bad)))
    assert got.score == pytest.approx(1 - kwd / len(bad)), got.detail


def test_a_wrong_top_colour_fails_its_case() -> None:
    first = strips()[0]
    recoloured = replace(first, pixels=(*first.pixels[:-1], (200, 200, 200)))
    got = _row(heights=heights_run(strips=(recoloured, *strips()[1:])))
    assert got.score == pytest.approx(1 - 1 / len(strips()))


def test_without_the_exponent_traps_the_score_is_scaled() -> None:
    plain = tuple(s for s in strips() if _currency(s) not in ("JPY", "KWD"))
    assert _row(heights=heights_run(strips=plain)).score == pytest.approx(0.7)


def test_nothing_measured_is_the_apps_zero_and_a_lost_section_unavailable() -> None:
    assert _row(heights=heights_run(strips=())).score == 0.0
    lost = _row(lost={"heights": "page-side read exceeded 10 s"})
    assert lost.status is Status.UNAVAILABLE


def test_a_background_strip_reads_no_top_above_its_anchor() -> None:
    strip = HeightStrip("p", 1, 10, 13, (BG, BG, BG, (5, 150, 105)))
    assert rendered_top(strip) == 13
