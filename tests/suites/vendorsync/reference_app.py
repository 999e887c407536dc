"""Boot the vendorsync golden reference as a real subprocess, and talk to it over HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from benchwright.services.ports import PortLease, lease_port

REFERENCE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync" / "reference"
BOOT_BUDGET_S = 10.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    raw: bytes

    @property
    def body(self) -> object:
        return json.loads(self.raw)


def call(url: str, method: str = "GET", timeout: float = 60.0) -> Answer:
    """One request; an HTTP error status is an answer, not an exception."""
    data = b"" if method == "POST" else None
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as err:
        return Answer(err.code, dict(err.headers), err.read())


class ReferenceApp:
    """``python -m vendorsync --db DB --port N`` against the vendor at ``vendor_url``, run
    from ``tree`` (the golden reference unless a test boots an edited copy of it)."""

    def __init__(self, db: Path, vendor_url: str, tree: Path = REFERENCE) -> None:
        self.db, self.vendor_url, self.tree = db, vendor_url, tree
        self._lease: PortLease = lease_port()
        self.base = f"http://127.0.0.1:{self._lease.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ReferenceApp:
        env = {
            **os.environ,
            "PYTHONPATH": str(self.tree),
            "PYTHONDONTWRITEBYTECODE": "1",
            "MERIDIAN_BASE_URL": self.vendor_url,
            "MERIDIAN_API_KEY": "sk_test_meridian",
        }
        argv = [
            sys.executable,
            "-m",
            "vendorsync",
            "--db",
            str(self.db),
            "--port",
            str(self._lease.port),
        ]
        self.proc = subprocess.Popen(
            argv, cwd=self.tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + BOOT_BUDGET_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode(errors="replace") if self.proc.stdout else ""
                raise AssertionError(f"vendorsync exited {self.proc.returncode} at boot:\n{out}")
            try:
                if call(self.url("/api/health"), timeout=1).status == 200:
                    return self
            except OSError:
                time.sleep(0.05)  # not listening yet: poll again
        raise AssertionError(f"vendorsync did not answer health within {BOOT_BUDGET_S} s")

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str) -> Answer:
        return call(self.url(path))

    def post(self, path: str) -> Answer:
        return call(self.url(path), "POST")

    def kill(self) -> None:
        """SIGKILL: a crash, not a courtesy shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()

    def close(self) -> None:
        self.kill()
        self._lease.release()
