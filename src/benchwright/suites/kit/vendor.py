"""The vendor bridge: the suite's vendor mock served where the app was told it is.

An entrant's prompt renders the vendor's base URL (``http://127.0.0.1:<port>``), and an
app may hard-code it; the grading's fresh mock must answer there. A suite whose app talks
to no vendor has no mock (None): nothing is served.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol
from urllib.parse import urlsplit

from benchwright.errors import HarnessError, SpecError
from benchwright.sandbox import Confinement

_LOOPBACK_NAMES = ("127.0.0.1", "localhost")


class VendorMock(Protocol):
    """A suite's vendor mock, as the kit starts and stops it."""

    def start(self, port: int = 0) -> str: ...

    def stop(self) -> None: ...


def vendor_port(url: str) -> int:
    """The port of a rendered vendor URL: ``http://127.0.0.1:<port>`` (or ``localhost``).

    Raises:
        SpecError: (naming ``--vendor-url``) any other scheme, host, a missing port or a path.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise SpecError.single("--vendor-url", f"{url!r}: {exc}") from exc
    if parts.scheme != "http" or parts.hostname not in _LOOPBACK_NAMES or port is None:
        raise SpecError.single("--vendor-url", f"{url!r}: want http://127.0.0.1:<port>, the "
                               "loopback address rendered into the prompt")  # fmt: skip
    if parts.path.strip("/") or parts.query or parts.fragment or port < 1024:
        raise SpecError.single("--vendor-url", f"{url!r}: want a base URL on a port >= 1024 "
                               "with no path, e.g. http://127.0.0.1:9003")  # fmt: skip
    return port


def serve_vendor(mock: VendorMock, vendor_url: str, confinement: Confinement) -> None:
    """Start the mock where the app will find it at ``vendor_url``.

    Sandboxed, the app has a loopback of its own on which a relay answers at
    ``vendor_url``, so the mock takes any free port and gradings never contend for the
    rendered one. Unconfined, the app dials the host's loopback: the mock must hold the
    rendered port itself.

    Raises:
        HarnessError: unconfined, and the rendered port is taken.
    """
    if confinement.enabled:
        mock.start()
        return
    try:
        mock.start(vendor_port(vendor_url))
    except HarnessError as exc:
        raise HarnessError(
            f"--no-sandbox: cannot serve the vendor at {vendor_url}, where the app was told it "
            f"is ({exc}); run sandboxed, where every grading has that address to itself"
        ) from exc


@contextmanager
def vendor_served(
    mock: VendorMock | None, vendor_url: str, confinement: Confinement
) -> Iterator[None]:
    """The suite's mock served at ``vendor_url`` (`serve_vendor`) for the block, stopped
    however it ends; a suite without a vendor (``mock`` None) serves nothing."""
    if mock is None:
        yield
        return
    serve_vendor(mock, vendor_url, confinement)
    try:
        yield
    finally:
        mock.stop()
