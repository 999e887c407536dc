"""Token usage and cost on a run: ``input_tokens``, ``output_tokens``, ``cost_usd``.

What the poster's harness measured of the model's use (``run.inputTokens``,
``run.outputTokens``, ``run.costUsd`` of a post, all optional). Runs posted before this
revision, and the baselines, have none: the columns are nullable and left empty, and the
board shows ``-`` for them.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COLUMNS = (
    ("input_tokens", sa.Integer),
    ("output_tokens", sa.Integer),
    ("cost_usd", sa.Float),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("runs", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:  # SQLite drops a column by copying the table
        for name, _kind in reversed(COLUMNS):
            batch.drop_column(name)
