"""The app under test: booted from its documented command line, watched, and ended.

The app runs as the leader of a new session in the agent's tree, with its output
in a log file. A boot is hermetic (the database and its ``-wal``/``-shm`` files
are deleted first) and readiness is polled on a health path, never slept on; the
result is a ``BootObservation`` carrying the seed's boot ladder. Teardown ends
the whole process group and the leader's descendants, and proves none is left.

Given a `Confinement` that is enabled, the app runs sandboxed (bubblewrap, a
network namespace of its own): only its tree and its database's directory are
writable, the rest of the host is invisible, and its PID namespace ends every
process it started with it. Its port is relayed to the leased port on the host's
loopback, and the vendor to the port it was told (``vendor=``), for as long as it
runs; services/_confine.py says what changes for the harness. Only then can the
vendor stop answering on demand (`AppUnderTest.vendor_outage`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox import UNCONFINED, WRAPPER_LEVELS, Confinement, leased
from benchwright.services import _confine, _launch
from benchwright.services._boot import (
    BootObservation,
    BootPolicy,
    boot_headline,
    boot_ladder,
    last_line,
)
from benchwright.services._bridge import Bridge, VendorRoute
from benchwright.services._launch import fill, spawn
from benchwright.services._process_group import Family
from benchwright.services._readiness import exit_code, wait_ready
from benchwright.services.ports import port_is_free

__all__ = [
    "AppUnderTest",
    "BootObservation",
    "BootPolicy",
    "VendorRoute",
    "boot_headline",
    "boot_ladder",
    "last_line",
]

KILL_TIMEOUT_S = 5.0
PORT_FREE_TIMEOUT_S = 3.0


class AppUnderTest:
    """One app process (and everything it starts); a context manager that boots and stops.

    Args:
        command: template such as ``"python -m vspro --db {db} --port {port}"``; the
            placeholders are ``{db}``, ``{db_dir}`` (its directory), ``{port}``, ``{tree}``
            and ``{python}`` (this interpreter). It is split like a shell line, then each
            word is filled in.
        tree: the app's source tree: the working directory and ``PYTHONPATH``.
        db: the database file the app is told to use; deleted before ``boot()``.
        port: the port the app is told to bind (lease it from ``services.ports``).
        env: added to (and overriding) the inherited environment, e.g. ``MERIDIAN_BASE_URL``.
            Sandboxed, only ``_confine.INHERITED`` is inherited.
        health_path: polled until it answers 200.
        policy: poll interval, budget and rung; the seed's by default.
        log_path: where stdout and stderr go; ``<db>.app.log`` by default. Sandboxed, it
            must lie outside the tree and the database's directory (the app cannot reach it).
        stop_grace_s: how long ``stop()`` lets the app shut down after SIGTERM.
        confinement: the run's; enabled, the app runs in a sandbox where the tree and the
            database's directory are the only writable paths. Unconfined by default.
        vendor: sandboxed, the vendor's port on the app's own loopback and the mock's real
            address (relayed); None relays nothing in. Unconfined, the app dials the host's
            loopback itself, so the mock must really listen where the app was told.
        peers: sandboxed, the other services this one dials (each port on its own loopback
            relayed to the peer's on the host's), never cut by `vendor_outage`; unconfined,
            the app dials them itself.
        also: further ports the app binds besides ``port`` (a process serving two
            services), each relayed from the same port on the host's loopback when
            sandboxed; health is polled on ``port`` only.

    Raises:
        HarnessError: the template is bad, or the log lies where a sandboxed app can write.
    """

    def __init__(
        self,
        command: str,
        *,
        tree: Path,
        db: Path,
        port: int,
        env: Mapping[str, str] | None = None,
        health_path: str = "/api/health",
        policy: BootPolicy | None = None,
        log_path: Path | None = None,
        host: str = "127.0.0.1",
        stop_grace_s: float = 5.0,
        confinement: Confinement = UNCONFINED,
        vendor: VendorRoute | None = None,
        peers: tuple[VendorRoute, ...] = (),
        also: tuple[int, ...] = (),
    ) -> None:
        self.tree, self.db, self.port, self.host = Path(tree), Path(db), port, host
        self.health_path, self.stop_grace_s = health_path, stop_grace_s
        self.policy = policy or BootPolicy()
        self.log_path = log_path or self.db.with_name(self.db.name + ".app.log")
        self.argv = fill(command, db=self.db, db_dir=self.db.parent, port=port, tree=self.tree)
        self.confinement, self.vendor, self.peers, self.also = confinement, vendor, peers, also
        self.sandbox = _confine.app_sandbox(confinement, self.tree, self.db, self.log_path)
        ours = {
            "PYTHONPATH": str(self.tree),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONUNBUFFERED": "1",  # so the log holds what a SIGKILLed app printed
            **(env or {}),
        }
        self.env = _confine.environment(self.sandbox, ours)
        self.boot_observation: BootObservation | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._family: Family | None = None
        self._bridge: Bridge | None = None
        self._held = contextlib.ExitStack()
        """What a sandboxed start holds until the app is gone: its leased uid."""

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def can_cut_vendor(self) -> bool:
        """Whether `vendor_outage` can run: the app is sandboxed and a vendor is relayed to
        it. Unconfined, the mock itself owns the port the app dials, so nothing in between
        can stop answering."""
        return self._bridge is not None and self.vendor is not None

    def vendor_outage(self) -> contextlib.AbstractContextManager[None]:
        """A block during which the vendor gives the app no answer (`Bridge.vendor_outage`),
        restored however it ends.

        Raises:
            HarnessError: `can_cut_vendor` is False.
        """
        if self._bridge is None:
            raise HarnessError(
                "the vendor can be cut only for a running sandboxed app: "
                "unconfined, the mock itself owns the port the app dials"
            )
        return self._bridge.vendor_outage()

    @property
    def running(self) -> bool:
        """Started and not exited (sandboxed, the app's exit ends its bubblewrap too):
        whether a service outlived its peer's absence is read from this."""
        return self._proc is not None and exit_code(self._proc.pid) is None

    @property
    def pid(self) -> int | None:
        """The leader's pid, which is also its process group and session id (sandboxed:
        bubblewrap's, whose PID namespace holds the app)."""
        return self._proc.pid if self._proc is not None else None

    def boot(self, policy: BootPolicy | None = None) -> BootObservation:
        """Delete the database and its sidecars, start the app, and observe readiness."""
        if self._proc is not None:
            raise HarnessError(f"app on port {self.port} is already running; use restart()")
        try:
            self.db.parent.mkdir(parents=True, exist_ok=True)  # a sandbox binds it: it must exist
            for path in (self.db, Path(f"{self.db}-wal"), Path(f"{self.db}-shm")):
                path.unlink(missing_ok=True)
        except OSError as exc:
            raise HarnessError(f"cannot clear {self.db} for a hermetic boot: {exc}") from exc
        self.boot_observation = self._start(policy or self.policy)
        return self.boot_observation

    def restart(self, policy: BootPolicy | None = None) -> BootObservation:
        """SIGKILL the app if it runs, then start it again on the same database and port."""
        self.kill()
        return self._start(policy or self.policy)

    def kill(self) -> None:
        """SIGKILL the whole process group and every descendant; no graceful shutdown."""
        if self._proc is None or self._family is None:
            self._release()
            return
        survivors = self._family.kill_and_wait(KILL_TIMEOUT_S)
        self._reap()
        self._release()
        if survivors:
            raise HarnessError(f"app processes survived SIGKILL: pids {sorted(survivors)}")

    def stop(self, grace_s: float | None = None) -> None:
        """SIGTERM the app and everything it started; once the leader has exited (or
        ``grace_s`` has passed), SIGKILL whatever is left."""
        if self._proc is None or self._family is None:
            return
        self._family.signal(signal.SIGTERM)
        deadline = time.monotonic() + (self.stop_grace_s if grace_s is None else grace_s)
        while exit_code(self._proc.pid) is None and time.monotonic() < deadline:  # = the app's
            time.sleep(0.02)
        self.kill()

    def _start(self, policy: BootPolicy) -> BootObservation:
        self._wait_port_free()
        argv, wrappers, shown = self.argv, 0, shlex.join(self.argv)
        if self.sandbox is not None:
            try:
                sandbox = self._held.enter_context(leased(self.sandbox))
                self._bridge = Bridge(self.host, self.port, self.vendor, peers=self.peers,
                                      also=self.also).open()  # fmt: skip
                argv = _confine.wrap(sandbox, self.argv, self.tree, self.env, self._bridge)
            except BaseException:
                self._release()
                raise
            wrappers, shown = WRAPPER_LEVELS, f"{shown} (sandboxed: bwrap)"
        self._proc, offset = spawn(
            argv, cwd=self.tree, env=self.env, log_path=self.log_path, shown=shown
        )
        self._family = Family(self._proc.pid, wrappers)
        facts = dataclasses.asdict(
            wait_ready(self._proc.pid, self.base_url + self.health_path, policy, time.monotonic())
        )
        if self._bridge is not None:
            facts["exit_code"] = _confine.app_exit(facts["exit_code"])
            facts["bound"] = self._bridge.reached  # the relay always accepts; did the app?
        self._family.alive()  # remember who the app started while the links are visible
        body = facts.pop("health_body")
        tail = _launch.tail(self.log_path, offset, policy.tail_bytes)
        ladder, detail = boot_ladder(**facts, output_tail=tail, policy=policy)
        return BootObservation(
            ladder=ladder,
            detail=detail,
            output_tail=tail,
            health_body=body,
            port=self.port,
            log_path=self.log_path,
            **facts,
        )

    def _wait_port_free(self) -> None:
        """A port someone else holds would make a foreign server answer our health polls."""
        deadline = time.monotonic() + PORT_FREE_TIMEOUT_S
        while not port_is_free(self.port, self.host):
            if time.monotonic() >= deadline:
                raise HarnessError(f"port {self.port} is in use before the app starts")
            time.sleep(0.05)

    def _release(self) -> None:
        """Close the bridge, then give the uid back (killing any process of it left)."""
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None
        self._held.close()

    def _reap(self) -> None:
        """Reap the leader last: until then its pid (= group id) cannot be reused."""
        if self._proc is not None and exit_code(self._proc.pid) is not None:
            self._proc.wait()
            self._proc = self._family = None

    def __enter__(self) -> AppUnderTest:
        try:
            self.boot()
        except BaseException:
            self.kill()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
