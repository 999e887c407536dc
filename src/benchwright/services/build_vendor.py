"""The build vendor: a fresh mock served to one trial's agent at the rendered address.

A task with ``vendor:`` tells the agent the vendor is at ``http://127.0.0.1:9003`` (the
profile's base URL). Per trial, before the first agent phase, a fresh mock of that vendor
starts in this process on a free port of the host's loopback (its public API only: the
control listener is never opened), and stops after the last phase. How the agent reaches
it depends on where the agent's processes run:

* **bridged** (the default, sandboxed): each agent process runs in a network namespace of
  its own behind a relay (`Edge`, services/_relay.py) that answers on the rendered port
  there and carries each connection through a Unix socket to this trial's mock. Nothing
  else on the host is reachable from in there, and parallel trials never collide on the
  rendered port: each has its own namespace, bridge directory and mock.
  An agent that names provider hosts (a preset: ``api.anthropic.com``; ``--agent-egress``
  replaces them) also gets an allow-listing ``CONNECT`` proxy relayed in the same way and
  set as its ``HTTPS_PROXY``: it tunnels to those hosts and refuses every other.
* **host** (``--agent-network host|loopback``, or ``--no-sandbox``): the agent shares the
  host's network, so the mock must hold the rendered port on the host's loopback itself:
  one trial at a time (`require_one_at_a_time` refuses more workers).

The grading never uses this mock: the ``executed_app`` check's grader starts a fresh one
of its own, so nothing the agent did to the build's mock carries into the grade. What the
grade does take from it is its *trace*: every request the agent sent while it built
(whether it read the docs: sb-5.2's ``vendor_read_docs``). The mock keeps it in this
process's memory, where no agent process can write; the trial writes it out after the
last phase, beside the checks' evidence (`execution.evidence.write_build_trace`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from benchwright.errors import HarnessError, SpecError
from benchwright.model import Task
from benchwright.sandbox import Confinement, Edge, Network
from benchwright.services._bridge import Bridge, VendorRoute
from benchwright.services._confine import RELAY_SCRIPT, relay_words
from benchwright.services._egress import EGRESS_PORT, allow_list
from benchwright.services.vendors import VendorProfile, vendor_profile

__all__ = [
    "BuildVendor", "allow_list", "bridged", "build_vendor", "proxy_env", "require_one_at_a_time",
]  # fmt: skip

BRIDGED_NETWORKS = (None, Network.NONE, Network.BRIDGED)
"""The run's agent networks under which the build vendor is bridged (None: not chosen)."""


def bridged(confinement: Confinement, agent_network: Network | None) -> bool:
    """Whether a build vendor is relayed into the agent's own namespace (else it is served
    on the host's loopback at the rendered port)."""
    return confinement.enabled and agent_network in BRIDGED_NETWORKS


def require_one_at_a_time(
    tasks: Sequence[Task], confinement: Confinement, agent_network: Network | None, workers: int
) -> None:
    """Refuse parallel trials of build-vendor tasks whose vendor is served on the host.

    Raises:
        SpecError: more than one worker, and the vendor would be on the host's loopback.
    """
    if workers <= 1 or bridged(confinement, agent_network):
        return
    if any(task.vendor for task in tasks):
        why = "--no-sandbox" if not confinement.enabled else f"--agent-network {agent_network}"
        raise SpecError.single(why, f"cannot run {workers} trials at once: with {why} the "
                               "build vendor is served on the host's own loopback at the "
                               "rendered port, which one trial at a time can hold; keep "
                               "the sandbox's own network or pass --workers 1")  # fmt: skip


@dataclass(frozen=True)
class BuildVendor:
    """A trial's build vendor while it is served."""

    edge: Edge | None
    """The relay every agent sandbox runs behind (None: no vendor, or served on the host's
    loopback)."""
    mock: Any = None
    """The mock (None: the task has no vendor)."""

    def trace(self) -> list[dict] | None:
        """Every request the mock has answered so far, in arrival order (None: no vendor)."""
        return None if self.mock is None else self.mock.trace.lines()


@contextlib.contextmanager
def build_vendor(
    task: Task, seed: int, confinement: Confinement, agent_network: Network | None,
    egress: Iterable[str] = (),
) -> Iterator[BuildVendor]:  # fmt: skip
    """Serve ``task``'s build vendor for as long as the block runs; yield it (its `Edge`
    and its trace). ``egress``: the hosts (``host``/``host:port``) the agent also reaches,
    through an allow-listing CONNECT proxy set as its ``HTTPS_PROXY`` (services/_egress.py).

    Raises:
        HarnessError: the mock cannot start, or (host) the rendered port is taken.
    """
    if task.vendor is None:
        yield BuildVendor(None)
        return
    profile = vendor_profile(task.vendor)
    mock = profile.mock(seed)
    if not bridged(confinement, agent_network):
        _start_on_host(mock, profile)
        try:
            yield BuildVendor(None, mock)
        finally:
            mock.stop()
        return
    port = urlsplit(mock.start()).port
    assert port is not None
    try:
        route = VendorRoute(profile.port, ("127.0.0.1", port))
        allowed = allow_list(egress)
        with Bridge("127.0.0.1", None, route, allowed) as bridge:
            env = proxy_env() if allowed else ()
            edge = Edge(bridge.directory, tuple(relay_words(bridge)), (RELAY_SCRIPT,), env)
            yield BuildVendor(edge, mock)
    finally:
        mock.stop()


def proxy_env() -> tuple[tuple[str, str], ...]:
    """What points an agent's HTTPS clients at the egress proxy (and its loopback, where
    the vendor is, past it)."""
    proxy = f"http://127.0.0.1:{EGRESS_PORT}"
    direct = "127.0.0.1,localhost"
    return (("HTTPS_PROXY", proxy), ("https_proxy", proxy), ("NO_PROXY", direct),
            ("no_proxy", direct))  # fmt: skip


def _start_on_host(mock: Any, profile: VendorProfile) -> None:
    try:
        mock.start(profile.port)
    except HarnessError as exc:
        raise HarnessError(
            f"vendor: cannot serve {profile.name} at {profile.base_url} on the host's loopback "
            f"(the agent shares the host's network): {exc}"
        ) from exc
