"""Phase ``client``: the entrant's ``MeridianClient`` called directly (spec §4: "The
harness calls these methods directly"), in a subprocess confined exactly like the app
(`client_driver`), never imported into the grader's process."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from benchwright.services.app import boot_headline
from benchwright.services.ports import lease_port
from benchwright.suites.vendorsync.context import GradeContext
from benchwright.suites.vendorsync.observations import ClientObs, Observations

DRIVER = Path(__file__).with_name("client_driver.py")
PHASE = "client"
"""The vendor trace's window of the direct calls (it resets the traps: a fresh walk)."""


def client(ctx: GradeContext, obs: Observations) -> ClientObs:
    """Mark ``client``; run the driver (fetch_all_payments, total_count, create_payment
    twice with one key) confined like the app; read its report."""
    place = ctx.work / PHASE
    place.mkdir(exist_ok=True)
    script = place / DRIVER.name
    shutil.copyfile(DRIVER, script)
    report = place / "report.json"
    ctx.mock.mark_phase(PHASE)
    command = f"{{python}} {shlex.quote(str(script))} --db {{db}} --port {{port}}"
    with lease_port() as lease:
        driver = ctx.confined(command, report, lease.port, ctx.work / "client.log",
                              ctx.settings.client_budget_s, ctx.app.confinement)  # fmt: skip
        try:
            booted = driver.boot()
        finally:
            driver.stop()
    if not report.is_file():
        why = boot_headline(booted) or "the driver left no report"
        return ClientObs(None, f"the client calls did not finish: {why}")
    return ClientObs(json.loads(report.read_text(encoding="utf-8")), None)
