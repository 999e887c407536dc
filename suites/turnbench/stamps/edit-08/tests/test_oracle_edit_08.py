"""Hidden oracle for edit-08, stamped after the agent ran: Item.category and Store.by_category."""

from inventory.models import Item
from inventory.store import Store


def test_category_defaults_to_general():
    assert Item("x1", "thing", 1.0).category == "general"
    assert Item("x1", "thing", 1.0, 2).quantity == 2


def test_by_category_groups_sorted_skus():
    store = Store()
    store.add(Item("c1", "hex bolt", 0.3, 10, category="fasteners"))
    store.add(Item("b1", "oil", 4.0, 2))
    store.add(Item("a1", "bolt", 0.25, 3, category="fasteners"))
    assert store.by_category() == {"fasteners": ["A1", "C1"], "general": ["B1"]}


def test_by_category_of_an_empty_store():
    assert Store().by_category() == {}
