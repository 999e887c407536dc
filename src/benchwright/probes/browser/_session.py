"""One headless Chromium for a whole grading; one fresh context (profile) per scenario.

Playwright's sync API drives Debian's Chromium (never a downloaded build). A
browser that is missing, will not start or dies midway raises
``BrowserUnavailable``, so the caller reports the affected checks as
UNAVAILABLE; what the *app* does wrong (a failed navigation, a row that never
appears, a page that throws) is recorded as an observation, never raised.

The browser runs behind Playwright's browser server (``_server.py``), so threads can share
it: the thread that starts the session gets a connection of its own, and every other
thread asks for a ``lane``, its own connection to the same process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.probes.browser._errors import BrowserUnavailable, first_line
from benchwright.probes.browser._options import Instrumentation
from benchwright.probes.browser._server import BrowserServer

if TYPE_CHECKING:
    from benchwright.probes.browser._scenario import Scenario

CHROMIUM = "/usr/lib/chromium/chromium"
"""Debian's Chromium (``apt-get install -y chromium``); ``BENCHWRIGHT_CHROMIUM`` overrides it."""
CHROMIUM_ARGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
LAUNCH_TIMEOUT_S = 30.0
INSTALL_HINT = "install it with 'apt-get install -y chromium' (or run 'make setup' as root)"


def default_executable() -> str:
    return os.environ.get("BENCHWRIGHT_CHROMIUM") or CHROMIUM


def browser_available(executable: str | Path | None = None) -> str | None:
    """None when a headless Chromium starts and stops here, else the reason it does not.

    Starts a real browser (under a second), so a binary that is present but broken is
    caught too.
    """
    try:
        with BrowserSession(executable=executable):
            return None
    except BrowserUnavailable as exc:
        return exc.reason


class Lane:
    """One thread's connection to the session's browser: its own Playwright driver, the
    session's single Chromium. Made by ``BrowserSession.lane``.

    Scenarios on different lanes run at the same time, each in its own context. A lane is
    used only from the thread that opened it (Playwright's sync API is thread-bound).
    """

    def __init__(self, session: BrowserSession, server: BrowserServer, browser: Any) -> None:
        self.session = session
        self._server = server
        self.browser: Any = browser
        """The Playwright ``Browser`` as this thread sees it."""
        self.lost = False
        """The browser disconnected (exited, crashed or was killed) while this lane was open."""
        self._thread = threading.get_ident()
        browser.on("disconnected", self._on_disconnected)

    def _on_disconnected(self, _browser: object) -> None:
        if self.browser is not None:  # not our own close
            self.lost = self.session.lost = True

    def ensure_alive(self, doing: str) -> None:
        """Raise ``BrowserUnavailable`` when the browser is gone."""
        if self.browser is None:
            raise BrowserUnavailable(f"the lane is closed ({doing})")
        if self.lost or not self.browser.is_connected() or self._server.browser_exited():
            self.lost = self.session.lost = True
            raise BrowserUnavailable(f"the browser process exited ({doing})")

    def scenario(
        self,
        name: str,
        instrument: Instrumentation | None = None,
        *,
        artifacts: Path | None = None,
        read_timeout_s: float = 5.0,
    ) -> Scenario:
        """A fresh context (its own in-memory profile) and page, instrumented; a context manager.

        Args:
            name: unique within the session (across all its lanes); names the default
                artifacts folder.
            artifacts: where its screenshots go (default ``<session artifacts>/<name>``).
            read_timeout_s: bound on reading the page's records back (``observe``).
        """
        from benchwright.probes.browser._scenario import Scenario

        if threading.get_ident() != self._thread:
            raise RuntimeError("a lane is used only from the thread that opened it")
        self.ensure_alive(f"scenario {name!r}")
        self.session._claim(name)
        folder = artifacts or self.session.artifacts / safe_name(name)
        return Scenario(self, name, instrument or Instrumentation(), folder, read_timeout_s)

    def close(self) -> None:
        """Disconnect; the server closes this lane's contexts. Releases the thread's driver."""
        browser, self.browser = self.browser, None
        if browser is not None:
            with suppress(Exception):  # a dead browser is disconnected already
                browser.close()
            _driver_release()


