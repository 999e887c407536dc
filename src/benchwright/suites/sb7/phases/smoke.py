"""Phase ``smoke``: ``python -m app`` with the full flag set, booted once on a database
directory of its own (a_combined_entrypoint): does the one command bring up both
services? It is told a vendor nobody answers, so nothing it does reaches the graded
vendor's ledgers, and it is stopped before the graded services boot."""

from __future__ import annotations

from benchwright.probes.http import read_json
from benchwright.services.app import AppUnderTest, BootPolicy, last_line
from benchwright.services.ports import lease_port
from benchwright.suites.sb7.context import LEDGER_DB, TOKENS_FILE, GradeContext, combined_line
from benchwright.suites.sb7.observations import Observations, SmokeObs
from benchwright.suites.sb7.phases._waits import until

SMOKE_DIR = "smoke-db"
UP, GONE = "up", "gone"


def smoke(ctx: GradeContext, obs: Observations) -> SmokeObs:
    """Boot ``python -m app`` (vendor unreachable), poll ``GET /`` on the ledger port and
    ``GET /health`` on the notifier port (both relayed out of its one sandbox), stop it."""
    settings = ctx.settings
    scratch = ctx.work / SMOKE_DIR
    tokens = ctx.tokens.write(scratch / TOKENS_FILE)
    with lease_port() as ledger, lease_port() as notifier, lease_port() as nobody:
        line = combined_line(notifier.port, f"http://127.0.0.1:{nobody.port}", tokens)
        app = AppUnderTest(line, tree=ctx.tree, db=scratch / LEDGER_DB, port=ledger.port,
                           health_path="/", log_path=ctx.work / "smoke.log",
                           policy=BootPolicy(budget_s=settings.boot_budget_s, require_json=False),
                           confinement=ctx.app.confinement, also=(notifier.port,))  # fmt: skip
        try:
            booted = app.boot()
            url = f"http://127.0.0.1:{notifier.port}"

            def notifier_state() -> str | None:  # stop at once when the process is gone
                if read_json(url, "/health", timeout_s=2.0).response.succeeded:
                    return UP
                return None if app.running else GONE

            notifier_ok = until(notifier_state, settings.boot_budget_s,
                                settings.poll_s * 4) == UP  # fmt: skip
            alive = app.running
        finally:
            app.stop()
    ledger_ok = booted.healthy_after_s is not None
    detail = booted.detail if ledger_ok else f"{booted.detail}; last output: " + last_line(
        booted.output_tail)  # fmt: skip
    return SmokeObs(booted=alive and booted.bound, ledgerd_healthy=ledger_ok,
                    notifierd_healthy=notifier_ok, detail=detail)  # fmt: skip
