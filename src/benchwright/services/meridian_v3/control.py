"""`MeridianV3Mock`: the Meridian API v3 mock as one object a grader starts and steers.

Usage::

    with MeridianV3Mock(seed, trace_path=tmp / "vendor.jsonl") as mock:
        mock.set_down(True); ...; mock.set_down(False)   # B4: refuse the boot window
        ...  # the app under test syncs from mock.base_url; the schedule fires by itself
        mock.arm_stale_304()                              # B5, before a later sync
        print(mock.walk_ledger(), mock.stale_ledger(), mock.commit_ledger().truth())

The app under test reaches `base_url` only (the public v3 API; anything else is 404).
The controls are these Python calls, made in the grader's process: nothing here listens
for them, so nothing the app can reach steers the vendor.
"""

from __future__ import annotations

from pathlib import Path

from benchwright.services._server import BackgroundServer
from benchwright.services.meridian.trace import Trace
from benchwright.services.meridian.webhooks import Registration
from benchwright.services.meridian_v3 import ledgers
from benchwright.services.meridian_v3.config import API_KEY, V3Timing
from benchwright.services.meridian_v3.courier import Courier, Job
from benchwright.services.meridian_v3.fixture import V3Fixture, build_fixture_v3
from benchwright.services.meridian_v3.records import (
    Commit,
    CommitLedger,
    CreateAttempt,
    Delivery,
    ReversalCommit,
    StaleLedger,
    WalkLedger,
)
from benchwright.services.meridian_v3.schedule import Schedule, StaleArm, derive_schedule
from benchwright.services.meridian_v3.stale import StaleTrap
from benchwright.services.meridian_v3.state import State
from benchwright.services.meridian_v3.truth import Truth
from benchwright.services.meridian_v3.walk import FirstWalk
from benchwright.services.meridian_v3.wire import Gate, gated_protocol


