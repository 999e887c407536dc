"""``command:`` agents: placeholders, a scrubbed environment, answers, budgets and orphans."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from builders import make_task
from processes import survivors

from benchwright.agents import AgentRequest, CommandAgent, build_agent, parse_env_options
from benchwright.errors import SpecError
from benchwright.model import Phase

PROMPT = """Fix "it" — don't expand $HOME or `date`; it's 'quoted'."""


def _request(tmp_path: Path, budget: float = 20, **env: str) -> AgentRequest:
    workspace, scratch = tmp_path / "ws", tmp_path / "scratch"
    workspace.mkdir()
    scratch.mkdir()
    task = make_task([{"type": "file_exists", "path": "README.md"}], id="t1")
    return AgentRequest(task, Phase("main", PROMPT), True, workspace, budget,
                        scratch / "answer.txt", scratch, env)  # fmt: skip


def _dump_args(tmp_path: Path) -> str:
    script = tmp_path / "dump.py"
    script.write_text(
        "import json, os, sys\n"
        "json.dump({'argv': sys.argv[1:], 'cwd': os.getcwd(), 'env': dict(os.environ)},"
        " open(os.environ['BENCHWRIGHT_ANSWER_FILE'], 'w'))\n"
    )
    return f"{sys.executable} {script}"


def test_placeholders_reach_the_agent_verbatim_and_it_runs_in_the_workspace(tmp_path):
    request = _request(tmp_path)
    agent = CommandAgent("c", _dump_args(tmp_path) + " {prompt} --file={prompt_file} {workspace}")
    outcome = agent.run(request)
    seen = json.loads(outcome.answer)
    assert seen["argv"][0] == PROMPT
    assert Path(seen["argv"][1].removeprefix("--file=")).read_text() == PROMPT
    assert seen["argv"][2] == seen["cwd"] == str(request.workspace)


def test_the_environment_is_an_allow_list_plus_what_the_user_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_SECRET", "s3cret")
    monkeypatch.setenv("PASSED_ON", "yes")
    request = _request(tmp_path, **parse_env_options(["PASSED_ON", "EXTRA=1"]))
    env = json.loads(CommandAgent("c", _dump_args(tmp_path)).run(request).answer)["env"]
    assert "GRADER_SECRET" not in env
    assert env["PASSED_ON"] == "yes" and env["EXTRA"] == "1"
    assert env["BENCHWRIGHT_TASK_ID"] == "t1" and env["BENCHWRIGHT_PHASE"] == "main"
    assert env["PATH"] == os.environ["PATH"]


def test_the_answer_is_the_answer_file_else_the_whole_stdout(tmp_path):
    outcome = CommandAgent("c", "sh -c 'echo count: 3; echo done'").run(_request(tmp_path))
    assert outcome.answer == "count: 3\ndone\n"
    assert outcome.exit_code == 0 and outcome.error is None


def test_an_agent_past_its_budget_is_killed_with_every_process_it_started(tmp_path):
    marker = f"{os.getpid()}.{time.monotonic_ns() % 10**6}"
    template = f"sh -c 'sleep 6{marker} & setsid sleep 7{marker} & sleep 60'"
    started = time.monotonic()
    outcome = CommandAgent("sleepy", template).run(_request(tmp_path, budget=0.5))
    assert time.monotonic() - started < 5
    assert outcome.timed_out and outcome.exit_code is None
    assert outcome.error == "budget: phase main exceeded its 0.5s budget (process group killed)"
    assert survivors(marker) == [], "a process the agent started outlived its budget"


def test_daemons_left_after_a_clean_exit_end_with_the_phase(tmp_path):
    marker = f"{os.getpid()}.{time.monotonic_ns() % 10**6}"
    template = f"sh -c 'sleep 6{marker} & setsid sleep 7{marker} & nohup sleep 8{marker} &'"
    outcome = CommandAgent("d", template).run(_request(tmp_path))
    assert outcome.exit_code == 0
    assert survivors(marker) == [], "a daemon the agent started survived the phase"


@pytest.mark.parametrize(
    ("spec", "message"),
    [("command:", "command template: the command template is empty"),
     ("command:'unbalanced", "command template: No closing quotation"),
     ("gpt", "unknown agent 'gpt'; known: nop, oracle, replay:FILE|DIR, command:TEMPLATE")],
)  # fmt: skip
def test_bad_agent_specs_are_invalid_input(spec, message):
    with pytest.raises(SpecError) as caught:
        build_agent(spec, [])
    assert caught.value.source == "--agent"
    assert message in str(caught.value)


def test_the_agent_sees_the_files_its_command_names_and_nothing_else_outside(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("grader-only")
    probe = (
        f"import pathlib, sys\n"
        f"print(pathlib.Path({str(secret)!r}).exists(), pathlib.Path(sys.argv[0]).exists())\n"
    )
    script = tmp_path / "probe.py"
    script.write_text(probe)
    outcome = CommandAgent("c", f"{sys.executable} {script}").run(_request(tmp_path))
    assert outcome.stdout == "False True\n", outcome.stderr
