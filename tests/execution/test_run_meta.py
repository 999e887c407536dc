"""Run metadata measured, not typed: the ``run`` block of a trial (from the agent's record
and the harness's clock), sealed in ``result.json``, added up by the summary, compared;
an agent's bogus or forged metadata is dropped with a note and never breaks anything."""

from __future__ import annotations

import hashlib
import json
import math
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from benchwright.agents.builtin import ReplayAgent
from benchwright.dsl import load_suite
from benchwright.execution.compare import compare_runs, comparison_lines
from benchwright.execution.records import TrialResult
from benchwright.execution.run_meta import (
    read_block,
    run_block,
    usage_deltas,
    usage_fields,
    usage_line,
    usage_totals,
)
from benchwright.model import Trajectory

from .minisuites import make_suite, trial

GOOD = {
    "model": "gpt-4o-2024-08-06",
    "usage": {"input_tokens": 1200, "output_tokens": 340, "cost_usd": 0.0125},
    "model_calls": 7,
    "tool_steps": 6,
    "repair_rounds": 2,
    "endpoints": ["http://10.0.0.1:1234/v1", "http://10.0.0.2:1234/v1", "http://10.0.0.1:1234/v1/"],
}
STARTED, FINISHED = "2026-12-03T22:00:00.000000Z", "2026-12-03T22:10:00.500000Z"
FACTS = {"benchwright": {"started_at": STARTED, "finished_at": FINISHED, "wall_s": 600.5}}
WRITE = {"type": "tool_call", "tool": "write_file", "args": {"path": "out.txt", "content": "hi\n"}}
TASK = {
    "id": "write-out",
    "class": "edit",
    "workspace": {"keep.txt": "k\n"},
    "checks": [{"type": "file_exists", "path": "out.txt"}],
}


def test_the_block_takes_the_agents_facts_and_the_harness_clock() -> None:
    block = run_block({**GOOD, **FACTS}, steps=3)
    assert (
        block
        == {
            "model": "gpt-4o-2024-08-06",
            "started_at": "2026-12-03T22:00:00.000000Z",
            "finished_at": "2026-12-03T22:10:00.500000Z",
            "wall_s": 600.5,
            "engine_events": 13,  # 7 model calls + 6 tool steps, not the 3 trajectory steps
            "model_calls": 7,
            "tool_steps": 6,
            "repair_rounds": 2,
            "input_tokens": 1200,
            "output_tokens": 340,
            "cost_usd": 0.0125,
            "nodes": 2,  # two distinct endpoints (a trailing slash is the same one)
            "endpoint_ids": sorted(
                hashlib.sha256(url.encode()).hexdigest()[:16]
                for url in ("http://10.0.0.1:1234/v1", "http://10.0.0.2:1234/v1")
            ),
        }
    )


def test_unknown_facts_stay_unknown_and_events_fall_back_to_the_steps() -> None:
    block = run_block({"endpoints": ["http://127.0.0.1:1234/v1"]}, steps=5)
    assert block["engine_events"] == 5 and block["nodes"] == 0  # one endpoint is no fleet
    assert block["model"] is block["input_tokens"] is block["cost_usd"] is None
    assert block["started_at"] is None and "dropped" not in block
    fields = usage_fields(block)
    assert (fields["tokens"], fields["cost"], fields["model"]) == ("-", "-", "-")


