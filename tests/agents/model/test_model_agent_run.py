"""Acceptance: ``run suites/turnbench --agent model:openai/scripted`` against the scripted server.

One real run (three turnbench tasks, two worker processes, real sandboxes) is shared by
every test of the module: it solves what the script solves through tool calls, its
trajectories replay to the same verdicts, its tokens are the server's ``usage``, a
malformed call is answered and the loop goes on, and the key is in no file it wrote and
not in the sandbox's environment. A second, smaller run does the same in text mode.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agents.model.scripted import MODEL_ID, ScriptedModel

REPO = Path(__file__).parents[3]
TURNBENCH = REPO / "suites" / "turnbench"
BENCHWRIGHT = Path(os.environ.get("VIRTUAL_ENV", REPO / ".venv")) / "bin" / "benchwright"
TASKS = "[efn]*-01"
ALL = ("edit-01", "fix-01", "nav-01")
"""What ``TASKS`` selects."""
KEY_ENV = "BW_SCRIPTED_KEY"

_edit = json.loads((TURNBENCH / "solutions" / "edit-01.json").read_text())["steps"][0]["args"]
FIX = """python - <<'EOF'
from pathlib import Path
path = Path("ledger/money.py")
text = path.read_text()
old = '''    units, rest = divmod(cents, 100)
    return f"{units}.{rest:02d}"'''
