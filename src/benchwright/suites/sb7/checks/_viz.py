"""Shared by the 3D field's rows (tiers T, P and E): the ``viz`` scenario's view or the
row that says why there is none, a section the probe lost, ``vs7dbg``'s answers, and the
scene the grader recomputes from the fixture for the records the page downloaded."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import view
from benchwright.suites.kit.checks import result, unavailable
from benchwright.suites.sb7.checks._common import PROBE, commits
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import scene
from benchwright.suites.sb7.viz.view import SCENARIO, VizView

ROOT = "t_vs7dbg_truth"
"""The root a missing ``window.vs7dbg`` is attributed to (scorers/sb7.yaml roots)."""


def viz(
    obs: Observations, check_id: str, *sections: str, timed: bool = False
) -> tuple[VizView | None, CheckResult | None]:
    """(the view, None), or (None, the row): UNAVAILABLE when there was no browser, the
    scenario failed, or the probe lost one of ``sections``; 0 when ``/`` was no page."""
    seen, row = view(obs, check_id, SCENARIO, timed)
    if row is not None:
        return None, row
    for name in sections:
        if name in seen.lost:
            return None, unavailable(check_id, f"{PROBE}the {name} section was lost: "
                                     f"{seen.lost[name]}")  # fmt: skip
    return seen, None


def no_field(check_id: str, seen: VizView) -> CheckResult | None:
    """The app's 0 when there is no WebGL field to grade (no ``canvas#viz3d`` with a
    context); None when there is one."""
    c = seen.context
    if c is None or not c.found:
        return result(check_id, 0.0, "0: no element #viz3d on the page")
    if not c.canvas:
        return result(check_id, 0.0, "0: #viz3d is not a <canvas>")
    if c.kind is None:
        return result(check_id, 0.0, "0: canvas#viz3d has no WebGL context")
    return None


def vs7(check_id: str, seen: VizView, name: str) -> tuple[Any, CheckResult | None]:
    """(``vs7dbg.<name>()``'s value, None), or (None, the app's 0): vs7dbg absent (a
    required surface, attributed to the root), the method missing or throwing."""
    if seen.vs7dbg is None:
        return None, result(check_id, 0.0, "0: window.vs7dbg is absent (a required surface)",
                            blocked_by=ROOT)  # fmt: skip
    got = seen.vs7dbg.get(name)
    if got is None or got.error is not None:
        why = "is not a function" if got is None or got.error == "missing" else \
            f"threw {got.error!r}"  # fmt: skip
        return None, result(check_id, 0.0, f"0: vs7dbg.{name}() {why}")
    return got.value, None


def known(obs: Observations) -> dict[str, scene.Known]:
    """Payment id -> what the truth knows of it: the fixture's rows, and the payments the
    vendor created during the run (their value day)."""
    found: dict[str, scene.Known] = {c.payment_id: c for c in commits(obs) if c.created}
    found.update(obs.truth.rows if obs.truth is not None else {})
    return found


def truth_scene(obs: Observations, seen: VizView) -> tuple[scene.Basis, tuple[scene.Column, ...]]:
    """The basis and the columns the page should draw: its downloaded records placed by
    the truth (the fixture's rows when it downloaded none)."""
    assert obs.truth is not None
    served = seen.records
    if served is None:
        rows = obs.truth.rows
        served = {"id": list(rows), **{k: [getattr(r, k) for r in rows.values()]
                                       for k in ("amount_minor", "currency", "created_at",
                                                 "day")}}  # fmt: skip
    records = scene.truth_records(served, known(obs))
    basis = scene.basis(records, obs.truth.days[0])
    return basis, scene.place(records, basis)
