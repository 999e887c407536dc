"""The run directory as a collection: list the runs, look one up, remove some.

A run is a direct child of the runs directory holding ``run.json`` (store.py has the
layout). Nothing here trusts a name: ``find_run`` resolves what the user typed and
refuses anything that does not land directly inside the runs directory, so ``rm``
can never delete a path outside it, through ``..`` or a symlink. What a listing says
of a run's ``run.json``, results and summary went through `verify_run` first.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.execution import key_index, store
from benchwright.execution.verification import VERIFIED, RunSeals, verify_run


class UnknownRun(LookupError):
    """No run by that name in the runs directory (``runs rm``/``show`` exit 1)."""


@dataclass(frozen=True)
class RunEntry:
    """One run as ``runs list`` shows it."""

    id: str
    path: Path
    suite: str
    agent: str
    created_at: str
    done: int
    """Trials with a ``result.json``."""
    total: int
    """Trials planned: tasks x iterations."""
    pass_rate: float | None
    """The summary's correctness pass rate; None without a summary or attempted task."""
    complete: bool
    """The summary says every planned trial finished (False while running or after a kill)."""
    seals: dict[str, int]
    """How many trial results are verified, unverified and tampered (`verify_run`)."""
    summary_seal: str | None
    """The summary's badge (``verified``, ``TAMPERED: MAC mismatch``, …); None without one."""
    tampered: tuple[str, ...]
    """Each tampered file and why; then no pass rate is shown."""
    state: str = VERIFIED
    """The run's (`RunSeals.state`): ``verified``, ``unverified`` or ``tampered``."""
    headline: str | None = None
    """Why it is not verified (`RunSeals.headline`); None when it is."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "path": str(self.path), "suite": self.suite, "agent": self.agent,
            "created_at": self.created_at, "trials_done": self.done, "trials_total": self.total,
            "correctness_pass_rate": self.pass_rate, "complete": self.complete,
            "verification": {"state": self.state, "why": self.headline, **self.seals,
                             "summary": self.summary_seal, "tampered_files": list(self.tampered)},
        }  # fmt: skip

    @property
    def seals_cell(self) -> str:
        """``runs list``'s verification column: the run's state unless verified, the
        non-zero counts, then a summary that is not verified
        (``TAMPERED,verified:1,tampered:1,summary:TAMPERED``)."""
        cells = [] if self.state == VERIFIED else [self.state.upper()]
        cells += [f"{state}:{n}" for state, n in self.seals.items() if n]
        if self.summary_seal and self.summary_seal != VERIFIED:
            cells.append(f"summary:{self.summary_seal.split(':')[0]}")
        return ",".join(cells) or "-"


def list_runs(runs_dir: Path) -> list[RunEntry]:
    """Every run under ``runs_dir``, newest first; other directories are passed over."""
    if not runs_dir.is_dir():
        return []
    entries = [run_entry(d) for d in runs_dir.iterdir() if _is_run(d)]
    return sorted(entries, key=lambda e: (e.created_at, e.id), reverse=True)


def find_run(runs_dir: Path, name: str) -> Path:
    """The run directory ``name`` means: a run id, or a path to the run directory.

    Raises:
        SpecError: ``name`` resolves outside ``runs_dir`` (or is ``runs_dir`` itself).
        UnknownRun: it is inside, but no run is there.
    """
    given = Path(name)
    path = given if given.is_absolute() or "/" in name or name in (".", "..") else runs_dir / name
    if path.resolve().parent != runs_dir.resolve():
        raise SpecError.single(name, f"is not a run directory inside {runs_dir}: refused")
    if not _is_run(path):
        raise UnknownRun(f"no run {name!r} in {runs_dir}")
    return path


def remove_run(run_dir: Path) -> list[str]:
    """Delete the run directory and its key (only if it was created there: removing a copy
    leaves the original's key); returns what was removed."""
    forgotten = key_index.forget(run_dir)
    shutil.rmtree(run_dir)
    return [str(run_dir)] + ([f"its key from {key_index.index_path()}"] if forgotten else [])


def trajectory_run_line(trajectory: Path) -> str | None:
    """``gate``'s first line when ``--trajectory`` lies in a run directory that is not
    verified (`RunSeals.headline`): its grade is then of a file no run here vouches for."""
    where = [trajectory.absolute(), trajectory.resolve()]
    runs = [d for p in where for d in (p, *p.parents) if _is_run(d) and (d / "trials").is_dir()]
    headline = verify_run(runs[0]).headline() if runs else None
    return headline and f"{headline}; --trajectory {trajectory} is from that run"


def planned_trials(info: Mapping[str, Any]) -> int:
    """Trials a run plans (its ``run.json``): tasks x iterations. The file may be anyone's
    (a copied or hand-edited run), so a field of the wrong type counts as absent."""
    tasks, iterations = info.get("tasks"), info.get("iterations")
    per_task = iterations if isinstance(iterations, int) and iterations > 0 else 1
    return (len(tasks) if isinstance(tasks, list) else 0) * per_task


def _is_run(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink() and (path / "run.json").is_file()


def run_entry(run_dir: Path, seals: RunSeals | None = None) -> RunEntry:
    """What ``runs list`` shows of one run (``run.json``, the verified summary and trials,
    ``seals`` when already read); a run with a tampered file shows no pass rate."""
    info = store.read_run_json(run_dir)
    seals = seals or verify_run(run_dir)
    tampered = tuple(seal.sentence for seal in seals.tampered())
    summary = seals.summary_doc or {}
    suite = info.get("suite")
    return RunEntry(
        id=run_dir.name,
        path=run_dir,
        suite=str(suite.get("name", "?") if isinstance(suite, dict) else suite),
        agent=str(info.get("agent", "?")),
        created_at=str(info.get("created_at", "")),
        done=len(seals.trials),
        total=planned_trials(info),
        pass_rate=None if tampered else summary.get("correctness_pass_rate"),
        complete=bool(summary.get("complete", False)),
        seals=seals.counts(),
        summary_seal=seals.summary.badge if seals.summary else None,
        tampered=tampered,
        state=seals.state,
        headline=seals.headline(),
    )
