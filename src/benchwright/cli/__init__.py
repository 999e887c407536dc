"""The ``benchwright`` command line: parse, call one package function, print, exit.

One module per command group; each attaches its commands to the shared Typer
`app` when imported. Exit codes (`benchwright.errors.EXIT_CODES`): 0 passed, 1 failed,
2 invalid input, 3 harness failure or refused, 130 interrupted.
"""

from __future__ import annotations

import sys

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
from benchwright.cli._signals import install_stop_signals, leave, stopped

__all__ = ["app", "main"]


def main() -> None:
    """Entry point: an unexpected crash is a harness failure (exit 3), never a verdict.

    SIGTERM and SIGHUP are handled as Ctrl-C is, and a repeated signal does not cut the
    cleanup short (`_signals`): every command turns a `KeyboardInterrupt` into "keep what
    finished, end every running agent, check and app (their sandboxes die with them),
    remove temp dirs, exit 130", so a killed run leaves nothing behind and ``--resume``
    finishes it.
    """
    from benchwright.errors import EXIT_HARNESS

    install_stop_signals()
    try:
        app()
    except SystemExit as exc:
        if stopped():
            leave(exc.code)
        raise
    except Exception:
        import traceback

        traceback.print_exc()
        typer.echo("error: internal error in benchwright (the traceback is above)", err=True)
        sys.exit(EXIT_HARNESS)
