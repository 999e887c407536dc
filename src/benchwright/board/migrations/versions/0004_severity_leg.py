"""A check row's critical leg: ``check_rows.severity_leg``.

sb-7's critical multipliers read the fraction a check measured for its consequence (the
DST-window cells, the rows kept after a kill) instead of its score, so the board stores
it with the row to compose a card's chart as it was checked when posted. Rows posted
before this revision, and every sb-6 / sb-5.2 row, have none: the column is nullable.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("check_rows", sa.Column("severity_leg", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("check_rows") as batch:  # SQLite drops a column by copying
        batch.drop_column("severity_leg")
