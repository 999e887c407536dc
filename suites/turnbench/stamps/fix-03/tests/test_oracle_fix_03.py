"""Hidden oracle for fix-03, stamped after the agent ran: other date pairs."""

from datetime import date

from ledger.dates import days_between


def test_oracle_same_day_is_zero():
    assert days_between(date(2024, 2, 28), date(2024, 2, 28)) == 0


def test_oracle_across_a_leap_day():
    assert days_between(date(2024, 2, 28), date(2024, 3, 1)) == 2


def test_oracle_end_before_start_is_negative():
    assert days_between(date(2024, 3, 4), date(2024, 3, 1)) == -3
