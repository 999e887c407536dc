"""Hidden oracle for fix-01, stamped after the agent ran: other negative amounts."""

import pytest
from ledger.money import format_cents


@pytest.mark.parametrize(
    ("cents", "text"),
    [(-5, "-0.05"), (-100, "-1.00"), (-1999, "-19.99"), (0, "0.00"), (7, "0.07"), (250, "2.50")],
)
def test_oracle_format_cents(cents, text):
    assert format_cents(cents) == text
