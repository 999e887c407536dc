"""The grader's side of a sandboxed app's network edge (services/_relay.py has the shape).

One `Bridge` per app start (or per build trial, vendor side only: `build_vendor`): it
listens on the app's leased port on the host's
loopback (so the probes, the browser and the vendor's webhook deliveries reach
the app at ``127.0.0.1:<leased port>`` as before) and relays to ``app.sock``;
it listens on ``vendor.sock`` and relays to the mock's real address. A service of a
suite with several (sb-7's ledgerd) is also routed to its peers (``route-<port>.sock``
to the peer's leased port on the host's loopback), and a process serving several
services at once has more ports of its own relayed in (``app-<port>.sock``). All of it
runs on one asyncio loop in one thread, which `close` ends and joins.

`Bridge.vendor_outage` is the vendor going down on demand (spec §7's "vendor
unreachable"): only here can it happen, because only here does something other than
the mock answer at the address the app was told.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.services._egress import EGRESS_SOCKET, HEAD_LIMIT
from benchwright.services._egress import handle as proxy
from benchwright.services._relay import (
    APP_SOCKET,
    READY,
    VENDOR_SOCKET,
    Ends,
    Relays,
    tcp_listener,
    unix_listener,
)

STEP_TIMEOUT_S = 10.0
PREFIX = "bw-bridge-"
"""``<tmp>/bw-bridge-<pid>-<random>``: the socket directory of one app start."""


def sweep_stale(tmp: Path) -> list[Path]:
    """Remove the socket directories of graders that died without closing their bridge
    (SIGKILL leaves them behind); a live grader's are left alone. Returns what went."""
    gone = []
    for directory in tmp.glob(f"{PREFIX}*-*"):
        pid = directory.name[len(PREFIX) :].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(directory, ignore_errors=True)
        gone.append(directory)
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


@dataclass(frozen=True, slots=True)
class VendorRoute:
    """The vendor where the app was told it is, and where the mock really listens; or, as
    a peer route, a port the app dials for another service and where that one listens."""

    port: int
    """The port the app dials on its own loopback (the rendered base URL's)."""
    target: tuple[str, int]
    """The mock's (or the peer's) real (host, port) on the host's loopback."""

    @property
    def socket(self) -> str:
        """The bridge directory's socket a peer route crosses by."""
        return f"route-{self.port}.sock"


def inward_socket(port: int) -> str:
    """The bridge directory's socket leading to ``port``, a further port of the app's."""
    return f"app-{port}.sock"


