"""ledgerd: vendor sync, the event ledger and outbox, the workflow, the API and the page."""
