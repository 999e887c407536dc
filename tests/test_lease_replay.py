"""benchmarks/lease_replay.py replays a recorded run under the lease's rules: timed work
waits for every holder, and with precedence nothing takes the host shared while it waits."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "lease_replay.py"
_spec = importlib.util.spec_from_file_location("lease_replay", SCRIPT)
assert _spec is not None and _spec.loader is not None
replay_module = importlib.util.module_from_spec(_spec)
sys.modules["lease_replay"] = replay_module
_spec.loader.exec_module(replay_module)


def _write(
    path: Path, tests: list[tuple[str, float, float]], waited: dict[str, float] | None = None
) -> Path:
    """(id, seconds, of which alone), started in this order, with the lease's recorded
    wait of the ids ``waited`` names; a test's group is its id's first letter."""
    lines = []
    for n, (nodeid, seconds, alone) in enumerate(tests):
        props = {"host_lease_alone_s": alone, "worker_group": nodeid[0],
                 "host_lease_wait_s": (waited or {}).get(nodeid, 0.0)}  # fmt: skip
        lines.append({"id": nodeid, "when": "call", "start": n, "stop": n + seconds,
                      "worker": f"gw{n % 2}", "outcome": "passed", "props": props})  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("precedence", [True, False])
def test_timed_work_first_holds_the_others_back(tmp_path: Path, precedence: bool) -> None:
    timeline = _write(tmp_path / "t", [("a", 10, 10), ("b", 10, 0), ("c", 10, 0)])
    groups, _, used = replay_module.load(timeline, [])
    assert used == 2
    assert replay_module.replay(groups, 2, precedence) == (20, 10, 10)


def test_with_precedence_a_waiting_holder_goes_before_later_shared_work(tmp_path: Path) -> None:
    """b holds the host shared from the start; a (after a1, in its group) waits for it
    from 2 s; c, next on b's worker at 10 s, waits for a -- without precedence, a for c."""
    timeline = _write(tmp_path / "t", [("b", 10, 0), ("a1", 2, 0), ("a2", 10, 10), ("c", 5, 0)])
    groups, _, _ = replay_module.load(timeline, [])
    assert [[t.id for t in g] for g in groups] == [["b"], ["a1", "a2"], ["c"]]
    assert replay_module.replay(groups, 2, True) == (25, 10, 18)
    assert replay_module.replay(groups, 2, False) == (25, 10, 13)


def test_a_fixture_block_is_replayed_alone_then_shared_and_share_drops_it(tmp_path: Path) -> None:
    timeline = _write(tmp_path / "t", [("golden", 10, 4), ("b", 10, 0)])
    groups, _, _ = replay_module.load(timeline, [])
    assert [t.parts for g in groups for t in g] == [[("alone", 4), ("shared", 6)], [("shared", 10)]]
    assert replay_module.replay(groups, 2, True) == (14, 4, 4)
    shared, _, _ = replay_module.load(timeline, ["golden"])
    assert replay_module.replay(shared, 2, True) == (10, 0, 0)


def test_a_wait_inside_a_fixtures_setup_is_not_replayed_as_work(tmp_path: Path) -> None:
    """A fixture's block waits inside the test's setup (its phases hold the wait), a test
    waits for the lease before its setup (they do not): only the first is taken off."""
    timeline = _write(tmp_path / "t", [("golden", 15, 4), ("marked", 4, 4), ("plain", 3, 0)],
                      {"golden": 5, "marked": 9, "plain": 7})  # fmt: skip
    groups, _, _ = replay_module.load(timeline, [])
    assert [t.parts for g in groups for t in g] == [
        [("alone", 4), ("shared", 6)],
        [("alone", 4)],
        [("shared", 3)],
    ]
