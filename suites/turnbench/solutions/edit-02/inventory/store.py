"""An in-memory store of items, keyed by SKU."""

from dataclasses import replace

from inventory.models import Item, parse_sku

LOW_STOCK_THRESHOLD = 5


class Store:
    def __init__(self, low_stock_threshold: int = LOW_STOCK_THRESHOLD) -> None:
        if low_stock_threshold < 0:
            raise ValueError("low_stock_threshold must not be negative")
        self.low_stock_threshold = low_stock_threshold
        self._items: dict[str, Item] = {}

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: Item) -> None:
        sku = parse_sku(item.sku)
        if sku in self._items:
            raise KeyError(f"duplicate SKU {sku}")
        self._items[sku] = replace(item, sku=sku)

    def get(self, sku: str) -> Item | None:
        return self._items.get(parse_sku(sku))

    def remove(self, sku: str) -> Item:
        return self._items.pop(parse_sku(sku))

    def restock(self, sku: str, amount: int) -> Item:
        if amount <= 0:
            raise ValueError("restock amount must be positive")
        key = parse_sku(sku)
        item = replace(self._items[key], quantity=self._items[key].quantity + amount)
        self._items[key] = item
        return item

    def items(self) -> list[Item]:
        """Every item, sorted by SKU."""
        return [self._items[sku] for sku in sorted(self._items)]

    def total_value(self) -> float:
        """What everything in the store is worth."""
        return round(sum(item.line_value() for item in self._items.values()), 2)

    def low_stock(self) -> list[str]:
        """SKUs whose quantity is below the threshold, sorted."""
        return [item.sku for item in self.items() if item.quantity < self.low_stock_threshold]
