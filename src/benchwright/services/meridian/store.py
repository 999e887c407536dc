"""The mock's mutable state: rows, visibility cap, generation, idempotency, conflicts.

One `Store` per mock. Every mutation happens under ``lock`` (the server thread
and a grader's thread both touch it); handlers hold it only for bookkeeping,
never across a wait.
"""

from __future__ import annotations

import threading

from benchwright.services.meridian.fixture import RowSet
from benchwright.services.meridian.traps import TrapState


def public(row: dict) -> dict:
    """A row as sent on the wire (internal ``_`` fields stripped)."""
    return {k: v for k, v in row.items() if not k.startswith("_")}


def _bump(row: dict) -> None:
    """A changed row's version goes up (v1 rows have none: the change is the generation's)."""
    if "version" in row:
        row["version"] += 1


class Store:
    """What the vendor knows right now."""

    def __init__(self, fixture: RowSet) -> None:
        self.fixture = fixture
        self.lock = threading.RLock()
        self.traps = TrapState()
        self.conflict_mode = "once"
        self.conflict_armed = True
        self.webhook: dict | None = None
        self.failing = False
        """Every list request answers 500 while set: a vendor fault no retry recovers."""
        self.register_fault: tuple[bool, int | None] = (False, None)
        """(armed, port): refuse the next registration (naming that port, when given) as a
        failed handshake; one-shot."""
        self.generation = 0
        self.holding = 0
        self._hold_done = threading.Condition(self.lock)
        self.restore()

    def restore(self) -> None:
        """Fresh rows, no cap, no creations, nothing mutated; invalidates every ETag."""
        with self.lock:
            self.rows = self.fixture.fresh_rows()
            self.order = [self.fixture.rows[i]["id"] for i in self.fixture.order]
            self.created: dict[str, dict] = {}
            self.idempotency: dict[str, str] = {}
            self.cap: int | None = None
            self.originals: dict[str, str] = {}
            self.generation += 1

    def hold_started(self) -> None:
        with self.lock:
            self.holding += 1

    def hold_ended(self) -> None:
        with self.lock:
            self.holding -= 1
            self._hold_done.notify_all()

    def wait_for_holds(self, timeout: float) -> bool:
        """Block until no stalled request is in flight (bounded); True if none is left."""
        with self.lock:
            return self._hold_done.wait_for(lambda: self.holding == 0, timeout)

    @property
    def visible(self) -> int:
        return len(self.order) if self.cap is None else min(self.cap, len(self.order))

    def visible_rows(self, offset: int, take: int) -> list[dict]:
        return [public(self.rows[pid]) for pid in self.order[offset : offset + take]]

    def find(self, payment_id: str) -> dict | None:
        """A fixture row first, then one created through the API."""
        return self.rows.get(payment_id) or self.created.get(payment_id)

    def set_cap(self, cap: int | None) -> int:
        with self.lock:
            self.cap = cap
            self.generation += 1
            return self.visible

    def reset_phase(self) -> None:
        """The per-phase one-shots: trap counters and the idempotency store."""
        with self.lock:
            self.traps.reset()
            self.idempotency.clear()

    def new_payment(self, row: dict) -> dict:
        """Store a created payment under the next ``pay_new_NNNN`` id, counted from
        ``pay_new_0000`` as the public vendor does."""
        with self.lock:
            row = {"id": f"pay_new_{len(self.created):04d}", **row}
            self.created[row["id"]] = row
            return row

    def mutate_statuses(self) -> dict[str, str]:
        """Set each mutation id's mutated status (v2: settled <-> failed), bumping versions."""
        with self.lock:
            for pid in self.fixture.mutation_map:
                row = self.rows[pid]
                self.originals.setdefault(pid, row["status"])
                row["status"] = self.fixture.mutated(pid, self.originals[pid])
                _bump(row)
            self.generation += 1
            return {pid: self.rows[pid]["status"] for pid in self.fixture.mutation_map}

    def unmutate_statuses(self) -> dict[str, str]:
        """Put the original statuses back, bumping versions again."""
        with self.lock:
            for pid, status in self.originals.items():
                self.rows[pid]["status"] = status
                _bump(self.rows[pid])
            restored = dict(self.originals)
            self.originals.clear()
            self.generation += 1
            return restored

    def set_conflict(self, mode: str) -> None:
        """``once`` (re-)arms a single injected 412; ``always`` injects on every match."""
        with self.lock:
            self.conflict_mode = mode
            self.conflict_armed = mode == "once"

    def take_register_fault(self, port: int | None) -> bool:
        """Whether a registration for a URL on ``port`` is refused (consumes the fault)."""
        with self.lock:
            armed, only = self.register_fault
            if not armed or (only is not None and only != port):
                return False
            self.register_fault = (False, None)
            return True

    def take_injection(self) -> bool:
        """Whether this matching PATCH gets an injected 412 (consumes ``once``)."""
        if self.conflict_mode == "always":
            return True
        if self.conflict_mode == "once" and self.conflict_armed:
            self.conflict_armed = False
            return True
        return False
