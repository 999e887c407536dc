"""``python -m app.notifierd --db-dir P --port M``."""

from __future__ import annotations

import sys

from app.flags import notifierd_flags, run_until_signalled
from app.notifierd.service import Notifierd


def main(argv: list[str] | None = None) -> int:
    args = notifierd_flags().parse_args(argv)
    service = Notifierd(args.db_dir, args.port)
    service.start()
    print(f"notifierd: listening on http://127.0.0.1:{service.port}/", flush=True)
    return run_until_signalled()


if __name__ == "__main__":
    sys.exit(main())
