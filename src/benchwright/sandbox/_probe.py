"""Can this machine sandbox (and mount overlays in there)? Asked once per process."""

from __future__ import annotations

import os
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox._bwrap import command_line, tool
from benchwright.sandbox._overlay import Overlay
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


@cache
def overlay_supported() -> bool:
    """Whether a sandbox here can mount an overlay (root, and a kernel that allows it)."""
    if os.geteuid() != 0 or unavailable_reason() is not None:
        return False
    with tempfile.TemporaryDirectory(prefix="bw-overlay-probe-") as tmp:
        root = Path(tmp)
        overlay = Overlay(root / "lower", root / "layers", root / "target")
        for path in overlay.paths:
            path.mkdir(parents=True)
        if not overlay.mountable:
            return False
        try:
            with leased(Sandbox(writable=(), overlay=overlay)) as sandbox:
                argv = command_line(sandbox, ["/bin/true"], overlay.target)
                done = subprocess.run(argv, capture_output=True, timeout=30, check=False)
        except (HarnessError, OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0