new = '''    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}{units}.{rest:02d}"'''
path.write_text(text.replace(old, new))
EOF"""
ENV_DUMP = "env; echo ===; cat /proc/self/environ | tr '\\0' '\\n'"
SCRIPTS: dict[str, list[dict[str, Any]]] = {
    "Store.search": [
        {"tool": "editor", "raw_arguments": '{"command": "view", "path": '},  # malformed
        {"tool": "editor", "args": {"command": "str_replace", "path": _edit["file_path"],
                                    "old_str": _edit["old_string"],
                                    "new_str": _edit["new_string"]}},
        {"tool": "shell", "args": {"command": "python -m pytest -q tests/test_store.py"}},
        {"tool": "submit", "args": {"answer": "Store.search added"}},
    ],
    "test_format_negative_cents": [
        {"tool": "shell", "args": {"command": FIX}},
        {"tool": "submit", "args": {"answer": "fixed the sign of negative amounts"}},
    ],
    "How many test functions": [
        {"tool": "shell", "args": {"command": ENV_DUMP}},
        {"tool": "shell", "args": {"command": "grep -c '^def test_' tests/test_store.py"}},
        {"tool": "submit", "args": {"answer": "count: 6\ntest_duplicate_sku_rejected"}},
    ],
}  # fmt: skip
TEXT_SCRIPT = [
    {"text": "I will edit the store.\n```editor\n" + json.dumps({
        "command": "str_replace", "path": _edit["file_path"], "old_str": _edit["old_string"],
        "new_str": _edit["new_string"]}) + "\n```"},
    {"text": "```bash\npython -m pytest -q tests/test_store.py\n```"},
    {"text": "Done.\n```submit\nStore.search added\n```"},
]  # fmt: skip


def by_prompt(scripts: dict[str, list[dict[str, Any]]]) -> list[Callable[..., dict[str, Any]]]:
    """A script whose turns follow the task: the prompt (first user message) picks the list."""

    def turn(n: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
        def play(body: dict[str, Any]) -> dict[str, Any]:
            prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
            script = next(s for marker, s in scripts.items() if marker in prompt)
            return script[n] if n < len(script) else {"text": "done"}

        return play

    return [turn(n) for n in range(max(len(s) for s in scripts.values()))]


@dataclass
class Run:
    server: ScriptedModel
    run_dir: Path
    proc: subprocess.CompletedProcess[str]
    key: str

    def trial(self, task: str, name: str) -> Any:
        return json.loads((self.run_dir / "trials" / task / "1" / name).read_text())


def _run(tmp: Path, script: list[Any], *flags: str) -> Iterator[Run]:
    key = "sk-scripted-" + secrets.token_hex(16)
    with ScriptedModel(script, key=key) as server:
        env = {**os.environ, KEY_ENV: key, "NO_COLOR": "1", "COLUMNS": "200"}
        proc = subprocess.run(
            [str(BENCHWRIGHT), "run", str(TURNBENCH), "--agent", "model:openai/scripted",
             "--model-base-url", server.openai_url, "--model-api-key-env", KEY_ENV,
             "--env", KEY_ENV, "--out", str(tmp / "runs"), *flags],
            env=env, capture_output=True, text=True, timeout=600, cwd=tmp,
        )  # fmt: skip
        runs = list((tmp / "runs").iterdir())
        assert len(runs) == 1, proc.stdout + proc.stderr
        yield Run(server, runs[0], proc, key)


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    yield from _run(tmp_path_factory.mktemp("native"), by_prompt(SCRIPTS), "--tasks", TASKS,
                    "--workers", "2", "--model-tools", "native")  # fmt: skip


@pytest.fixture(scope="module")
def text(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    yield from _run(tmp_path_factory.mktemp("text"), TEXT_SCRIPT, "--tasks", "edit-01",
                    "--workers", "1", "--model-tools", "text")  # fmt: skip


def test_the_scripted_model_solves_its_three_tasks_through_tool_calls(native: Run) -> None:
    assert native.proc.returncode == 0, native.proc.stdout + native.proc.stderr
    for task in ALL:
        result = native.trial(task, "result.json")
        assert result["verdict"] == "passed", (task, result.get("error"), result["checks"])
    assert "count: 6" in (native.run_dir / "trials" / "nav-01" / "1" / "answer.txt").read_text()


def test_the_tokens_in_the_metadata_are_the_servers_usage(native: Run) -> None:
    metas = [native.trial(t, "trajectory.json")["metadata"] for t in ALL]
    assert sum(m["usage"]["input_tokens"] for m in metas) == native.server.input_tokens
    assert sum(m["usage"]["output_tokens"] for m in metas) == native.server.output_tokens
    assert sum(m["model_calls"] for m in metas) == len(native.server.requests)
    assert {m["model"] for m in metas} == {MODEL_ID}
    assert all(m["endpoints"] == [native.server.openai_url] for m in metas)
    assert [m["tool_steps"] for m in metas] == [3, 2, 3]  # the malformed call is not a step
    assert all(m["usage"]["cost_usd"] is None for m in metas)  # no price known


def test_every_model_call_is_a_step_with_its_tokens_and_latency(native: Run) -> None:
    steps = native.trial("fix-01", "trajectory.json")["steps"]
    calls = [s for s in steps if s["type"] == "model_call"]
    assert len(calls) == 2
    assert all(s["input_tokens"] > 0 and s["latency_s"] >= 0 for s in calls)
    written = [s for s in steps if s.get("tool") == "write_file"]
    assert [s["args"]["path"] for s in written] == ["ledger/money.py"]  # found by the diff
    assert written[0]["by"] == "shell" and "abs(cents)" in written[0]["args"]["content"]


def test_a_malformed_call_is_answered_as_an_error_and_the_loop_goes_on(native: Run) -> None:
    steps = native.trial("edit-01", "trajectory.json")["steps"]
    errors = [s for s in steps if s["type"] == "tool_error"]
    assert len(errors) == 1 and "not JSON" in errors[0]["error"]
    told = "error: the arguments"
    answered = [m for r in native.server.requests for m in r["body"]["messages"]
                if m["role"] == "tool" and m["content"].startswith(told)]  # fmt: skip
    assert answered, "the model was not told its call was malformed"
    assert native.trial("edit-01", "result.json")["verdict"] == "passed"


def test_the_trajectories_replay_to_the_same_verdicts(native: Run, tmp_path: Path) -> None:
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    for task in ALL:
        shutil.copy(native.run_dir / "trials" / task / "1" / "trajectory.json",
                    recordings / f"{task}.json")  # fmt: skip
    proc = subprocess.run(
        [str(BENCHWRIGHT), "run", str(TURNBENCH), "--tasks", TASKS, "--agent",
         f"replay:{recordings}", "--out", str(tmp_path / "runs"), "--workers", "1"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    replayed = next((tmp_path / "runs").iterdir())
    for task in ALL:
        result = json.loads((replayed / "trials" / task / "1" / "result.json").read_text())
        original = native.trial(task, "result.json")
        assert (result["verdict"], result["replay_errors"]) == (original["verdict"], [])


def test_the_key_is_in_no_file_of_the_run_and_not_in_the_sandbox(native: Run) -> None:
    headers = [{k.lower(): v for k, v in r["headers"].items()} for r in native.server.requests]
    assert all(h["authorization"] == f"Bearer {native.key}" for h in headers)
    leaked = [p for p in native.run_dir.rglob("*") if p.is_file()
              and native.key.encode() in p.read_bytes()]  # fmt: skip
    assert leaked == []
    run_json = json.loads((native.run_dir / "run.json").read_text())
    assert run_json["model"]["api_key_env"] == KEY_ENV and "live_dir" not in run_json["model"]
    dumps = [m["content"] for r in native.server.requests for m in r["body"]["messages"]
             if m["role"] == "tool" and "BENCHWRIGHT_TASK_ID=nav-01" in m["content"]]  # fmt: skip
    assert dumps, "the environment dump never came back"
    assert "===" in dumps[0] and dumps[0].count("BENCHWRIGHT_TASK_ID=") == 2  # env and /proc
    assert native.key not in dumps[0] and KEY_ENV not in dumps[0]


def test_watch_follows_the_live_trajectories(native: Run) -> None:
    live = native.run_dir / "live"
    files = sorted(p.relative_to(live).parts[0] for p in live.rglob("*.jsonl"))
    assert files == ["edit-01", "fix-01", "nav-01"]
    proc = subprocess.run([str(BENCHWRIGHT), "watch", "--once", str(live)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "3 session(s)" in proc.stdout and "warning" not in proc.stderr
    steps = sum(len(native.trial(t, "trajectory.json")["steps"])
                for t in ALL)  # fmt: skip
    assert f"{steps} step(s)" in proc.stdout


def test_text_mode_solves_the_task_from_fenced_blocks(text: Run) -> None:
    assert text.proc.returncode == 0, text.proc.stdout + text.proc.stderr
    assert text.trial("edit-01", "result.json")["verdict"] == "passed"
    bodies = [r["body"] for r in text.server.requests]
    assert all("tools" not in body for body in bodies)
    assert "```shell" in bodies[0]["messages"][0]["content"]  # the format is explained
    assert "[shell result]\nexit code: 0" in bodies[2]["messages"][-1]["content"]
    metadata = text.trial("edit-01", "trajectory.json")["metadata"]
    assert metadata["usage"]["input_tokens"] == text.server.input_tokens
