"""Build vendors: the mock an entrant builds against, by profile name (``vendor: meridian``,
``vendor: meridian-v1``).

A profile is what the entrant is told (the base URL, the docs URL and the API key
rendered into its prompt) and which mock answers there. The prompt is rendered by
*literal* replacement of the three tokens, never ``str.format``: a spec is full of
JSON examples whose braces must reach the entrant as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

TOKENS = ("{BASE_URL}", "{DOCS_URL}", "{API_KEY}")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class VendorProfile:
    """One vendor as an entrant is told of it."""

    name: str
    base_url: str
    """Where the entrant is told the vendor is: ``http://127.0.0.1:<port>``, the address
    its sandbox serves the mock at (its own network namespace: trials never collide)."""
    docs_path: str
    api_key: str
    api_version: str = "v2"
    """Which version of the Meridian API the mock serves (``v1``, ``v2``, ``v3``)."""

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
        if self.api_version == "v3":  # sb-7's vendor: a mock of its own (services/meridian_v3)
            from benchwright.services.meridian_v3 import MeridianV3Mock

            return MeridianV3Mock(seed, api_key=self.api_key)
        from benchwright.services.meridian import MeridianMock

        return MeridianMock(seed, version=self.api_version)


MERIDIAN = VendorProfile("meridian", "http://127.0.0.1:9003", "/v2/docs", "sk_test_meridian")
"""Meridian API v2 as the public sb-6 harness serves it (suites/vspro/README.md)."""
MERIDIAN_V1 = VendorProfile(
    "meridian-v1", "http://127.0.0.1:8787", "/v1/docs", "sk_test_meridian", api_version="v1"
)
"""Meridian API v1, sb-5.2 ``vendorsync``'s vendor, at the public v1 mock's own default
port (docs/facts/meridian-v1.md §1)."""
MERIDIAN_V3 = VendorProfile(
    "meridian-v3", "http://127.0.0.1:8850", "/v3/docs", "sk_test_meridian", api_version="v3"
)
"""Meridian API v3, sb-7's vendor, at the port the public sb-7 harness serves it on."""
PROFILES = {profile.name: profile for profile in (MERIDIAN, MERIDIAN_V1, MERIDIAN_V3)}


def named(table: Mapping[str, T], name: str, what: str) -> T:
    """``table[name]``.

    Raises:
        KeyError: no such entry; the message names ``what`` and lists the known ones.
    """
    try:
        return table[name]
    except KeyError:
        raise KeyError(f"unknown {what} {name!r}; known: {', '.join(sorted(table))}") from None


def vendor_profile(name: str) -> VendorProfile:
    """The profile called ``name``.

    Raises:
        KeyError: no such profile; the message lists the known ones.
    """
    return named(PROFILES, name, "vendor")
