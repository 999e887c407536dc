"""Hidden oracle for fix-06, stamped after the agent ran: other spellings."""

from datetime import date

from ledger.entries import Entry
from ledger.summary import totals_by_category

DAY = date(2024, 4, 1)


def test_oracle_any_case_is_merged_into_lower_case():
    entries = [Entry(DAY, "RENT", 100), Entry(DAY, "Rent", 200), Entry(DAY, "bus", 5)]
    assert totals_by_category(entries) == {"rent": 300, "bus": 5}


def test_oracle_credits_are_still_ignored():
    entries = [Entry(DAY, "Food", 10), Entry(DAY, "FOOD", 99, "credit")]
    assert totals_by_category(entries) == {"food": 10}
