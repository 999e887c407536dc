"""Acceptance: oracle passes every correctness task, nop fails every one, latency stands apart."""

from __future__ import annotations

import json

import pytest

from benchwright.errors import SpecError
from benchwright.execution import execute, exit_status, plan_run
from benchwright.execution.isolation import IsolationRequest

from .minisuites import GRADED, MINISUITE, make_suite


def _run(agent: str, tmp_path, **kwargs):
    plan = plan_run(MINISUITE, agent, out=tmp_path / "runs", **kwargs)
    return plan, execute(plan)


def test_oracle_passes_every_correctness_task(tmp_path):
    _plan, outcome = _run("oracle", tmp_path)
    summary = outcome.summary
    assert {t: summary["tasks"][t]["verdict"] for t in GRADED} == dict.fromkeys(GRADED, "passed")
    assert summary["correctness_pass_rate"] == 1.0
    assert summary["tiers"]["latency"] == {"tasks": 1, "attempted": 1, "errored": 0, "completed": 1}
    assert exit_status(outcome) == (0, None)


def test_nop_fails_every_correctness_task_and_latency_is_reported_apart(tmp_path):
    _plan, outcome = _run("nop", tmp_path)
    summary = outcome.summary
    assert {t: summary["tasks"][t]["verdict"] for t in GRADED} == dict.fromkeys(GRADED, "failed")
    assert summary["correctness_pass_rate"] == 0.0
    assert summary["build_pass_rate"] is None
    assert summary["latency_only_tasks"] == 1
    assert summary["tasks"]["longctx-summary"]["verdict"] == "completed"
    assert summary["tiers"]["correctness"]["tasks"] == len(GRADED)  # latency is not in it
    assert exit_status(outcome)[0] == 1


def test_nav_answer_is_stamped_and_empty_answer_fails(tmp_path):
    plan, _oracle = _run("oracle", tmp_path, tasks_glob="nav-*")
    where = plan.run_dir / "trials" / "nav-count" / "1"
    assert (where / "answer.txt").read_text().startswith("count: 3\n")
    _, nop = _run("nop", tmp_path, tasks_glob="nav-*")
    [result] = nop.results.values()
    assert result.answer == "" and result.verdict == "failed"
    assert result.checks[0].status.value == "NOT_ATTEMPTED"


def test_run_directory_holds_every_trial_file_and_run_json(tmp_path):
    plan, _ = _run("oracle", tmp_path, iterations=2)
    run = json.loads((plan.run_dir / "run.json").read_text())
    assert run["agent"] == "oracle" and run["iterations"] == 2 and run["schema_version"] == 1
    assert set(run["versions"]) == {"benchwright", "python", "git", "platform"}
    for task in run["tasks"]:
        for n in (1, 2):
            files = {p.name for p in (plan.run_dir / "trials" / task / str(n)).iterdir()}
            assert files == {
                "result.json", "agent.log", "trajectory.json", "answer.txt", "phases.json"
            }  # fmt: skip
    assert json.loads((plan.run_dir / "summary.json").read_text())["complete"] is True


def test_phases_json_holds_each_phases_prompt_and_the_diff_of_what_it_changed(tmp_path):
    plan, _ = _run("oracle", tmp_path, tasks_glob="fix-*")
    _, nop = _run("nop", tmp_path, tasks_glob="fix-*")
    for task in plan.task_ids:
        where = plan.run_dir / "trials" / task / "1"
        phases = json.loads((where / "phases.json").read_text())
        changes = json.loads((where / "trajectory.json").read_text())["metadata"]["benchwright"]
        wanted = [(p.name, p.prompt) for p in plan.suite.task(task).agent_phases]
        assert [(p["name"], p["prompt"]) for p in phases] == wanted
        for phase in phases:
            changed = changes["phase_changes"][phase["name"]]
            assert changed, f"{task}: the oracle changed nothing"
            for path in changed:
                assert f"diff --git a/{path} b/{path}" in phase["diff"]
            assert "\n-" in phase["diff"] or "\n+" in phase["diff"]
    for result in nop.results.values():
        assert [p["diff"] for p in result.phase_texts] == [""] * len(result.phase_texts)


def test_a_task_passes_only_if_every_iteration_passes(tmp_path):
    flaky = tmp_path / "flaky.py"
    flaky.write_text(
        "import pathlib\n"
        f"marker = pathlib.Path({str(tmp_path / 'seen')!r})\n"
        "if marker.exists():\n"
        "    pathlib.Path('out.txt').write_text('ok')\n"
        "marker.touch()\n"
    )
    check = {"type": "file_exists", "path": "out.txt"}
    make_suite(
        tmp_path / "s", [{"id": "t", "class": "edit", "workspace": {"a": "a"}, "checks": [check]}]
    )
    # The agent keeps state between trials on the host, which only an unconfined run allows.
    unconfined = IsolationRequest(no_sandbox=True)
    plan = plan_run(tmp_path / "s", f"command:python {flaky}", iterations=2, out=tmp_path / "r",
                    isolation=unconfined)  # fmt: skip
    outcome = execute(plan)
    assert outcome.summary["tasks"]["t"]["iterations"] == ["failed", "passed"]
    assert outcome.summary["tasks"]["t"]["verdict"] == "failed"


