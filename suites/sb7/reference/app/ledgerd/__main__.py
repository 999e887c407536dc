"""``python -m app.ledgerd --db-dir P --port N --notifier URL --vendor URL --tokens-file T``."""

from __future__ import annotations

import sys

from app.flags import ledgerd_flags, run_until_signalled
from app.ledgerd.service import Ledgerd


def main(argv: list[str] | None = None) -> int:
    args = ledgerd_flags().parse_args(argv)
    service = Ledgerd(args.db_dir, args.port, args.notifier, args.vendor, args.tokens_file)
    service.start()
    print(f"ledgerd: listening on http://127.0.0.1:{service.port}/", flush=True)
    return run_until_signalled()


if __name__ == "__main__":
    sys.exit(main())
