"""Hidden oracle for edit-03, stamped after the agent ran: pricing.parse_price."""

import pytest
from inventory.pricing import parse_price


@pytest.mark.parametrize(
    ("text", "price"),
    [("12.50", 12.5), (" $12.50 ", 12.5), ("12", 12.0), ("1,299.99", 1299.99), ("$0.05", 0.05)],
)
def test_parse_price_accepts_plain_and_dollar_amounts(text, price):
    assert parse_price(text) == price


@pytest.mark.parametrize("text", ["", "  ", "abc", "$", "-3", "$-3.00", "1.2.3"])
def test_parse_price_rejects_garbage_and_negatives(text):
    with pytest.raises(ValueError):
        parse_price(text)
