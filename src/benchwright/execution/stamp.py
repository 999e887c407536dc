"""Stamp hidden oracle files and the captured answer into a workspace, after the agent.

Stamped test files carry per-trial canary tests (`benchwright.checks.test_must_pass`),
generated here so that no earlier process, and no other trial, ever saw them.

Stamped files go to disk only: the in-memory view static checks read stays the
agent's own files (see `Workspace.refresh`), and the ``agent`` snapshot was
taken before, so negative pattern checks never see them.

The agent has had the run of the workspace, so every stamp is a fresh file that
nothing the agent left at its path can redirect, block or hold a handle to
(`benchwright.workspace.write_fresh`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchwright.checks.test_must_pass import Canaries, plant_canaries
from benchwright.model import Task
from benchwright.workspace import write_fresh

ANSWER_PATH = ".benchwright/answer.txt"


def stamp(directory: Path, files: Mapping[str, bytes], answer: str) -> None:
    """Write ``files`` (replacing whatever the agent left at each path) and the answer file."""
    write_fresh(directory, {**files, ANSWER_PATH: answer.encode("utf-8")})


def stamp_task(directory: Path, task: Task, answer: str) -> Canaries:
    """Stamp the task's files, with canary tests planted in its test files when a check
    runs pytest; returns the canaries planted, by file, for the checks to look for."""
    files, canaries = plant_canaries(task)
    stamp(directory, files, answer)
    return canaries
