"""A fresh PostgreSQL schema for a test, when ``BENCHWRIGHT_TEST_PG`` holds a URL
(``postgresql+psycopg://user:pw@127.0.0.1/db``); dropped afterwards."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text

PG_URL = os.environ.get("BENCHWRIGHT_TEST_PG")


@contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """A URL of ``url``'s database whose search path is a new, empty schema."""
    schema = f"bw_test_{secrets.token_hex(6)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
