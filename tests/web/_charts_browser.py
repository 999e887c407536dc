"""What every page with charts must do in Chromium, for the board's and the viewer's tests."""

from __future__ import annotations

from typing import Any


def assert_charts_render(page: Any, base: str, paths: list[str], width: int) -> None:
    """At ``width``, each page's charts are drawn, inside the viewport (no sideways
    scroll), with their presentation attributes applied, and the page's policy refused
    nothing (each refusal fires ``securitypolicyviolation``, recorded by a listener the
    browser installs before the page loads, whatever its policy says of scripts)."""
    page.add_init_script(
        "window.__refused = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__refused.push(e.violatedDirective + ' ' + e.sample));"
    )
    page.set_viewport_size({"width": width, "height": 900})
    for path in paths:
        page.goto(base + path)
        assert page.evaluate("window.__refused") == [], path
        boxes = page.locator("svg.chart").evaluate_all(
            "svgs => svgs.map(s => s.getBoundingClientRect().toJSON())"
        )
        assert boxes, path
        assert all(b["width"] > 0 and b["right"] <= width and b["height"] > 20 for b in boxes)
        fill = page.locator("svg.chart rect").first.evaluate("r => getComputedStyle(r).fill")
        assert fill != "rgb(0, 0, 0)"  # the fill attribute applied (SVG's default is black)
