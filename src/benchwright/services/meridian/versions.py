"""The published versions of the Meridian API, as what one mock serves differently.

One mock machine (store, paging, traps, trace, ledgers, controls) serves every
version; a version is only its data and the few things that differ: the path
prefix, the fixture, the ETag salt, what a create stores and the docs page. The
routes each version answers are in `app.build_app`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchwright.services.meridian import docs_page, docs_v1, validation, writes_v1
from benchwright.services.meridian.config import Timing
from benchwright.services.meridian.fixture import RowSet, build_fixture
from benchwright.services.meridian.fixture_v1 import build_fixture_v1
from benchwright.services.vendors import named


@dataclass(frozen=True)
class ApiVersion:
    """One version of the vendor's API."""

    name: str
    """``v1``/``v2``: also the path prefix (``/v1/payments``)."""
    fixture: Callable[[int], RowSet]
    etag_salt: str
    problem: Callable[[dict], str | None]
    """A create body's first error code, or None."""
    new_row: Callable[[dict], dict]
    """The stored shape of a valid create body."""
    content: Callable[[dict], str]
    """A create body's content hash: "the same payment" across keys (the write ledger)."""
    docs: str
    """The docs page, a `string.Template` over ``base``, ``api_key`` and `docs_values`."""
    docs_values: Callable[[Timing], dict[str, str]]

    @property
    def list_path(self) -> str:
        return f"/{self.name}/payments"

    @property
    def docs_path(self) -> str:
        return f"/{self.name}/docs"


V1 = ApiVersion(
    "v1", build_fixture_v1, "meridian", writes_v1.problem, writes_v1.new_row,
    writes_v1.content_hash, docs_v1.DOCS, docs_v1.values,
)  # fmt: skip
"""sb-5.2 ``vendorsync``'s vendor (docs/facts/meridian-v1.md)."""
V2 = ApiVersion(
    "v2", build_fixture, "meridian2", validation.problem, validation.new_row,
    validation.content_hash, docs_page.DOCS, docs_page.values,
)  # fmt: skip
"""sb-6 ``vspro``'s vendor (shared/facts/meridian-v2-and-vspro.md)."""
VERSIONS = {version.name: version for version in (V1, V2)}


def api_version(name: str) -> ApiVersion:
    """The version called ``name``.

    Raises:
        KeyError: no such version; the message lists the known ones.
    """
    return named(VERSIONS, name, "Meridian API version")
