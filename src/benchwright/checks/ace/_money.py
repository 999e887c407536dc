"""What counts as a money name for the M1-M4 lints, and the identifiers of a text.

The registry's list (price, amount, balance, cash, total, cost, fee(s), qty,
quantity, notional, premium, margin) is matched against the camelCase and
snake_case *parts* of an identifier, with a plural ``s`` allowed: the contract's
own field is ``availableBalance``, and ``limit_price``, ``totalCost`` or
``unitPrices`` are money just as plainly. Whole-identifier matching would miss
the very field the task names. Parts, not substrings: ``priceless`` or
``costume`` are no money.

A renamed field (``price`` -> ``px``) is not on the list and escapes a name lint
by construction; what still gives it away is any money-named accessor, column or
parameter left around it (``double getPrice()``, ``px DOUBLE PRECISION`` beside
``total_cost``), and the black-box F scenarios, which never read names.
"""

from __future__ import annotations

import re

MONEY_PARTS = frozenset(
    {
        "price",
        "amount",
        "balance",
        "cash",
        "total",
        "cost",
        "fee",
        "qty",
        "quantity",
        "quantities",
        "notional",
        "premium",
        "margin",
    }
)

IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def parts(name: str) -> list[str]:
    """``availableBalance`` -> [available, balance]; ``LIMIT_PRICE`` -> [limit, price]."""
    return [p.lower() for p in _PART.findall(name)]


def is_money(name: str) -> bool:
    """True when some part of ``name`` is a money word (or its plural)."""
    return any(p in MONEY_PARTS or (p.endswith("s") and p[:-1] in MONEY_PARTS) for p in parts(name))


def money_identifiers(code: str) -> list[str]:
    """The distinct money-named identifiers of ``code``, in order of first use."""
    return list(dict.fromkeys(n for n in IDENTIFIER.findall(code) if is_money(n)))
