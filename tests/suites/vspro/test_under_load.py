"""Proof under load: three gradings of the golden at once (three apps, three vendor mocks,
three Chromiums on this machine) each pass the freeze gate (1.0000 on every row it holds),
or refuse naming a host-contended row -- never a silently lower score.

The test shares the host with the other workers' tests (it is not ``alone``): their load
only adds to the load the claim is about. Measured beside sb-7's golden grading and its
controls prefetch (the suite's heaviest shared work): passed in 258 s, against 139 s with
the host to itself -- where its three gradings left 40 % of the two cores idle while the
other workers waited."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from benchwright.scoring.files import load_config

REPO = Path(__file__).parents[3]
GOLDEN = REPO / "suites" / "vspro" / "reference"
BIN = Path(sys.executable).with_name("benchwright")
CALIBRATION_OWNED = set(load_config(REPO / "scorers" / "sb6.yaml").calibration_owned)
"""The freeze gate exempts these rows (their cut points are set from the reference on the
calibrating host): three gradings at once on two cores can measure one of them below its
top rung with the others' CPU under the contention bound -- visible on the card with the
host's measurement, never silent (CI, stop 35: e_under_load_latency p95 237 ms, others 9 %)."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present"),
]


def _grade(tree: Path, out: Path) -> subprocess.CompletedProcess[str]:
    args = [str(BIN), "grade", str(REPO / "suites" / "vspro"), "--tree", str(tree),
            "--reference", "--json", str(out)]  # fmt: skip
    return subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=900)


def _below_one(card: dict) -> list[dict]:
    return [r for r in card["rows"] if r["role"] != "diagnostic" and (r["score"] or 0) < 1.0]


def test_three_gradings_at_once_keep_the_goldens_verdict(tmp_path: Path) -> None:
    trees = []
    for i in range(3):
        tree = tmp_path / f"golden{i}"
        shutil.copytree(GOLDEN, tree, ignore=shutil.ignore_patterns("*.db*", "sb6-reference*"))
        trees.append(tree)
    with ThreadPoolExecutor(3) as pool:
        runs = list(pool.map(lambda t: _grade(t, t.with_suffix(".json")), trees))
    for tree, done in zip(trees, runs, strict=True):
        said = done.stdout + done.stderr
        card = json.loads(tree.with_suffix(".json").read_text())
        if done.returncode == 0:
            assert (tree / "sb6-reference-pass.json").is_file()
            hosts = {r["check_id"]: r["evidence"].get("host") for r in card["grading"]["results"]}
            for row in _below_one(card):  # only a host-calibrated row, its host on the card
                assert row["check_id"] in CALIBRATION_OWNED, said
                assert isinstance(hosts[row["check_id"]], dict), said
        else:  # the only acceptable refusal: a timing row the host left unproven
            assert done.returncode == 3, said
            assert "reference gate refused twice" in said and "host contended" in said, said
            measured = [r for r in card["rows"] if r["status"] in ("PASS", "FAIL")]
            assert all(r["score"] == 1.0 for r in measured), said
