"""The app under test: booted from its documented command line, watched, and ended.

The app runs as the leader of a new session in the agent's tree, with its output
in a log file. A boot is hermetic (the database and its ``-wal``/``-shm`` files
are deleted first) and readiness is polled on a health path, never slept on; the
result is a ``BootObservation`` carrying the seed's boot ladder. Teardown ends
the whole process group and the leader's descendants, and proves none is left.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.services import _launch
from benchwright.services._boot import BootObservation, BootPolicy, boot_ladder
from benchwright.services._launch import fill, spawn
from benchwright.services._process_group import Family
from benchwright.services._readiness import exit_code, wait_ready
from benchwright.services.ports import port_is_free

__all__ = ["AppUnderTest", "BootObservation", "BootPolicy", "boot_ladder"]

KILL_TIMEOUT_S = 5.0
PORT_FREE_TIMEOUT_S = 3.0


class AppUnderTest:
    """One app process (and everything it starts); a context manager that boots and stops.

    Args:
        command: template such as ``"python -m vspro --db {db} --port {port}"``; the
            placeholders are ``{db}``, ``{port}``, ``{tree}`` and ``{python}`` (this
            interpreter). It is split like a shell line, then each word is filled in.
        tree: the app's source tree: the working directory and ``PYTHONPATH``.
        db: the database file the app is told to use; deleted before ``boot()``.
        port: the port the app is told to bind (lease it from ``services.ports``).
        env: added to (and overriding) the inherited environment, e.g. ``MERIDIAN_BASE_URL``.
        health_path: polled until it answers 200.
        policy: poll interval, budget and rung; the seed's by default.
        log_path: where stdout and stderr go; ``<db>.app.log`` by default.
        stop_grace_s: how long ``stop()`` lets the app shut down after SIGTERM.
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
    ) -> None:
        self.tree, self.db, self.port, self.host = Path(tree), Path(db), port, host
        self.health_path, self.stop_grace_s = health_path, stop_grace_s
        self.policy = policy or BootPolicy()
        self.log_path = log_path or self.db.with_name(self.db.name + ".app.log")
        self.argv = fill(command, db=self.db, port=port, tree=self.tree)
        self.env = {
            **os.environ,
            "PYTHONPATH": str(self.tree),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONUNBUFFERED": "1",  # so the log holds what a SIGKILLed app printed
            **(env or {}),
        }
        self.boot_observation: BootObservation | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._family: Family | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        """The leader's pid, which is also its process group and session id."""
        return self._proc.pid if self._proc is not None else None

    def boot(self, policy: BootPolicy | None = None) -> BootObservation:
        """Delete the database and its sidecars, start the app, and observe readiness."""
        if self._proc is not None:
            raise HarnessError(f"app on port {self.port} is already running; use restart()")
        for path in (self.db, Path(f"{self.db}-wal"), Path(f"{self.db}-shm")):
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                raise HarnessError(f"cannot delete {path} before a hermetic boot: {exc}") from exc
        self.boot_observation = self._start(policy or self.policy)
        return self.boot_observation

    def restart(self, policy: BootPolicy | None = None) -> BootObservation:
        """SIGKILL the app if it runs, then start it again on the same database and port."""
        self.kill()
        return self._start(policy or self.policy)

    def kill(self) -> None:
        """SIGKILL the whole process group and every descendant; no graceful shutdown."""
        if self._proc is None or self._family is None:
            return
        survivors = self._family.kill_and_wait(KILL_TIMEOUT_S)
        self._reap()
        if survivors:
            raise HarnessError(f"app processes survived SIGKILL: pids {sorted(survivors)}")

    def stop(self, grace_s: float | None = None) -> None:
        """SIGTERM the app and everything it started; once the leader has exited (or
        ``grace_s`` has passed), SIGKILL whatever is left."""
        if self._proc is None or self._family is None:
            return
        self._family.signal(signal.SIGTERM)
        deadline = time.monotonic() + (self.stop_grace_s if grace_s is None else grace_s)
        while exit_code(self._proc.pid) is None and time.monotonic() < deadline:
            time.sleep(0.02)
        self.kill()

    def _start(self, policy: BootPolicy) -> BootObservation:
        self._wait_port_free()
        self._proc, offset = spawn(self.argv, cwd=self.tree, env=self.env, log_path=self.log_path)
        self._family = Family(self._proc.pid)
        facts = dataclasses.asdict(
            wait_ready(self._proc.pid, self.base_url + self.health_path, policy, time.monotonic())
        )
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
