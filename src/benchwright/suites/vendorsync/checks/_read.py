"""Readers the vendorsync checks share: the vendor ledger of a window, a sync's count,
the page's source text and its contractual ids."""

from __future__ import annotations

import re

from benchwright.probes.http import JsonRead
from benchwright.services.meridian import ContractLedger
from benchwright.suites.kit.checks import is_int
from benchwright.suites.kit.wire import body
from benchwright.suites.vendorsync.observations import Observations, StaticObs


def ledger(obs: Observations, window: str) -> ContractLedger | None:
    """The vendor's contract ledger of ``window`` (``sync1``, ``sync2``, ``client``); None
    when that window was never marked (its phase did not run)."""
    return obs["trace"].ledgers.get(window)


def sync_count(call: JsonRead) -> int | None:
    """What a sync reported it holds: ``total``, else ``fetched``, when an integer."""
    found = body(call) or {}
    for key in ("total", "fetched"):
        if is_int(found.get(key)):
            return found[key]
    return None


def complete(obs: Observations) -> float:
    """How much of the collection the first sync reported: 1.0 for exactly the whole of
    it, the count over the total below it, the total over the count above it (duplicates)."""
    count, total = sync_count(obs["sync1"].call), obs.truth.total
    if count is None or count <= 0:
        return 0.0
    return count / total if count <= total else total / count


def page_text(static: StaticObs) -> str:
    """The page's three files as one text (empty when there is no page)."""
    return "\n".join(static.web.values())


def has_id(static: StaticObs, element_id: str) -> bool:
    """Whether the markup declares ``id="element_id"`` (any quoting)."""
    html = static.web.get("index.html", "")
    return re.search(rf"""\bid\s*=\s*["']?{re.escape(element_id)}["'\s>]""", html) is not None


def words(text: str, *choices: str) -> list[str]:
    """The ``choices`` (lower case, whole words or phrases) ``text`` contains."""
    low = text.lower()
    return [c for c in choices if re.search(rf"\b{re.escape(c)}\b", low)]
