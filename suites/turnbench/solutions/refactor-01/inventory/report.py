"""Plain-text reports of a store."""

from inventory.store import Store


def stock_report(store: Store) -> str:
    """One line per item (SKU, quantity, name), then the total value."""
    lines = [f"{item.sku:<8} {item.quantity:>5}  {item.name}" for item in store.items()]
    lines.append(f"total value: {store.stock_value():.2f}")
    return "\n".join(lines)
