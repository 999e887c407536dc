"""F1-F9 against the reference trading service in a real subprocess, a dead URL, no URL."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from benchwright.checks.ace import functional
from benchwright.checks.ace._contract import problems
from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.checks.ace._exchange import Finding, Recorder
from benchwright.model import Status

from ._trading_builders import (
    CONTRACT_SPEC,
    DEAD_URL,
    env_for,
    materialize,
    serving,
    workspace,
)

ALL = sorted(functional.IDS)


@pytest.fixture(scope="module")
def reference_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    scratch = tmp_path_factory.mktemp("reference")
    with serving(materialize(None, scratch), scratch) as base_url:
        yield base_url


def test_every_scenario_passes_the_reference_and_f6_comes_last(reference_url, tmp_path):
    rows = functional.run(env_for(workspace(tmp_path), reference_url), ALL)

    assert {k: r.status for k, r in rows.items()} == dict.fromkeys(ALL, Status.PASS), rows
    assert list(rows)[-1] == "F6"
    assert rows["F6"].detail.endswith("match the frozen contract and openapi.yaml")
    assert "0.005 reads back '0.00' and 0.015 '0.02'" in rows["F7"].detail
    calls = rows["F9"].evidence["exchanges"]
    assert [c["status"] for c in calls if c["path"] == "/orders"] == [201, 200]


def test_f6_alone_still_drives_the_scenarios_it_grades(reference_url, tmp_path):
    rows = functional.run(env_for(workspace(tmp_path), reference_url), {"F6", "S1"})

    assert list(rows) == ["F6"]
    assert rows["F6"].status is Status.PASS
    assert rows["F6"].evidence["exchanges"] > 20


def test_f6_fails_a_call_the_workspace_openapi_does_not_declare(reference_url, tmp_path):
    spec = CONTRACT_SPEC.read_text().replace("  /orders/{orderId}/cancel:", "  /unused:")
    rows = functional.run(env_for(workspace(tmp_path, spec), reference_url), {"F4", "F6"})

    assert rows["F4"].status is Status.PASS
    assert rows["F6"].status is Status.FAIL
    assert "POST /orders/{orderId}/cancel is not declared in openapi.yaml" in rows["F6"].detail


def test_f6_fails_a_status_the_workspace_openapi_does_not_declare(reference_url, tmp_path):
    spec = CONTRACT_SPEC.read_text().replace(
        '"200": {description: idempotent repeat', '"299": {description: idempotent repeat'
    )
    rows = functional.run(env_for(workspace(tmp_path, spec), reference_url), {"F9", "F6"})

    assert rows["F9"].status is Status.PASS
    assert rows["F6"].detail == "1 finding(s): POST /orders -> 200 is not declared in openapi.yaml"


def test_f6_fails_without_an_openapi_document(reference_url, tmp_path):
    (tmp_path / "api.yaml").write_text("title: not an OpenAPI document\n")
    rows = functional.run(env_for(tmp_path, reference_url), {"F5", "F6"})

    assert rows["F5"].status is Status.PASS
    assert rows["F6"].status is Status.FAIL
    assert "no OpenAPI document" in rows["F6"].detail


def test_f6_fails_an_openapi_file_that_does_not_parse(reference_url, tmp_path):
    rows = functional.run(
        env_for(workspace(tmp_path, "openapi: 3.1.0\npaths: [unclosed\n"), reference_url),
        {"F5", "F6"},
    )

    assert rows["F6"].status is Status.FAIL
    assert "openapi.yaml does not parse" in rows["F6"].detail


def test_a_dead_server_fails_every_scenario_with_the_reason(tmp_path):
    rows = functional.run(env_for(workspace(tmp_path), DEAD_URL), ALL)

    for check_id in ALL:
        assert rows[check_id].status is Status.FAIL, check_id
    assert rows["F5"].detail == f"connection refused at {DEAD_URL}/accounts"
    assert rows["F6"].detail.startswith("no exchanges to grade")


@pytest.mark.parametrize(
    ("engine", "reason"),
    [
        (Engine(False, "no Docker or Podman engine reachable"), "no Docker or Podman engine"),
        (Engine(True, "docker engine 27.0"), "the oracle passed no base URL"),
    ],
)
def test_no_base_url_skips_every_wanted_row(tmp_path, engine, reason):
    rows = functional.run(AceEnv(tmp_path, engine), {"F1", "F6", "C2"})

    assert list(rows) == ["F1", "F6"]
    for row in rows.values():
        assert row.status is Status.SKIPPED
        assert row.detail.startswith("no stack: ") and reason in row.detail


def test_contract_table_finds_a_number_for_money_and_a_second_precision_time():
    body = {"accountId": "a", "currency": "USD", "availableBalance": 0.3,
            "createdAt": "2026-01-01T00:00:00Z"}  # fmt: skip

    assert problems("GET", "/accounts/{accountId}", 200, body) == [
        "GET /accounts/{accountId} -> 200: availableBalance is 0.3, not a decimal",
        "GET /accounts/{accountId} -> 200: createdAt is '2026-01-01T00:00:00Z', not a timestamp",
    ]


def test_contract_table_finds_an_unlisted_status_and_a_missing_field():
    assert problems("POST", "/orders/{orderId}/cancel", 204, {}) == [
        "POST /orders/{orderId}/cancel answered 204; the contract lists 200, 404, 409"
    ]
    assert problems("POST", "/orders", 422, {"message": "no"}) == [
        "POST /orders -> 422: error missing"
    ]
    holdings = {"accountId": "a", "asOfApplied": "2026-01-01T00:00:00.000Z",
                "holdings": {"AAPL": 5}}  # fmt: skip
    assert problems("GET", "/accounts/{accountId}/holdings", 200, holdings) == [
        "GET /accounts/{accountId}/holdings -> 200: holdings is {'AAPL': 5}, not a map"
    ]


def test_contract_table_passes_the_right_shapes():
    order = {"orderId": "o", "accountId": "a", "symbol": "AAPL", "side": "BUY",
             "quantity": "5", "limitPrice": "10.00", "status": "FILLED",
             "executedAt": "2026-01-01T00:00:00.123Z"}  # fmt: skip
    assert problems("POST", "/orders", 200, order) == []
    assert problems("GET", "/health", 200, {"status": "UP"}) == []


def test_a_server_that_never_answers_is_a_bounded_finding():
    with socket.socket() as silent:  # listens (the kernel completes connects), never replies
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        api = Recorder(f"http://127.0.0.1:{silent.getsockname()[1]}", timeout_s=0.3)
        with pytest.raises(
            Finding, match=r"^no answer within 0.3 s at http://127.0.0.1:\d+/health$"
        ):
            api.call("GET", "/health")
        api.close()

    assert api.exchanges == []
