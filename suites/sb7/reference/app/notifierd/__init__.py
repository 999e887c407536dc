"""notifierd: the idempotent consumer of ledgerd's outbox, and the notifications."""
