"""The golden console's four files against what spec §7 forbids in their source: more than
150 KB together, external code, native pickers and dialogs where ours are specified,
pastel washes and left-edge rails. Each rule is shown to catch a small defective sample,
so a pass on the golden means the rule looked."""

from __future__ import annotations

import colorsys
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[3] / "suites" / "sb7" / "reference" / "app" / "web"
FILES = ("index.html", "styles.css", "app.js", "viz.js")
BUDGET_BYTES = 150 * 1024
CONSOLE_SHARE_BYTES = 90 * 1024
"""The brief's split: viz.js keeps about 60 KB of the page's 150 KB."""

EXTERNAL = re.compile(
    r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|@import|url\(\s*["']?(?:https?:)?//"""
)
NATIVE = re.compile(r"<select\b|\b(?:alert|confirm|prompt)\s*\(|type=[\"']?(?:date|color)\b")
RAIL = re.compile(r"border-left(?:-width|-color)?\s*:|border-inline-start|inset\s+\d+px\s+0")
COLOUR = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
BACKGROUND = re.compile(r"background(?:-color)?\s*:\s*([^;}]+)")


def _rgb(hex_digits: str) -> tuple[float, float, float]:
    full = hex_digits if len(hex_digits) == 6 else "".join(c * 2 for c in hex_digits)
    return tuple(int(full[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _custom_properties(css: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", css))


def pastel_washes(css: str) -> list[str]:
    """Background colours that are light AND tinted (HSL lightness > 0.85, saturation >
    0.25): a washed-out pastel. Neutral greys and white pass; var() is resolved once."""
    props = _custom_properties(css)
    found = []
    for value in BACKGROUND.findall(css):
        value = re.sub(r"var\((--[\w-]+)\)", lambda m: props.get(m.group(1), ""), value)
        for digits in COLOUR.findall(value):
            _hue, light, sat = colorsys.rgb_to_hls(*_rgb(digits))
            if light > 0.85 and sat > 0.25:
                found.append(f"#{digits}")
    return found


def violations(html: str, css: str, js: str) -> list[str]:
    """Every §7 prohibition the three sources break, named."""
    found = [f"external code: {m}" for m in EXTERNAL.findall(html + css + js)]
    found += [f"native control: {m}" for m in NATIVE.findall(html + js)]
    found += [f"left rail: {m}" for m in RAIL.findall(css)]
    found += [f"pastel wash: {c}" for c in pastel_washes(css)]
    return found


def test_the_four_files_fit_the_budget() -> None:
    sizes = {name: (WEB / name).stat().st_size for name in FILES}
    assert sum(sizes.values()) <= BUDGET_BYTES, sizes
    assert sum(sizes.values()) - sizes["viz.js"] <= CONSOLE_SHARE_BYTES, sizes


def test_the_golden_breaks_none_of_the_prohibitions() -> None:
    html, css, js = ((WEB / name).read_text() for name in ("index.html", "styles.css", "app.js"))
    assert violations(html, css, js) == []
    assert not EXTERNAL.findall((WEB / "viz.js").read_text())


def test_the_page_refers_to_its_files_by_relative_paths() -> None:
    html = (WEB / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "data:,", "styles.css", "viz.js", "app.js",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("html", "css", "js", "named"),
    [
        ('<script src="https://cdn.example/three.js"></script>', "", "", "external code"),
        ("", "@import url(//fonts.example/x.css);", "", "external code"),
        ("<select id='status-filter'></select>", "", "", "native control"),
        ("", "", "if (!ok) alert('saved');", "native control"),
        ("", "", "const note = prompt('Note?');", "native control"),
        ("", ".card { border-left: 4px solid #1d4ed8; }", "", "left rail"),
        ("", "tr { box-shadow: inset 3px 0 0 #059669; }", "", "left rail"),
        ("", ".panel { background: #dbeafe; }", "", "pastel wash"),
        ("", ":root { --wash: #fce7f3; } .row { background: var(--wash); }", "", "pastel wash"),
    ],
)
def test_each_prohibition_catches_its_defect(html: str, css: str, js: str, named: str) -> None:
    assert any(v.startswith(named) for v in violations(html, css, js))


def test_neutral_greys_and_strong_colours_are_no_wash() -> None:
    assert pastel_washes(".a { background: #ececec; } .b { background: #1d4ed8; }") == []
