"""Bulk orders: a discount from BULK_QUANTITY units."""

from inventory.pricing import apply_discount

BULK_QUANTITY = 100


def bulk_price(unit_price: float, quantity: int) -> float:
    """The price of ``quantity`` units: 10 per cent off from BULK_QUANTITY units."""
    total = unit_price * quantity
    if quantity >= BULK_QUANTITY:
        return apply_discount(total, 10)
    return round(total, 2)
