"""``benchwright audit --workers N``: the golden and each control are one job each, and the
table is the one a single worker prints, whatever order the jobs finished in."""

from __future__ import annotations

import pickle

import pytest
from control_cases import REPO, SUITE, needs_golden

from benchwright.scoring import compose, load_scorer
from benchwright.scoring.selftest import perfect_rows

SUBSET = "crash-without-db,empty,cross-currency-total,blind-write"
"""Four controls over four phase sets: eight jobs, none of them in a browser."""


@needs_golden
@pytest.mark.slow
def test_a_quick_audit_on_two_workers_prints_the_one_worker_table(cli):
    one = cli("audit", str(SUITE), "--quick", "--only", SUBSET, "--workers", "1")
    two = cli("audit", str(SUITE), "--quick", "--only", SUBSET, "--workers", "2")
    assert one.returncode == two.returncode == 0, two.stdout + two.stderr
    assert two.stdout == one.stdout
    lines = two.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:] if not line.startswith(" ")][:-1] == [
        "crash-without-db",
        "empty",
        "cross-currency-total",
        "blind-write",
    ]  # fmt: skip  (gravest first: inert, inert, critical, major)
    assert lines[-1].startswith("audit PASSED: 4/4 controls met their expectations")
    assert "graded blind-write" in two.stderr and "(8/8)" in two.stderr  # the progress lines


def test_unconfined_gradings_are_refused_on_several_workers_before_any_starts(cli):
    done = cli("audit", str(SUITE), "--no-sandbox", "--workers", "2", "--only", "empty")
    assert done.returncode == 2
    assert done.stderr == (
        "error: --no-sandbox: cannot grade on 2 workers at once: unconfined gradings share the "
        "host's vendor address (127.0.0.1:9003); keep the sandbox or pass --workers 1\n"
    )


def test_a_scorecard_crosses_a_process_boundary_intact():
    scorer = load_scorer(REPO / "scorers" / "sb6.yaml")
    card = compose(perfect_rows(scorer), scorer)
    card = type(card)(**{**{f: getattr(card, f) for f in card.__slots__},
                         "provenance": {"suite": "vspro"}})  # fmt: skip
    back = pickle.loads(pickle.dumps(card))
    assert back == card and back.provenance["suite"] == "vspro"
    with pytest.raises(TypeError):
        back.provenance["suite"] = "other"  # still read-only on the far side
