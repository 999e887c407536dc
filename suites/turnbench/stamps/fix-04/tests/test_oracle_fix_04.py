"""Hidden oracle for fix-04, stamped after the agent ran: other entries."""

from datetime import date

from ledger.entries import Entry, balance

DAY = date(2024, 5, 2)


def test_oracle_credits_add_and_debits_subtract_whatever_the_category():
    entries = [
        Entry(DAY, "refund", 1500, "credit"),
        Entry(DAY, "food", 700),
        Entry(DAY, "salary", 300),
        Entry(DAY, "gift", 50, "credit"),
    ]
    assert balance(entries) == 550


def test_oracle_debits_alone_go_negative():
    assert balance([Entry(DAY, "bus", 250), Entry(DAY, "bus", 250)], opening=100) == -400
