"""Real sealed runs to tamper with: turnbench's ``fix-01`` and ``fix-02`` run by the real
console script, by the oracle (both pass) and the nop agent (both fail), with their keys
in a state dir of their own; each test edits a fresh copy of runs and keys."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchwright.execution import integrity, key_index

ROOT = Path(__file__).resolve().parents[2]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
AGENTS = ("oracle", "nop")


def make_runs(base: Path) -> dict[str, Any]:
    """``base/runs`` holding an oracle and a nop run, ``base/state`` holding their keys."""
    env = {**os.environ, integrity.STATE_ENV: str(base / "state")}
    ids = {}
    for agent in AGENTS:
        done = subprocess.run(
            [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "turnbench"), "--agent", agent,
             "--tasks", "fix-0[12]", "--out", str(base / "runs")],
            env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        ids[agent] = next(p.name for p in (base / "runs").iterdir() if f"-{agent}-" in p.name)
    return {"base": base, **ids}


def fresh_copy(
    made: dict[str, Any], where: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Path]:
    """A copy of both runs in ``where/runs`` and of their keys, which the state dir
    (``$BENCHWRIGHT_STATE_DIR``, also for subprocesses) now points at."""
    shutil.copytree(made["base"] / "runs", where / "runs")
    shutil.copytree(made["base"] / "state", where / "state")
    monkeypatch.setenv(integrity.STATE_ENV, str(where / "state"))
    return {agent: where / "runs" / made[agent] for agent in AGENTS}


def drop_key(run_id: str) -> None:
    """This machine forgets it sealed ``run_id``: as on a machine the run was copied to."""
    with sqlite3.connect(key_index.index_path()) as db:
        assert db.execute("DELETE FROM runs WHERE run_id = ?", (run_id,)).rowcount == 1
