"""Hidden oracle for edit-02, stamped after the agent ran: a per-store low-stock threshold."""

import pytest
from inventory.models import Item
from inventory.store import Store


def fill(store):
    store.add(Item("a1", "bolt", 0.25, 3))
    store.add(Item("b1", "nut", 0.1, 9))
    store.add(Item("c1", "washer", 0.05, 50))
    return store


def test_threshold_is_per_store():
    assert fill(Store(low_stock_threshold=10)).low_stock() == ["A1", "B1"]
    assert fill(Store(low_stock_threshold=1)).low_stock() == []


def test_default_threshold_is_unchanged():
    assert fill(Store()).low_stock() == ["A1"]


def test_negative_threshold_is_rejected():
    with pytest.raises(ValueError):
        Store(low_stock_threshold=-1)
