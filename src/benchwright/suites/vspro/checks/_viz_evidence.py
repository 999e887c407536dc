"""What the 3D checks share: the viz scenario's evidence, the fixture's bars, pixel matching.

Every expectation is recomputed from the fixture's buckets with the contract's camera
(`browser/camera.py`); the probe's framebuffers, clicks and vsdbg answers are only read.
A browser that was unavailable, a viz scenario that raised, or a section the probe lost to
its bound is UNAVAILABLE (never the app's zero); a ``/`` that answered with no page is the
app's 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from benchwright.suites.kit.browser.rows import no_page
from benchwright.suites.kit.checks import g, unavailable
from benchwright.suites.vspro.browser import camera as C
from benchwright.suites.vspro.observations import Observations

TOL = 8
"""Per-channel colour tolerance of a pixel match."""
MAJORITY = 5
"""Of the 3x3 backing pixels around a sample, this many must match."""


def view(
    obs: Observations, check_id: str, key: str, sections: Iterable[str], timed: bool = False
) -> Any:
    """The scenario's observation, or the UNAVAILABLE row that explains why there is none.
    ``timed``: a timing row's view -- the uncontended repeat, when one was taken."""
    phase = obs["browser"]
    if getattr(phase, "unavailable", None):
        return unavailable(check_id, f"browser unavailable: {phase.unavailable}")
    if key in phase.no_page:
        return no_page(check_id, phase, key)
    found = (timed and phase.retimed.get(key)) or phase.scenarios.get(key)
    if found is None:
        why = phase.scenario_errors.get(key, "the scenario did not run")
        return unavailable(check_id, f"{key} probe unavailable: {why}")
    lost = [f"{s}: {found.lost[s]}" for s in sections if s in found.lost]
    if lost:
        return unavailable(check_id, f"{key} probe lost its section ({'; '.join(lost)})")
    return found


def bars(obs: Observations) -> tuple[C.Bar, ...]:
    return C.scene_bars(obs.expect.buckets)


def matches(fb: Any, sx: float, sy: float, rgb: Sequence[int]) -> bool:
    """3x3 backing-pixel majority within ``TOL`` per channel."""
    bx, by = fb.backing(sx, sy)
    near = sum(close(fb.pixel(bx + dx, by + dy), rgb) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return near >= MAJORITY


def close(got: Sequence[int], want: Sequence[int]) -> bool:
    return all(abs(a - b) <= TOL for a, b in zip(got, want, strict=True))


def tops(fb: Any, bars: Sequence[C.Bar], cam: C.Camera) -> tuple[int, int]:
    """(matched, graded) bar-top samples of ``fb`` against the scene seen from ``cam``."""
    if fb is None:
        return 0, 0
    tops = [s for s in C.samples(bars, cam, fb.css_width, fb.css_height) if s.kind == "top"]
    return sum(matches(fb, s.sx, s.sy, s.expect) for s in tops), len(tops)


def cam(answer: Any) -> str:
    if not isinstance(answer, dict):
        return repr(answer)[:60]
    return ", ".join(f"{k} {g(v) if isinstance(v, int | float) else v}" for k, v in answer.items())


def claimed(vs: Any) -> list[dict]:
    scene = getattr(vs, "scene", None)
    bars = scene.get("bars") if isinstance(scene, dict) else None
    return [b for b in bars if isinstance(b, dict)] if isinstance(bars, list) else []