class Bridge:
    """Relays for one start of one sandboxed app; a context manager."""

    def __init__(
        self, host: str, app_port: int | None, vendor: VendorRoute | None,
        egress: frozenset[tuple[str, int]] = frozenset(), *,
        peers: tuple[VendorRoute, ...] = (), also: tuple[int, ...] = (),
    ) -> None:  # fmt: skip
        """``app_port`` None: nothing inside to relay to (an agent building against the
        vendor); ``vendor`` None: no vendor to relay out to; ``egress`` the (host, port)
        pairs an allow-listing CONNECT proxy on ``egress.sock`` tunnels to (none: no proxy,
        services/_egress.py); ``peers`` the routes to other services (never cut by
        `vendor_outage`: a peer goes down by being killed); ``also`` further ports of the
        app's own, each relayed from the same port on the host's loopback."""
        self.host, self.app_port, self.vendor, self.egress = host, app_port, vendor, egress
        self.peers, self.also = peers, also
        sweep_stale(Path(tempfile.gettempdir()))
        # short: sun_path is 108 bytes; the pid lets a later grader sweep it if we are killed
        self.directory = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
        # removed by `close`, or at exit when a stop signal landed before anyone could close
        self._remove_directory = weakref.finalize(self, shutil.rmtree, self.directory, True)
        self.reached = False
        """Whether a connection ever reached the app's port inside (the app had bound it)."""
        self._loop = asyncio.new_event_loop()
        self._relays = Relays()
        self._vendor_relays = Relays()
        """Apart from the app's, so an outage ends the vendor connections alone."""
        self._vendor_down = False
        """Read and written on the loop only (see `vendor_outage`)."""
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="benchwright-bridge", daemon=True
        )

    def open(self) -> Bridge:
        """Start listening on both sides.

        Raises:
            HarnessError: a listener cannot be bound (the app's port is taken).
        """
        self._thread.start()
        try:
            self._run(self._listen())
        except OSError as exc:
            self.close()
            where = " or ".join(f"{self.host}:{port}" for port in (self.app_port, *self.also))
            raise HarnessError(f"cannot relay {where} to the app: {exc}") from exc
        return self

    async def _listen(self) -> None:
        async def to_app() -> Ends:
            ends = await self._to_inside(APP_SOCKET, self.app_port)
            self.reached = True
            return ends

        if self.app_port is not None:
            await self._relays.listen(tcp_listener(self.host, self.app_port), to_app)
        for port in self.also:
            to_port = functools.partial(self._to_inside, inward_socket(port), port)
            await self._relays.listen(tcp_listener(self.host, port), to_port)
        for peer in self.peers:
            to_peer = functools.partial(asyncio.open_connection, *peer.target)
            await self._relays.listen(unix_listener(str(self.directory / peer.socket)), to_peer)
        if self.vendor is not None:
            vendor_sock = unix_listener(str(self.directory / VENDOR_SOCKET))
            await self._vendor_relays.listen(vendor_sock, self._to_vendor)
        if self.egress:
            egress_sock = unix_listener(str(self.directory / EGRESS_SOCKET))
            allowed = self.egress
            await self._relays.serve(
                egress_sock, lambda r, w: proxy(r, w, allowed), limit=HEAD_LIMIT
            )

    async def _to_inside(self, name: str, port: int | None) -> Ends:
        """The app's ``port`` through socket ``name``; refused while nothing inside has
        bound it (the relay inside then hangs up without its `READY` byte)."""
        reader, writer = await asyncio.open_unix_connection(str(self.directory / name))
        if await reader.read(len(READY)) != READY:
            writer.close()
            raise ConnectionRefusedError(f"port {port} refused inside the sandbox")
        return reader, writer

    async def _to_vendor(self) -> Ends:
        """The mock, unless the vendor is down: then a refusal, which `Relays` answers by
        resetting the connection the sandbox's relay opened for the app."""
        if self._vendor_down:
            raise ConnectionRefusedError("the vendor is down (Bridge.vendor_outage)")
        assert self.vendor is not None
        return await asyncio.open_connection(*self.vendor.target)

    async def _set_vendor_down(self, down: bool) -> None:
        self._vendor_down = down
        if down:
            await self._vendor_relays.drop()

    @contextlib.contextmanager
    def vendor_outage(self) -> Iterator[None]:
        """While inside, the vendor gives the app no answer: each connection the app opens
        to it is closed at once (the mock never hears of it), and the ones being relayed
        when the outage starts are ended too, so a client holding a keep-alive connection
        meets the outage as well. The vendor answers again however the block ends.

        Raises:
            HarnessError: no vendor is relayed to this app, or the bridge does not answer.
        """
        if self.vendor is None:
            raise HarnessError("no vendor is relayed to this app: it cannot go down")
        self._run(self._set_vendor_down(True))
        try:
            yield
        finally:
            if self._thread.is_alive():  # a closed bridge relays nothing to restore
                self._run(self._set_vendor_down(False))

    def close(self) -> None:
        """End every relayed connection, stop the loop, join its thread, remove the sockets."""
        if self._thread.is_alive():
            try:
                self._run(self._close_relays())
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join(STEP_TIMEOUT_S)
        if not self._thread.is_alive() and not self._loop.is_closed():
            self._loop.close()
        self._remove_directory()

    async def _close_relays(self) -> None:
        await self._relays.close()
        await self._vendor_relays.close()

    def _run(self, step: object) -> None:
        future = asyncio.run_coroutine_threadsafe(step, self._loop)  # type: ignore[arg-type]
        try:
            future.result(STEP_TIMEOUT_S)
        except FutureTimeout as exc:
            raise HarnessError(f"the app's network bridge did not answer within "
                               f"{STEP_TIMEOUT_S:g} s") from exc  # fmt: skip

    def __enter__(self) -> Bridge:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()
