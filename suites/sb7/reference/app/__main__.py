"""``python -m app --db-dir P --ledger-port N --notifier-port M --vendor URL --tokens-file T``:
both services in one process, a convenience wrapper.

Each service keeps its own database file and its own server, and ledgerd reaches the
notifier over HTTP exactly as when they run apart; notifierd starts first only so the
first relay attempt finds it.
"""

from __future__ import annotations

import sys

from app.flags import combined_flags, run_until_signalled
from app.ledgerd.service import Ledgerd
from app.notifierd.service import Notifierd


def main(argv: list[str] | None = None) -> int:
    args = combined_flags().parse_args(argv)
    notifier = Notifierd(args.db_dir, args.notifier_port)
    notifier.start()
    ledger = Ledgerd(
        args.db_dir,
        args.ledger_port,
        f"http://127.0.0.1:{notifier.port}",
        args.vendor,
        args.tokens_file,
    )
    ledger.start()
    print(
        f"app: ledgerd on http://127.0.0.1:{ledger.port}/,"
        f" notifierd on http://127.0.0.1:{notifier.port}/",
        flush=True,
    )
    return run_until_signalled()


if __name__ == "__main__":
    sys.exit(main())
