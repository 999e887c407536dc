"""Bounded page-side reads for probes that drive one page through named sections (the
3D panels of vspro and sb-7): each read ends within its bound, and a read that runs into
it loses its section (UNAVAILABLE in the rows that needed it) instead of hanging the
scenario. A section the app gave nothing to measure stops quietly (`Stop`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario

WAIT_S = 10.0
"""Bound on each page-side read; a read that runs into it loses its section."""


class Lost(Exception):
    """A page-side read ran into its bound: the section is lost to the probe."""


class Stop(Exception):
    """Nothing to measure in this section (the app's doing): leave it, lose nothing."""


class PageReads:
    """One scenario's page plus the sections it lost; reads are bounded and never judge."""

    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.lost: dict[str, str] = {}

    def js(
        self, expression: str, arg: Any = None, timeout_s: float = WAIT_S, *,
        despite_loss: bool = False,
    ) -> Any:  # fmt: skip
        """The first truthy value of ``expression(arg)``, JSON-decoded when it is a string.
        After a lost section every read is skipped, unless ``despite_loss`` (a probe that
        asks what a hung page is doing)."""
        if self.lost and not despite_loss:
            raise Lost("skipped: an earlier section hit its bound (the page may be hung)")
        from playwright.sync_api import Error
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            handle = self.sc.page.wait_for_function(
                expression, arg=arg, timeout=timeout_s * 1000, polling=50
            )
        except PlaywrightTimeout:
            raise Lost(f"page-side read exceeded {timeout_s:g} s") from None
        except Error as exc:
            self.sc.session.ensure_alive("reading the 3D panel")
            raise Lost(f"page-side read failed: {str(exc).splitlines()[0]}") from exc
        try:
            value = handle.json_value()
        finally:
            handle.dispose()
        return json.loads(value) if isinstance(value, str) else value

    def poll(self, expression: str, arg: Any = None, timeout_s: float = 2.0) -> Any:
        """Like `js`, but running out of time is an answer (None), not a lost section."""
        try:
            return self.js(expression, arg, timeout_s)
        except Lost:
            if self.lost:
                raise
            return None

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        from playwright.sync_api import Error

        try:
            yield
        except Stop:
            pass
        except Lost as why:
            self.lost.setdefault(name, str(why))
        except Error as exc:  # input or screenshot failed; a dead browser raises instead
            self.sc.session.ensure_alive(f"probing the 3D panel ({name})")
            self.lost.setdefault(name, f"{name} failed: {str(exc).splitlines()[0]}")

    def wait(self, ms: float) -> None:
        self.sc.page.wait_for_timeout(ms)
