"""Serve the v3 mock in the foreground for agents building against it
(``benchwright vendor meridian --api v3``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from benchwright.services.meridian.standalone import until_stopped
from benchwright.services.meridian_v3.config import API_KEY, DOCS_PATH, LIST_PATH
from benchwright.services.meridian_v3.control import MeridianV3Mock


def serve_forever(port: int, seed: int, trace: Path | None, echo: Callable[[str], None]) -> None:
    """Serve API v3 on 127.0.0.1:``port`` until Ctrl-C or SIGTERM, then stop cleanly. The
    seeded schedule fires by itself during the first walk; there are no controls to serve
    (they are Python calls, a grader's only)."""
    mock = MeridianV3Mock(seed, trace_path=trace)

    def start() -> None:
        base = mock.start(port)
        echo(f"Meridian API v3 mock (seed {seed}) on {base}")
        echo(f"  docs: {base}{DOCS_PATH}   list: {base}{LIST_PATH}   key: {API_KEY}")
        if trace is not None:
            echo(f"  trace: {trace}")

    until_stopped(start, mock.stop, echo)
