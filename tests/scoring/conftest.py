"""Shared helpers for scoring tests: the shipped configs, rows builders, config copies."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchwright.model import CheckResult, Status
from benchwright.scoring import Scorer, load_scorer, perfect_rows

REPO = Path(__file__).resolve().parents[2]
SCORERS = REPO / "scorers"
DATA = Path(__file__).parent / "data"


def shipped(name: str, rung: str | None = None) -> Scorer:
    """A scorer config as shipped under scorers/."""
    return load_scorer(SCORERS / f"{name}.yaml", rung)


def with_rows(scorer: Scorer, **overrides: tuple[Status, float]) -> list[CheckResult]:
    """The perfect run with some rows replaced by (status, score)."""
    rows = []
    for row in perfect_rows(scorer):
        if row.check_id in overrides:
            status, score = overrides[row.check_id]
            row = CheckResult(row.check_id, status, score, "test override")
        rows.append(row)
    return rows


WriteConfig = Callable[..., Path]


@pytest.fixture
def write_config(tmp_path: Path) -> WriteConfig:
    """Copy a shipped config (and its thresholds/ladder) to tmp_path, edited by ``edit``."""

    def write(name: str, edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
        doc = yaml.safe_load((SCORERS / f"{name}.yaml").read_text())
        for extra in ("thresholds", "ladder"):
            ref = doc.get(extra)
            if ref:
                file = ref["file"] if isinstance(ref, dict) else ref
                (tmp_path / file).write_bytes((SCORERS / file).read_bytes())
        if edit:
            edit(doc)
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        return path

    return write


def write_rows(path: Path, rows: list[CheckResult]) -> Path:
    doc = [{"id": r.check_id, "status": r.status.value, "score": r.score, "detail": r.detail}
           for r in rows]  # fmt: skip
    path.write_text(json.dumps(doc))
    return path
