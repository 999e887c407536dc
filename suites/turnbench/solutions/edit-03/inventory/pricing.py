"""Price arithmetic. Prices are floats rounded to cents."""

TAX_RATE = 0.2
BULK_QUANTITY = 100


def parse_price(text: str) -> float:
    """``"12.50"``, ``"$12.50"`` or ``"1,299.99"`` as a float; ValueError otherwise."""
    cleaned = text.strip().removeprefix("$").replace(",", "")
    try:
        price = float(cleaned)
    except ValueError:
        raise ValueError(f"not a price: {text!r}") from None
    if price < 0:
        raise ValueError(f"negative price: {text!r}")
    return round(price, 2)


def apply_discount(price: float, percent: float) -> float:
    """``price`` less ``percent`` per cent."""
    if not 0 <= percent <= 100:
        raise ValueError(f"discount out of range: {percent}")
    return round(price * (100 - percent) / 100, 2)


def with_tax(price: float, rate: float = TAX_RATE) -> float:
    """``price`` plus tax at ``rate``."""
    return round(price * (1 + rate), 2)


def bulk_price(unit_price: float, quantity: int) -> float:
    """The price of ``quantity`` units: 10 per cent off from BULK_QUANTITY units."""
    total = unit_price * quantity
    if quantity >= BULK_QUANTITY:
        return apply_discount(total, 10)
    return round(total, 2)
