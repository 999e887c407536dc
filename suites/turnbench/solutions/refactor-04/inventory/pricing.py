"""Price arithmetic. Prices are floats rounded to cents."""

TAX_RATE = 0.2


def apply_discount(price: float, percent: float) -> float:
    """``price`` less ``percent`` per cent."""
    if not 0 <= percent <= 100:
        raise ValueError(f"discount out of range: {percent}")
    return round(price * (100 - percent) / 100, 2)


def with_tax(price: float, rate: float = TAX_RATE) -> float:
    """``price`` plus tax at ``rate``."""
    return round(price * (1 + rate), 2)
