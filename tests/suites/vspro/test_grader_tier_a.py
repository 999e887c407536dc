"""Tier A checks on canned observations: pass the right thing, fail the near miss."""

from dataclasses import replace

import pytest
from vspro_canned import boot, grade_one, health_body, http, jr, perfect, swap

from benchwright.model import Status


def test_every_tier_a_check_passes_a_perfect_app():
    obs = perfect()
    for check in (
        "modules_present",
        "interfaces_declared",
        "a_asset_budget",
        "server_runs",
        "health_shape",
        "sync_shape",
        "serves_page",
    ):
        row = grade_one(obs, check)
        assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_modules_present_costs_an_eighth_per_missing_file():
    obs = perfect()
    modules = dict(obs["static"].modules) | {"web/viz.js": False}
    row = grade_one(swap(obs, "static", modules=modules), "modules_present")
    assert row.score == 0.875
    assert row.detail == "0.875: 7/8 spec files present; missing web/viz.js"


def test_interfaces_declared_misnamed_method_costs_one_fifteenth():
    obs = perfect()
    methods = dict(obs["static"].methods)
    methods["Store"] = tuple(m if m != "upsert_many" else "upsert" for m in methods["Store"])
    row = grade_one(swap(obs, "static", methods=methods), "interfaces_declared")
    assert round(row.score, 4) == round(14 / 15, 4)
    assert "14/15 methods declared; missing Store.upsert_many" in row.detail


def test_asset_budget_rungs():
    obs = perfect()
    at = {"app.js": 153_600}
    assert grade_one(swap(obs, "static", asset_bytes=at), "a_asset_budget").score == 1.0
    over = grade_one(swap(obs, "static", asset_bytes={"app.js": 153_601}), "a_asset_budget")
    assert over.score == 0.3 and "rung <=180 KB; top rung <=150 KB" in over.detail
    far = grade_one(swap(obs, "static", asset_bytes={"app.js": 200_000}), "a_asset_budget")
    assert far.score == 0.0
    none = grade_one(swap(obs, "static", asset_bytes={}), "a_asset_budget")
    assert none.detail == "0: no web files on disk"


def test_server_runs_reads_the_boot_ladder():
    row = grade_one(swap(perfect(), "boot", boot=boot(healthy=False)), "server_runs")
    assert row.score == 0.0 and row.detail.startswith("0.0: crashed at boot")


def test_health_shape_counts_keys_and_counters():
    body = health_body()
    del body["webhook"]["rejected"]
    row = grade_one(swap(perfect(), "boot", boot=boot(body=body)), "health_shape")
    assert row.detail == "0.8889: 8/9 keys; missing webhook.rejected"
    flat = {"status": "ok", "payments": 1, "last_sync": None, "webhook": "yes"}
    assert grade_one(
        swap(perfect(), "boot", boot=boot(body=flat)), "health_shape"
    ).score == pytest.approx(4 / 9, abs=1e-5)


def test_sync_shape_needs_a_json_body():
    row = grade_one(swap(perfect(), "sync1", call=jr({"fetched": 1, "total": 1})), "sync_shape")
    assert row.detail == "0.5: 2/4 keys; missing inserted, updated"
    html = grade_one(swap(perfect(), "sync1", call=jr(None, 500, raw=b"<h1>")), "sync_shape")
    assert html.detail == "0: sync #1 gave no JSON object (status 500)"


def test_serves_page_rungs():
    obs = perfect()
    plain = http(200, b"1", "text/plain")
    wrong = swap(obs, "page", assets=dict(obs["page"].assets) | {"viz.js": plain},
                 web_assets=dict(obs["page"].web_assets) | {"viz.js": plain})  # fmt: skip
    two = grade_one(wrong, "serves_page")
    assert two.score == 0.7 and "wrong or missing: viz.js (not served as javascript" in two.detail
    empty_on_disk = dict(obs["page"].on_disk) | {"app.js": 0, "viz.js": 0}
    assert grade_one(swap(obs, "page", on_disk=empty_on_disk), "serves_page").score == 0.4
    broken = grade_one(swap(obs, "page", index=http(500, b"oops")), "serves_page")
    assert broken.score == 0.2 and "index.html on disk: True" in broken.detail
    nobody = swap(obs, "page", index=http(None, error="refused"))
    assert grade_one(nobody, "serves_page").detail == "0: no server answered GET / (refused)"


def test_serves_page_passes_an_asset_served_at_either_path():
    """Methodology §09: the instrument tries the bare and the web/-prefixed path and passes
    an asset served at either (issue #24: an app serving only /<file> lost 0.6 here); that
    §6.9 asks for both is the weight-zero x_asset_paths's."""
    obs = perfect()
    gone = {n: http(404, b"{}", "application/json") for n in obs["page"].web_assets}
    bare = grade_one(swap(obs, "page", web_assets=gone), "serves_page")
    assert (bare.score, bare.detail) == (
        1.0, "1: page served, 3/3 assets with the right content type at /<file> or /web/<file>"
    )  # fmt: skip
    assert grade_one(swap(obs, "page", assets=gone), "serves_page").score == 1.0  # /web/ only
    html = {n: http(200, b"<html>index</html>", "text/html") for n in obs["page"].assets}
    neither = grade_one(swap(obs, "page", assets=html, web_assets=gone), "serves_page")
    assert neither.score == 0.4
    assert "app.js (not served as javascript at either path: /app.js 200 text/html, " \
           "/web/app.js 404 application/json)" in neither.detail  # fmt: skip


def test_row_is_fail_below_full_score_and_keeps_partial_credit():
    obs = perfect()
    static = replace(obs["static"], modules=dict.fromkeys(obs["static"].modules, False))
    row = grade_one(obs.with_phase("static", static), "modules_present")
    assert (row.status, row.score) == (Status.FAIL, 0.0)
