"""Tier D (finesse) checks read on the wire and from the store's and client's source."""

import ast

import pytest
from canned_http import jr, refused
from vendorsync_canned import grade_one, perfect, swap, with_ledger

from benchwright.model import Status
from benchwright.suites.vendorsync.checks.tier_d import timeouts

TIER_D = ("uses_max_limit", "concurrent_sync_safe", "api_content_type", "store_atomic_upsert",
          "store_indexed", "client_timeouts")  # fmt: skip


@pytest.mark.parametrize("check", TIER_D)
def test_a_perfect_app_earns_every_tier_d_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


def test_uses_max_limit_is_the_largest_limit_over_100():
    assert (
        grade_one(with_ledger(perfect(), "sync1", largest_limit=25), "uses_max_limit").score == 0.25
    )
    none = with_ledger(perfect(), "sync1", largest_limit=None)
    assert grade_one(none, "uses_max_limit").score == 0.0


def test_concurrent_sync_safe_fails_duplicates_and_an_unanswered_sync():
    obs = perfect()
    dup = swap(obs, "concurrent", health_count=494)
    assert grade_one(dup, "concurrent_sync_safe").score == 0.0
    hung = swap(obs, "concurrent", calls=(obs["concurrent"].calls[0], refused("/api/sync")))
    row = grade_one(hung, "concurrent_sync_safe")
    assert row.score == 0.0 and "no answer" in row.detail
    busy = swap(obs, "concurrent", calls=(obs["concurrent"].calls[0],
                                          jr({"error": "busy"}, status=409)))  # fmt: skip
    assert grade_one(busy, "concurrent_sync_safe").score == 1.0


def test_api_content_type_wants_application_json():
    html = swap(perfect(), "reads", default=jr({"data": []}, ctype="text/html"))
    assert grade_one(html, "api_content_type").score == 0.0
    charset = swap(
        perfect(), "reads", default=jr({"data": []}, ctype="application/json; charset=utf-8")
    )
    assert grade_one(charset, "api_content_type").score == 1.0


@pytest.mark.parametrize(
    "source, score",
    [
        ("INSERT INTO payments VALUES (?) ON CONFLICT(id) DO UPDATE SET s=excluded.s", 1.0),
        ("INSERT OR REPLACE INTO payments VALUES (?)", 0.5),
        ("INSERT OR IGNORE INTO payments VALUES (?)", 0.5),
        ("INSERT INTO payments VALUES (?) ON CONFLICT DO NOTHING", 0.5),
        ("SELECT 1 FROM payments WHERE id=?\nINSERT INTO payments VALUES (?)", 0.3),
        ("INSERT INTO payments VALUES (?)", 0.0),
        (None, 0.0),
    ],
)  # fmt: skip
def test_store_atomic_upsert_rungs(source, score):
    row = grade_one(swap(perfect(), "static", store_source=source), "store_atomic_upsert")
    assert row.score == score


def test_store_indexed_wants_a_key():
    plain = "CREATE TABLE payments (id TEXT, amount INTEGER)"
    assert grade_one(swap(perfect(), "static", store_source=plain), "store_indexed").score == 0
    index = plain + ";\nCREATE UNIQUE INDEX by_id ON payments (id)"
    assert grade_one(swap(perfect(), "static", store_source=index), "store_indexed").score == 1


@pytest.mark.parametrize(
    "source, score",
    [
        ("urlopen(request, timeout=5)", 1.0),
        ("TIMEOUT = 10\nurlopen(request, timeout=TIMEOUT)", 1.0),
        ("socket.setdefaulttimeout(8)\nurlopen(request)", 1.0),
        ("urlopen(request)", 0.0),
        ("urlopen(request, timeout=30)", 0.0),
        ("REQUEST_TIMEOUT_S: float = 60.0\nurlopen(request, timeout=REQUEST_TIMEOUT_S)", 0.0),
        ("def broken(:\n", 0.0),
        (None, 0.0),
    ],
)  # fmt: skip
def test_client_timeouts(source, score):
    row = grade_one(swap(perfect(), "static", meridian_source=source), "client_timeouts")
    assert row.score == score, row.detail


def test_timeouts_reads_keywords_and_named_constants():
    used, numbers = timeouts(ast.parse("T_TIMEOUT = 3\nx = 99\nf(timeout=2.5)"))
    assert used and sorted(numbers) == [2.5, 3.0]
