"""The build vendor during a trial: reachable at the rendered address from the agent's own
network namespace, and nothing else of the host is; parallel trials never collide."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
import yaml
from vendor_barrier import Barrier

from benchwright.errors import SpecError
from benchwright.execution import execute, plan_run
from benchwright.execution.executor import LocalPool
from benchwright.execution.isolation import IsolationRequest
from benchwright.model import Task
from benchwright.sandbox import CONFINED, UNCONFINED, Network, unavailable_reason
from benchwright.services._egress import EGRESS_PORT
from benchwright.services.build_vendor import require_one_at_a_time

SCRIPT = Path(__file__).with_name("vendor_agent.py").resolve()
SPEC = 'Build against {BASE_URL} (docs: {DOCS_URL}, key {API_KEY}). JSON: {"a": {"b": 1}}\n'

pytestmark = pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")


def vendor_suite(root: Path, vendor: str = "meridian") -> Path:
    """A suite of one build task against ``vendor`` whose check reads the agent's answer."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "spec.md").write_text(SPEC)
    (root / "suite.yaml").write_text(yaml.safe_dump({
        "suite": "vendorbuild", "classes": {"app-build": "x"}, "default_class": "app-build",
        "tasks": ["build.yaml"],
    }))  # fmt: skip
    (root / "build.yaml").write_text(yaml.safe_dump({
        "id": "build", "prompt_file": "spec.md", "workspace": "empty", "vendor": vendor,
        "checks": [{"type": "answer_matches", "all_of": [r'.*"status": 200.*'],
                    "anchored": False}],
    }))  # fmt: skip
    return root


@pytest.fixture(scope="module")
def host_server():
    """Something else listening on the host's loopback, which the agent must not reach."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    yield sock.getsockname()[1]
    sock.close()


@pytest.fixture(scope="module")
def parallel_run(tmp_path_factory, host_server):
    """Two trials on two workers, each agent waiting at a barrier the other must reach too:
    both hold the vendor's rendered port in their own namespace at the same moment."""
    base = tmp_path_factory.mktemp("vendor")
    suite = vendor_suite(base / "suite")
    with Barrier(base / "barrier", 2) as barrier:
        agent = (f"command:python {SCRIPT} {{workspace}} {{prompt_file}} --probe {host_server} "
                 f"--probe {EGRESS_PORT} --barrier {barrier.path}")  # fmt: skip
        plan = plan_run(suite, agent, iterations=2, out=base / "runs",
                        isolation=IsolationRequest(readable=(barrier.directory,)))  # fmt: skip
        outcome = execute(plan, executor=LocalPool(2))
        met = barrier.met.is_set()
    return outcome, met


def _seen(outcome, n: int) -> dict:
    result = outcome.results[("build", n)]
    assert result.verdict == "passed", (result.error, result.log[-2000:])
    return json.loads(result.answer)


def test_the_prompt_is_rendered_literally_from_the_vendors_profile(tmp_path):
    from benchwright.dsl import load_suite

    prompt = load_suite(vendor_suite(tmp_path)).task("build").prompt
    assert prompt == ('Build against http://127.0.0.1:9003 (docs: http://127.0.0.1:9003/v2/docs, '
                      'key sk_test_meridian). JSON: {"a": {"b": 1}}\n')  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
def test_each_parallel_trial_reaches_its_vendor_at_the_rendered_address(parallel_run, n):
    outcome, met = parallel_run
    seen = _seen(outcome, n)
    assert met, "the two agents never waited at the barrier together"
    assert seen["base"] == "http://127.0.0.1:9003"
    assert seen["docs"]["status"] == 200 and "Meridian" in seen["docs"]["body"]
    assert seen["payments"]["status"] == 200 and '"data"' in seen["payments"]["body"]
    assert seen["barrier"] == "go" and seen["docs_again"] == 200


