"""What a scenario injects and intercepts: plain frozen settings, no browser needed."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

UrlMatch = str | re.Pattern[str] | Callable[[str], bool]
"""A Playwright URL matcher: a glob (``**/api/**``), a compiled regex, or a predicate."""


def data_request(url: str) -> bool:
    """True for the app's data requests: ``/api``, ``/data``, ``/graphql`` and any ``*.json``."""
    path = urlsplit(url).path
    first = path.lstrip("/").split("/", 1)[0]
    return first in {"api", "data", "graphql"} or path.endswith(".json")


DATA_REQUESTS: UrlMatch = data_request
"""Every ``/api``, ``/data``, ``/graphql`` and ``*.json`` request: what an offline test aborts."""

NOISE: tuple[re.Pattern[str], ...] = (re.compile(r"/(favicon\.ico|apple-touch-icon[\w.-]*\.png)$"),)
"""Console messages from resources whose URL matches one of these are harmless noise."""


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold each matching request ``ms`` milliseconds before it goes on to the app."""

    match: UrlMatch
    ms: float


@dataclass(frozen=True, slots=True)
class Instrumentation:
    """What one scenario injects into the page and does to its requests."""

    row_selector: str | None = None
    """CSS selector of a data row; the first visible match is stamped (None: no stamp)."""
    disable_webgl: bool = False
    """``getContext('webgl'|'webgl2'|'experimental-webgl')`` answers null: WebGL is absent."""
    holds: tuple[Hold, ...] = ()
    aborts: tuple[UrlMatch, ...] = ()
    """Requests matching any of these fail in the page as network errors."""
    abort_error: str = "failed"
    """Playwright's error code for aborted requests (``failed``, ``connectionrefused``...)."""
    noise: tuple[re.Pattern[str], ...] = NOISE
    """Resource URLs whose console errors are set aside (kept in ``console_filtered``)."""
    viewport: tuple[int, int] = (1280, 800)
