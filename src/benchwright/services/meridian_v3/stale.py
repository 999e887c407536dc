"""B5, the stale-validator 304: a 304 that lies about the page, told apart only by its
``X-Collection-Generation``.

Armed, it waits for the first conditional list request for its page whose validator
is stale (not the page's current ETag: the silent commits behind it changed the page).
That request gets ``304`` carrying a new generation (the collection's generation moves
to it from then on), and so does every identical conditional request after it; only a
request without the stale validator gets the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.meridian_v3.config import PAGE_SIZE
from benchwright.services.meridian_v3.schedule import StaleArm
from benchwright.services.meridian_v3.state import State


@dataclass
class StaleTrap:
    arm: StaleArm | None = None
    validator: str | None = None
    """The stale validator lied to (None: not fired)."""
    generation: str | None = None
    masked: tuple[tuple[str, int], ...] = ()

    def arm_with(self, state: State, arm: StaleArm) -> None:
        """Commit ``arm``'s mutations silently and wait for a stale conditional request."""
        commits = [
            state.commit(
                m.payment_id, source="stale", status=m.status, note=m.note, announce=False
            )[0]
            for m in arm.mutations
        ]
        self.arm, self.validator, self.generation = arm, None, None
        self.masked = tuple((c.payment_id, c.version) for c in commits)

    def lie(self, state: State, offset: int, presented: str | None, etag: str) -> str | None:
        """The generation to lie with for this request, or None to answer truthfully
        (called under the state's lock)."""
        if self.arm is None or presented is None or offset != (self.arm.page - 1) * PAGE_SIZE:
            return None
        if self.validator is None and presented != etag:
            state.generation += 1
            self.validator, self.generation = presented, str(state.generation)
        return self.generation if presented == self.validator else None
