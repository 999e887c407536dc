"""`MeridianMock`: the Meridian API mock (v2, or v1 by ``version``) as one object a grader
starts and steers.

Usage::

    with MeridianMock(seed=0, trace_path=tmp / "vendor.jsonl") as mock:
        mock.set_visible_cap(776); mock.mark_phase("sync1")
        ...  # let the app under test sync from mock.base_url
        print(mock.trap_results())

The app under test reaches `base_url` only: the vendor's public API, where ``/admin/...``
is an unknown path. Most controls are also reachable over HTTP, as ``POST /admin/<name>``
on a listener of their own that only `start_control` opens (graders never do), answering
only a caller that sends ``Authorization: Bearer <control_token>`` (see ``admin.py``).
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from benchwright.services._server import BackgroundServer
from benchwright.services.meridian import contract_ledger, ledgers, write_ledgers
from benchwright.services.meridian.config import API_KEY, CONFLICT_MODES, Timing
from benchwright.services.meridian.delivery import deliver_update, run_script
from benchwright.services.meridian.store import Store
from benchwright.services.meridian.trace import Trace
from benchwright.services.meridian.traps import TrapState
from benchwright.services.meridian.versions import api_version

_NO_RESET = re.compile(r"(\d+)$")


class MeridianMock:
    """Fixture, state, trace and ledgers of one mock vendor; serves itself on 127.0.0.1."""

    def __init__(
        self, seed: int = 0, *, timing: Timing | None = None, trace_path: Path | None = None,
        version: str = "v2",
    ) -> None:  # fmt: skip
        """``version``: the API served (``v1``/``v2``), see `versions.py`.

        Raises:
            KeyError: an unknown ``version``.
        """
        self.api = api_version(version)
        self.fixture = self.api.fixture(seed)
        self.timing = timing or Timing()
        self.store = Store(self.fixture)
        self.trace = Trace(trace_path, API_KEY)
        self.creates: list[dict] = []
        self.control_token = secrets.token_urlsafe(32)
        """What a caller of the HTTP controls must send as ``Authorization: Bearer ...``:
        drawn per mock and never written anywhere (the trace records no such header)."""
        self._server: BackgroundServer | None = None
        self._control: BackgroundServer | None = None

    # -- serving -------------------------------------------------------------
    def start(self, port: int = 0) -> str:
        """Restore the rows, truncate the trace, serve the public API; return its base URL."""
        from benchwright.services.meridian.app import build_app

        self.reset()
        self._server = BackgroundServer(build_app(self), port=port, verbatim_headers=True)
        return self._server.start()

    def start_control(self, port: int = 0) -> str:
        """Serve the HTTP controls (``/admin/*``) on 127.0.0.1:``port`` (0: any free one),
        apart from the API; return their base URL. For people steering a standalone mock:
        never hand it, or the token, to the client under test.

        Raises:
            HarnessError: the port cannot be bound.
            RuntimeError: the controls are served already.
        """
        from benchwright.services.meridian.admin import build_control_app

        if self._control is not None:
            raise RuntimeError(
                f"the Meridian mock's controls are served already ({self.control_url})"
            )

        app = build_control_app(self)
        self._control = BackgroundServer(app, port=port, verbatim_headers=True)
        return self._control.start()

    def reset(self) -> None:
        """Back to a fresh start without restarting the server: rows, traps, modes, ledgers."""
        with self.store.lock:
            self.store.restore()
            self.store.traps = TrapState()
            self.store.set_conflict("once")
            self.store.webhook = None
            self.store.register_fault = (False, None)
            self.creates.clear()
        self.trace.truncate()

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the Meridian mock is not started")
        return self._server.base_url

    @property
    def control_url(self) -> str:
        if self._control is None:
            raise RuntimeError("the Meridian mock's controls are not served (start_control)")
        return self._control.base_url

    def stop(self) -> None:
        """Stop serving the API and, when served, the controls."""
        for server in (self._server, self._control):
            if server is not None:
                server.stop()
        self._server = self._control = None

    def __enter__(self) -> MeridianMock:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- phases and traps ----------------------------------------------------
    def mark_phase(self, name: str, reset: bool | None = None) -> None:
        """Write a marker; reset traps and idempotency unless the name ends in N >= 2.

        ``reset=False`` never resets; the name ``halfset`` also caps the rows to half.
        """
        match = _NO_RESET.search(name)
        if reset is None:
            reset = not (match and int(match.group(1)) >= 2)
        self.trace.mark(name)
        if reset:
            self.store.reset_phase()
        if name == "halfset":
            self.set_visible_cap(self.fixture.total // 2)

    def set_visible_cap(self, n: int) -> int:
        self.trace.control("halfset", on=True, cap=n)
        return self.store.set_cap(n)

    def clear_visible_cap(self) -> int:
        self.trace.control("halfset", on=False)
        return self.store.set_cap(None)

    def arm_stall(self, on: bool = True, secs: float | None = None) -> None:
        """Hold the phase's first end-reaching page (once per phase) until disarmed."""
        self.trace.control("stall", on=on, secs=secs)
        with self.store.lock:
            self.store.traps.stall_armed = on
            self.store.traps.stall_secs = secs

    def fail_lists(self, on: bool = True) -> None:
        """While on, every list request answers 500 ``internal_error`` (before any trap
        counts it): a vendor fault that outlasts any client's retries, so the app's
        ``POST /api/sync`` must report it (spec §7: 502 ``vendor_error``)."""
        self.trace.control("failing", on=on)
        with self.store.lock:
            self.store.failing = on

    # -- conflicts, mutations, webhooks --------------------------------------
    def set_conflict_mode(self, mode: str) -> None:
        if mode not in CONFLICT_MODES:
            raise ValueError(f"unknown conflict mode {mode!r}; known: {', '.join(CONFLICT_MODES)}")
        self.trace.control("conflict", mode=mode)
        self.store.set_conflict(mode)

    def arm_conflict_once(self) -> None:
        self.set_conflict_mode("once")

    def arm_conflict_second(self) -> None:
        self.set_conflict_mode("always")

    def mutate_statuses(self) -> dict[str, str]:
        self.trace.control("mutate")
        return self.store.mutate_statuses()

    def unmutate_statuses(self) -> dict[str, str]:
        self.trace.control("unmutate")
        return self.store.unmutate_statuses()

    def restore_payments(self) -> None:
        self.trace.control("restore")
        self.store.restore()

    def run_delivery_script(self) -> dict:
        """POST the script's 12 deliveries to the registered webhook (blocking)."""
        self.trace.control("deliver-script")
        return run_script(self)

    def deliver_update(self, payment_id: str, changes: dict, event_id: str) -> dict:
        """Change one vendor row and POST its signed ``payment.updated`` (blocking)."""
        self.trace.control("deliver-update", payment_id=payment_id, event_id=event_id)
        return deliver_update(self, payment_id, changes, event_id)

    def arm_register_fault(self, port: int | None = None, on: bool = True) -> None:
        """Refuse the next registration (only one whose URL names ``port``, when given) as
        the public vendor refuses a failed handshake: ``400 verification_failed``, with no
        handshake sent. One-shot. What an app registering before its server listens gets;
        the grader's probe of spec §3.4 (keep trying until it succeeds; issue #13)."""
        self.trace.control("register-fault", on=on, port=port)
        with self.store.lock:
            self.store.register_fault = (on, port if on else None)

    # -- ledgers -------------------------------------------------------------
    def trap_results(self) -> ledgers.TrapResults:
        """Wait (bounded) for an in-flight stall, then grade every trap instance so far."""
        self.store.wait_for_holds(self.timing.ledger_wait_secs)
        return ledgers.trap_results(self.trace.lines(), self.timing, self.api.list_path)

    def contract_ledger(self, phase: str | None = None) -> contract_ledger.ContractLedger:
        """Wait (bounded) for an in-flight stall, then read the client's contract habits
        over phase ``phase`` (None: everything since the start).

        Raises:
            ValueError: ``phase`` was never marked.
        """
        self.store.wait_for_holds(self.timing.ledger_wait_secs)
        docs = (self.api.docs_path, "/docs")
        return contract_ledger.contract_ledger(
            self.trace.lines(), self.timing, self.api.list_path, docs, phase
        )

    def batch_trace(self) -> write_ledgers.BatchTrace:
        with self.store.lock:
            return write_ledgers.batch_trace(list(self.creates))

    def conflict_trace(self) -> write_ledgers.ConflictTrace:
        return write_ledgers.conflict_trace(self.trace.lines())
