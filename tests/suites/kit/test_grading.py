"""`kit.execute` on a stand-in suite with one static phase: a fresh copy in a work
directory of its own, gone afterwards; the rows judged on what the phase saw; the
evidence and the screenshots a row relies on kept, the rows pointed at the copies."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchwright.model import CheckResult, Status
from benchwright.sandbox import CONFINED
from benchwright.suites.kit import AppSuite, Phase, PhaseLog, ShotOrder, execute
from benchwright.suites.kit.workspace import Workspace

ORDER = ShotOrder(lambda shots: sorted(shots, key=lambda p: p.stem),
                  lambda shots: tuple(p for p in shots if p.stem == "page"))  # fmt: skip


def _suite(spaces: list[Workspace]) -> AppSuite[PhaseLog]:
    def prepare(space: Workspace) -> tuple[Any, PhaseLog]:
        spaces.append(space)
        space.vendor_trace.write_text('{"GET": "/v1/payments"}\n')
        return SimpleNamespace(space=space), PhaseLog()

    def judge(obs: PhaseLog) -> list[CheckResult]:
        shots = {"screenshots": [str(p) for p in obs["browser"].screenshots]}
        files = obs.phases.get("static", "")
        return [CheckResult("looks", Status.PASS, 1.0, "1: fine", shots),
                CheckResult("files", Status.PASS, 1.0, files, {})]  # fmt: skip

    return AppSuite("demo", "demo.db", prepare, judge, ORDER)


def _static(ctx: Any, obs: PhaseLog) -> str:
    return ", ".join(sorted(p.name for p in ctx.space.tree.iterdir()))


def _browser(ctx: Any, obs: PhaseLog) -> SimpleNamespace:
    taken = []
    for name in ("page", "other"):
        path = ctx.space.shots / "load" / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"png")
        taken.append(path)
    return SimpleNamespace(screenshots=taken)


def test_a_grading_runs_on_a_copy_and_keeps_what_rows_rely_on(tmp_path: Path) -> None:
    root = tmp_path / "built"
    (root / "demo").mkdir(parents=True)
    (root / "demo.db").write_bytes(b"not copied")
    spaces: list[Workspace] = []
    phases = (Phase("static", _static, needs_app=False),
              Phase("browser", _browser, needs_app=False))  # fmt: skip
    done = execute(_suite(spaces), root, phases, confinement=CONFINED,
                   evidence_dir=tmp_path / "out", evidence_prefix="card.")  # fmt: skip
    [space] = spaces
    assert space.work.name.startswith("benchwright-demo-") and not space.work.exists()
    assert done.rows[1].detail == "demo"  # the copy, without the database
    kept = tmp_path / "out" / "card.browser" / "load"
    assert done.rows[0].evidence["screenshots"] == [str(kept / "page.png"), str(kept / "other.png")]
    assert done.evidence == {"vendor_trace": str(tmp_path / "out" / "card.vendor-trace.jsonl"),
                             "screenshot_page": str(kept / "page.png")}  # fmt: skip
    assert [(s.name, s.published) for s in done.screenshots] == [("other", False), ("page", True)]
    assert [r.outcome for r in done.phases] == ["ok", "ok"]


def test_without_an_evidence_directory_nothing_is_kept(tmp_path: Path) -> None:
    (tmp_path / "demo").mkdir()
    phases = (Phase("browser", _browser, needs_app=False),)
    done = execute(_suite([]), tmp_path, phases, confinement=CONFINED)
    assert done.evidence == {} and done.screenshots == ()
    assert "screenshots" not in done.rows[0].evidence  # pointed at nothing: dropped
