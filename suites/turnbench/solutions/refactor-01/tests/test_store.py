import pytest
from inventory.models import Item
from inventory.store import Store


def make_store():
    store = Store()
    store.add(Item("b2", "nut", 0.1, 50))
    store.add(Item("a1", "bolt", 0.25, 3))
    return store


def test_add_normalises_the_sku():
    assert make_store().get("B2").name == "nut"


def test_duplicate_sku_rejected():
    store = make_store()
    with pytest.raises(KeyError):
        store.add(Item(" A1", "other bolt", 1.0))


def test_remove_returns_the_item():
    store = make_store()
    assert store.remove("a1").name == "bolt"
    assert len(store) == 1


def test_restock_adds_to_quantity():
    assert make_store().restock("a1", 7).quantity == 10


def test_total_value_sums_every_line():
    assert make_store().stock_value() == 5.75


def test_low_stock_lists_short_items():
    assert make_store().low_stock() == ["A1"]
