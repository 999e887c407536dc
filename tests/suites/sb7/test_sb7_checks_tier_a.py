"""Tier A of sb-7 (§12): each check at 1.0 on a correct app (the perfect record) and down
exactly the rung §12 names for one seeded defect."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import booted, http, perfect, row, swap

from benchwright.model import Status

SAFE_WEB = perfect()["tree"].web_text


def test_a_missing_file_or_service_module_costs_an_eighth() -> None:
    files = perfect()["tree"].files
    assert (
        row(swap(perfect(), "tree", files=files - {"app/web/viz.js"}), "a_package_layout").score
        == 0.875
    )
    moved = (files - {"app/ledgerd.py"}) | {"app/ledger.py"}
    found = row(swap(perfect(), "tree", files=moved), "a_package_layout")
    assert found.score == 0.875 and "app.ledgerd" in found.detail


@pytest.mark.parametrize(
    ("ledgerd", "notifierd", "want"),
    [
        (booted(12.0), booted(0.8), 0.75),
        (booted(1.2), booted(None, bound=False), 0.6),
        (booted(None, statuses=(500,)), booted(0.8), 0.4),
        (booted(None, bound=False), booted(0.8), 0.15),
    ],
    ids=["slow", "notifier-never-healthy", "no-200", "never-bound"],
)
def test_server_runs_walks_down_its_boot_ladder(ledgerd, notifierd, want) -> None:
    obs = swap(perfect(), "boot", ledgerd=ledgerd, notifierd=notifierd)
    assert row(obs, "server_runs").score == want


def test_server_runs_is_zero_on_a_crash_and_quotes_the_boot_error() -> None:
    crashed = booted(None, bound=False, exit_code=1, exited_s=0.4,
                     output=b"Traceback\nImportError: cannot import name 'x'\n")  # fmt: skip
    found = row(swap(perfect(), "boot", ledgerd=crashed), "server_runs")
    assert found.score == 0.0 and "ImportError: cannot import name 'x'" in found.detail


def test_the_combined_entrypoint_loses_a_third_per_failing_part() -> None:
    found = row(swap(perfect(), "smoke", notifierd_healthy=False, detail="notifier down"),
                "a_combined_entrypoint")  # fmt: skip
    assert found.score == pytest.approx(2 / 3) and "notifierd healthy" in found.detail


def _assets(**changes) -> object:
    page = perfect()["reads"].page
    return swap(perfect(), "reads", page=replace(page, assets={**page.assets, **changes}))


def test_serves_page_rungs() -> None:
    assert row(_assets(**{"viz.js": http(200, b"x", "text/plain")}), "serves_page").score == 0.7
    two = _assets(**{"viz.js": http(404), "app.js": http(200, b"", "text/javascript")})
    assert row(two, "serves_page").score == 0.4
    page = perfect()["reads"].page
    missing = swap(perfect(), "reads", page=replace(page, index=http(404, b"{}")))
    assert row(missing, "serves_page").score == 0.2
    silent = swap(perfect(), "reads", page=replace(page, index=http(None)))
    assert row(silent, "serves_page").score == 0.0


@pytest.mark.parametrize(("size", "want"), [(160_000, 0.3), (200_000, 0.0)])
def test_the_asset_budget_size_leg(size: int, want: float) -> None:
    sizes = {**perfect()["tree"].web_bytes, "viz.js": size}
    assert row(swap(perfect(), "tree", web_bytes=sizes), "a_asset_budget").score == want


@pytest.mark.parametrize(
    "code",
    [
        '<script src="https://cdn.example/three.js"></script>',
        'fetch("http://api.example/x")',
        "import('https://esm.sh/lib')",
    ],
)
def test_one_external_reference_zeroes_the_asset_budget(code: str) -> None:
    obs = swap(perfect(), "tree", web_text={**SAFE_WEB, "app.js": code})
    found = row(obs, "a_asset_budget")
    assert found.score == 0.0 and found.evidence["external"]


def test_no_web_files_zero_the_asset_budget() -> None:
    assert row(swap(perfect(), "tree", web_bytes={}), "a_asset_budget").score == 0.0


def test_db_ownership_rungs() -> None:
    assert row(swap(perfect(), "final", db_dir=("ledger.db",)), "a_db_ownership").score == 0.5
    extra = ("ledger.db", "notifier.db", "shared.db")
    assert row(swap(perfect(), "final", db_dir=extra), "a_db_ownership").score == 0.8
    unread = row(swap(perfect(), "final", db_dir=None), "a_db_ownership")
    assert unread.status is Status.UNAVAILABLE
