"""A run directory holding one sealed trial of an executed-app suite, made the way
`benchwright.execution.store` and ``run`` make one (a run key in the run index, sealed
``run.json`` and ``result.json``), with a grader's scorecard and its evidence files in
``trials/<task>/<n>/evidence/<check>/`` listed by sha256 in the sealed result."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

from benchwright.execution import integrity, key_index, store
from benchwright.execution.records import TrialResult
from benchwright.execution.run_meta import run_block

RUN_ID = "20261203T220000Z-model-openai-qwen3-abc123"
CHECK = "vspro"
FLEET = {
    "model": "qwen3-coder-30b",
    "usage": {"input_tokens": 181220, "output_tokens": 40213, "cost_usd": None},
    "model_calls": 80,
    "tool_steps": 60,
    "repair_rounds": 2,
    "endpoints": ["http://10.0.0.1:1234/v1", "http://10.0.0.2:1234/v1"],
    "benchwright": {"started_at": "2026-12-03T22:00:00.000000Z",
                    "finished_at": "2026-12-03T22:12:03.250000Z", "wall_s": 723.25},
}  # fmt: skip
"""What a model agent on a two-node fleet reports, and the harness's clock."""


def make_run(runs: Path, run_id: str = RUN_ID) -> tuple[Path, bytes]:
    """``runs/<run_id>`` with its sealed ``run.json`` and its key recorded here."""
    run_dir = runs / run_id
    (run_dir / "trials").mkdir(parents=True)
    info = {"run_id": run_id, "suite": {"name": "vspro"}, "agent": "model:openai/qwen3",
            "tasks": ["build"], "iterations": 1, "created_at": "2026-12-03T22:00:00Z"}  # fmt: skip
    key = integrity.new_key()
    sealed = integrity.seal(info, key)
    key_index.record(run_id, run_dir, key, sealed[integrity.MAC_FIELD])
    store.write_json(run_dir / "run.json", sealed)
    return run_dir, key


def add_trial(
    run_dir: Path, key: bytes, card: Path, metadata: dict[str, Any], task: str = "build",
    iteration: int = 1,
) -> Path:  # fmt: skip
    """A sealed trial whose check ``CHECK`` left ``card`` (as ``scorecard.json``) and the
    card's evidence folder (as ``scorecard.browser/``); returns the trial directory."""
    where = store.trial_dir(run_dir, task, iteration)
    evidence = where / "evidence" / CHECK
    evidence.mkdir(parents=True)
    shutil.copyfile(card, evidence / "scorecard.json")
    browser = card.parent / f"{card.stem}.browser"
    if browser.is_dir():
        shutil.copytree(browser, evidence / "scorecard.browser")
    digests = {
        f.relative_to(where / "evidence").as_posix(): hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(evidence.rglob("*"))
        if f.is_file()
    }
    result = TrialResult(task, "build", "build", iteration, "model:openai/qwen3", "passed",
                         run=run_block(metadata, 3))  # fmt: skip
    doc = {**result.to_dict(), "evidence_files": digests, integrity.SUMMARY_SEALED: True}
    store.write_json(where / store.RESULT, integrity.seal(doc, key))
    return where
