"""Hidden oracle for fix-02, stamped after the agent ran: other amounts."""

import pytest
from ledger.money import to_cents


@pytest.mark.parametrize(
    ("text", "cents"),
    [("0.7", 70), ("-3.1", -310), ("3.05", 305), ("12.34", 1234), ("8", 800), (".5", 50)],
)
def test_oracle_to_cents(text, cents):
    assert to_cents(text) == cents