@pytest.mark.parametrize(
    ("metadata", "dropped"),
    [
        ({"model_calls": -1}, "model_calls: -1 dropped (outside [0, 2147483647])"),
        ({"model_calls": 2**31}, "model_calls: 2147483648 dropped (outside [0, 2147483647])"),
        ({"tool_steps": True}, "tool_steps: True dropped (not an integer but bool)"),
        ({"repair_rounds": "3"}, "repair_rounds: '3' dropped (not an integer but str)"),
        ({"usage": {"input_tokens": 1.5}}, "usage.input_tokens: 1.5 dropped (not an integer"),
        ({"usage": {"cost_usd": math.nan}}, "usage.cost_usd: nan dropped (outside [0, 1e+09])"),
        ({"usage": {"cost_usd": math.inf}}, "usage.cost_usd: inf dropped (outside [0, 1e+09])"),
        ({"usage": {"cost_usd": -0.5}}, "usage.cost_usd: -0.5 dropped (outside [0, 1e+09])"),
        ({"usage": ["input_tokens", 5]}, "usage: ['input_tokens', 5] dropped (not an object"),
        (
            {"model": "gpt\u202e4o"},
            "model: 'gpt\\u202e4o' dropped (U+202E (RIGHT-TO-LEFT OVERRIDE)",
        ),
        ({"model": "m" * 5000}, "model: 'mmmmmmmm"),
        ({"model": {"id": "x"}}, "model: {'id': 'x'} dropped (not a model id)"),
        ({"endpoints": "http://a"}, "endpoints: 'http://a' dropped (not a list of at most"),
        ({"endpoints": ["http://a\n"]}, "endpoints: ['http://a\\n'] dropped (not a list of print"),
        ({"endpoints": ["http://x"] * 2000}, "endpoints: ['http://x', 'http://x'"),
    ],
)
def test_a_bogus_value_is_dropped_with_a_note(metadata: dict[str, Any], dropped: str) -> None:
    block = run_block({**GOOD, **metadata, **FACTS}, steps=1)
    assert len(block["dropped"]) == 1 and block["dropped"][0].startswith(dropped)
    assert len(block["dropped"][0]) < 200  # the offending value is quoted short
    kept = {k: v for k, v in block.items() if v is not None and k != "dropped"}
    assert kept["started_at"] == "2026-12-03T22:00:00.000000Z"
    json.dumps(block, allow_nan=False)  # whatever was dropped, the block is plain JSON


def test_a_trial_measures_when_the_agent_ran_and_replaces_an_agents_own_harness_key(
    tmp_path: Path,
) -> None:
    """The harness's facts are the harness's: an agent claiming ``benchwright`` facts
    (a replayed file here, a transcript parser's output alike) is overwritten, and its
    bogus counts are dropped without failing the trial."""
    forged = {
        **GOOD,
        "model_calls": -4,
        "usage": {"input_tokens": 10, "output_tokens": 2, "cost_usd": None},
        "benchwright": {"started_at": "1999-01-01T00:00:00Z", "wall_s": 9e9, "live": False},
    }
    suite = load_suite(make_suite(tmp_path / "s", [TASK]))
    agent = ReplayAgent("replay:forged", {"write-out": Trajectory((WRITE,), forged, "done")})
    before = datetime.now().astimezone()
    result = trial(suite, "write-out", agent)
    after = datetime.now().astimezone()
    assert result.verdict == "passed", result.error
    facts = result.trajectory["metadata"]["benchwright"]
    assert set(facts) >= {"started_at", "finished_at", "wall_s", "snapshots"}
    assert facts["live"] is False  # replay: the harness's own word, not the file's
    run = result.run
    assert run is not None
    started = datetime.fromisoformat(run["started_at"])
    finished = datetime.fromisoformat(run["finished_at"])
    assert before <= started <= finished <= after
    assert run["started_at"].endswith("Z") and 0 <= run["wall_s"] < 9e9
    assert run["wall_s"] == facts["wall_s"] == round(result.timings["agent_s"], 6)
    assert run["model_calls"] is None and run["engine_events"] == 6  # the tool steps alone
    assert (run["input_tokens"], run["output_tokens"], run["cost_usd"]) == (10, 2, None)
    assert run["dropped"] == ["model_calls: -4 dropped (outside [0, 2147483647])"]
    assert usage_fields(run)["cost"] == "tokens only"


def test_the_block_is_in_result_json_both_ways_and_old_results_still_read() -> None:
    block = run_block({**GOOD, **FACTS}, steps=1)
    result = TrialResult("t", "c", "correctness", 1, "nop", "passed", run=block)
    raw = json.loads(json.dumps(result.to_dict()))
    assert raw["run"] == block
    assert TrialResult.from_dict(raw).run == block
    del raw["run"]
    assert TrialResult.from_dict(raw).run is None
    assert "run" not in TrialResult("t", "c", "correctness", 1, "nop", "passed").to_dict()