def test_every_trial_errored_exits_3_with_the_first_error(tmp_path):
    agent = tmp_path / "vanishing-agent"
    agent.write_text("#!/bin/sh\n")
    agent.chmod(0o755)
    plan = plan_run(MINISUITE, f"command:{agent} {{prompt}}", out=tmp_path / "runs")
    agent.unlink()  # gone after the pre-flight: every trial finds it missing
    code, message = exit_status(execute(plan))
    assert code == 3
    assert "every trial errored (5)" in message
    assert f"agent: cannot start '{agent}': not found" in message


@pytest.mark.parametrize(
    ("program", "why"),
    [("no-such-agent-binary", "not found on PATH"), ("./not-here", "no such file"),
     ("./plain.txt", "not executable")],
)  # fmt: skip
def test_a_missing_agent_program_is_refused_before_any_trial(tmp_path, monkeypatch, program, why):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain.txt").write_text("not a program\n")
    with pytest.raises(SpecError) as caught:
        plan_run(MINISUITE, f"command:{program} {{prompt}}", out=tmp_path / "runs")
    shown = program if "/" not in program else str(tmp_path / program[2:])
    assert f"the agent's program {shown!r} cannot start: {why}; no trial was started" in str(
        caught.value
    )
    assert not (tmp_path / "runs").exists()


def test_the_pre_flight_looks_on_the_path_the_agent_gets(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "my-agent").write_text("#!/bin/sh\n")
    (tmp_path / "bin" / "my-agent").chmod(0o755)
    with pytest.raises(SpecError):
        plan_run(MINISUITE, "command:my-agent", out=tmp_path / "runs")
    plan = plan_run(MINISUITE, "command:my-agent", out=tmp_path / "runs",
                    env={"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"})  # fmt: skip
    assert plan.agent.spec == "command:my-agent"


def test_a_relative_program_path_is_resolved_where_benchwright_started(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    script = tmp_path / "bin" / "agent.sh"
    script.write_text("#!/bin/sh\necho 'count: 3'\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    plan, outcome = _run("command:./bin/agent.sh", tmp_path, tasks_glob="longctx-*")
    assert plan.agent.spec == f"command:{script}"
    assert [r.verdict for r in outcome.results.values()] == ["completed"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"tasks_glob": "zzz*"}, "--tasks"), ({"iterations": 0}, "--iterations"),
     ({"budget_s": 0}, "--budget")],
)  # fmt: skip
def test_bad_run_options_are_refused_before_anything_runs(tmp_path, kwargs, field):
    from benchwright.errors import SpecError

    with pytest.raises(SpecError) as caught:
        plan_run(MINISUITE, "nop", out=tmp_path / "runs", **kwargs)
    assert caught.value.source == field
    assert not (tmp_path / "runs").exists()


@pytest.fixture
def host_port():
    """A real server on the host's loopback, for an agent to try to reach."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    ("suite_network", "flag", "expected"),
    [(None, None, "reached"), ("none", None, "cut off"), ("none", "host", "reached")],
)
def test_the_agent_network_is_the_suites_unless_the_command_line_says(
    tmp_path, host_port, suite_network, flag, expected
):
    from benchwright.sandbox import Network

    probe = tmp_path / "probe.py"
    probe.write_text(
        "import os, socket\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {host_port}), timeout=3).close()\n"
        "    said = 'reached'\n"
        "except OSError:\n"
        "    said = 'cut off'\n"
        "open(os.environ['BENCHWRIGHT_ANSWER_FILE'], 'w').write(said)\n"
    )
    extra = {"agent_network": suite_network} if suite_network else {}
    task = {"id": "t", "class": "edit", "workspace": {"a": "a"},
            "checks": [{"type": "file_exists", "path": "a"}]}  # fmt: skip
    make_suite(tmp_path / "s", [task], **extra)
    isolation = IsolationRequest(agent_network=Network(flag) if flag else None)
    plan = plan_run(tmp_path / "s", f"command:python {probe}", out=tmp_path / "r",
                    isolation=isolation)  # fmt: skip
    assert plan.info["agent_network"] == (flag or suite_network)
    [result] = execute(plan).results.values()
    assert result.answer == expected


def test_a_run_with_one_trial_to_run_runs_it_here_not_in_a_new_pool_worker(tmp_path):
    # A pool worker would import benchwright and load the suite again for the one trial;
    # here it runs in this process, which is also the only place phase events come from.
    from benchwright.execution.executor import LocalPool

    plan = plan_run(MINISUITE, "oracle", tasks_glob="fix-double", out=tmp_path / "runs")
    events: list[str] = []
    outcome = execute(plan, lambda event, _payload: events.append(event), LocalPool(2))
    assert [r.verdict for r in outcome.results.values()] == ["passed"]
    assert "phase" in events
