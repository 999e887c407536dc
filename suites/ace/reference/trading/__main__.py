"""Serve the reference: ``python -m trading --port 8080 [--host 127.0.0.1]``."""

from __future__ import annotations

import argparse

import uvicorn

from trading.api import build_app


def main() -> None:
    parser = argparse.ArgumentParser(prog="trading", description=__doc__)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    uvicorn.run(build_app(), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
