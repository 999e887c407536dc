"""The build vendor's trace: recorded by the harness while the agent builds, handed to the
checks, sealed with the trial's evidence; an agent cannot forge it.

A real trial each: a ``command:`` agent in its sandbox, the Meridian v1 mock served at its
prompt's address, and a check that reports what it was given as the build trace.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.agents import build_agent
from benchwright.checks import CheckContext, CheckParams, CheckRegistry, check
from benchwright.dsl import load_suite
from benchwright.execution import TrialOptions, evidence, integrity, run_trial, store, verification
from benchwright.model import CheckResult
from benchwright.sandbox import unavailable_reason

from .minisuites import make_suite

AGENT = Path(__file__).resolve().parents[1] / "services" / "docs_agent.py"
DOCS_PATHS = ("/v1/docs", "/docs")

pytestmark = pytest.mark.skipif(bool(unavailable_reason()), reason="needs bubblewrap")


@check("reads_build_trace", params=CheckParams)
def reads_build_trace(p: CheckParams, ctx: CheckContext) -> CheckResult:
    """Passes with what it was given: where the build trace is, and its docs reads."""
    trace = ctx.build_trace
    if trace is None:
        return ctx.passed("no build trace", path=None)
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    reads = [line for line in lines if line.get("path") in DOCS_PATHS]
    return ctx.passed(f"{len(reads)} docs read(s)", path=str(trace), docs_reads=len(reads),
                      in_workspace=trace.is_relative_to(ctx.directory()),
                      statuses=[line["status"] for line in reads])  # fmt: skip


def _trial(tmp: Path, *flags: str, vendor: str | None = "meridian-v1") -> tuple:
    registry = CheckRegistry()
    registry.register(reads_build_trace)
    task = {"id": "build", "class": "c", "workspace": "empty",
            "prompt": "Read {DOCS_URL} first, then build.",
            "checks": [{"type": "reads_build_trace", "id": "trace"}]}  # fmt: skip
    if vendor:
        task["vendor"] = vendor
    suite = load_suite(make_suite(tmp / "suite", [task]), registry)
    agent = build_agent(f"command:python {AGENT} {{workspace}} {{prompt_file}} {' '.join(flags)}",
                        suite.tasks)  # fmt: skip
    result = run_trial(suite.task("build"), "c", agent, 1, TrialOptions(registry=registry))
    assert result.error is None, (result.error, result.log[-2000:])
    (checked,) = result.checks
    return result, checked.evidence


def test_an_agent_that_read_the_docs_is_seen_doing_it_in_the_sealed_build_trace(tmp_path):
    result, seen = _trial(tmp_path, "--read-docs")
    assert json.loads(result.answer)["docs"]["status"] == 200
    assert (seen["docs_reads"], seen["statuses"], seen["in_workspace"]) == (1, [200], False)
    assert seen["path"].endswith(evidence.BUILD_TRACE)
    recorded = result.artifacts[evidence.BUILD_TRACE].decode().splitlines()
    assert [json.loads(line)["path"] for line in recorded] == ["/v1/docs"]
    run_dir, key = tmp_path / "run", integrity.new_key()
    store.write_trial(run_dir, result, key)
    found = verification.read_trial(run_dir, "build", 1, key)
    assert found.seal.state == verification.VERIFIED
    assert evidence.BUILD_TRACE in found.result.evidence_files  # sealed with the evidence


def test_a_forged_trace_earns_nothing_and_cannot_reach_where_the_harness_keeps_it(tmp_path):
    result, seen = _trial(tmp_path, "--forge")
    forged = json.loads(result.answer)["forged"]
    assert forged["evidence/~build/vendor-trace.jsonl"] == "written"  # in its workspace
    assert forged["../evidence/~build/vendor-trace.jsonl"] != "written"  # the real place
    assert (seen["docs_reads"], seen["in_workspace"]) == (0, False)
    assert result.artifacts[evidence.BUILD_TRACE] == b""  # the agent sent the vendor nothing


def test_a_task_without_a_vendor_has_no_build_trace(tmp_path):
    result, seen = _trial(tmp_path, vendor=None)
    assert seen["path"] is None and evidence.BUILD_TRACE not in result.artifacts
