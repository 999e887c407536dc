"""Browser instruments: a headless Chromium session with page-side instrumentation.

They observe and report (first-row time, console and page errors, WebGL draw calls,
held and aborted requests, screenshots); checks decide. A browser that is missing
or dies raises ``BrowserUnavailable``: the checks that needed it are UNAVAILABLE,
never an app zero. See docs/browser.md.
"""

from typing import TYPE_CHECKING, Any

from benchwright.probes.browser._errors import BrowserUnavailable
from benchwright.probes.browser._observe import (
    ConsoleMessage,
    PageError,
    RequestAction,
    ScenarioObservation,
    ScenarioTimings,
    Screenshot,
    WebGLContext,
    png_size,
)
from benchwright.probes.browser._options import (
    DATA_REQUESTS,
    NOISE,
    Hold,
    Instrumentation,
    UrlMatch,
    data_request,
)
from benchwright.probes.browser._session import (
    CHROMIUM,
    CHROMIUM_ARGS,
    BrowserSession,
    Lane,
    ScenarioHost,
    browser_available,
    default_executable,
)

if TYPE_CHECKING:
    from benchwright.probes.browser._scenario import Scenario


def __getattr__(name: str) -> Any:
    # Scenario imports Playwright; loaded on demand so that this package imports (and
    # browser_available() can report the reason) where Playwright is not installed.
    if name == "Scenario":
        from benchwright.probes.browser._scenario import Scenario

        return Scenario
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DATA_REQUESTS",
    "NOISE",
    "BrowserSession",
    "BrowserUnavailable",
    "ConsoleMessage",
    "Hold",
    "Instrumentation",
    "Lane",
    "PageError",
    "RequestAction",
    "Scenario",
    "ScenarioHost",
    "ScenarioObservation",
    "ScenarioTimings",
    "Screenshot",
    "UrlMatch",
    "WebGLContext",
    "browser_available",
    "data_request",
    "default_executable",
    "png_size",
]
