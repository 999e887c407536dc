"""The ``ace`` check type: a task's ACE id, graded through the real loader and evaluator."""

from __future__ import annotations

import pytest
from builders import make_task, make_trajectory, write

from benchwright.checks.ace import oracle
from benchwright.errors import SpecError
from benchwright.execution import run_task
from benchwright.model import Status

COMPOSE = "services:\n  app:\n    build: .\n"


def test_an_ace_check_passes_and_fails_by_its_family(grade) -> None:
    good = grade({"id": "S4", "type": "ace"}, {"docker-compose.yml": COMPOSE})
    bad = grade({"id": "S4", "type": "ace"}, {"README.md": "no stack here\n"})
    assert good.check_id == bad.check_id == "S4"
    assert good.status is Status.PASS, good.detail
    assert bad.status is Status.FAIL
    assert oracle.failed_by_detection(bad), bad.detail


def test_the_check_id_must_be_an_ace_id(registry) -> None:
    with pytest.raises(SpecError) as caught:
        make_task([{"id": "S10", "type": "ace"}, {"type": "ace"}], registry=registry)
    text = str(caught.value)
    assert "oracles[0].id: 'S10' is not an ACE check id (known: S1, S2" in text
    assert "oracles[1].id: 'ace#2' is not an ACE check id" in text


def test_params_are_validated_at_load(registry) -> None:
    with pytest.raises(SpecError, match=r"oracles\[0\]\.gradle"):
        make_task([{"id": "B1", "type": "ace", "gradle": "maven"}], registry=registry)


@pytest.fixture
def oracle_calls(monkeypatch) -> list[tuple[str, ...]]:
    """The wanted ids of each oracle call; wraps the real oracle only to count its calls,
    every row still comes from it."""
    calls: list[tuple[str, ...]] = []
    real = oracle.score

    def counting(env, wanted, package="benchwright.checks.ace"):
        calls.append(tuple(wanted))
        return real(env, wanted, package)

    monkeypatch.setattr("benchwright.checks.ace_oracle.score", counting)
    return calls


def test_one_family_is_scored_once_per_trial(registry, oracle_calls) -> None:
    checks = [{"id": i, "type": "ace"} for i in ("S4", "S7", "M1")]
    task = make_task(checks, {"docker-compose.yml": COMPOSE}, registry=registry)
    result = run_task(task, make_trajectory(), registry=registry)
    assert [r.check_id for r in result.results] == ["S4", "S7", "M1"]
    assert oracle_calls == [("S4", "S7"), ("M1",)]
    assert result.results[1].status is Status.FAIL  # no OpenAPI file in this workspace


def test_each_trial_scores_its_own_workspace(registry, oracle_calls) -> None:
    """Rows live on the trial's Workspace object, so a second trial never reuses the first's."""
    task = make_task([{"id": "S4", "type": "ace"}], {"README.md": "x\n"}, registry=registry)
    first = run_task(task, make_trajectory(), registry=registry)
    wrote = make_trajectory(write("write_file", "compose.yaml", COMPOSE))
    second = run_task(task, wrote, registry=registry)
    assert oracle_calls == [("S4",), ("S4",)]
    assert first.results[0].status is Status.FAIL and second.results[0].status is Status.PASS
