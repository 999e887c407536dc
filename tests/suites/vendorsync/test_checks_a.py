"""Tier A checks on canned observations: pass the right thing, fail the near miss."""

from dataclasses import replace

import pytest
from canned_http import http, jr
from vendorsync_canned import boot, grade_one, health, perfect, swap

from benchwright.model import Status
from benchwright.suites.kit.kinds import BootObs

TIER_A = ("modules_present", "interfaces_declared", "server_runs", "serves_page",
          "health_shape", "sync_shape")  # fmt: skip


@pytest.mark.parametrize("check", TIER_A)
def test_a_perfect_app_earns_every_tier_a_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_modules_present_costs_an_eighth_per_missing_path():
    obs = perfect()
    modules = dict(obs["static"].modules) | {"web/app.js": False, "store.py": False}
    row = grade_one(swap(obs, "static", modules=modules), "modules_present")
    assert row.score == 0.75 and "web/app.js" in row.detail


def test_interfaces_declared_is_the_fraction_of_the_eight_methods():
    obs = perfect()
    methods = dict(obs["static"].methods) | {"Store": ("upsert_many", "count")}
    row = grade_one(swap(obs, "static", methods=methods), "interfaces_declared")
    assert row.score == pytest.approx(5 / 8)
    assert "Store.last_sync" in row.detail


def test_interfaces_declared_reads_the_class_body_not_an_import(tmp_path):
    from benchwright.suites.vendorsync.phases.static import observe_tree

    (tmp_path / "vendorsync").mkdir()
    (tmp_path / "vendorsync" / "meridian.py").write_text(
        "from elsewhere import MeridianClient\n\nclass Other:\n    def total_count(self): ...\n"
    )
    seen = observe_tree(tmp_path)
    assert seen.methods["MeridianClient"] == ()
    assert seen.modules["meridian.py"] and not seen.modules["store.py"]


def test_server_runs_fails_a_crash_and_a_slow_boot():
    crashed = swap(perfect(), "boot", boot=boot(healthy=False))
    assert grade_one(crashed, "server_runs").score == 0.0
    slow = swap(perfect(), "boot", boot=boot(after_s=7.5))
    row = grade_one(slow, "server_runs")
    assert row.score == 0.0 and "5 s" in row.detail


def test_server_runs_wants_a_json_health():
    obs = perfect()
    text = replace(boot(), health_body=b"OK")
    assert grade_one(obs.with_phase("boot", BootObs(text)), "server_runs").score == 0.0


def test_serves_page_fails_a_404_and_a_non_html_answer():
    obs = perfect()
    assert grade_one(swap(obs, "reads", index=http(404, b"{}")), "serves_page").score == 0.0
    plain = http(200, b"hello", "text/plain")
    assert grade_one(swap(obs, "reads", index=plain), "serves_page").score == 0.0


def test_health_shape_costs_a_third_per_missing_key():
    body = {"status": "ok", "payments": 0}
    row = grade_one(swap(perfect(), "boot", boot=boot(body=body)), "health_shape")
    assert row.score == pytest.approx(2 / 3) and "last_sync" in row.detail
    assert health()  # the perfect body has all three


def test_sync_shape_costs_a_third_per_missing_key_and_fails_no_object():
    obs = perfect()
    row = grade_one(swap(obs, "sync1", call=jr({"total": 247})), "sync_shape")
    assert row.score == pytest.approx(1 / 3)
    assert grade_one(swap(obs, "sync1", call=jr([1, 2])), "sync_shape").score == 0.0
