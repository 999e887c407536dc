"""Hidden oracle for refactor-04, stamped after the agent ran: bulk_price in inventory.bulk."""

import inventory
from inventory.bulk import BULK_QUANTITY, bulk_price


def test_bulk_module_holds_the_function_and_its_threshold():
    assert BULK_QUANTITY == 100
    assert bulk_price(2.0, 99) == 198.0
    assert bulk_price(2.0, 100) == 180.0


def test_package_still_exports_it():
    assert inventory.bulk_price is bulk_price
