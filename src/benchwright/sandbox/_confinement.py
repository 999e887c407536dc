"""A run's choice: confine agent-controlled code (the default) or, on request, not.

The choice is made once, on the command line, and travels with the trial to every
place that starts a process; each place asks it for a `Sandbox` of its own paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from benchwright.errors import HarnessError, SpecError
from benchwright.sandbox._overlay import Overlay
from benchwright.sandbox._policy import Edge, Limits, Network, Sandbox
from benchwright.sandbox._probe import unavailable_reason


@dataclass(frozen=True, slots=True)
class Confinement:
    """Whether processes are sandboxed, and the limits they get."""

    enabled: bool = True
    limits: Limits = field(default_factory=Limits)
    readable: tuple[Path, ...] = ()
    """Host paths every sandbox of the run may read (``--sandbox-ro``: an agent CLI's
    install directory under ``$HOME``, a toolchain outside the system directories)."""

    @property
    def isolation(self) -> str:
        """``bwrap`` or ``none``: recorded in every result and scorecard."""
        return "bwrap" if self.enabled else "none"

    def sandbox(
        self,
        writable: Iterable[Path],
        *,
        readable: Iterable[Path] = (),
        network: Network = Network.NONE,
        env: Mapping[str, str] | None = None,
        overlay: Overlay | None = None,
        edge: Edge | None = None,
    ) -> Sandbox | None:
        """The sandbox for one process tree, or None when confinement is off. With an
        ``edge`` the network is `Network.BRIDGED` whatever ``network`` says: the command
        runs behind the edge's relay, its directory writable and its files readable."""
        if not self.enabled:
            return None
        if edge is not None:
            writable, readable = (*writable, edge.directory), (*readable, *edge.readable)
            network = Network.BRIDGED
            env = {**dict(edge.env), **(env or {})}
        return Sandbox(
            tuple(writable),
            (*self.readable, *readable),
            network,
            self.limits,
            tuple((env or {}).items()),
            overlay,
            edge,
        )


CONFINED = Confinement()
"""The default everywhere a caller does not choose: sandboxed, default limits."""
UNCONFINED = Confinement(enabled=False)


def require(no_sandbox: bool, readable: Iterable[Path] = ()) -> Confinement:
    """The confinement a command line asked for; refuse when it cannot be had.

    Raises:
        HarnessError: bubblewrap cannot run here and ``--no-sandbox`` was not given.
    """
    if no_sandbox:
        return UNCONFINED
    if reason := unavailable_reason():
        raise HarnessError(
            f"sandbox: {reason}; agent-controlled code is never run unconfined unless you pass "
            "--no-sandbox (results then carry isolation: none)"
        )
    missing = [path for path in readable if not path.exists()]
    if missing:
        raise SpecError.single("--sandbox-ro", f"{missing[0]}: no such file or directory")
    return Confinement(readable=tuple(path.resolve() for path in readable))
