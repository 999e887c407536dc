"""The RunOracle's mechanics, proven with tiny family modules written into tmp_path.

The fakes stand in for the real families only to test how the oracle treats a
family that is missing, crashes, stays silent or over-claims; the real families
have their own tests beside this one.
"""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import pytest

from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.checks.ace.oracle import (
    ACE_IDS,
    FAMILIES,
    failed_by_detection,
    owner,
    score,
)
from benchwright.model import Status

_COUNTER = itertools.count()

PASSING = """
from benchwright.model import CheckResult
IDS = frozenset({ids})
def run(env, wanted):
    return {{i: CheckResult.passing(i, "looked at " + env.workspace.name) for i in wanted}}
"""


def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **families: str) -> str:
    """A package holding the given family modules (name -> source); its import name."""
    name = f"fake_ace_{next(_COUNTER)}"
    root = tmp_path / "pkgs" / name
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    for family, source in families.items():
        (root / f"{family}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    return name


def env(tmp_path: Path) -> AceEnv:
    return AceEnv(workspace=tmp_path, engine=Engine(False, "no engine (test)"))


def test_every_id_has_one_owner_in_the_fixed_order() -> None:
    assert len(ACE_IDS) == 30
    assert [owner(i) for i in ("S1", "P3", "M4", "B3", "C1", "C2", "F6")] == [
        "structure", "planning", "money", "build", "compose", "health", "functional",
    ]  # fmt: skip
    assert FAMILIES[-1] == "functional"
    with pytest.raises(KeyError, match="unknown ACE id 'S10'"):
        owner("S10")


def test_a_family_scores_only_the_ids_it_is_asked_for(tmp_path, monkeypatch) -> None:
    pkg = fake_package(tmp_path, monkeypatch, structure=PASSING.format(ids='{"S1", "S4"}'))
    rows = score(env(tmp_path), ["S4", "S1", "S4"], package=pkg)
    assert [(r.check_id, r.status) for r in rows] == [("S4", Status.PASS), ("S1", Status.PASS)]
    assert rows[0].detail == f"looked at {tmp_path.name}"


def test_a_missing_family_fails_its_ids_naming_it(tmp_path, monkeypatch) -> None:
    pkg = fake_package(tmp_path, monkeypatch, structure=PASSING.format(ids='{"S1"}'))
    rows = score(env(tmp_path), ["S1", "M1"], package=pkg)
    assert rows[0].status is Status.PASS
    assert rows[1].status is Status.FAIL
    assert rows[1].detail.startswith("checker money unavailable: ModuleNotFoundError")
    assert not failed_by_detection(rows[1])


def test_a_crashing_family_fails_its_ids_and_raises_nothing(tmp_path, monkeypatch) -> None:
    crash = "IDS = frozenset()\ndef run(env, wanted):\n    raise ValueError('disk on fire')\n"
    pkg = fake_package(tmp_path, monkeypatch, money=crash)
    rows = score(env(tmp_path), ["M1", "M2"], package=pkg)
    assert {r.detail for r in rows} == {"checker money crashed: ValueError: disk on fire"}
    assert all(r.score == 0.0 and not failed_by_detection(r) for r in rows)


def test_silence_and_foreign_records_are_fail(tmp_path, monkeypatch) -> None:
    silent = """
    from benchwright.model import CheckResult
    IDS = frozenset({"B1", "B2", "B3"})
    def run(env, wanted):
        # B2 is left out; B3 carries another id's record; S1 was never asked for.
        return {"B1": CheckResult.passing("B1", "built"), "B3": CheckResult.passing("B1", "x"),
                "S1": CheckResult.passing("S1", "sneaked in")}
    """
    pkg = fake_package(tmp_path, monkeypatch, build=silent)
    rows = {r.check_id: r for r in score(env(tmp_path), ["B1", "B2", "B3", "S1"], package=pkg)}
    assert rows["B1"].status is Status.PASS
    for ace_id in ("B2", "B3"):
        assert rows[ace_id].status is Status.FAIL
        assert rows[ace_id].detail == "no record: the checker crashed or stayed silent"
    assert rows["S1"].detail.startswith("checker structure unavailable")


def test_a_record_scores_what_its_status_earns(tmp_path, monkeypatch) -> None:
    generous = """
    from benchwright.model import CheckResult, Status
    IDS = frozenset({"C2"})
    def run(env, wanted):
        return {"C2": CheckResult("C2", Status.SKIPPED, 1.0, env.engine.reason)}
    """
    pkg = fake_package(tmp_path, monkeypatch, health=generous)
    (row,) = score(env(tmp_path), ["C2"], package=pkg)
    assert (row.status, row.score, row.detail) == (Status.SKIPPED, 0.0, "no engine (test)")


def test_a_checker_finding_is_a_detection(tmp_path, monkeypatch) -> None:
    finding = """
    from benchwright.model import CheckResult
    IDS = frozenset({"M3"})
    def run(env, wanted):
        return {"M3": CheckResult.failing("M3", "price.equals(other) in Order.java:4")}
    """
    pkg = fake_package(tmp_path, monkeypatch, money=finding)
    (row,) = score(env(tmp_path), ["M3"], package=pkg)
    assert failed_by_detection(row)


def test_an_unknown_id_is_refused(tmp_path) -> None:
    with pytest.raises(KeyError, match="known: S1, S2"):
        score(env(tmp_path), ["Z9"])


STACK = """
import contextlib
from types import SimpleNamespace
IDS = frozenset({"C1"})
EVENTS = []
def run(env, wanted):
    return {}
@contextlib.contextmanager
def stack(env):
    EVENTS.append("up")
    yield SimpleNamespace(base_url="http://127.0.0.1:9")
    EVENTS.append("down")
"""
SEES_URL = """
from benchwright.model import CheckResult
IDS = frozenset({"C2"})
def run(env, wanted):
    return {"C2": CheckResult.failing("C2", f"base_url={env.base_url}")}
"""


def test_with_an_engine_the_live_checks_run_against_the_workspace_stack(
    tmp_path, monkeypatch
) -> None:
    pkg = fake_package(tmp_path, monkeypatch, compose=STACK, health=SEES_URL)
    engine = AceEnv(workspace=tmp_path, engine=Engine(True, "docker engine (test)"))
    (row,) = score(engine, ["C2"], package=pkg)
    assert row.detail == "base_url=http://127.0.0.1:9"
    compose = __import__(f"{pkg}.compose", fromlist=["EVENTS"])
    assert compose.EVENTS == ["up", "down"]
    (row,) = score(env(tmp_path), ["C2"], package=pkg)  # no engine: no stack brought up
    assert row.detail == "base_url=None"
    assert compose.EVENTS == ["up", "down"]
    given = AceEnv(tmp_path, Engine(True, "docker"), base_url="http://127.0.0.1:7")
    (row,) = score(given, ["C2"], package=pkg)  # the user's own stack wins
    assert row.detail == "base_url=http://127.0.0.1:7"
    assert compose.EVENTS == ["up", "down"]


def test_a_stack_that_cannot_come_up_fails_the_live_ids(tmp_path, monkeypatch) -> None:
    broken = """
    import contextlib
    @contextlib.contextmanager
    def stack(env):
        raise OSError("no")
        yield
    """
    pkg = fake_package(tmp_path, monkeypatch, compose=broken, health=SEES_URL)
    engine = AceEnv(workspace=tmp_path, engine=Engine(True, "docker engine (test)"))
    (row,) = score(engine, ["C2"], package=pkg)
    assert row.detail == "checker compose crashed: OSError: no"
    assert not failed_by_detection(row)
