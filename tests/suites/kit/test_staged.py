"""Staged checks: what a suite's scorer lists and no module implements yet."""

from benchwright.model import Status
from benchwright.suites.kit.checks.staged import staged_checks, staged_rows


def test_staged_checks_keep_the_wanted_order_and_drop_implemented_ids():
    assert staged_checks(("b", "a", "c"), ["a"]) == ("b", "c")
    assert staged_checks(("a",), ["a", "z"]) == ()


def test_staged_rows_are_unavailable_and_never_a_pass():
    rows = staged_rows(("x", "y"), "PROBE UNAVAILABLE: no browser")
    assert [(r.check_id, r.status, r.score) for r in rows] == [
        ("x", Status.UNAVAILABLE, 0.0),
        ("y", Status.UNAVAILABLE, 0.0),
    ]