@pytest.mark.slow
def test_nothing_else_on_the_host_and_no_control_plane_is_reachable(parallel_run, host_server):
    seen = _seen(parallel_run[0], 1)
    refused = "ConnectionRefusedError"  # no egress proxy either: a command: agent names none
    assert seen["probes"] == {str(host_server): refused, str(EGRESS_PORT): refused}
    assert seen["admin"]["status"] == 404  # the mock's controls are never served to a build


def test_a_host_served_vendor_refuses_parallel_trials():
    task = Task("build", "build", "", "p", {}, (), vendor="meridian", empty_workspace=True)
    with pytest.raises(SpecError, match="--agent-network host: cannot run 2 trials at once"):
        require_one_at_a_time([task], CONFINED, Network.HOST, 2)
    with pytest.raises(SpecError, match="--no-sandbox: cannot run 2 trials"):
        require_one_at_a_time([task], UNCONFINED, None, 2)
    require_one_at_a_time([task], CONFINED, None, 2)  # bridged: any number
    require_one_at_a_time([task], CONFINED, Network.HOST, 1)


def test_the_relay_script_refuses_a_command_line_without_its_separator():
    import subprocess

    from benchwright.services._confine import RELAY_SCRIPT

    done = subprocess.run([sys.executable, str(RELAY_SCRIPT), "/tmp", "9003", "-", "true"],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode != 0 and "usage" in done.stderr


def test_with_the_hosts_network_the_vendor_is_served_on_the_hosts_loopback(tmp_path, monkeypatch):
    """The documented fallback (``--agent-network loopback|host``): one trial, the mock on
    the host at the rendered port (a free one here, so a parallel test run cannot collide)."""
    import dataclasses

    from benchwright.agents import build_agent
    from benchwright.dsl import load_suite
    from benchwright.execution import TrialOptions, run_trial
    from benchwright.services import vendors
    from benchwright.services.ports import lease_port

    with lease_port() as lease:  # released before the trial binds it, held by no grading
        port = lease.port
    profile = dataclasses.replace(vendors.MERIDIAN, base_url=f"http://127.0.0.1:{port}")
    monkeypatch.setitem(vendors.PROFILES, "meridian", profile)
    suite = load_suite(vendor_suite(tmp_path))
    task = suite.task("build")
    agent = build_agent(f"command:python {SCRIPT} {{workspace}} {{prompt_file}}", [task])
    result = run_trial(task, suite.tiers["build"], agent, 1,
                       TrialOptions(agent_network=Network.LOOPBACK))  # fmt: skip
    assert result.verdict == "passed", (result.error, result.log[-2000:])
    seen = json.loads(result.answer)
    assert seen["base"] == f"http://127.0.0.1:{port}" and seen["docs"]["status"] == 200
    with pytest.raises(OSError):  # stopped after the last phase
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_v1_profile_is_served_at_its_rendered_address_in_the_agents_namespace(tmp_path):
    """``vendor: meridian-v1`` is relayed exactly as v2 is: the agent reaches the v1 mock at
    ``127.0.0.1:8787``, the address its prompt names."""
    from benchwright.agents import build_agent
    from benchwright.dsl import load_suite
    from benchwright.execution import TrialOptions, run_trial

    suite = load_suite(vendor_suite(tmp_path, "meridian-v1"))
    task = suite.task("build")
    agent = build_agent(f"command:python {SCRIPT} {{workspace}} {{prompt_file}}", [task])
    result = run_trial(task, suite.tiers["build"], agent, 1, TrialOptions())
    assert result.verdict == "passed", (result.error, result.log[-2000:])
    seen = json.loads(result.answer)
    assert seen["base"] == "http://127.0.0.1:8787"
    assert seen["docs"]["body"].startswith("# Meridian API v1")
    first = '{"id": "pay_0000", "amount_minor": 1000, "currency": "EUR", "created_at"'
    assert seen["payments"]["body"].startswith('{"data": [' + first)  # the v1 fixture
    assert seen["admin"]["status"] == 404