def test_a_block_read_back_is_checked_again() -> None:
    """An unverified run's ``result.json`` holds whatever someone wrote: readers see only
    values that pass the same checks."""
    raw = {"model": "ok-model", "input_tokens": -3, "cost_usd": "free", "nodes": 10**12,
           "wall_s": 12.0, "started_at": "yesterday", "dropped": ["x"] * 500}  # fmt: skip
    block = read_block(raw)
    assert block is not None
    assert (block["model"], block["wall_s"], block["input_tokens"]) == ("ok-model", 12.0, None)
    assert block["cost_usd"] is None and block["nodes"] is None and block["started_at"] is None
    assert len(block["dropped"]) == 50 + 4
    assert read_block("not a block") is None and read_block(None) is None


def test_totals_add_up_and_a_partly_priced_run_is_tokens_only() -> None:
    priced = run_block({**GOOD, **FACTS}, steps=1)
    local = {"model": "local-qwen", "usage": {"input_tokens": 100, "output_tokens": 50}}
    unpriced = run_block({**FACTS, **local}, steps=4)
    totals = usage_totals([priced, unpriced, None])
    assert totals == {
        "trials": 2, "models": ["gpt-4o-2024-08-06", "local-qwen"], "input_tokens": 1300,
        "output_tokens": 390, "cost_usd": None, "model_calls": 7, "engine_events": 17,
        "wall_s": 1201.0, "nodes": 2,
    }  # fmt: skip
    assert usage_totals([priced, priced])["cost_usd"] == 0.025
    assert usage_line(totals) == (
        "model gpt-4o-2024-08-06, local-qwen; tokens 1,300 in / 390 out; cost tokens only; "
        "model calls 7; engine events 17; wall 1201.0 s; nodes 2"
    )
    empty = usage_totals([])
    assert empty["trials"] == 0 and empty["input_tokens"] is None and empty["cost_usd"] is None


def test_totals_of_an_unverified_summary_holding_anything_show_as_unknown() -> None:
    for junk in (["input_tokens"], "lots", {"models": 3, "input_tokens": "9", "wall_s": "x"}):
        assert set(usage_fields(junk).values()) <= {"-", "0 (single endpoint)"}
        assert usage_deltas(junk, junk)["input_tokens"]["delta"] is None


