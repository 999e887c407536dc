"""The vspro golden frontend carries the whole DOM and 3D contract, and nothing from outside.

Static checks over ``suites/vspro/reference/vspro/web/``: every id, class and
attribute that the browser probes look for (contract sections C6 and C7) is in
the shipped markup or scripts; no file names another host; the four files fit
the 50 KB budget; and each script parses. When ``node`` is on the PATH, viz.js
also runs headless in a ``vm`` sandbox with WebGL absent, so ``window.vsdbg`` can
be held to the contract's geometry, projection and picking math, derived here
independently.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess

import pytest
from builders import REPO

WEB = REPO / "suites" / "vspro" / "reference" / "vspro" / "web"
FILES = ("index.html", "styles.css", "app.js", "viz.js")
BUDGET_BYTES = 50_000
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

# C6/C7: what the probes locate, and where the golden declares it.
HTML_IDS = (
    "app-header", "summary", "last-sync", "sync-now", "prev", "next", "status-filter",
    "currency-filter", "notice", "viz3d", "viz-tooltip", "viz-toggle", "viz-fallback",
    "viz-empty", "viz-error",
)  # fmt: skip
REQUIRED_SNIPPETS = {
    "index.html": (
        '<canvas id="viz3d"',
        '<table id="viz-fallback"',
        'id="notice" class="notice" role="status"',
        'id="viz-toggle" class="btn" type="button" aria-pressed="false"',
        'data-state="idle"',
        'aria-sort="ascending"',
        'aria-haspopup="listbox"',
        'role="option" data-value=""',
        'data-value="refunded"',
        'data-value="KWD"',
        '<link rel="icon" href="data:,">',  # no favicon request, so no 404 in the console
    ),
    "app.js": (
        "'cur-total'",
        "'data-currency'",
        "'data-value'",
        "'data-state', on ? 'syncing' : 'idle'",
        "'aria-busy'",
        "'aria-sort'",
        "'aria-pressed'",
        "'data-state', 'saving'",
        "'data-state', 'saved'",
        "'Never synced'",
        "Showing ",
        "timeZone: TZ",
    ),
    "viz.js": (
        "{ antialias: false, alpha: false }",
        "version: 3",
        "scene:",
        "camera:",
        "setCamera:",
        "project:",
        "pick:",
        "frames:",
        "td.dataset.day",
        "td.dataset.status",
        "{ passive: false }",
        "'dblclick'",
        "createShader",
        "drawArrays",
    ),
}
COLUMNS = ("Date", "Amount", "Status", "Counterparty", "Note")
# Money and the 3D palette are frozen by the contract.
STATUS_HEX = {
    "settled": "#16A34A",
    "pending": "#F59E0B",
    "refunded": "#8B5CF6",
    "failed": "#DC2626",
}
STATUS_RGB = {
    "settled": "[22, 163, 74]",
    "pending": "[245, 158, 11]",
    "refunded": "[139, 92, 246]",
    "failed": "[220, 38, 38]",
}


def text(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def test_the_four_files_are_shipped_and_nothing_else() -> None:
    assert sorted(p.name for p in WEB.iterdir()) == sorted(FILES)


@pytest.mark.parametrize("element_id", HTML_IDS)
def test_every_contract_id_is_in_the_markup_exactly_once(element_id: str) -> None:
    assert text("index.html").count(f'id="{element_id}"') == 1


@pytest.mark.parametrize(
    ("name", "snippet"),
    [(name, snippet) for name, snippets in REQUIRED_SNIPPETS.items() for snippet in snippets],
)
def test_contract_attributes_are_declared(name: str, snippet: str) -> None:
    assert snippet in text(name), f"{name} lacks {snippet!r}"


def test_table_columns_in_contract_order() -> None:
    head = text("index.html").split("<thead>", 1)[1].split("</thead>", 1)[0]
    found = re.findall(r"<th[^>]*>(?:<button[^>]*>)?([A-Za-z]+)", head)
    assert tuple(found) == COLUMNS


def test_badges_and_bars_use_the_frozen_status_colours() -> None:
    css, viz = text("styles.css"), text("viz.js")
    for status, hex_ in STATUS_HEX.items():
        assert f"--{status}:{hex_}" in css, status
        assert f".st-{status}" in css, status
        assert f"{status}: {STATUS_RGB[status]}" in viz, status
    assert "SIDE = 0.62" in viz and "BG = [15, 23, 42]" in viz


def test_the_toggle_label_never_reads_as_the_no_webgl_notice() -> None:
    """The notice is credited only when it is absent in the normal run (C6)."""
    notice = re.compile(r"2d|fallback|unavailable|not\s+supported|webgl", re.I)
    assert not notice.search("Show as table") and not notice.search("Show 3D chart")
    assert "'Show as table'" in text("app.js") and "'Show 3D chart'" in text("app.js")
    assert notice.search(text("index.html").split('id="viz-notice"', 1)[1].split("</p>", 1)[0])


@pytest.mark.parametrize("name", FILES)
def test_no_file_names_another_host(name: str) -> None:
    body = text(name)
    assert not re.search(r"https?://", body, re.I), f"{name} has an absolute URL"
    assert not re.search(r"""(?:src|href)\s*=\s*["']//|url\(\s*["']?//""", body, re.I)
    assert not re.search(r"@import", body, re.I)


def test_linked_assets_are_same_origin_relative() -> None:
    refs = re.findall(r"""(?:src|href)="([^"]+)\"""", text("index.html"))
    assert sorted(refs) == sorted(["data:,", "styles.css", "viz.js", "app.js"])


def test_web_fits_the_budget() -> None:
    total = sum((WEB / name).stat().st_size for name in FILES)
    assert total <= BUDGET_BYTES, f"web/ is {total} bytes; budget {BUDGET_BYTES}"


def test_no_blocking_dialogs_or_libraries() -> None:
    for name in ("app.js", "viz.js"):
        body = text(name)
        assert not re.search(r"\b(alert|confirm|prompt)\s*\(", body), name
        assert "import " not in body and "require(" not in body, name


@needs_node
@pytest.mark.parametrize("name", ("app.js", "viz.js"))
def test_scripts_parse(name: str) -> None:
    done = subprocess.run([NODE, "--check", str(WEB / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# viz.js in a node vm: no DOM, no WebGL (getContext returns null), so the 2D path runs,
# and vsdbg answers from the same math the renderer uses.
VM_HARNESS = r"""
const fs = require('fs'), vm = require('vm');
const [src, W, H] = [fs.readFileSync(process.argv[1], 'utf8'), 1000, 400];
const handlers = {};
const canvas = {
  getBoundingClientRect: () => ({ left: 0, top: 0, width: W, height: H }),
  getContext: () => null,
  addEventListener: (t, f) => { handlers[t] = f; },
  setPointerCapture() {},
};
const win = { devicePixelRatio: 1, addEventListener() {} };
const ctx = vm.createContext(
  { window: win, Math, Number, Array, Map, Float32Array, Uint8Array, String, Object });
vm.runInContext(src, ctx);
let noGL = false;
const ok = win.VsViz.init(canvas, { onNoGL() { noGL = true; } });
const days = ['2026-03-28', '2026-03-29', '2026-03-30'];
const statuses = ['settled', 'pending', 'refunded', 'failed'];
const counts = [[71, 35, 17, 18], [48, 25, 24, 0], [75, 37, 19, 19]];
const cells = [];
days.forEach((day, i) => statuses.forEach((status, j) => {
  cells.push({ day, status, count: counts[i][j] });
}));
win.VsViz.setData({ timezone: 'Europe/Berlin', days, statuses, cells });
const d = win.vsdbg;
const out = { ok, noGL, version: d.version, camera: d.camera(), scene: d.scene(), W, H };
out.projections = [[0, 3, 0], [1.5, 10, -0.75], [-1.5, 0, 2.25]].map((p) => d.project(...p));
out.behind = d.project(0, 3, 200);
const top = d.scene().bars.find((b) => b.key === '2026-03-30|failed');
const p = d.project(top.x, top.h, top.z);
out.pickTop = d.pick(p[0], p[1]);
out.pickSky = d.pick(5, 5);
const ev = (x, y) => ({ button: 0, pointerId: 1, clientX: x, clientY: y, preventDefault() {} });
handlers.pointerdown(ev(500, 200));
for (let s = 1; s <= 60; s++) handlers.pointermove(ev(500 + 2 * s, 200 - s));
handlers.pointerup(ev(620, 140));
out.afterDrag = d.camera();
handlers.wheel({ deltaY: 400, deltaMode: 0, preventDefault() {} });
out.afterWheel = d.camera();
handlers.dblclick({ preventDefault() {} });
out.afterReset = d.camera();
out.clamped = d.setCamera({ pitch: 99, distance: 1 });
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def vm_run() -> dict:
    if NODE is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        [NODE, "-e", VM_HARNESS, str(WEB / "viz.js")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _project(camera: dict, width: float, height: float, point: tuple) -> list[float] | None:
    """C7's camera and projection, written out from the contract text."""
    yaw, pitch, dist = (
        math.radians(camera["yaw"]),
        math.radians(camera["pitch"]),
        camera["distance"],
    )
    target = (0.0, 3.0, 0.0)
    eye = (
        target[0] + dist * math.cos(pitch) * math.sin(yaw),
        target[1] + dist * math.sin(pitch),
        target[2] + dist * math.cos(pitch) * math.cos(yaw),
    )
    f = [t - e for t, e in zip(target, eye, strict=True)]
    n = math.hypot(*f)
    f = [c / n for c in f]
    r = [-f[2], 0.0, f[0]]  # f cross y-up
    n = math.hypot(*r)
    r = [c / n for c in r]
    u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]]
    q = [p - e for p, e in zip(point, eye, strict=True)]
    xc, yc, zc = (sum(a * b for a, b in zip(q, axis, strict=True)) for axis in (r, u, f))
    if zc <= 0.1:
        return None
    k = 1 / math.tan(math.radians(25))
    return [((k / (width / height)) * xc / zc + 1) / 2 * width, (1 - k * yc / zc) / 2 * height]


def math_close(got: list[float], want: list[float] | None, tol: float = 1e-6) -> bool:
    return want is not None and all(abs(a - b) <= tol for a, b in zip(got, want, strict=True))


@needs_node
def test_without_webgl_viz_reports_it_and_still_answers(vm_run: dict) -> None:
    assert vm_run["ok"] is False and vm_run["noGL"] is True
    assert vm_run["version"] == 3
    assert vm_run["camera"] == {"yaw": 35, "pitch": 27, "distance": 30}


@needs_node
def test_scene_bars_follow_the_contract_and_skip_zero_counts(vm_run: dict) -> None:
    scene = vm_run["scene"]
    assert scene["statuses"] == ["settled", "pending", "refunded", "failed"]
    keys = {b["key"] for b in scene["bars"]}
    assert len(keys) == 11 and "2026-03-29|failed" not in keys
    for bar in scene["bars"]:
        assert bar["x"] == (bar["i"] - 1) * 1.5
        assert bar["z"] == (bar["j"] - 1.5) * 1.5
        assert bar["h"] == bar["count"] * 0.25
    assert {b["key"]: b["count"] for b in scene["bars"]}["2026-03-29|refunded"] == 24


@needs_node
def test_project_matches_the_contract_formula(vm_run: dict) -> None:
    camera = {"yaw": 35, "pitch": 27, "distance": 30}
    points = [(0, 3, 0), (1.5, 10, -0.75), (-1.5, 0, 2.25)]
    for got, point in zip(vm_run["projections"], points, strict=True):
        want = _project(camera, vm_run["W"], vm_run["H"], point)
        assert math_close(got, want), (point, got, want)
    assert vm_run["projections"][0] == pytest.approx([500, 200])  # the target is the centre
    assert vm_run["behind"] is None


@needs_node
def test_pick_finds_the_bar_under_its_own_top_and_nothing_in_the_sky(vm_run: dict) -> None:
    assert vm_run["pickTop"] == "2026-03-30|failed"
    assert vm_run["pickSky"] is None


@needs_node
def test_camera_input_laws(vm_run: dict) -> None:
    drag = vm_run["afterDrag"]
    assert drag["yaw"] == pytest.approx(35 - 0.35 * 120)
    assert drag["pitch"] == pytest.approx(27 - 0.35 * 60)
    assert vm_run["afterWheel"]["distance"] == pytest.approx(30 * math.exp(0.0012 * 400))
    assert vm_run["afterReset"] == {"yaw": 35, "pitch": 27, "distance": 30}
    assert vm_run["clamped"]["pitch"] == 85 and vm_run["clamped"]["distance"] == 10
