"""Alembic migrations of the board schema, shipped in the package (`benchwright.board.migrate`)."""
