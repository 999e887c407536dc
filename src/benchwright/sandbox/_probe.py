"""Can this machine sandbox? Asked once per process, answered with a reason."""

from __future__ import annotations

import os
import subprocess
from functools import cache
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox._bwrap import command_line, tool
from benchwright.sandbox._policy import Sandbox
from benchwright.sandbox._uids import leased

INSTALL_HINT = "install Debian's bubblewrap (apt-get install bubblewrap; make setup does it)"


@cache
def unavailable_reason() -> str | None:
    """None when bubblewrap confines a trivial command here; else why not, in one line."""
    needed = ["bwrap", "prlimit"] + (["setpriv"] if os.geteuid() == 0 else [])
    missing = [name for name in needed if tool(name) is None]
    if missing:
        return f"{', '.join(missing)} not found: {INSTALL_HINT}"
    try:
        with leased(Sandbox(writable=())) as sandbox:
            argv = command_line(sandbox, ["/bin/true"], Path("/"))
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except HarnessError as exc:
        return str(exc).removeprefix("sandbox: ")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot start: {exc}"
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        return f"bwrap cannot create namespaces here (exit {done.returncode}: {lines[-1]})"
    return None
