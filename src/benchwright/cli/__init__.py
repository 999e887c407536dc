"""The ``benchwright`` command line: parse, call one package function, print, exit.

One module per command group; each attaches its commands to the shared Typer
`app` when imported. Exit codes (`benchwright.errors.EXIT_CODES`): 0 passed, 1 failed,
2 invalid input, 3 harness failure or refused, 130 interrupted.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

import typer

from benchwright.cli import (  # noqa: F401 - they register commands
    ace,
    audit,
    board,
    calibrate,
    grade,
    grading,
    matrix,
    publish,
    runs,
    scoring,
    suites,
    vendor,
    view,
    watch,
)
from benchwright.cli._app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point: an unexpected crash is a harness failure (exit 3), never a verdict.

    SIGTERM and SIGHUP are handled as Ctrl-C is: every command already turns a
    `KeyboardInterrupt` into "keep what finished, end every running agent, check and
    app (their sandboxes die with them), remove temp dirs, exit 130", so a killed run
    leaves nothing behind and ``--resume`` finishes it.
    """
    from benchwright.errors import EXIT_HARNESS

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _interrupt)
    try:
        app()
    except Exception:
        import traceback

        traceback.print_exc()
        typer.echo("error: internal error in benchwright (the traceback is above)", err=True)
        sys.exit(EXIT_HARNESS)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    signal.signal(signum, signal.SIG_DFL)  # a second signal ends the process at once
    raise KeyboardInterrupt(signal.Signals(signum).name)
