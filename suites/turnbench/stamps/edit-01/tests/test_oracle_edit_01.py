"""Hidden oracle for edit-01, stamped after the agent ran: Store.search."""

from inventory.models import Item
from inventory.store import Store


def make_store():
    store = Store()
    store.add(Item("c1", "Hex Bolt", 0.3, 10))
    store.add(Item("a1", "bolt", 0.25, 3))
    store.add(Item("b1", "washer", 0.05, 40))
    return store


def test_search_ignores_case_and_sorts_by_sku():
    assert [item.sku for item in make_store().search("BOLT")] == ["A1", "C1"]


def test_search_matches_inside_names():
    assert [item.sku for item in make_store().search("ash")] == ["B1"]


def test_search_without_a_match_is_empty():
    assert make_store().search("nail") == []
