"""Runs on disk: ``runs/<run-id>/{run.json, summary.json, trials/<task>/<iteration>/…}``.

Every file is written under a temporary name in its own directory and renamed
into place, and a trial's ``result.json`` is renamed last, so a run killed at
any instant leaves complete trials and at most one incomplete trial directory
(without ``result.json``). Each ``result.json`` is sealed with the run's key
(`benchwright.execution.integrity`), and so is ``summary.json``;
`benchwright.execution.verification` reads them back for every reader (``--resume``
keeps only the results that verify and agree with their directory, and deletes and
re-runs the rest).
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.execution import evidence, integrity
from benchwright.execution.records import TrialResult

RESULT = "result.json"
PHASES = "phases.json"
"""Each phase's prompt and workspace diff (not sealed: evidence to read, not a verdict)."""


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_json(path: Path, doc: Any) -> None:
    atomic_write(path, json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")


def new_run_dir(out: Path, agent_spec: str) -> Path:
    """A fresh ``<UTC time>-<agent>-<6 hex>`` directory under ``out``."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    slug = re.sub(r"[^a-z0-9]+", "-", agent_spec.lower()).strip("-")[:24] or "agent"
    run_dir = out / f"{stamp}-{slug}-{secrets.token_hex(3)}"
    (run_dir / "trials").mkdir(parents=True)
    return run_dir


def read_run_json(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "run.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError.single(str(run_dir), "not a run directory: no run.json") from None
    except (OSError, ValueError) as exc:
        raise SpecError.single(str(path), f"cannot read: {exc}") from None
    if not isinstance(raw, dict):
        raise SpecError.single(str(path), "must hold an object")
    return raw


def trial_dir(run_dir: Path, task_id: str, iteration: int) -> Path:
    return run_dir / "trials" / task_id / str(iteration)


def write_trial(run_dir: Path, result: TrialResult, key: bytes) -> Path:
    """The trial's five files and its checks' evidence files, ``result.json`` (sealed with
    ``key``, listing the evidence files' sha256) last."""
    where = trial_dir(run_dir, result.task_id, result.iteration)
    where.mkdir(parents=True, exist_ok=True)
    _write_evidence(where / evidence.EVIDENCE_DIR, result.artifacts)
    atomic_write(where / "agent.log", result.log)
    write_json(where / PHASES, [dict(p) for p in result.phase_texts])
    write_json(where / "trajectory.json", result.trajectory)
    atomic_write(where / "answer.txt", result.answer)
    sealed = integrity.seal({**result.to_dict(), integrity.SUMMARY_SEALED: True}, key)
    write_json(where / RESULT, sealed)
    return where


def _write_evidence(base: Path, artifacts: Mapping[str, bytes]) -> None:
    for rel, data in artifacts.items():
        if not evidence.safe_relative(rel):
            raise ValueError(f"evidence path {rel!r} is not a path below evidence/")
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)


def clear_temporary(run_dir: Path) -> None:
    """Delete temporary files left by a kill."""
    for tmp in run_dir.rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)
