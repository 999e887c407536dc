"""Schema migrations: `upgrade` a board database to the newest revision, `state` of one.

The Alembic scripts live in ``board/migrations`` inside the package, so an installed
benchwright migrates without an ``alembic.ini``. ``benchwright board serve`` calls
`ensure_ready`: an empty database is migrated on the spot (nothing to lose, and a first
``serve`` just works), but one at an older revision is refused with a one-line error
that says to run ``benchwright board migrate`` - upgrading live data stays a deliberate,
separate step.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from benchwright.errors import RefusedError

MIGRATIONS = Path(__file__).parent / "migrations"


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    """The newest revision the package ships."""
    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None  # the package always ships a revision
    return found


def current(engine: Engine) -> str | None:
    """The database's revision, or None when it was never migrated."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Bring the database to `head` (idempotent); returns (revision before, after)."""
    before = current(engine)
    config = _config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    return before, head()


def ensure_ready(engine: Engine, shown_url: str) -> None:
    """Migrate an empty database; refuse one that is behind (or not a board at all)."""
    revision = current(engine)
    if revision == head():
        return
    if revision is None and not inspect(engine).get_table_names():
        upgrade(engine)
        return
    at = f"at revision {revision}" if revision else "not an empty board database"
    raise RefusedError(
        f"{shown_url}: database is {at}, not {head()}; run "
        f"'benchwright board migrate --db {shown_url}' first"
    )