class BrowserSession:
    """A started Chromium, reused by every scenario of one grading. A context manager.

    Args:
        executable: the Chromium binary (default ``/usr/lib/chromium/chromium``).
        args: command-line flags; the defaults are the machine's required ones.
        scratch: folder for the browser's ``HOME`` (a temporary one, removed on close,
            when None). Its profile is a temporary folder that Playwright removes on close.
        artifacts: where scenarios put screenshots, one folder each (default: inside
            ``scratch``, so removed on close with a temporary scratch).
        launch_timeout_s: bound on starting the browser, and on connecting a lane to it.

    Start and close it on one thread. On that thread, ``scenario`` (and ``browser``) use a
    connection of its own, opened on first use; a caller that only runs lanes never pays
    for it. Other threads open a ``lane`` each.
    """

    def __init__(
        self,
        *,
        executable: str | Path | None = None,
        args: tuple[str, ...] = CHROMIUM_ARGS,
        scratch: Path | None = None,
        artifacts: Path | None = None,
        launch_timeout_s: float = LAUNCH_TIMEOUT_S,
    ) -> None:
        self.executable = str(executable or default_executable())
        self.args = args
        self._scratch = scratch
        self._own_scratch = scratch is None
        self._artifacts = artifacts
        self.launch_timeout_s = launch_timeout_s
        self.launch_s: float | None = None
        """Seconds the browser took to start."""
        self.browser_pid: int | None = None
        """The one Chromium browser process every lane drives."""
        self.lost = False
        """The browser process disconnected (exited or crashed) before ``close``."""
        self._server: BrowserServer | None = None
        self._home: Lane | None = None
        self._thread: int | None = None
        self._names: set[str] = set()
        self._names_lock = threading.Lock()

    @property
    def scratch(self) -> Path:
        if self._scratch is None:
            raise BrowserUnavailable("the session is not started or already closed")
        return self._scratch

    @property
    def artifacts(self) -> Path:
        """Where a scenario's screenshots go by default, one folder per scenario."""
        return self._artifacts or self.scratch / "artifacts"

    @property
    def browser(self) -> Any:
        """The starting thread's Playwright ``Browser``, for callers that need more than the
        probe offers (None before start and after close)."""
        return self._home_lane().browser if self._server is not None else None

    @property
    def version(self) -> str | None:
        """Chromium's version (None before start and after close)."""
        return self.browser.version if self._server is not None else None

    def start(self) -> BrowserSession:
        if not os.path.isfile(self.executable):
            raise BrowserUnavailable(f"Chromium not found at {self.executable}; {INSTALL_HINT}")
        if not os.access(self.executable, os.X_OK):
            raise BrowserUnavailable(f"{self.executable} is not executable")
        try:
            import playwright.sync_api  # noqa: F401  (only to say it is missing)
        except ImportError:
            raise BrowserUnavailable(
                "the playwright package is not installed: pip install 'benchwright[browser]'"
            ) from None
        if self._scratch is None:
            self._scratch = Path(tempfile.mkdtemp(prefix="bw-browser-"))
        started = time.perf_counter()
        try:
            self._server = BrowserServer.launch(
                self.executable, self.args, _browser_env(self._scratch), self._scratch,
                self.launch_timeout_s,
            )  # fmt: skip
        except BaseException:
            self.close()
            raise
        self.launch_s = time.perf_counter() - started
        self.browser_pid = self._server.browser_pid
        self._thread = threading.get_ident()
        return self

    @contextmanager
    def lane(self) -> Iterator[Lane]:
        """A connection of the calling thread to this session's browser, closed when the
        block ends; for scenarios that run concurrently with other threads' lanes.

        Raises:
            BrowserUnavailable: the session is closed, or the browser is gone.
        """
        lane = self._connect()
        try:
            yield lane
        finally:
            lane.close()

    def _home_lane(self) -> Lane:
        """The starting thread's own connection, opened on first use."""
        if self._home is None:
            if threading.get_ident() != self._thread:
                raise RuntimeError(
                    "the session's own connection is the starting thread's; others use a lane()"
                )
            self._home = self._connect()
        return self._home

    def _connect(self) -> Lane:
        from playwright.sync_api import Error, sync_playwright

        server = self._server
        if server is None:
            raise BrowserUnavailable("the session is not started or already closed (a lane)")
        if server.browser_exited():
            raise BrowserUnavailable("the browser process exited (opening a lane)")
        try:
            driver = _driver_acquire(sync_playwright)
        except (Error, OSError) as exc:  # the Playwright driver itself cannot run
            raise BrowserUnavailable(
                f"the Playwright driver did not start: {first_line(exc)}"
            ) from exc
        try:
            browser = driver.chromium.connect(server.endpoint, timeout=self.launch_timeout_s * 1000)
        except BaseException as exc:
            _driver_release()
            if isinstance(exc, Error):
                raise BrowserUnavailable(
                    f"could not connect to Chromium at {self.executable}: {first_line(exc)}"
                ) from exc
            raise
        return Lane(self, server, browser)

    def _claim(self, name: str) -> None:
        """Reserve a scenario name for the whole session, whichever lane asks."""
        with self._names_lock:
            if name in self._names:
                raise ValueError(f"scenario {name!r} already ran in this session")
            self._names.add(name)

    def ensure_alive(self, doing: str) -> None:
        """Raise ``BrowserUnavailable`` when the browser is gone."""
        if self._server is None:
            raise BrowserUnavailable(f"the session is not started or already closed ({doing})")
        if self._home is not None:
            self._home.ensure_alive(doing)
        elif self.lost or self._server.browser_exited():
            self.lost = True
            raise BrowserUnavailable(f"the browser process exited ({doing})")

    def scenario(
        self,
        name: str,
        instrument: Instrumentation | None = None,
        *,
        artifacts: Path | None = None,
        read_timeout_s: float = 5.0,
    ) -> Scenario:
        """``Lane.scenario`` on the starting thread's own connection."""
        self.ensure_alive(f"scenario {name!r}")
        return self._home_lane().scenario(
            name, instrument, artifacts=artifacts, read_timeout_s=read_timeout_s
        )

    def abort(self) -> None:
        """Kill the browser now, from any thread. Every lane's current and next browser call
        then fails with ``BrowserUnavailable``. Use it when the run is lost anyway (a lane
        failed) and the other lanes should stop instead of measuring on."""
        if self._server is not None:
            self._server.kill_browser()

    def close(self) -> None:
        """Close the connection, the browser and the server. No Chromium process outlives
        this. Lanes still open in other threads fail at their next call."""
        home, server = self._home, self._server
        self._home = self._server = None
        if home is not None:
            home.close()
        if server is not None:
            server.stop()
        if self._own_scratch and self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> BrowserSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _browser_env(scratch: Path) -> dict[str, str]:
    """The server's and so the browser's environment: home, config and cache inside
    ``scratch``. ``TMPDIR`` stays: Chromium puts its singleton socket there, and a socket
    path inside a deep scratch folder can exceed the 107 bytes a Unix socket allows."""
    home = scratch / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


ScenarioHost = BrowserSession | Lane
"""What a scenario function is handed: the session (on the thread that started it) or a
lane (on any other); both open scenarios with the same ``scenario(...)``."""

_local = threading.local()
"""Per thread: the Playwright driver and how many connections use it. Playwright's sync
API allows one driver per thread at a time, so the connections a thread opens (a session's,
lanes, ``browser_available``) share it."""


def _driver_acquire(sync_playwright: Any) -> Any:
    if getattr(_local, "users", 0) == 0:
        _local.driver = sync_playwright().start()
        _local.users = 0
    _local.users += 1
    return _local.driver


def _driver_release() -> None:
    _local.users -= 1
    if _local.users == 0:
        driver, _local.driver = _local.driver, None
        driver.stop()


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "scenario"
