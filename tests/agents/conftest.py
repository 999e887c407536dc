"""Fixtures for transcript tests: write a transcript, import it, replay the result."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchwright.agents.transcripts import import_transcript
from benchwright.dsl import load_trajectory
from benchwright.model import ReplayError, Trajectory
from benchwright.workspace import Workspace, replay

Lines = list[dict[str, Any] | str]
Import = Callable[..., tuple[dict[str, Any], Trajectory]]
Replay = Callable[[dict[str, str], Trajectory], tuple[dict[str, str], tuple[ReplayError, ...]]]


def write_lines(path: Path, lines: Lines) -> Path:
    """One JSON object per line; a str is written as-is (for malformed lines)."""
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n", encoding="utf-8")
    return path


@pytest.fixture
def transcript(tmp_path: Path) -> Callable[[Lines], Path]:
    """Write transcript lines to a file under ``tmp_path``."""
    return lambda lines: write_lines(tmp_path / "transcript.jsonl", lines)


@pytest.fixture
def imported(tmp_path: Path) -> Import:
    """Import transcript lines; return the written document and its trajectory as loaded."""

    def run(fmt: str, lines: Lines) -> tuple[dict[str, Any], Trajectory]:
        source = write_lines(tmp_path / "transcript.jsonl", lines)
        out = tmp_path / "out" / "trajectory.json"
        document = import_transcript(fmt, source, out)
        assert json.loads(out.read_text(encoding="utf-8")) == document
        return document, load_trajectory(out)

    return run


@pytest.fixture
def replayed() -> Replay:
    """Replay a trajectory onto initial files; return the final files and replay errors."""

    def run(
        files: dict[str, str], trajectory: Trajectory
    ) -> tuple[dict[str, str], tuple[ReplayError, ...]]:
        workspace = Workspace({path: text.encode() for path, text in files.items()})
        errors = replay(workspace, trajectory)
        return {path: data.decode() for path, data in workspace.files.items()}, errors

    return run
