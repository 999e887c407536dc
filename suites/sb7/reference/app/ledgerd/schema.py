"""``ledger.db``: every table ledgerd keeps, created idempotently at each boot."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY,
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_us INTEGER NOT NULL,
    day TEXT NOT NULL,
    settled_at TEXT,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    counterparty_name TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS payments_by_time ON payments (created_us, id);
CREATE INDEX IF NOT EXISTS payments_by_amount ON payments (amount_minor, id);
CREATE INDEX IF NOT EXISTS payments_status_time ON payments (status, created_us, id);
CREATE INDEX IF NOT EXISTS payments_currency_time ON payments (currency, created_us, id);
CREATE INDEX IF NOT EXISTS payments_currency_amount ON payments (currency, amount_minor);
CREATE INDEX IF NOT EXISTS payments_day_status ON payments (day, status);

CREATE TABLE IF NOT EXISTS reversals (
    id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reversals_by_payment ON reversals (payment_id);

-- The append-only ledger: seq is the rowid, so it is contiguous from 1 (rows are never
-- deleted, and a rolled-back transaction takes its seq back with it).
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    payment_id TEXT,
    version INTEGER,
    source TEXT NOT NULL,
    txn TEXT,
    at TEXT NOT NULL,
    draft_id TEXT,
    reversal_id TEXT
);

-- The transactional outbox: one row per notifier-crossing event, written in the same
-- transaction as the event; delivered_at is set only after the notifier's 200.
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY REFERENCES events (seq),
    delivered_at TEXT
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (seq) WHERE delivered_at IS NULL;

-- Per list page (by position in the walk): its ETag and the cursor of the page after it.
-- The latest X-Collection-Generation is kept in meta ('generation').
CREATE TABLE IF NOT EXISTS pages (
    page INTEGER PRIMARY KEY,
    etag TEXT NOT NULL,
    next_cursor TEXT
);

-- Webhook event ids already handled (the dedupe key survives restarts).
CREATE TABLE IF NOT EXISTS webhook_events (
    id TEXT PRIMARY KEY,
    at TEXT NOT NULL
);

-- Transaction-group parts waiting for the rest of their group (durable staging).
CREATE TABLE IF NOT EXISTS txn_parts (
    txn_id TEXT NOT NULL,
    part INTEGER NOT NULL,
    of_parts INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (txn_id, part)
);

CREATE TABLE IF NOT EXISTS drafts (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    counterparty_name TEXT NOT NULL,
    country TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    submitted_by TEXT,
    idempotency_key TEXT,
    payment_id TEXT,
    send_error TEXT
);
CREATE INDEX IF NOT EXISTS drafts_by_state ON drafts (state, created_at);

CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
