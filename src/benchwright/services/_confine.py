"""The app under test inside the sandbox: what it may write, see and inherit.

The app is agent-controlled code, so it runs under the run's `Confinement`, in a
network namespace of its own (`Network.BRIDGED`): the probes, the browser and the
vendor's webhooks reach it on its leased port on the host's loopback, and it reaches
the vendor at the address it was told, both through the relays of a `Bridge`
(services/_relay.py), whose socket directory is bound in. Its tree copy and its database's
directory are the only host paths it can write; the log the harness reads, the
vendor trace, the grader's other temp dirs, the suite and the reference tree do
not exist in there. Its environment is an allow-list plus the caller's, so the
grader's own secrets stay outside.

Bubblewrap stands between the harness and the app: the leader the harness
spawns is bubblewrap's monitor, whose child is the namespace's init, whose child
is the app. Both exit with the app's status (``128 + n`` when signal ``n`` killed
it), and both die of SIGTERM, taking the whole namespace with them.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox import Confinement, Network, Sandbox, command_line, prepare
from benchwright.sandbox import unavailable_reason as sandbox_unavailable
from benchwright.services import _relay
from benchwright.services._bridge import Bridge, inward_socket
from benchwright.services._egress import EGRESS_PORT, EGRESS_SOCKET
from benchwright.services._relay import NO_PORT

RELAY_SCRIPT = Path(_relay.__file__).resolve()
"""Run by the sandbox before the app, from the grader's interpreter (stdlib only)."""

INHERITED = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""What a sandboxed app inherits from the grader's environment (``HOME``/``TMPDIR`` are
the sandbox's own); anything else reaches it only when the caller passes it."""


def app_sandbox(confinement: Confinement, tree: Path, db: Path, log_path: Path) -> Sandbox | None:
    """The app's sandbox (tree and database directory writable), or None when unconfined.

    Raises:
        HarnessError: the log would lie where the app can write it.
    """
    sandbox = confinement.sandbox((tree, db.parent), network=Network.BRIDGED)
    if sandbox is not None:
        for path in sandbox.writable:
            if log_path.resolve().is_relative_to(path.resolve()):
                raise HarnessError(
                    f"the app log {log_path} lies under {path}, which the sandboxed app may "
                    "write; give log_path= outside the tree and the database's directory"
                )
    return sandbox


def environment(sandbox: Sandbox | None, ours: Mapping[str, str]) -> dict[str, str]:
    """The grader's environment plus ``ours`` unconfined; the allow-list plus ``ours`` inside."""
    if sandbox is None:
        return {**os.environ, **ours}
    return {**{name: os.environ[name] for name in INHERITED if name in os.environ}, **ours}


def wrap(
    sandbox: Sandbox, argv: list[str], cwd: Path, env: Mapping[str, str], bridge: Bridge
) -> list[str]:
    """The bubblewrap command line for ``argv``, with the writable paths handed to the app,
    behind the sandbox's side of ``bridge``'s relays (which binds them, then execs ``argv``).

    Raises:
        HarnessError: the sandbox cannot run here, the paths cannot be prepared, or the
            program is not found (inside, that would look like the app crashing).
    """
    if reason := sandbox_unavailable():
        raise HarnessError(f"cannot sandbox the app: {reason}")
    program = argv[0] if "/" not in argv[0] else str(cwd / argv[0])  # cwd: the app's, not ours
    if shutil.which(program, path=env.get("PATH", os.defpath)) is None:
        raise HarnessError(f"cannot start {argv[0]!r} in {cwd}: not found")
    sandbox = dataclasses.replace(
        sandbox,
        writable=(*sandbox.writable, bridge.directory),
        readable=(*sandbox.readable, RELAY_SCRIPT),
    )
    try:
        prepare(sandbox)
    except OSError as exc:
        raise HarnessError(f"cannot prepare the app's sandbox: {exc}") from exc
    return command_line(sandbox, [*relay_words(bridge), *argv], cwd)


def relay_words(bridge: Bridge) -> list[str]:
    """What runs inside before the command: the sandbox's side of ``bridge``'s relays,
    which binds its listeners and then execs the words that follow."""
    outward = [str(bridge.vendor.port)] if bridge.vendor else []
    if bridge.egress:
        outward.append(f"{EGRESS_PORT}={EGRESS_SOCKET}")
    outward += [f"{peer.port}={peer.socket}" for peer in bridge.peers]
    inward = [] if bridge.app_port is None else [str(bridge.app_port)]
    inward += [f"{port}={inward_socket(port)}" for port in bridge.also]
    vendor, app = ",".join(outward) or NO_PORT, ",".join(inward) or NO_PORT
    return [sys.executable, "-I", "-S", str(RELAY_SCRIPT), str(bridge.directory), vendor, app, "--"]


def app_exit(code: int | None) -> int | None:
    """The app's own exit code from bubblewrap's: ``128 + n`` becomes ``-n`` (signal n)."""
    return -(code - 128) if code is not None and code > 128 else code
