"""The one Chromium of a session, served by Playwright's browser server to every lane.

Playwright's sync API is bound to a thread, so lanes that run in parallel threads each
need their own Playwright driver, and the drivers must share one browser. Playwright's
browser server (``chromium.launchServer`` of the Node.js driver bundled with the Python
package) does that. It launches Chromium once, with the same defaults as
``chromium.launch``. It holds the only DevTools connection to the browser. Each client
that ``connect``s gets an isolated view: it sees only the contexts it created, and those
contexts are closed when it disconnects.

``connect_over_cdp`` from each lane was tried and rejected. Every CDP client attaches to
every page in the browser, so each lane's driver would also instrument the other lanes'
pages: it enables its domains on them, and a driver that connects or leaves in the middle
of another lane's scenario touches that page. Chromium started by hand would also lack
Playwright's launch defaults (``--hide-scrollbars``, no renderer backgrounding, no timer
throttling, the hover and pointer media settings). The scenarios' layout and timing
readings assume those defaults.

Processes: the server is started in a new process group. Chromium is its child, and
Playwright puts it in a process group of its own. ``stop`` closes the browser gracefully
(the server sees its stdin close), waits a bounded time, then kills both groups. If this
Python process dies, the server's stdin closes too, so the browser does not outlive it.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from benchwright.probes.browser._errors import BrowserUnavailable, first_line

SERVER_JS = r"""
console.log = console.error;  // stdout carries the ready line only: nobody drains it later
const [pkg, raw] = process.argv.slice(1);
const { chromium } = require(pkg);
chromium.launchServer({ ...JSON.parse(raw), env: process.env }).then(
  (server) => {
    const ready = { endpoint: server.wsEndpoint(), pid: server.process().pid };
    process.stdout.write(JSON.stringify(ready) + "\n");
    process.stdin.on("end", () => server.close().finally(() => process.exit(0)));
    process.stdin.resume();
  },
  (error) => {
    process.stderr.write(String((error && error.message) || error) + "\n");
    process.exit(1);
  },
);
"""
"""Launch Chromium, print ``{endpoint, pid}`` as one JSON line, and close the browser when
stdin ends (the session closed it, or the grader died)."""
STOP_GRACE_S = 5.0
"""How long a graceful close may take before the process groups are killed."""


class BrowserServer:
    """A running Playwright browser server and its Chromium. Made by ``launch``."""

    def __init__(self, process: subprocess.Popen[bytes], endpoint: str, browser_pid: int) -> None:
        self.process = process
        self.endpoint = endpoint
        """The ``ws://127.0.0.1:<port>/<guid>`` that lanes connect to."""
        self.browser_pid = browser_pid
        """The Chromium browser process; it leads its own process group."""

    @classmethod
    def launch(
        cls,
        executable: str,
        args: tuple[str, ...],
        env: Mapping[str, str],
        scratch: Path,
        timeout_s: float,
    ) -> BrowserServer:
        """Start the server and wait, up to ``timeout_s``, until Chromium is up.

        Raises:
            BrowserUnavailable: the driver cannot run, or Chromium did not start (then
                nothing started here is left running).
        """
        from playwright._impl._driver import compute_driver_executable  # the bundled Node.js
        from playwright.sync_api import Error

        options = {
            "executablePath": executable,
            "args": list(args),
            "headless": True,
            "handleSIGINT": False,
            "timeout": timeout_s * 1000,
            "host": "127.0.0.1",
        }
        log = scratch / "browser-server.log"
        try:
            node, cli = compute_driver_executable()
            with log.open("wb") as err:
                process = subprocess.Popen(
                    [node, "-e", SERVER_JS, str(Path(cli).parent), json.dumps(options)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    env=dict(env),
                    start_new_session=True,  # its own process group, killed as one on stop
                )
        except (Error, OSError) as exc:
            raise BrowserUnavailable(
                f"the Playwright driver cannot run here: {first_line(exc)}"
            ) from exc
        try:
            ready = json.loads(_first_line_out(process, timeout_s, executable, log))
        except BaseException:
            _stop(process, None, grace_s=0)
            raise
        return cls(process, ready["endpoint"], int(ready["pid"]))

    def browser_exited(self) -> bool:
        """Whether Chromium has exited (a zombie counts). Read from ``/proc`` because a
        lane's driver learns of it only during its next call, often after the error that
        the death caused."""
        try:
            stat = Path(f"/proc/{self.browser_pid}/stat").read_text()
        except OSError:
            return True
        return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")

    def kill_browser(self) -> None:
        """Kill Chromium now. Safe from any thread: every lane's pending and next browser
        call fails at once."""
        _kill_group(self.browser_pid)

    def stop(self) -> None:
        """Close the browser gracefully, then kill what is left. Nothing outlives this."""
        _stop(self.process, self.browser_pid)


def _first_line_out(
    process: subprocess.Popen[bytes], timeout_s: float, executable: str, log: Path
) -> bytes:
    """The server's first stdout line, read within ``timeout_s``."""
    assert process.stdout is not None
    fd, line = process.stdout.fileno(), b""
    deadline = time.monotonic() + timeout_s
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                raise BrowserUnavailable(
                    f"Chromium at {executable} did not start within {timeout_s:g} s"
                )
            chunk = os.read(fd, 4096)
            if not chunk:
                raise BrowserUnavailable(
                    f"Chromium at {executable} did not start: {_why_exited(process, log)}"
                )
            line += chunk
    return line


def _why_exited(process: subprocess.Popen[bytes], log: Path) -> str:
    with suppress(subprocess.TimeoutExpired):
        process.wait(1.0)
    text = log.read_text(errors="replace").strip() if log.is_file() else ""
    return text.splitlines()[0] if text else f"exit status {process.returncode}"


def _stop(
    process: subprocess.Popen[bytes], browser_pid: int | None, grace_s: float = STOP_GRACE_S
) -> None:
    """End the server's stdin (it closes Chromium and exits), wait up to ``grace_s``, then
    kill both process groups."""
    with suppress(OSError):
        if process.stdin is not None:
            process.stdin.close()
    with suppress(subprocess.TimeoutExpired):
        process.wait(grace_s)
    if process.poll() is None:  # still our unreaped child, so its group id is still ours
        _kill_group(process.pid)
    if browser_pid is not None:
        _kill_group(browser_pid)  # renderers, should the graceful close have left any
    with suppress(subprocess.TimeoutExpired):
        process.wait(STOP_GRACE_S)
    if process.stdout is not None:
        process.stdout.close()


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
