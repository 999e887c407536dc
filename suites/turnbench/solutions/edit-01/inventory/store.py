"""An in-memory store of items, keyed by SKU."""

from dataclasses import replace

from inventory.models import Item, parse_sku

LOW_STOCK_THRESHOLD = 5


class Store:
    def __init__(self) -> None:
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

    def search(self, text: str) -> list[Item]:
        """Items whose name contains ``text``, ignoring case, sorted by SKU."""
        needle = text.casefold()
        return [item for item in self.items() if needle in item.name.casefold()]

    def total_value(self) -> float:
        """What everything in the store is worth."""
        return round(sum(item.line_value() for item in self._items.values()), 2)

    def low_stock(self) -> list[str]:
        """SKUs whose quantity is below the threshold, sorted."""
        # TODO: let each store choose its own threshold.
        return [item.sku for item in self.items() if item.quantity < LOW_STOCK_THRESHOLD]
