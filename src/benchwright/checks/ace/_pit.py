"""M4's two questions: is this method point-in-time, and does its span subtract sells?

Point-in-time, per the registry: a name among holdingsAt / positionsAt /
balanceAt / asOf / pointInTime / snapshotAt / replay*, or any method taking an
Instant-family parameter in a file whose name hints at holdings, positions or a
ledger. Names are compared by camel/snake parts, so ``getHoldingsAsOf`` and
``holdings_at`` count. Left out, because they compute nothing: a named method
with no parameter (``asOfApplied()`` is a field accessor; ``replay*`` excepted,
it replays everything), a bare accessor of the property (``getAsOf``,
``setAsOf(Instant)``, ``withAsOf``), and, for the file-name rule, methods
returning nothing (``void record(Fill f, Instant at)`` writes, it answers no
"as of"), setters, withers and ``of``/``from`` factories
(``LedgerEntry.of(..., Instant at)``).

Subtraction shapes (the registry's, plus the ones B3 mutates): ``.subtract(``,
``.negate(``, ``.minus(``, ``-=``, a literal ``* -1`` (or ``valueOf(-1)``), a
signed ``CASE WHEN ... SELL/BUY ... -x ... END``, and a minus applied to a
money-named operand (``-fill.qty()``, ``held - quantity``) - never ``size() - 1``.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from benchwright.checks.ace._methods import Method
from benchwright.checks.ace._money import IDENTIFIER, is_money, parts

PIT_NAMES = (("holdings", "at"), ("positions", "at"), ("balance", "at"), ("as", "of"),
             ("point", "in", "time"), ("snapshot", "at"), ("replay",))  # fmt: skip
"""Name part runs that make a method point-in-time."""
_ACCESSORS = frozenset({"get", "set", "is", "with"})
_NOT_QUERIES = frozenset({"set", "with", "of", "from"})
_INSTANT = re.compile(r"\b(?:Instant|OffsetDateTime|ZonedDateTime|LocalDateTime|Timestamp)\b")
_FILE_HINTS = ("holding", "position", "ledger")

_SHAPES = {
    ".subtract(": re.compile(r"\.\s*subtract\s*\("),
    ".negate()": re.compile(r"\.\s*negate\s*\("),
    ".minus(": re.compile(r"\.\s*minus\s*\("),
    "-=": re.compile(r"-="),
    "* -1": re.compile(r"\*\s*-\s*1(?![\w.])|(?<![\w.])-\s*1\s*\*|valueOf\s*\(\s*-\s*1\s*\)"),
    "signed CASE WHEN ... SELL": re.compile(
        r"\bCASE\b(?:(?!\bEND\b).){0,400}?\b(?:SELL|BUY)\b(?:(?!\bEND\b).){0,400}?"
        r"-\s*[\w(](?:(?!\bEND\b).){0,400}?\bEND\b",
        re.IGNORECASE | re.DOTALL,
    ),
}
_MINUS_CHAIN = re.compile(r"(?<![-\w$])-(?![-=>])\s*((?:[\w$]+\s*(?:\(\s*\))?\s*\.\s*)*[\w$]+)")


def is_point_in_time(method: Method, rel: str) -> bool:
    """Whether ``method``, defined in the file at ``rel``, answers "as of when?"."""
    words = parts(method.name)
    takes_args = bool(method.params.strip())
    run = _run_at(words)
    if run is not None and (takes_args or words[0] == "replay"):
        return not (words[0] in _ACCESSORS and len(words) == 1 + len(run))
    hinted = any(h in PurePosixPath(rel).name.lower() for h in _FILE_HINTS)
    query = not method.void and words[0] not in _NOT_QUERIES
    return hinted and query and bool(_INSTANT.search(method.params))


def _run_at(words: list[str]) -> tuple[str, ...] | None:
    for run in PIT_NAMES:
        if any(tuple(words[i : i + len(run)]) == run for i in range(len(words))):
            return run
    return None


def subtraction(span: str) -> str | None:
    """The first sell-side subtraction shape in ``span`` (comments blanked), or None."""
    for label, pattern in _SHAPES.items():
        if pattern.search(span):
            return label
    for m in _MINUS_CHAIN.finditer(span):
        if is_money(IDENTIFIER.findall(m.group(1))[-1]):
            return f"minus on {m.group(1)}"
    return None
