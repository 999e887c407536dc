"""Results an agent cannot forge: a per-run key outside the run directory, a MAC per result.

Each run gets a random 256-bit key, written once (0600, in 0700 directories) to
``<state dir>/run-keys/<run id>.key``, where the state dir is
``$BENCHWRIGHT_STATE_DIR``, else ``$XDG_STATE_HOME/benchwright``, else
``~/.local/state/benchwright``. The sandbox never shows an agent that path (its
``$HOME`` is private and empty), so an agent that reaches the run directory can
write a ``result.json`` but cannot give it a MAC that verifies. The MAC is
HMAC-SHA256 over the canonical JSON of every other field of the document. The run's
``summary.json`` is sealed the same way; `benchwright.execution.verification` is the
one rule every reader applies.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchwright.errors import HarnessError, SpecError

STATE_ENV = "BENCHWRIGHT_STATE_DIR"
MAC_FIELD = "mac"
SUMMARY_SEALED = "summary_sealed"
"""A sealed result's field saying its run seals ``summary.json`` too, so a summary
whose MAC was stripped cannot pass for one written before summaries were sealed."""
_MAC_PREFIX = "hmac-sha256:"
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


def state_dir() -> Path:
    """Where benchwright keeps state that must stay out of run directories and sandboxes."""
    if explicit := os.environ.get(STATE_ENV):
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    return Path(xdg) / "benchwright" if xdg else Path.home() / ".local" / "state" / "benchwright"


def key_path(run_id: str) -> Path:
    if not _RUN_ID.fullmatch(run_id):
        raise SpecError.single("run.json", f"run_id {run_id!r} is not a run id", "run_id")
    return state_dir() / "run-keys" / f"{run_id}.key"


def create_key(run_id: str) -> bytes:
    """A fresh key for ``run_id``, replacing any earlier one (whose results no longer verify)."""
    path = key_path(run_id)
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        for directory in (path.parent.parent, path.parent):
            if stat.S_IMODE(directory.stat().st_mode) & 0o077:
                directory.chmod(0o700)
        path.unlink(missing_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(key.hex() + "\n")
    except OSError as exc:
        raise HarnessError(f"cannot write the run key {path}: {exc.strerror}") from exc
    return key


def load_key(run_id: str) -> bytes | None:
    """The run's key, or None when it is missing or unreadable (every result then re-runs)."""
    try:
        fd = os.open(key_path(run_id), os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd) as file:
            key = bytes.fromhex(file.read().strip())
    except (OSError, ValueError):
        return None
    return key if len(key) == 32 else None


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
