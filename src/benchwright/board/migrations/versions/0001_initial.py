"""The first board schema (runs, check rows, screenshots, posts) and the sb-5.2 baselines.

The three baselines are §04's table: one fresh build per Anthropic model on AWS Bedrock,
scored by sb-5.2. §04 gives only the model, the Bedrock id, the score and the wall clock,
so that is all they carry (no tier means, no per-check rows, no date); they are marked
``baseline`` and the board shows them as such. The excellent flag is §03's rule
(score >= 0.90).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BASELINES = (
    ("baseline-claude-opus-5", "us.anthropic.claude-opus-5", "Claude Opus 5", 0.9755, 1170.0),
    ("baseline-claude-sonnet-5", "us.anthropic.claude-sonnet-5", "Claude Sonnet 5", 0.9692, 410.0),
    (
        "baseline-claude-haiku-4-5",
        "us.anthropic.claude-haiku-4-5-20251001-v1:0",
        "Claude Haiku 4.5",
        0.7861,
        318.0,
    ),
)


def upgrade() -> None:
    runs = op.create_table(
        "runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("scorer_version", sa.String(64), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("excellent", sa.Boolean, nullable=False),
        sa.Column("baseline", sa.Boolean, nullable=False),
        sa.Column("handle", sa.String(64), nullable=False),
        sa.Column("model", sa.String(256), nullable=False),
        sa.Column("nodes", sa.Integer, nullable=False),
        sa.Column("tiers", sa.JSON, nullable=False),
        sa.Column("composition", sa.JSON, nullable=True),
        sa.Column("wall_secs", sa.Float, nullable=True),
        sa.Column("started_at", sa.DateTime, nullable=True),
        sa.Column("finished_at", sa.DateTime, nullable=True),
        sa.Column("engine_events", sa.Integer, nullable=True),
        sa.Column("repair_rounds", sa.Integer, nullable=True),
        sa.Column("agent", sa.String(256), nullable=True),
        sa.Column("suite", sa.String(128), nullable=True),
        sa.Column("tree_sha256", sa.String(128), nullable=True),
        sa.Column("posted_at", sa.DateTime, nullable=True),
        sa.Column("install_digest", sa.String(64), nullable=True),
    )
    op.create_index("ix_runs_version_score", "runs", ["scorer_version", "score"])
    op.create_table(
        "check_rows",
        sa.Column(
            "run_id", sa.String(32), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("check_id", sa.String(128), nullable=False),
        sa.Column("tier", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("weight", sa.Float, nullable=False),
    )
    op.create_table(
        "screenshots",
        sa.Column(
            "run_id", sa.String(32), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("png", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "posts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ip_digest", sa.String(64), nullable=False),
        sa.Column("install_digest", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_posts_ip_at", "posts", ["ip_digest", "at"])
    op.create_index("ix_posts_install_at", "posts", ["install_digest", "at"])
    op.bulk_insert(
        runs,
        [
            {
                "id": run_id,
                "scorer_version": "sb-5.2",
                "score": score,
                "excellent": score >= 0.90,
                "baseline": True,
                "handle": "baseline",
                "model": f"{name} ({bedrock_id})",
                "nodes": 0,
                "tiers": {},
                "wall_secs": wall,
                "agent": "AWS Bedrock (Anthropic cloud baseline)",
                "suite": "vendorsync",
            }
            for run_id, bedrock_id, name, score, wall in BASELINES
        ],
    )


def downgrade() -> None:
    for table in ("posts", "screenshots", "check_rows", "runs"):
        op.drop_table(table)
