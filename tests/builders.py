"""Builders for tests: tasks and trajectories from plain dicts."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from benchwright.checks import CheckRegistry
from benchwright.dsl import task_from_dict, trajectory_from_dict
from benchwright.model import Task, Trajectory

REPO = Path(__file__).resolve().parents[1]


def make_task(
    checks: list[dict[str, Any]],
    files: dict[str, str] | None = None,
    *,
    registry: CheckRegistry | None = None,
    **fields: Any,
) -> Task:
    """A validated task from inline files and check entries (AgentBench shape)."""
    doc = {
        "id": fields.pop("id", "t"),
        "name": "test task",
        "description": "built by a test",
        "prompt": "do the thing",
        "workspace": files if files is not None else {"README.md": "hello\n"},
        "oracles": checks,
        **fields,
    }
    return task_from_dict(doc, Path("inline-task.json"), registry)


def make_trajectory(*steps: dict[str, Any], answer: str | None = None) -> Trajectory:
    doc: dict[str, Any] = {"steps": list(steps)}
    if answer is not None:
        doc["answer"] = answer
    return trajectory_from_dict(doc, "inline-trajectory.json")


def write(tool: str, path: str, content: str) -> dict[str, Any]:
    """A trajectory step writing a whole file."""
    return {"type": "tool_call", "tool": tool, "args": {"path": path, "content": content}}


def bash(command: str) -> dict[str, Any]:
    """A trajectory step running a shell command."""
    return {"type": "tool_call", "tool": "Bash", "args": {"command": command}}


def dump(path: Path, doc: Any) -> Path:
    """Write ``doc`` as JSON to ``path``, creating parents."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2))
    return path


def fake_distribution(
    site: Path, dist: str, entry_points: dict[str, str], modules: dict[str, str]
) -> Path:
    """An installed-looking package under ``site``: its modules and check entry points.

    Put ``site`` on ``sys.path`` (or ``PYTHONPATH``) and `importlib.metadata` finds it.
    """
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[benchwright.checks]\n{lines}")
    for name, source in modules.items():
        (site / f"{name}.py").write_text(textwrap.dedent(source))
    return site
