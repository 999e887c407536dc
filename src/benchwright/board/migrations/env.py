"""Alembic's environment: run on the connection `benchwright.board.migrate` hands over."""

from __future__ import annotations

from alembic import context

from benchwright.board.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
