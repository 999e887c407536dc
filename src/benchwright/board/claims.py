"""What a signed post claims, recorded in the transaction that stores it.

`record` first inserts the post's nonce (a second insert of the same key and nonce is a
replay: 409 ``replayed``); on SQLite that insert takes the single write lock, so what
follows is read by the only writer, and on PostgreSQL the handle is serialized with a
transaction-scoped advisory lock (as `benchwright.board.ratelimit` does for its keys).
Then the handle: unclaimed, it is bound to the post's public key; claimed by another key
(403 ``handle_claimed``) or reserved (403 ``handle_reserved``), the post is refused and
the whole transaction rolls back, nonce included. Nonces whose signing time left the
window (twice `signing.WINDOW`, a margin for workers whose clocks differ) are pruned.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import delete, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benchwright.board.db import HandleRow, NonceRow, naive_utc
from benchwright.board.errors import Rejected
from benchwright.board.signing import WINDOW, Proof


def record(session: Session, handle: str, proof: Proof, now: datetime) -> None:
    """Claim ``handle`` for ``proof``'s key and spend its nonce, or raise `Rejected`."""
    session.add(NonceRow(public_key=proof.public_key, nonce=proof.nonce,
                         signed_at=naive_utc(proof.signed_at)))  # fmt: skip
    try:
        session.flush()
    except IntegrityError:
        raise Rejected(
            409, "replayed", f"nonce {proof.nonce} was already used by this key: a signed post "
            "is accepted once",
        ) from None  # fmt: skip
    if session.get_bind().dialect.name == "postgresql":
        lock = int(hashlib.sha256(handle.encode()).hexdigest()[:15], 16)
        session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": lock})
    claimed = session.get(HandleRow, handle)
    if claimed is None:
        claim = HandleRow(handle=handle, public_key=proof.public_key, claimed_at=naive_utc(now))
        session.add(claim)
    elif claimed.public_key is None:
        raise Rejected(403, "handle_reserved", f"handle '{handle}' is reserved for the board")
    elif claimed.public_key != proof.public_key:
        raise Rejected(
            403, "handle_claimed", f"handle '{handle}' is claimed by another key: only the "
            "install that first posted it can post under it (its identity.json holds the key)",
        )  # fmt: skip
    session.execute(delete(NonceRow).where(NonceRow.signed_at < naive_utc(now - 2 * WINDOW)))
