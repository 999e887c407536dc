"""Handles bound to keys, the nonces of signed posts, and the board's own digest secret.

- ``handles``: the first signed post under a handle claims it for its public key. The
  baselines' handle ``baseline`` is reserved (no key): no post may use it. Handles posted
  before this revision stay unclaimed until the first signed post under each claims it.
- ``nonces``: the nonce of every accepted signed post while its time is in the window,
  so the same signed post is accepted once (a replay is 409).
- ``settings``: ``digest_key``, 32 random bytes made here, when this board is migrated,
  never in the source. Addresses and install ids are stored as HMACs under it.
  The rate-limit rows of earlier posts hold digests salted with a constant that is in
  the source (an address is reversed by trying all 2^32); they are deleted, so posts made
  before this revision no longer count against anyone's 24-hour limit (a one-off grace).
  The install digests of earlier runs stay (digests of random 128-bit ids cannot be
  reversed); they no longer match the same install's later posts.

Revision ID: 0002
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    handles = op.create_table(
        "handles",
        sa.Column("handle", sa.String(64), primary_key=True),
        sa.Column("public_key", sa.String(64), nullable=True),
        sa.Column("claimed_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "nonces",
        sa.Column("public_key", sa.String(64), primary_key=True),
        sa.Column("nonce", sa.String(64), primary_key=True),
        sa.Column("signed_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_nonces_signed_at", "nonces", ["signed_at"])
    settings = op.create_table(
        "settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.bulk_insert(settings, [{"name": "digest_key", "value": secrets.token_hex(32)}])
    op.bulk_insert(handles, [{"handle": "baseline", "public_key": None, "claimed_at": None}])
    op.execute(sa.table("posts").delete())


def downgrade() -> None:
    for table in ("settings", "nonces", "handles"):
        op.drop_table(table)
