"""Confinement of every process that runs agent-controlled code.

Agents, the oracle's solution scripts, check commands and the app under test run
inside a bubblewrap sandbox: the workspace is the only writable host path, the
system is read-only, everything else of the host is absent, a private PID
namespace ends every process at the end of the phase or check, the network is a
policy, and resource limits hold — each sandbox's own (as root, a uid leased per
sandbox: `leased`). docs/security.md has the threat model.

`Isolation` is what a run records: ``bwrap`` when confined, ``none`` when the user
passed ``--no-sandbox``.
"""

from __future__ import annotations

from typing import Literal

from benchwright.sandbox._bwrap import (
    WRAPPER_LEVELS,
    command_line,
    interpreter_dirs,
    prepare,
)
from benchwright.sandbox._confinement import CONFINED, UNCONFINED, Confinement, require
from benchwright.sandbox._limits import limit_reason
from benchwright.sandbox._overlay import MOUNT_FAILED, Overlay
from benchwright.sandbox._policy import Edge, Limits, Network, Sandbox
from benchwright.sandbox._probe import overlay_supported, unavailable_reason
from benchwright.sandbox._uids import UID_RANGE, leased

Isolation = Literal["bwrap", "none"]

__all__ = [
    "CONFINED",
    "MOUNT_FAILED",
    "UID_RANGE",
    "UNCONFINED",
    "WRAPPER_LEVELS",
    "Confinement",
    "Edge",
    "Isolation",
    "Limits",
    "Network",
    "Overlay",
    "Sandbox",
    "command_line",
    "interpreter_dirs",
    "leased",
    "limit_reason",
    "overlay_supported",
    "prepare",
    "require",
    "unavailable_reason",
]
