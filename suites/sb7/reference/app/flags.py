"""The three boot commands' flags, and how a process waits until it is told to stop."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--db-dir", type=Path, required=True, help="directory of the db files")
    return parser


def _ledgerd_vendor_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vendor", required=True, help="Meridian base URL")
    parser.add_argument("--tokens-file", type=Path, required=True, help="maker/checker/admin")


def ledgerd_flags() -> argparse.ArgumentParser:
    parser = _parser("python -m app.ledgerd", "ledgerd: sync, ledger, workflow, API, page")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--notifier", required=True, help="notifierd base URL")
    _ledgerd_vendor_flags(parser)
    return parser


def notifierd_flags() -> argparse.ArgumentParser:
    parser = _parser("python -m app.notifierd", "notifierd: the idempotent consumer")
    parser.add_argument("--port", type=int, required=True)
    return parser


def combined_flags() -> argparse.ArgumentParser:
    parser = _parser("python -m app", "both services in one process")
    parser.add_argument("--ledger-port", type=int, required=True)
    parser.add_argument("--notifier-port", type=int, required=True)
    _ledgerd_vendor_flags(parser)
    return parser


def run_until_signalled() -> int:
    """Block the main thread (the services run on daemon threads) until SIGTERM or
    SIGINT; 0. A SIGKILL needs no handling: every acknowledged write is on disk."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    while not stop.wait(1.0):
        pass
    return 0
