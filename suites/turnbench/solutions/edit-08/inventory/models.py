"""Items held in stock."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    sku: str
    name: str
    unit_price: float
    quantity: int = 0
    category: str = "general"

    def line_value(self) -> float:
        """What this line of stock is worth."""
        return round(self.unit_price * self.quantity, 2)


def parse_sku(raw: str) -> str:
    """Normalise a SKU: upper case, no surrounding spaces."""
    sku = raw.strip().upper()
    if not sku:
        raise ValueError("empty SKU")
    return sku
