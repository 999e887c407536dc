"""``run suites/vspro --agent model:openai/…``: the built-in model agent builds the golden
through tool calls against the scripted model server (the one stand-in: no model runs
here), reaching the build vendor from its tool commands; the trial is graded at the
golden's score with its metadata measured, and ``publish`` of the trial is accepted by a
real local board whose run page shows model, wall, events, tokens and nodes.

One run (one trial, one full grading) serves every assertion here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from agents.model.scripted import MODEL_ID, ScriptedModel
from host_lease import host_to_itself

from benchwright.board.app import create_app
from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore
from benchwright.execution import integrity, verification
from benchwright.sandbox import unavailable_reason
from benchwright.services._server import BackgroundServer

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "suites" / "vspro" / "reference" / "vspro"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
KEY_ENV = "BW_VSPRO_SCRIPTED_KEY"
VENDOR_PROBE = """python - <<'EOF'
import json, urllib.request
base = "http://127.0.0.1:9003"
docs = urllib.request.urlopen(base + "/v2/docs", timeout=10)
ask = urllib.request.Request(base + "/v2/payments?limit=1",
                             headers={"Authorization": "Bearer sk_test_meridian"})
listed = json.load(urllib.request.urlopen(ask, timeout=10))
print("docs", docs.status, "payments", len(listed["data"]))
EOF"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap"),
]


def _script() -> list[dict[str, Any]]:
    """Probe the vendor, write every file of the golden with the editor, check it imports,
    submit."""
    writes = [
        {"tool": "editor", "args": {"command": "create",
                                    "path": f"vspro/{path.relative_to(GOLDEN).as_posix()}",
                                    "file_text": path.read_text()}}
        for path in sorted(GOLDEN.rglob("*")) if path.is_file() and "__pycache__" not in path.parts
    ]  # fmt: skip
    return [
        {"tool": "shell", "args": {"command": VENDOR_PROBE}},
        *writes,
        {"tool": "shell", "args": {"command": "python -c 'import vspro.api' && echo imports"}},
        {"tool": "submit", "args": {"answer": "vspro built"}},
    ]


@pytest.fixture(scope="module")
def run(tmp_path_factory, request) -> Iterator[dict[str, Any]]:
    """The model agent's run of vspro against the scripted endpoint; the run itself with
    the host to itself (its trial is held at the golden's score)."""
    base = tmp_path_factory.mktemp("vspro-model")
    state = base / "state"
    with ScriptedModel(_script()) as server:
        env = {**os.environ, integrity.STATE_ENV: str(state), KEY_ENV: server.key,
               "XDG_CONFIG_HOME": str(base / "config")}  # fmt: skip
        with host_to_itself(request.config):
            done = subprocess.run(
                [str(BENCHWRIGHT), "run", str(ROOT / "suites" / "vspro"),
                 "--agent", "model:openai/scripted", "--model-base-url", server.openai_url,
                 "--model-api-key-env", KEY_ENV, "--model-tools", "native",
                 "--out", str(base / "runs")],
                env=env, capture_output=True, text=True, timeout=1200,
            )  # fmt: skip
        (run_dir,) = (base / "runs").iterdir()
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(integrity.STATE_ENV, str(state))
            seals = verification.verify_run(run_dir)
        yield {"dir": run_dir, "done": done, "seals": seals, "env": env, "base": base,
               "server": server}  # fmt: skip


def _trial(run: dict[str, Any]) -> Path:
    return run["dir"] / "trials" / "build" / "1"


def test_the_model_agent_builds_the_golden_and_it_grades_at_the_golden_score(run) -> None:
    done = run["done"]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert run["seals"].state == verification.VERIFIED, run["seals"].headline()
    result = json.loads((_trial(run) / "result.json").read_text())
    (check,) = result["checks"]
    assert (result["verdict"], check["status"], check["score"]) == ("passed", "PASS", 1.0)
    card = json.loads((_trial(run) / "evidence" / "vspro" / "scorecard.json").read_text())
    assert card["score"] == 1.0


def test_its_tool_commands_reached_the_build_vendor(run) -> None:
    """What the model was told its shell commands printed (the tool results it got back)."""
    last = run["server"].requests[-1]["body"]["messages"]
    told = [m["content"] for m in last if m.get("role") == "tool"]
    assert "docs 200 payments 1" in told[0], told[0]
    assert "imports" in told[-1]
    steps = json.loads((_trial(run) / "trajectory.json").read_text())["steps"]
    assert [s.get("exit_code") for s in steps if s.get("tool") == "shell"] == [0, 0]


def test_its_metadata_is_what_the_run_measured(run) -> None:
    block = json.loads((_trial(run) / "result.json").read_text())["run"]
    server = run["server"]
    assert block["model"] == MODEL_ID
    assert (block["input_tokens"], block["output_tokens"]) == (
        server.input_tokens, server.output_tokens)  # fmt: skip
    assert block["model_calls"] == len(_script())
    assert block["engine_events"] == block["model_calls"] + block["tool_steps"] > 0
    assert block["wall_s"] > 0 and block["started_at"] < block["finished_at"]
    assert block["nodes"] == 0  # one endpoint: a single agent in the board's sense


def test_publish_of_the_trial_is_accepted_and_its_page_shows_the_run(run, tmp_path) -> None:
    store = BoardStore(f"sqlite:///{tmp_path / 'board.sqlite'}")
    upgrade(store.engine)
    try:
        with BackgroundServer(create_app(store)) as board:
            done = subprocess.run(
                [str(BENCHWRIGHT), "publish", str(_trial(run)), "--to", board.base_url],
                env=run["env"], capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            page = httpx.get(done.stdout.strip()).text
    finally:
        store.engine.dispose()
    block = json.loads((_trial(run) / "result.json").read_text())["run"]
    for shown in (MODEL_ID, "<dt>nodes</dt><dd><bdi>0 (single agent)</bdi>",
                  f"<dt>engine events</dt><dd><bdi>{block['engine_events']}</bdi>",
                  f"{block['input_tokens']:,} in / {block['output_tokens']:,} out",
                  "<dt>wall time</dt>"):  # fmt: skip
        assert shown in page, shown
