"""A fleet through ``run``: four trials over two endpoints split their calls between them.

Two scripted servers, one turnbench task run four times on two workers, with
``--model-base-url`` given twice: both servers answer calls, every trial passes, the
trials' tokens are the two servers' ``usage`` added up, and the run counts two nodes.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agents.model.scripted import ScriptedModel
from agents.model.test_model_agent_run import BENCHWRIGHT, KEY_ENV, SCRIPTS, TURNBENCH, by_prompt
from benchwright.sandbox import unavailable_reason

pytestmark = pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")
NAV = {"How many test functions": SCRIPTS["How many test functions"]}


def test_four_trials_over_two_endpoints_split_their_calls(tmp_path: Path) -> None:
    key = "sk-fleet-test"
    with ScriptedModel(by_prompt(NAV), key=key) as a, ScriptedModel(by_prompt(NAV), key=key) as b:
        done = subprocess.run(
            [str(BENCHWRIGHT), "run", str(TURNBENCH), "--tasks", "nav-01", "--iterations", "4",
             "--workers", "2", "--agent", "model:openai/scripted",
             "--model-base-url", a.openai_url, "--model-base-url", b.openai_url,
             "--model-api-key-env", KEY_ENV, "--out", str(tmp_path / "runs")],
            env={**os.environ, KEY_ENV: key}, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert a.requests and b.requests, (len(a.requests), len(b.requests))
    calls = len(a.requests) + len(b.requests)
    assert calls == 4 * len(NAV["How many test functions"])
    (run_dir,) = (tmp_path / "runs").iterdir()
    blocks = [json.loads((run_dir / f"trials/nav-01/{n}/result.json").read_text())["run"]
              for n in range(1, 5)]  # fmt: skip
    assert sum(block["model_calls"] for block in blocks) == calls
    assert sum(block["input_tokens"] for block in blocks) == a.input_tokens + b.input_tokens
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["usage"]["nodes"] == 2
    assert summary["tasks"]["nav-01"]["iterations"] == ["passed"] * 4
