"""Results an agent cannot forge: a per-run key outside the run directory, a MAC per result.

Each run gets a random 256-bit key, kept in the run index
(`benchwright.execution.key_index`: ``<state dir>/run-keys/index.sqlite``, 0600 in
0700 directories), where the state dir is ``$BENCHWRIGHT_STATE_DIR``, else
``$XDG_STATE_HOME/benchwright``, else ``~/.local/state/benchwright``. The sandbox never
shows an agent that path (its ``$HOME`` is private and empty), so an agent that reaches
the run directory can write a ``result.json`` but cannot give it a MAC that verifies.
The MAC is HMAC-SHA256 over the canonical JSON of every other field of the document.
The run's ``run.json`` and ``summary.json`` are sealed the same way;
`benchwright.execution.verification` is the one rule every reader applies.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

STATE_ENV = "BENCHWRIGHT_STATE_DIR"
MAC_FIELD = "mac"
SUMMARY_SEALED = "summary_sealed"
"""A sealed result's field saying its run seals ``summary.json`` too, so a summary
whose MAC was stripped cannot pass for one written before summaries were sealed."""
_MAC_PREFIX = "hmac-sha256:"


def state_dir() -> Path:
    """Where benchwright keeps state that must stay out of run directories and sandboxes."""
    if explicit := os.environ.get(STATE_ENV):
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    return Path(xdg) / "benchwright" if xdg else Path.home() / ".local" / "state" / "benchwright"


def new_key() -> bytes:
    """A fresh 256-bit run key (`key_index.record` keeps it, outside the run directory)."""
    return secrets.token_bytes(32)


def seal(doc: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """``doc`` as it will read back from JSON, plus its MAC."""
    plain = json.loads(json.dumps(doc, default=str))
    return {**plain, MAC_FIELD: _mac(plain, key)}


def verify(doc: Mapping[str, Any], key: bytes) -> str | None:
    """Why ``doc`` (a sealed document read back) fails verification; None when it verifies."""
    given = doc.get(MAC_FIELD)
    if not isinstance(given, str):
        return "no MAC"
    rest = {k: v for k, v in doc.items() if k != MAC_FIELD}
    return None if hmac.compare_digest(given, _mac(rest, key)) else "MAC mismatch"


def _mac(doc: Mapping[str, Any], key: bytes) -> str:
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _MAC_PREFIX + hmac.new(key, canonical.encode("utf-8"), hashlib.sha256).hexdigest()
