"""The browser probe's one exception, kept apart so the session and its server share it."""

from __future__ import annotations

from benchwright.errors import EXIT_HARNESS, BenchwrightError


class BrowserUnavailable(BenchwrightError):
    """The browser could not be used: the probe cannot measure, which is never the app's fault.

    Callers turn the checks that needed the browser into UNAVAILABLE.
    """

    exit_code = EXIT_HARNESS

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"browser unavailable: {reason}")


def first_line(exc: BaseException) -> str:
    """The first line of a Playwright error, without its ``Call log`` tail."""
    text = getattr(exc, "message", None) or str(exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
