"""The harness's cost of giving each check command its own view of a large workspace.

Run: ``.venv/bin/python benchmarks/check_copies.py [FILES] [CHECKS]`` (default 40000 3).
Run it with another checkout's interpreter (``/work/main/.venv/bin/python``) for the
figure before a change.

Builds a workspace of FILES empty files (100 per directory), then runs CHECKS sandboxed
``test_must_pass`` checks of ``python -c pass`` over it, in-process (``evaluate``). Each
check's wall time minus its command's own time is the harness's cost: the view of the
workspace, re-owning it for the sandbox's user, cleaning it up. Figures are printed;
nothing is asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from benchwright.dsl import task_from_dict
from benchwright.execution.evaluate import evaluate
from benchwright.model import Trajectory
from benchwright.sandbox import unavailable_reason
from benchwright.workspace import Workspace


def main() -> None:
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    checks = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if reason := unavailable_reason():
        raise SystemExit(f"needs the sandbox: {reason}")
    tree = {f"d{n // 100:04d}/f{n % 100:02d}.txt": "" for n in range(files)}
    doc = {
        "id": "wide", "class": "edit", "prompt": "p", "workspace": tree,
        "checks": [
            {"id": f"c{n}", "type": "test_must_pass", "command": "python -c pass"}
            for n in range(checks)
        ],
    }  # fmt: skip
    task = task_from_dict(doc, Path("wide.json"))
    with Workspace(task.files) as workspace:
        started = time.perf_counter()
        workspace.directory()
        print(f"workspace of {files} files written in {time.perf_counter() - started:.2f} s")
        started = time.perf_counter()
        results = evaluate(task, workspace, Trajectory(()))
        total = time.perf_counter() - started
    for r in results:
        command = r.evidence.get("command_s", 0.0)
        print(f"{r.check_id}: {r.status.value}, {r.duration_s:6.2f} s in all, "
              f"{r.duration_s - command:6.2f} s harness, files copied "
              f"{r.evidence.get('files_copied', 'n/a')}")  # fmt: skip
    print(f"{checks} checks over {files} files: {total:.2f} s")


if __name__ == "__main__":
    main()
