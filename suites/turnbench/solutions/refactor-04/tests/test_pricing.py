import pytest
from inventory.bulk import bulk_price
from inventory.pricing import apply_discount, with_tax


def test_apply_discount():
    assert apply_discount(80.0, 25) == 60.0


def test_apply_discount_rejects_more_than_everything():
    with pytest.raises(ValueError):
        apply_discount(10.0, 120)


def test_with_tax_uses_the_default_rate():
    assert with_tax(10.0) == 12.0


def test_bulk_price_discounts_large_orders():
    assert bulk_price(2.0, 99) == 198.0
    assert bulk_price(2.0, 100) == 180.0
