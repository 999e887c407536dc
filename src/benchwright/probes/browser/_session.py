"""One headless Chromium for a whole grading; one fresh context (profile) per scenario.

Playwright's sync API drives Debian's Chromium (never a downloaded build). A
browser that is missing, will not start or dies midway raises
``BrowserUnavailable``, so the caller reports the affected checks as
UNAVAILABLE; what the *app* does wrong (a failed navigation, a row that never
appears, a page that throws) is recorded as an observation, never raised.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchwright.errors import EXIT_HARNESS, BenchwrightError
from benchwright.probes.browser._options import Instrumentation

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


class BrowserUnavailable(BenchwrightError):
    """The browser could not be used: the probe cannot measure, which is never the app's fault.

    Callers turn the checks that needed the browser into UNAVAILABLE.
    """

    exit_code = EXIT_HARNESS

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"browser unavailable: {reason}")


def default_executable() -> str:
    return os.environ.get("BENCHWRIGHT_CHROMIUM") or CHROMIUM


def browser_available(executable: str | Path | None = None) -> str | None:
    """None when a headless Chromium starts and stops here, else the reason it does not.

    Starts a real browser (about half a second), so a binary that is present but
    broken is caught too.
    """
    try:
        with BrowserSession(executable=executable):
            return None
    except BrowserUnavailable as exc:
        return exc.reason


class BrowserSession:
    """A started Chromium, reused by every scenario of one grading. A context manager.

    Args:
        executable: the Chromium binary (default ``/usr/lib/chromium/chromium``).
        args: command-line flags; the defaults are the machine's required ones.
        scratch: folder for the browser's ``HOME`` (a temporary one, removed on close,
            when None).
        artifacts: where scenarios put screenshots, one folder each (default: inside
            ``scratch``, so removed on close with a temporary scratch).
        launch_timeout_s: bound on starting the browser.

    Use it from the thread that started it (Playwright's sync API is thread-bound).
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
        self.version: str | None = None
        self._playwright: Any = None
        self.browser: Any = None
        """The Playwright ``Browser``, for callers that need more than the probe offers."""
        self.lost = False
        """The browser process disconnected (exited or crashed) before ``close``."""
        self._names: set[str] = set()

    @property
    def scratch(self) -> Path:
        if self._scratch is None:
            raise BrowserUnavailable("the session is not started or already closed")
        return self._scratch

    def start(self) -> BrowserSession:
        if not os.path.isfile(self.executable):
            raise BrowserUnavailable(f"Chromium not found at {self.executable}; {INSTALL_HINT}")
        if not os.access(self.executable, os.X_OK):
            raise BrowserUnavailable(f"{self.executable} is not executable")
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError:
            raise BrowserUnavailable(
                "the playwright package is not installed: pip install 'benchwright[browser]'"
            ) from None
        if self._scratch is None:
            self._scratch = Path(tempfile.mkdtemp(prefix="bw-browser-"))
        home = self._scratch / "home"
        home.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
        }
        started = time.perf_counter()
        try:
            self._playwright = _driver_acquire(sync_playwright)
            self.browser = self._playwright.chromium.launch(
                executable_path=self.executable,
                args=list(self.args),
                headless=True,
                env=env,
                timeout=self.launch_timeout_s * 1000,
                handle_sigint=False,
            )
        except (Error, OSError) as exc:  # OSError: the Playwright driver itself cannot run
            self.close()
            raise BrowserUnavailable(
                f"Chromium at {self.executable} did not start: {first_line(exc)}"
            ) from exc
        self.launch_s = time.perf_counter() - started
        self.version = self.browser.version
        self.browser.on("disconnected", self._on_disconnected)
        return self

    def _on_disconnected(self, _browser: object) -> None:
        self.lost = True

    def ensure_alive(self, doing: str) -> None:
        """Raise ``BrowserUnavailable`` when the browser is gone."""
        if self.browser is None:
            raise BrowserUnavailable(f"the session is not started or already closed ({doing})")
        if self.lost or not self.browser.is_connected():
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
        """A fresh context (its own in-memory profile) and page, instrumented; a context manager.

        Args:
            name: unique within the session; names the default artifacts folder.
            artifacts: where its screenshots go (default ``<session artifacts>/<name>``).
            read_timeout_s: bound on reading the page's records back (``observe``).
        """
        from benchwright.probes.browser._scenario import Scenario

        if name in self._names:
            raise ValueError(f"scenario {name!r} already ran in this session")
        self.ensure_alive(f"scenario {name!r}")
        self._names.add(name)
        folder = artifacts or (self._artifacts or self.scratch / "artifacts") / safe_name(name)
        return Scenario(self, name, instrument or Instrumentation(), folder, read_timeout_s)

    def close(self) -> None:
        """Close the browser and the Playwright driver; no Chromium process outlives this."""
        browser, playwright = self.browser, self._playwright
        self.browser = self._playwright = None
        if browser is not None:
            with contextlib.suppress(Exception):  # a dead browser is closed already
                browser.close()
        if playwright is not None:
            _driver_release()
        if self._own_scratch and self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __enter__(self) -> BrowserSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


_local = threading.local()
"""Per thread: the Playwright driver and how many sessions use it. Playwright's sync API
allows one driver per thread at a time, so sessions (and ``browser_available``) opened
while another is open share it; each launches its own browser."""


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


def first_line(exc: BaseException) -> str:
    """The first line of a Playwright error, without its ``Call log`` tail."""
    text = getattr(exc, "message", None) or str(exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "scenario"