class MeridianV3Mock:
    """Fixture, schedule, state, trace and ledgers of one v3 vendor; serves itself on
    127.0.0.1 in a background thread."""

    def __init__(
        self,
        seed: int = 0,
        *,
        trace_path: Path | None = None,
        timing: V3Timing | None = None,
        api_key: str = API_KEY,
    ) -> None:
        """``seed`` draws the fixture and the schedule; ``trace_path`` (optional) receives
        the JSONL request trace as it is written; ``timing`` shrinks delays for tests;
        ``api_key`` is the bearer key the API accepts (the one rendered into the prompt)."""
        self.seed = seed
        self.fixture: V3Fixture = build_fixture_v3(seed)
        """The collection at load, in serve order, with its derived truth."""
        self.schedule: Schedule = derive_schedule(seed)
        """Every seeded position and target of this run's fault schedule."""
        self.timing = timing or V3Timing()
        self.trace = Trace(trace_path, api_key)
        self.state = State(self.fixture)
        self.walk = FirstWalk(self.schedule)
        self.stale = StaleTrap()
        self.gate = Gate(self._refused)
        self.courier = Courier(
            self.timing, self.trace, lambda: self.state.webhook, lambda: self.gate.down
        )
        self.create_hold: float | None = None
        """Seconds each create is held open after committing (None: answered at once)."""
        self._server: BackgroundServer | None = None

    # -- serving -------------------------------------------------------------
    def start(self, port: int = 0) -> str:
        """Reset to load state, truncate the trace, serve the API on 127.0.0.1:``port``
        (0: any free one); return the base URL (``http://127.0.0.1:<port>``).

        Raises:
            HarnessError: the port cannot be bound.
        """
        from benchwright.services.meridian_v3.app import build_app

        self.reset()
        self.courier.start()
        self._server = BackgroundServer(
            build_app(self),
            port=port,
            verbatim_headers=True,
            proxy_headers=False,
            http_protocol=gated_protocol(self.gate),
        )
        return self._server.start()

    def reset(self) -> None:
        """Back to load without restarting the server: rows, schedule one-shots, arms,
        registration, ledgers and trace (deliveries still queued are lost with them)."""
        self.courier.wait_idle(self.timing.barrier_timeout)
        self.state.reset()
        self.walk.reset()
        self.stale = StaleTrap()
        self.gate.set_down(False)
        self.create_hold = None
        self.courier.reset()
        self.trace.truncate()

    def stop(self) -> None:
        """Stop serving and stop the delivery worker (bounded)."""
        self.courier.stop()
        if self._server is not None:
            self._server.stop()
        self._server = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the Meridian v3 mock is not started")
        return self._server.base_url

    def __enter__(self) -> MeridianV3Mock:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def mark_phase(self, name: str) -> None:
        """A phase marker in the trace: ledgers and graders slice the trace at these."""
        self.trace.mark(name)

    # -- availability and faults on demand -----------------------------------
    def set_down(self, down: bool) -> None:
        """While down, every connection (new or kept alive) is closed unanswered and the
        webhook deliveries pause; both resume when back up (B4, vendor-down boot)."""
        self.trace.control("down", on=down)
        self.gate.set_down(down)

    @property
    def down(self) -> bool:
        return self.gate.down

    def _refused(self, client: tuple[str, int] | None) -> None:
        line = self.trace.begin("-", "-", {}, {})
        self.trace.write(line | {"status": 0, "refused": "down", "client": client})

    def expire_cursors(self) -> None:
        """Every cursor issued so far answers ``410 cursor_expired`` from now on."""
        self.trace.control("expire-cursors")
        with self.state.lock:
            self.state.epoch += 1

    def arm_stale_304(self) -> StaleArm:
        """B5: commit the schedule's silent mutations on its stale page (no webhook), and
        lie to the first conditional request that presents that page's now-stale
        validator: ``304`` whose ``X-Collection-Generation`` is a new generation. The same
        conditional request repeated keeps getting that 304; an unconditional one gets the
        truth. Read the outcome with `stale_ledger`."""
        arm = self.schedule.stale
        with self.state.lock:
            self.stale.arm_with(self.state, arm)
        self.trace.control("stale-304", page=arm.page, masked=list(self.stale.masked))
        return arm

    def hold_creates(self, secs: float | None = None, *, on: bool = True) -> None:
        """While on, every ``POST /v3/payments`` that commits (or replays) is answered only
        ``secs`` (default `V3Timing.create_hold_secs`) later: the payment already exists
        while the app waits (the A2 kill window)."""
        hold = (secs if secs is not None else self.timing.create_hold_secs) if on else None
        self.trace.control("hold-creates", on=on, secs=hold)
        self.create_hold = hold

    def wait_for_create(self, count: int, timeout: float) -> CreateAttempt | None:
        """Block until the create ledger holds more than ``count`` attempts by the app
        (bounded); the newest one, or None on timeout."""

        def by_app() -> list[CreateAttempt]:
            return [a for a in self.state.creates if not a.internal]

        with self.state.created:
            if not self.state.created.wait_for(lambda: len(by_app()) > count, timeout):
                return None
            return by_app()[-1]

    # -- vendor-side commits (graders, tests) --------------------------------
    def commit_mutation(
        self,
        payment_id: str,
        *,
        status: str | None = None,
        note: str | None = None,
        announce: bool = True,
    ) -> Commit:
        """Commit one change (version + 1) and, when ``announce``, deliver its signed
        ``payment.updated`` (queued; `wait_deliveries` waits for it).

        Raises:
            KeyError: no such payment.
        """
        commit, event = self.state.commit(
            payment_id, source="control", status=status, note=note, announce=announce
        )
        if event is not None:
            self.courier.send([Job(event)])
        return commit

    def commit_create(self, key: str) -> str:
        """Create a payment vendor-side under ``key`` (the schedule's draft, value-dated into
        the span like every vendor create) and deliver its signed ``payment.created``; the
        new payment's id. Internal: no ledger of the app's own sends counts it."""
        payment_id, event = self.state.create(dict(self.schedule.create.draft), key, internal=True)
        if event is not None:
            self.courier.send([Job(event)])
        return payment_id

    def commit_refund(
        self, payment_id: str, *, first_part: int = 1, announce: bool = True
    ) -> tuple[Commit, ReversalCommit]:
        """Refund ``payment_id`` atomically (status -> refunded plus its reversal, one
        transaction group of two events, part ``first_part`` delivered first)."""
        commit, reversal, flip, event = self.state.refund(
            payment_id, source="control", announce=announce
        )
        if flip is not None and event is not None:
            parts = [flip, event] if first_part == 1 else [event, flip]
            self.courier.send([Job(part) for part in parts])
        return commit, reversal

    def wait_deliveries(self, timeout: float) -> bool:
        """Block until every queued delivery has been attempted (bounded); True if so."""
        return self.courier.wait_idle(timeout)

    # -- ledgers -------------------------------------------------------------
    @property
    def webhook(self) -> Registration | None:
        """The registered webhook (one slot: the last successful registration)."""
        return self.state.webhook

    def commit_ledger(self) -> CommitLedger:
        """A snapshot of every commit, reversal and create so far: ground truth."""
        return self.state.ledger()

    def truth(self, seq: int | None = None) -> Truth:
        """Expected buckets and per-currency totals as of commit ``seq`` (None: now)."""
        return self.commit_ledger().truth(seq)

    def delivery_ledger(self) -> tuple[Delivery, ...]:
        """Every webhook delivery so far, with the app's status and latency."""
        return self.courier.ledger()

    def walk_ledger(self) -> WalkLedger:
        """How the first walk went: pages, restarts, the drop and the 500 (from the trace)."""
        return ledgers.walk_ledger(self.trace.lines(), self.schedule)

    def stale_ledger(self) -> StaleLedger:
        """How the client met the stale-validator 304 (from the trace)."""
        return ledgers.stale_ledger(self.trace.lines(), self.stale)
