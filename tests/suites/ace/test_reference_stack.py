"""The ACE reference trading service: F1-F9 pass on it, and each seeded variant fails
exactly the scenarios its file lists (its own among them), by detection."""

from __future__ import annotations

import httpx
import pytest
from checks.ace._trading_builders import (
    Variant,
    env_for,
    materialize,
    serving,
    variants,
    workspace,
)

from benchwright.checks.ace import functional
from benchwright.model import Status

VARIANTS = variants()
DETAIL = {
    "half-up-rounding": "that is HALF_UP",
    "sells-added-in-replay": "(just after the sell): expected 0, got 10",
    "inclusive-as-of": "the order executed exactly at asOf was counted",
    "float-money": "expected '0.30', got '0.30000000000000004'",
    "double-execution-on-repeat": "POST /orders: expected 200, got 201",
    "no-debit-on-buy": "F1 balance after buying 2 TSLA @ 250.00: expected '500.00', got '1000.00'",
    "cancel-filled-order": "/cancel: expected 409, got 200",
    "overdraft-accepted": "POST /orders: expected 422, got 201",
    "number-limit-price": "limitPrice is 10.0, not a decimal",
}
"""What the failing row of each variant's own scenario must say."""


def test_every_f_scenario_has_a_variant_and_every_variant_a_detail():
    assert {v.scenario for v in VARIANTS} == set(functional.IDS)
    assert {v.name for v in VARIANTS} == set(DETAIL)
    for variant in VARIANTS:
        assert variant.scenario in variant.fails, variant.name
        assert variant.fails <= functional.IDS, variant.name


def test_every_variant_edit_changes_the_reference(tmp_path):
    reference = materialize(None, tmp_path / "reference") / "trading"
    for variant in VARIANTS:  # materialize asserts each old string occurs exactly once
        tree = materialize(variant, tmp_path / variant.name) / "trading"
        for edit in variant.edits:
            changed = (tree / edit["file"]).read_text()
            assert changed != (reference / edit["file"]).read_text(), variant.name


def test_the_reference_answers_the_contract_edges_the_scenarios_do_not_touch(tmp_path):
    order = {"symbol": "AAPL", "side": "BUY", "quantity": "1.5", "limitPrice": "1.00"}
    with (
        serving(materialize(None, tmp_path), tmp_path) as base_url,
        httpx.Client(base_url=base_url, timeout=10) as client,
    ):
        account = client.post("/accounts").json()["accountId"]
        holdings = f"/accounts/{account}/holdings"
        missing = client.get("/accounts/nope")
        number = client.post(f"/accounts/{account}/deposits", json={"amount": 5})
        naive = client.get(holdings, params={"asOf": "2026-01-01T00:00:00"})
        fraction = client.post("/orders", json={"accountId": account, **order})

    assert (missing.status_code, missing.json()) == (404, {"error": "no account nope"})
    assert number.status_code == 400 and "amount must be a decimal string" in number.text
    assert naive.status_code == 400 and "zone offset" in naive.text
    assert fraction.status_code == 400 and "whole number" in fraction.text


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_a_variant_fails_exactly_the_scenarios_its_defect_touches(variant: Variant, tmp_path):
    tree = materialize(variant, tmp_path / "tree")
    with serving(tree, tmp_path) as base_url:
        rows = functional.run(env_for(workspace(tmp_path / "ws"), base_url), functional.IDS)

    failing = {check_id for check_id, row in rows.items() if row.status is not Status.PASS}
    assert failing == variant.fails, {k: rows[k].detail for k in failing}
    assert all(rows[k].status is Status.FAIL for k in failing)  # by detection, never INFRA
    assert DETAIL[variant.name] in rows[variant.scenario].detail, rows[variant.scenario].detail
