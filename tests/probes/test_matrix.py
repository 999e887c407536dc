"""run_matrix sends every cell once and keeps every answer, judging none."""

from __future__ import annotations

import json

import pytest

from benchwright.errors import HarnessError
from benchwright.probes.http import MatrixCell, run_matrix


def test_every_cell_gets_its_own_answer_in_order(base_url):
    cells = [
        MatrixCell("limit=abc", "/validate?limit=abc"),
        MatrixCell("limit=5", "/validate?limit=5"),
        MatrixCell("unknown route", "/nope"),
        MatrixCell("batch", "/echo", method="POST", json={"items": [{"amount": "x"}]}),
    ]
    obs = run_matrix(base_url, cells)
    assert [cell.name for cell, _ in obs.results] == [c.name for c in cells]
    assert [answer.status for _, answer in obs.results] == [400, 200, 404, 201]
    assert json.loads(obs.get("limit=abc").body)["error"]["code"] == "bad_limit"
    assert json.loads(obs.get("batch").body) == {
        "method": "POST",
        "got": {"items": [{"amount": "x"}]},
    }


def test_an_unknown_cell_name_lists_the_cells(base_url):
    obs = run_matrix(base_url, [MatrixCell("one", "/ok")])
    with pytest.raises(KeyError, match="no matrix cell 'two'; cells: one"):
        obs.get("two")


def test_duplicate_cell_names_are_a_harness_error(base_url):
    with pytest.raises(HarnessError, match="unique"):
        run_matrix(base_url, [MatrixCell("a", "/ok"), MatrixCell("a", "/nope")])
