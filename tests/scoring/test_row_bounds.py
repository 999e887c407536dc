"""Rows and scorer files: numbers are finite JSON numbers, booleans real, and a row's
score agrees with its status (docs/scoring.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.scoring import load_rows, load_scorer


def _load(tmp_path: Path, status: str, score: object) -> list:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"id": "ok", "status": "PASS", "score": 1.0},
                                {"id": "row", "status": status, "score": score}]))  # fmt: skip
    return load_rows(path)


def _problem(tmp_path: Path, status: str, score: object) -> tuple[str, str]:
    with pytest.raises(SpecError) as caught:
        _load(tmp_path, status, score)
    [problem] = caught.value.problems
    return problem


@pytest.mark.parametrize(
    ("status", "score", "message"),
    [
        ("FAIL", 1.0, "contradicts status FAIL: a FAIL scores below 1, got 1"),
        ("FAIL", 1, "contradicts status FAIL: a FAIL scores below 1, got 1"),
        ("PASS", 0.0, "contradicts status PASS: a PASS scores 1 (partial credit is a FAIL"),
        ("PASS", 0.99, "contradicts status PASS: a PASS scores 1 (partial credit is a FAIL"),
        ("NOT_ATTEMPTED", 1.0, "contradicts status NOT_ATTEMPTED: a NOT_ATTEMPTED row judged"),
        ("UNAVAILABLE", 0.5, "contradicts status UNAVAILABLE: a UNAVAILABLE row judged nothing"),
        ("INFRA", 1.0, "contradicts status INFRA: a INFRA row judged nothing and scores 0"),
        ("SKIPPED", 0.1, "contradicts status SKIPPED: a SKIPPED row judged nothing"),
        ("PASS", "1", "must be a number, got str"),
        ("PASS", True, "must be a number, got bool"),
        ("FAIL", False, "must be a number, got bool"),
        ("FAIL", "0.5", "must be a number, got str"),
    ],
)
def test_a_score_that_contradicts_its_status_or_is_not_a_number_names_the_row(
    tmp_path, status, score, message
):
    field, text = _problem(tmp_path, status, score)
    assert field == "[1].score"
    assert text.startswith(message), text


@pytest.mark.parametrize(
    ("status", "score"),
    [("PASS", 1.0), ("PASS", 1), ("FAIL", 0.0), ("FAIL", 0.75), ("FAIL", 0.999),
     ("NOT_ATTEMPTED", 0.0), ("SKIPPED", 0), ("INFRA", 0.0), ("UNAVAILABLE", 0.0)],
)  # fmt: skip
def test_scores_that_agree_with_their_status_load(tmp_path, status, score):
    row = _load(tmp_path, status, score)[1]
    assert (row.status, row.score) == (Status(status), score)


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (lambda d: d["criticals"].update(dedupe_by_root="false"),
         "criticals.dedupe_by_root", "must be true or false, got str"),
        (lambda d: d["tiers"]["T"].update(weight=float("inf")),
         "tiers.T.weight", "must be a finite number, got inf"),
        (lambda d: d["tiers"]["T"].update(gamma=float("nan")),
         "tiers.T.gamma", "must be a finite number, got nan"),
        (lambda d: d.update(excellent_at="0.9"), "excellent_at", "must be a number, got str"),
    ],
)  # fmt: skip
def test_scorer_configs_take_real_booleans_and_finite_numbers(write_config, edit, field, message):
    path = write_config("sb7", edit)
    with pytest.raises(SpecError) as caught:
        load_scorer(path)
    assert (field, message) in caught.value.problems, caught.value.problems