def test_deltas_of_two_runs_totals_and_of_a_summary_from_before() -> None:
    a = usage_totals([run_block({**GOOD, **FACTS}, steps=1)])
    b = usage_totals([run_block({**GOOD, **FACTS, "model_calls": 9}, steps=1)])
    deltas = usage_deltas(a, b)
    assert deltas["model_calls"] == {"a": 7, "b": 9, "delta": 2}
    assert deltas["engine_events"]["delta"] == 2 and deltas["input_tokens"]["delta"] == 0
    assert usage_deltas(None, b)["input_tokens"] == {"a": None, "b": 1200, "delta": None}


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two real runs of one task through the console script: replays whose records name
    the model and usage (the second used more tokens), each sealed with its own key."""
    import os
    import subprocess
    import sys

    from benchwright.execution import integrity

    base = tmp_path_factory.mktemp("meta")
    suite = make_suite(base / "suite", [TASK])
    env = {**os.environ, "COLUMNS": "200", integrity.STATE_ENV: str(base / "state")}
    runs = {}
    for name, tokens in (("a", 1000), ("b", 1500)):
        record = {"model": "qwen3-coder-30b", "model_calls": 3, "tool_steps": 1,
                  "usage": {"input_tokens": tokens, "output_tokens": 100, "cost_usd": None},
                  "benchwright": {"wall_s": 1}}  # fmt: skip
        file = base / f"{name}.json"
        file.write_text(json.dumps({"metadata": record, "steps": [WRITE], "answer": "ok"}))
        out = base / f"runs-{name}"
        done = subprocess.run(
            [str(Path(sys.executable).with_name("benchwright")), "run", str(suite),
             "--agent", f"replay:{file}", "--out", str(out)],
            env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "run: model qwen3-coder-30b; tokens " in done.stdout  # the terminal summary
        assert "cost tokens only; model calls 3; engine events 4;" in done.stdout
        runs[name] = next(out.iterdir())
    runs["state"] = base / "state"
    return runs


def test_a_runs_summary_and_runs_show_carry_the_totals(
    two_runs: dict[str, Path], cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = json.loads((two_runs["a"] / "summary.json").read_text())
    assert summary["usage"]["input_tokens"] == 1000 and summary["usage"]["models"] == [
        "qwen3-coder-30b"
    ]
    assert summary["classes"]["edit"]["usage"] == summary["usage"]
    result = json.loads((two_runs["a"] / "trials/write-out/1/result.json").read_text())
    assert result["run"]["engine_events"] == 4 and result["run"]["wall_s"] != 1
    env = {"BENCHWRIGHT_STATE_DIR": str(two_runs["state"])}
    shown = cli("runs", "show", str(two_runs["a"]), "--runs-dir", str(two_runs["a"].parent),
                env=env)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "run: model qwen3-coder-30b; tokens 1,000 in / 100 out; cost tokens only;" in (
        shown.stdout
    )


def test_compare_shows_the_token_deltas(
    two_runs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCHWRIGHT_STATE_DIR", str(two_runs["state"]))
    result = compare_runs(two_runs["a"], two_runs["b"])
    assert result["usage"]["input_tokens"] == {"a": 1000, "b": 1500, "delta": 500}
    assert "input_tokens: 1000 -> 1500 (delta +500)" in comparison_lines(result)


def test_the_viewer_and_the_html_report_show_the_run_and_each_trial(
    two_runs: dict[str, Path], cli
) -> None:
    env = {"BENCHWRIGHT_STATE_DIR": str(two_runs["state"])}
    out = two_runs["a"].parent / "report.html"
    done = cli("report", str(two_runs["a"]), "--html", str(out), env=env)
    assert done.returncode == 0, done.stderr
    html = out.read_text()
    for shown in ("<dt>model</dt><dd><bdi>qwen3-coder-30b</bdi>",
                  "<dt>tokens</dt><dd><bdi>1,000 in / 100 out</bdi>",
                  "<dt>cost</dt><dd><bdi>tokens only</bdi>",
                  "<dt>engine events</dt><dd><bdi>4</bdi>",
                  "<dt>nodes</dt><dd><bdi>0 (single endpoint)</bdi>"):  # fmt: skip
        assert html.count(shown) == 2, shown  # the run's totals, then its one trial's
    assert '<div class="trial-run">' in html and "<dt>started</dt>" in html


@pytest.mark.parametrize(
    ("suite", "tasks", "agent"),
    [("ace", "L1_migration_entity", "nop"), ("turnbench", "fix-01", "oracle")],
)
def test_ace_rungs_and_turnbench_results_gain_the_block(
    cli, tmp_path: Path, suite: str, tasks: str, agent: str
) -> None:
    env = {"BENCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    root = Path(__file__).resolve().parents[2]
    done = cli("run", str(root / "suites" / suite), "--agent", agent, "--tasks", tasks,
               "--out", str(tmp_path / "runs"), env=env)  # fmt: skip
    assert done.returncode in (0, 1, 3), done.stderr  # 3: no Docker here errs ACE's B1 row
    (run_dir,) = (tmp_path / "runs").iterdir()
    result = json.loads((run_dir / "trials" / tasks / "1" / "result.json").read_text())
    run = result["run"]
    assert run["started_at"].endswith("Z") and run["finished_at"] >= run["started_at"]
    assert run["wall_s"] >= 0 and run["engine_events"] >= 0 and run["nodes"] == 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["usage"]["trials"] == 1 and summary["usage"]["models"] == []


def test_a_runs_nodes_are_the_endpoints_that_served_any_of_its_trials() -> None:
    """Two trials each served by one endpoint of a two-endpoint fleet: each is a single
    agent, the run was served by two nodes; a forged digest list is dropped on reading."""
    one = run_block({"endpoints": ["http://10.0.0.1:1234/v1"]}, steps=1)
    other = run_block({"endpoints": ["http://10.0.0.2:1234/v1"]}, steps=1)
    assert (one["nodes"], other["nodes"]) == (0, 0)
    assert usage_totals([one, other, one])["nodes"] == 2
    assert usage_totals([one, one])["nodes"] == 0
    forged = read_block({**one, "endpoint_ids": ["not-a-digest"] * 3})
    assert forged is not None and forged["endpoint_ids"] == []
    assert any(line.startswith("endpoint_ids:") for line in forged["dropped"])
