"""What every ACE checker is given, and the one shape every checker family has.

ACE's oracle (``../shared/seeds/ace-check-registry.txt``) runs families of
checks over one workspace: offline text/filesystem checks, Docker-gated builds
and stacks, and black-box HTTP scenarios. A family is a module exposing ``IDS``
(the ACE ids it owns) and ``run(env, wanted) -> {id: CheckResult}``; the oracle
calls each family with the wanted ids it owns and turns every wanted id left
without a record into FAIL, so a checker that crashes or stays silent can never
raise a score.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from benchwright.model import CheckResult

DOCKER_SOCKETS = ("/var/run/docker.sock", "/run/podman/podman.sock")
PROBE_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class Engine:
    """A container engine the Docker-gated checks (B1-B3, C1, C2, F1-F9) can use."""

    available: bool
    reason: str
    """Which engine answered, or why none did (the SKIPPED rows' detail)."""


@dataclass(frozen=True, slots=True)
class AceEnv:
    """Everything an ACE checker may look at for one workspace."""

    workspace: Path
    engine: Engine
    base_url: str | None = None
    """A stack the user already started: F1-F9 and C2 run against it, Docker or not."""
    gradle: Literal["docker", "local"] = "docker"
    """``local`` runs B1-B3 with the machine's own JDK/Gradle (opt-in, beyond ACE)."""
    phase_changes: Mapping[str, Sequence[str]] | None = None
    """Files each phase changed, from the trial's own git snapshots (P3); None when the
    workspace was scored directly and no snapshot pair exists."""
    scratch: Path | None = field(default=None)
    """Where builds make their source-only copies (a temporary directory when None)."""


class Family(Protocol):
    """A checker family module: the ids it owns and one call that scores them."""

    IDS: frozenset[str]

    def run(self, env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]: ...


def detect_engine(timeout_s: float = PROBE_TIMEOUT_S) -> Engine:
    """A reachable Docker or Podman engine — the client binary alone is not one.

    ``docker --version`` answers on machines with no daemon, so the engine is asked
    for its server version; a refused socket or a timeout means absent.
    """
    for name in ("docker", "podman"):
        exe = shutil.which(name)
        if exe is None:
            continue
        try:
            done = subprocess.run(
                [exe, "version", "--format", "{{.Server.Version}}"],
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        version = done.stdout.strip()
        if done.returncode == 0 and version:
            return Engine(True, f"{name} engine {version}")
    for path in DOCKER_SOCKETS:
        if Path(path).exists() and _answers(path):
            return Engine(True, f"engine socket {path}")
    return Engine(False, "no Docker or Podman engine reachable (the client alone is not enough)")


def _answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(1.0)
        try:
            sock.connect(path)
        except OSError:
            return False
    return True
