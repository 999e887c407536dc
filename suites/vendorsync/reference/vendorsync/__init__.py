"""vendorsync: mirrors the Meridian v1 payments collection into SQLite and shows it."""
