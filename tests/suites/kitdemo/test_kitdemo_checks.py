"""kitdemo's checks on canned observations: each passes what spec.md asks and fails a
broken app, and the kit's table answers for a check whose phase did not run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchwright.model import Status
from benchwright.scoring import load_scorer
from benchwright.services.app import BootObservation
from benchwright.suites.kit import PhaseLog
from benchwright.suites.kit.kinds import BootObs
from benchwright.suites.kitdemo import SCORER
from benchwright.suites.kitdemo.checks import CheckSettings, build_table
from benchwright.suites.kitdemo.observations import (
    Answer,
    ErrorsObs,
    NotesObs,
    RestartObs,
    StaticObs,
)
from benchwright.suites.kitdemo.phases import NOTES

HEALTHY = BootObservation(1.0, "1.0: healthy in 0.4 s (rung <= 5 s)", 0.4, True, (200,), None,
                          None, b"", b'{"status": "ok"}', 1, Path("app.log"))  # fmt: skip
CRASHED = replace(HEALTHY, ladder=0.0, detail="0.0: exited 1 at boot", healthy_after_s=None,
                  bound=False, exit_code=1, output_tail=b"Boom\n")  # fmt: skip
ROWS = [{"id": i, "text": t} for i, t in enumerate(NOTES, 1)]
LISTED = Answer(200, {"data": ROWS, "total": 3})
BAD = Answer(400, {"error": {"code": "bad_request", "message": "no text"}})
MISSING = Answer(404, {"error": {"code": "not_found", "message": "no note"}})


def golden() -> PhaseLog:
    return PhaseLog(phases={
        "static": StaticObs("import sqlite3\n"),
        "boot": BootObs(HEALTHY),
        "notes": NotesObs(tuple(Answer(201, r) for r in ROWS), LISTED),
        "errors": ErrorsObs((BAD, BAD, BAD), MISSING),
        "restart": RestartObs(LISTED, HEALTHY, LISTED),
    })  # fmt: skip


def score(check: str, **phases: object) -> float:
    obs = golden()
    obs = replace(obs, phases={**obs.phases, **phases})
    row = build_table().evaluate_one(check, obs, CheckSettings())
    assert row.status is (Status.PASS if row.score == 1.0 else Status.FAIL), row
    return row.score


def test_the_golden_observations_pass_every_check():
    rows = build_table().evaluate(golden(), CheckSettings())
    assert {r.check_id: r.score for r in rows if r.score < 1.0} == {}
    assert len(rows) == 7


@pytest.mark.parametrize(("check", "phases", "want"), [
    ("package_present", {"static": StaticObs(None)}, 0.0),
    ("package_present", {"static": StaticObs("notes = {}\n")}, 0.5),
    ("server_runs", {"boot": BootObs(CRASHED)}, 0.0),
    ("notes_created", {"notes": NotesObs((Answer(201, ROWS[0]), Answer(200, ROWS[1]),
                                          Answer(201, {"id": "3", "text": NOTES[2]})),
                                         LISTED)}, 1 / 3),
    ("notes_listed", {"notes": NotesObs((), Answer(200, {"data": ROWS[::-1], "total": 3}))}, 0.0),
    ("notes_listed", {"notes": NotesObs((), Answer(200, {"data": ROWS}))}, 0.5),
    ("bad_input_400", {"errors": ErrorsObs((BAD, Answer(201, ROWS[0]),
                                            Answer(400, {"error": "bad"})), MISSING)}, 1 / 3),
    ("missing_404", {"errors": ErrorsObs((), Answer(404, {"detail": "gone"}))}, 0.5),
    ("missing_404", {"errors": ErrorsObs((), Answer(200, None))}, 0.0),
    ("restart_keeps_notes", {"restart": RestartObs(LISTED, HEALTHY,
                                                   Answer(200, {"data": ROWS[:2]}))}, 2 / 3),
    ("restart_keeps_notes", {"restart": RestartObs(LISTED, CRASHED, Answer(None, None))}, 0.0),
    ("restart_keeps_notes", {"restart": RestartObs(Answer(500, None), HEALTHY, LISTED)}, 0.0),
])  # fmt: skip
def test_each_check_fails_a_broken_app(check, phases, want):
    assert score(check, **phases) == pytest.approx(want, abs=1e-6)


def test_a_check_whose_phase_did_not_run_is_answered_by_the_table():
    obs = golden()
    broken = replace(obs, phases={k: v for k, v in obs.phases.items() if k != "restart"},
                     failed={"restart": "HarnessError: no uid"})  # fmt: skip
    down = replace(obs, phases={"static": obs["static"], "boot": BootObs(CRASHED)},
                   app_down=dict.fromkeys(("notes", "errors", "restart"), "down"))  # fmt: skip
    skipped = replace(obs, phases={"static": obs["static"]})
    table, settings = build_table(), CheckSettings()
    assert table.evaluate_one("restart_keeps_notes", broken, settings).status is Status.INFRA
    row = table.evaluate_one("notes_listed", down, settings)
    assert row.status is Status.FAIL and row.evidence["blocked_by"] == "server_runs"
    row = table.evaluate_one("missing_404", skipped, settings)
    assert row.status is Status.NOT_ATTEMPTED


def test_the_table_and_the_scorer_name_the_same_rows():
    scorer = load_scorer(Path(__file__).parents[3] / "scorers" / SCORER)
    assert set(build_table().ids) == set(scorer.wanted)
