"""Build vendors: the mock an entrant builds against, by profile name (``vendor: meridian``).

A profile is what the entrant is told (the base URL, the docs URL and the API key
rendered into its prompt) and which mock answers there. The prompt is rendered by
*literal* replacement of the three tokens, never ``str.format``: a spec is full of
JSON examples whose braces must reach the entrant as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

TOKENS = ("{BASE_URL}", "{DOCS_URL}", "{API_KEY}")


@dataclass(frozen=True, slots=True)
class VendorProfile:
    """One vendor as an entrant is told of it."""

    name: str
    base_url: str
    """Where the entrant is told the vendor is: ``http://127.0.0.1:<port>``, the address
    its sandbox serves the mock at (its own network namespace: trials never collide)."""
    docs_path: str
    api_key: str

    @property
    def docs_url(self) -> str:
        return self.base_url + self.docs_path

    @property
    def port(self) -> int:
        port = urlsplit(self.base_url).port
        assert port is not None  # every profile below names one
        return port

    def render(self, text: str) -> str:
        """``text`` with each token replaced literally by this vendor's value."""
        values = dict(zip(TOKENS, (self.base_url, self.docs_url, self.api_key), strict=True))
        for token, value in values.items():
            text = text.replace(token, value)
        return text

    def mock(self, seed: int) -> Any:
        """A fresh mock of this vendor (not started): ``start(port) -> base URL``, ``stop()``."""
        from benchwright.services.meridian import MeridianMock

        return MeridianMock(seed)


MERIDIAN = VendorProfile("meridian", "http://127.0.0.1:9003", "/v2/docs", "sk_test_meridian")
"""Meridian API v2 as the public sb-6 harness serves it (suites/vspro/README.md)."""
PROFILES = {MERIDIAN.name: MERIDIAN}


def vendor_profile(name: str) -> VendorProfile:
    """The profile called ``name``.

    Raises:
        KeyError: no such profile; the message lists the known ones.
    """
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown vendor {name!r}; known: {', '.join(sorted(PROFILES))}") from None
