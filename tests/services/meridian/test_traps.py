"""The trap sequence, its reset rules, and that the published optimum is what a walk costs."""

from __future__ import annotations

from .walker import Walker, list_lines


def _statuses(mock) -> list[int]:
    return [line["status"] for line in list_lines(mock.trace.lines())]


def test_traps_fire_in_order_once_per_phase(mock, client):
    first = client.get("/v2/payments", params={"limit": 100}).json()
    cursor = {"cursor": first["next_cursor"]}
    second = client.get("/v2/payments", params=cursor)
    assert second.status_code == 429 and second.headers["Retry-After"] == "0.3"
    third = client.get("/v2/payments", params=cursor)
    assert (third.status_code, third.json()) == (410, {"error": "cursor_expired"})
    fourth = client.get("/v2/payments")
    assert fourth.status_code == 429 and fourth.headers["Retry-After"].endswith(" GMT")
    assert [client.get("/v2/payments").status_code for _ in range(3)] == [200, 200, 200]


def test_no_410_without_a_cursor_on_request_3(mock, client):
    for _ in range(5):
        client.get("/v2/payments")
    assert _statuses(mock) == [200, 429, 200, 200, 200]


def test_phase_marks_reset_unless_the_name_ends_in_2_or_more(mock, client):
    for name, expect in (("sync1", 429), ("sync2", 200), ("syncfull", 429), ("later", 429)):
        mock.mark_phase(name)
        client.get("/v2/payments")
        assert client.get("/v2/payments").status_code == expect, name
    mock.mark_phase("sync9", reset=True)
    client.get("/v2/payments")
    assert client.get("/v2/payments").status_code == 429
    markers = [line["__phase__"] for line in mock.trace.lines() if "__phase__" in line]
    assert markers == ["sync1", "sync2", "syncfull", "later", "sync9"]


def test_a_perfect_walk_costs_exactly_the_derived_optimum(mock):
    mock.mark_phase("sync1")
    Walker(mock.base_url).walk()
    assert len(list_lines(mock.trace.lines())) == mock.fixture.expect.optimal_requests == 20
    mock.mark_phase("halfset")
    before = len(list_lines(mock.trace.lines()))
    Walker(mock.base_url).walk()
    assert (
        len(list_lines(mock.trace.lines())) - before == mock.fixture.expect.optimal_requests_halfset
    )


def test_the_optimum_follows_the_seed(tmp_path):
    from benchwright.services.meridian import MeridianMock

    from .conftest import FAST

    with MeridianMock(5, timing=FAST) as other:
        Walker(other.base_url).walk()
        assert len(list_lines(other.trace.lines())) == other.fixture.expect.optimal_requests != 20


def test_a_failing_vendor_answers_500_without_counting_toward_the_traps(mock, client):
    """``fail_lists``: every list answers 500 (flat body) until it is turned off, and those
    requests leave the trap sequence where it was (the next list is still the first)."""
    mock.fail_lists(True)
    failed = [client.get("/v2/payments") for _ in range(4)]
    assert {(r.status_code, r.text) for r in failed} == {(500, '{"error": "internal_error"}')}
    mock.fail_lists(False)
    client.get("/v2/payments")
    client.get("/v2/payments")
    assert _statuses(mock) == [500, 500, 500, 500, 200, 429]
    assert [x["on"] for x in mock.trace.lines() if x.get("admin") == "failing"] == [True, False]
