"""ACE F1-F9: the black-box trading scenarios, driven over HTTP against the running stack.

Each scenario in `_scenarios` runs on its own fresh account through one shared
`Recorder`, so F6, which runs last, grades every exchange the others produced: against
the frozen contract (`_contract.SCHEMAS`: statuses and field kinds per endpoint) and
against the workspace's own OpenAPI document (a call the scenarios made and got an
answer to that the document does not declare is a finding too). F6 wanted alone
drives every scenario to have something to grade; with no exchange at all it FAILs.

Without a base URL every row is SKIPPED (`_stack.no_stack`). A dead server makes
each scenario FAIL with "connection refused at <url>"; a crash of our own code is
INFRA, never a FAIL the app did not earn.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence

from benchwright.checks.ace import _contract
from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._exchange import Exchange, Finding, Recorder
from benchwright.checks.ace._files import Tree
from benchwright.checks.ace._openapi import (
    UnreadableSpec,
    declared,
    declares,
    statuses_for,
)
from benchwright.checks.ace._scenarios import SCENARIOS
from benchwright.checks.ace._stack import no_stack
from benchwright.checks.ace.structure import openapi_document
from benchwright.model import CheckResult, Status

IDS = frozenset({*SCENARIOS, "F6"})
SHOWN_FINDINGS = 3


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """One record per wanted id this family owns; F6 after all the others."""
    mine = [check_id for check_id in sorted(IDS) if check_id in wanted]
    if env.base_url is None:
        return {check_id: no_stack(env, check_id) for check_id in mine}
    driven = [check_id for check_id in sorted(SCENARIOS) if check_id in wanted]
    if "F6" in mine and not driven:
        driven = sorted(SCENARIOS)
    api = Recorder(env.base_url)
    try:
        results = {check_id: _scenario(check_id, api) for check_id in driven}
    finally:
        api.close()
    rows = {check_id: row for check_id, row in results.items() if check_id in mine}
    if "F6" in mine:
        rows["F6"] = conformance(api.exchanges, Tree(env.workspace))
    return rows


def _scenario(check_id: str, api: Recorder) -> CheckResult:
    started, first = time.monotonic(), len(api.exchanges)
    try:
        detail = SCENARIOS[check_id](api)
        status = Status.PASS
    except Finding as finding:
        detail, status = str(finding), Status.FAIL
    except Exception as exc:  # our scenario broke, not the app: never a FAIL it earned
        detail, status = f"scenario crashed: {exc!r}", Status.INFRA
    calls = [exchange.to_dict() for exchange in api.exchanges[first:]]
    score = 1.0 if status is Status.PASS else 0.0
    return CheckResult(check_id, status, score, detail, {"exchanges": calls}).timed(
        time.monotonic() - started
    )


def conformance(exchanges: Sequence[Exchange], tree: Tree) -> CheckResult:
    """F6: every exchange against the frozen contract and the workspace's OpenAPI file."""
    if not exchanges:
        return CheckResult.failing(
            "F6", "no exchanges to grade: every scenario failed before the server answered"
        )
    findings = [
        problem
        for ex in exchanges
        for problem in _contract.problems(ex.method, ex.template, ex.status, ex.body)
    ]
    spec = openapi_document(tree)
    if spec is None:
        findings.append("no OpenAPI document (openapi*/api* with openapi: and paths:)")
    else:
        findings.extend(_undeclared(exchanges, tree, spec))
    unique = list(dict.fromkeys(findings))
    evidence = {"exchanges": len(exchanges), "openapi": spec, "findings": unique}
    if unique:
        shown = "; ".join(unique[:SHOWN_FINDINGS])
        more = f" (+{len(unique) - SHOWN_FINDINGS} more)" if len(unique) > SHOWN_FINDINGS else ""
        return CheckResult.failing("F6", f"{len(unique)} finding(s): {shown}{more}", **evidence)
    return CheckResult.passing(
        "F6", f"all {len(exchanges)} responses match the frozen contract and {spec}", **evidence
    )


def _undeclared(exchanges: Sequence[Exchange], tree: Tree, spec: str) -> list[str]:
    try:
        operations = declared(tree, spec)
    except UnreadableSpec as exc:
        return [str(exc)]
    found = []
    for ex in exchanges:
        keys = statuses_for(operations, ex.method, ex.path)
        if keys is None:
            found.append(f"{ex.method} {ex.template} is not declared in {spec}")
        elif not declares(keys, ex.status):
            found.append(f"{ex.method} {ex.template} -> {ex.status} is not declared in {spec}")
    return found
