"""A tiny in-memory stock store."""

from inventory.bulk import bulk_price
from inventory.models import Item, parse_sku
from inventory.pricing import apply_discount, with_tax
from inventory.report import stock_report
from inventory.store import Store

__all__ = ["Item", "Store", "apply_discount", "bulk_price", "parse_sku", "stock_report", "with_tax"]
