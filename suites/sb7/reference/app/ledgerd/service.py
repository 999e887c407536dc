"""ledgerd assembled: the store, the vendor client, the workers, the server.

`Ledgerd.start` binds the port first (before any vendor call, so the service listens
within a second whatever the vendor is doing), then starts the background work: the
relay, the sender, and the boot worker, which registers the webhook (the challenge
needs the listening server) and runs the first sync, retrying both every second while
the vendor is away. Nothing here waits on the notifier.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from app.httpkit import JsonServer
from app.ledgerd.api import routes
from app.ledgerd.auth import Tokens
from app.ledgerd.drafts import Drafts
from app.ledgerd.ledger import Ledger
from app.ledgerd.meridian import Meridian, VendorUnavailable
from app.ledgerd.relay import Relay
from app.ledgerd.sender import Sender
from app.ledgerd.stream import Hub
from app.ledgerd.sync import Syncer, SyncFailed
from app.ledgerd.webhooks import Webhooks

BOOT_RETRY_S = 1.0
"""How often the boot worker retries registration and the first sync (the spec's
ceiling is 5 s)."""
REGISTER_FIRST_S = 15.0
"""How long the first sync waits for the webhook registration (so racing webhooks have
somewhere to go) before it runs regardless."""


class Ledgerd:
    """One ledgerd process's parts."""

    def __init__(
        self, db_dir: Path, port: int, notifier_url: str, vendor_url: str, tokens_file: Path
    ) -> None:
        self.notifier_url = notifier_url.rstrip("/")
        self.ledger = Ledger(db_dir)
        self.hub = Hub()
        self.ledger.on_payments(self.hub.publish)
        self.vendor = Meridian(vendor_url)
        self.tokens = Tokens(tokens_file)
        self.syncer = Syncer(self.ledger, self.vendor)
        self.webhooks = Webhooks(self.ledger)
        self.relay = Relay(self.ledger, self.notifier_url)
        self.sender = Sender(self.ledger, self.vendor)
        self.drafts = Drafts(self.ledger, self.tokens, self.sender.wake)
        self.server = JsonServer(port, routes(self))
        self.port = self.server.server_address[1]

    def start(self) -> None:
        """Serve, and start the background work (all daemon threads)."""
        threading.Thread(target=self.server.serve_forever, name="ledgerd-http", daemon=True).start()
        self.relay.start()
        self.sender.start()
        threading.Thread(target=self._boot, name="boot-sync", daemon=True).start()

    def _boot(self) -> None:
        started, synced = time.monotonic(), False
        while True:
            if not self.webhooks.registered:
                self.webhooks.register(self.vendor, self.port)
            waited = time.monotonic() - started > REGISTER_FIRST_S
            if not synced and (self.webhooks.registered or waited):
                try:
                    self.syncer.run()
                    synced = True
                except (VendorUnavailable, SyncFailed) as err:
                    print(f"ledgerd: first sync not done yet: {err}", file=sys.stderr, flush=True)
            if synced and self.webhooks.registered:
                return
            time.sleep(BOOT_RETRY_S)
