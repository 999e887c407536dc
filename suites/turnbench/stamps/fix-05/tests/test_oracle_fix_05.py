"""Hidden oracle for fix-05, stamped after the agent ran: credits and ties."""

from datetime import date

from ledger.entries import Entry
from ledger.summary import largest_expense


def test_oracle_credits_are_not_expenses():
    entries = [
        Entry(date(2024, 1, 1), "salary", 90000, "credit"),
        Entry(date(2024, 1, 2), "bus", 250),
    ]
    assert largest_expense(entries).category == "bus"


def test_oracle_the_earliest_wins_a_tie():
    first = Entry(date(2024, 1, 1), "rent", 50000)
    later = Entry(date(2024, 1, 31), "car", 50000)
    assert largest_expense([first, Entry(date(2024, 1, 5), "food", 700), later]) is first
