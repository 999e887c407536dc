"""Hidden oracle for refactor-01, stamped after the agent ran: Store.stock_value.

The old name is checked by a negative grep over the agent's files, not here.
"""

from inventory.models import Item
from inventory.report import stock_report
from inventory.store import Store


def make_store():
    store = Store()
    store.add(Item("a1", "bolt", 0.25, 8))
    store.add(Item("b1", "nut", 0.1, 15))
    return store


def test_stock_value_is_the_sum_of_every_line():
    assert make_store().stock_value() == 3.5


def test_the_report_still_ends_with_the_total():
    assert stock_report(make_store()).splitlines()[-1] == "total value: 3.50"
