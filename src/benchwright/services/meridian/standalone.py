"""Serve the mock in the foreground for agents building against it (`benchwright vendor`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from pathlib import Path

from benchwright.services.meridian.control import MeridianMock


def until_stopped(
    start: Callable[[], None], stop_serving: Callable[[], None], echo: Callable[[str], None]
) -> None:
    """Run ``start`` (which serves and says where), then block until Ctrl-C or SIGTERM and
    run ``stop_serving`` however it ends.

    Both signals get a handler explicitly: a shell starting us in the background
    ignores SIGINT for its children, and a stop request must still be honoured.
    """
    stop = threading.Event()
    handled = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in handled}
    try:
        start()
        echo("Ctrl-C to stop.")
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        stop_serving()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    echo("stopped")


def serve_forever(
    port: int, seed: int, trace: Path | None, echo: Callable[[str], None], control_port: int = 0,
    version: str = "v2",
) -> None:  # fmt: skip
    """Serve API ``version`` on 127.0.0.1:``port`` and the controls on ``control_port`` (0:
    any free one) until Ctrl-C or SIGTERM, then stop cleanly. The controls' address and
    token are printed for the person at the terminal; a client built against the API
    needs neither.
    """
    mock = MeridianMock(seed, trace_path=trace, version=version)

    def start() -> None:
        base = mock.start(port)
        control = mock.start_control(control_port)
        echo(f"Meridian API {version} mock (seed {seed}) on {base}")
        echo(f"  docs: {base}{mock.api.docs_path}   list: {base}{mock.api.list_path}")
        echo(f"  controls: POST {control}/admin/<action> "
             f"with 'Authorization: Bearer {mock.control_token}'")  # fmt: skip
        if trace is not None:
            echo(f"  trace: {trace}")

    until_stopped(start, mock.stop, echo)
