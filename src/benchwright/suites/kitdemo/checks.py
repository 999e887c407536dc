"""kitdemo's checks: pure functions of the observation record, one per scorer row.

Each is marked with `app_check` and names the phases it reads; the kit's `CheckTable`
runs it only when they all ran, and answers for it otherwise (INFRA, FAIL or
NOT_ATTEMPTED).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import BOOT_ROW, CheckTable, app_check, frac, g, is_int, result
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kitdemo.observations import Answer
from benchwright.suites.kitdemo.phases import BAD_BODIES, NOTES


@dataclass(frozen=True)
class CheckSettings:
    """Nothing to calibrate: kitdemo's rungs are fixed in its checks."""

    @classmethod
    def from_scorer(cls, scorer: Any) -> CheckSettings:
        return cls()


@app_check("package_present", needs=("static",))
def package_present(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """kitdemo/__main__.py is there (0.5) and stores its notes with sqlite3 (1)."""
    source = obs["static"].main_source
    if source is None:
        return result("package_present", 0.0, "0: no kitdemo/__main__.py")
    if "sqlite3" not in source:
        return result("package_present", 0.5, "0.5: kitdemo/__main__.py never names sqlite3")
    return result("package_present", 1.0, "1: kitdemo/__main__.py, on sqlite3")


@app_check(BOOT_ROW, needs=("boot",))
def server_runs(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """The kit's boot ladder: healthy within 5 s 1; later 0.75; port only 0.4; crash 0."""
    boot = obs["boot"].boot
    return result(BOOT_ROW, boot.ladder, boot.detail, log=str(boot.log_path))


@app_check("notes_created", needs=("notes",))
def notes_created(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """Each POST answered 201 with an integer id and the text it was sent."""
    answers = zip(obs["notes"].created, NOTES, strict=True)
    ok = sum(a.status == 201 and is_int(a.get("id")) and a.get("text") == t for a, t in answers)
    score = frac(ok, len(NOTES))
    return result("notes_created", score, f"{g(score)}: {ok}/{len(NOTES)} answered 201 with "
                  "an integer id and the text sent")  # fmt: skip


@app_check("notes_listed", needs=("notes",))
def notes_listed(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """GET /api/notes lists the three notes oldest first (0.5) with total 3 (1)."""
    listed = obs["notes"].listed
    data = listed.get("data") if isinstance(listed.get("data"), list) else []
    texts = [n.get("text") for n in data if isinstance(n, dict)]
    if listed.status != 200 or texts != list(NOTES):
        return result("notes_listed", 0.0, f"0: {listed.status}, texts {texts} (want 200, "
                      f"{list(NOTES)})")  # fmt: skip
    if listed.get("total") != len(NOTES):
        return result("notes_listed", 0.5, f"0.5: total {listed.get('total')!r} (want 3)")
    return result("notes_listed", 1.0, "1: the three notes, oldest first, total 3")


@app_check("bad_input_400", needs=("errors",))
def bad_input_400(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """Each refused body answered 400 with the error envelope (code ``bad_request``)."""
    answers = obs["errors"].bad_posts
    ok = sum(_refused(a, 400, "bad_request") for a in answers)
    score = frac(ok, len(BAD_BODIES))
    return result("bad_input_400", score, f"{g(score)}: {ok}/{len(BAD_BODIES)} bad bodies "
                  f"answered 400 bad_request (statuses {[a.status for a in answers]})")  # fmt: skip


@app_check("missing_404", needs=("errors",))
def missing_404(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """A note that does not exist answers 404 (0.5) with the envelope, code ``not_found`` (1)."""
    missing = obs["errors"].missing
    if _refused(missing, 404, "not_found"):
        return result("missing_404", 1.0, "1: 404 not_found")
    score = 0.5 if missing.status == 404 else 0.0
    return result("missing_404", score, f"{g(score)}: {missing.status} {missing.body!r} (want "
                  "404 with the not_found envelope)")  # fmt: skip


@app_check("restart_keeps_notes", needs=("restart",))
def restart_keeps_notes(obs: PhaseLog, _s: CheckSettings) -> CheckResult:
    """The notes listed before a SIGKILL, listed again after the restart (the share kept)."""
    seen = obs["restart"]
    before, after = _notes(seen.before), _notes(seen.after)
    if not before:
        return result("restart_keeps_notes", 0.0, "0: no notes listed before the kill")
    kept = sum(n in after for n in before)
    score = frac(kept, len(before))
    return result("restart_keeps_notes", score, f"{g(score)}: {kept}/{len(before)} notes kept "
                  f"({seen.boot.detail})")  # fmt: skip


def _refused(answer: Answer, status: int, code: str) -> bool:
    error = answer.get("error")
    return answer.status == status and isinstance(error, dict) and error.get("code") == code


def _notes(answer: Answer) -> list[Any]:
    data = answer.get("data")
    return data if answer.status == 200 and isinstance(data, list) else []


def build_table() -> CheckTable:
    """Every check of this module, by id."""
    return CheckTable.from_modules([sys.modules[__name__]])
