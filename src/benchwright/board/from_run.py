"""``benchwright publish RUN_DIR[/TRIAL]``: a trial's scorecard and what its run measured.

A trial of an executed-app suite leaves its grader's scorecard in its evidence
(``trials/<task>/<n>/evidence/<check_id>/scorecard.json``, beside the grader's evidence
files) and what was measured of the run in its ``result.json`` (the ``run`` block of
`benchwright.execution.run_meta`). Publishing it posts both: the model, start, finish,
wall seconds, engine events, repair rounds, tokens, cost and nodes all come from the
record, none is typed by hand, so the board's swarm rules judge what was measured.

Nothing is read before it is verified as every reader of a run verifies it
(`benchwright.execution.verification`): the trial's ``result.json`` must be verified here
(a tampered one, or one of a run never sealed on this machine, is refused), and every file
of the check's evidence folder must be one the sealed result lists, with that sha256.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.board.payload import AGENT_MAX, ID_MAX
from benchwright.errors import SpecError
from benchwright.execution import store
from benchwright.execution.verification import TAMPERED, VERIFIED, RunSeals, verify_run

EVIDENCE = "evidence"
CARD_NAME = "scorecard.json"
DIGESTS = "evidence_files"
"""The sealed ``result.json``'s listing of the trial's evidence files: path relative to the
trial's ``evidence/`` folder -> sha256 hex (issue #25's contract, §2). Verification checks
the listed files; here every file of the folder must also be listed (none added since)."""


@dataclass(frozen=True)
class TrialCard:
    """A verified trial's scorecard file and the run metadata to post with it."""

    card: Path
    model: str | None
    """The model the agent's own record named; None when it named none."""
    nodes: int
    run: dict[str, Any]
    """``run`` of the post (camelCase, `payload.RunMeta`) except ``treeSha256``."""


def is_run_path(path: Path) -> bool:
    """Whether ``path`` is a run or trial directory (anything else is taken as a card)."""
    return path.is_dir() and ((path / "run.json").is_file() or (path / store.RESULT).is_file())


def trial_card(path: Path) -> TrialCard:
    """The verified trial ``path`` names: ``runs/<id>/trials/<task>/<n>``, or ``runs/<id>``
    when exactly one of its trials has a scorecard.

    Raises:
        SpecError: not a trial or run directory, no or several trials with a scorecard, a
            result that is tampered or cannot be verified here, evidence that is not the
            sealed evidence, or a result with no measured run metadata.
    """
    run_dir, task_id, iteration = _locate(path)
    seals = verify_run(run_dir)
    if seals.run_json is not None and seals.run_json.state == TAMPERED:
        raise SpecError.single(str(path), f"{seals.run_json.sentence}: refused")
    trial = seals.trial(task_id, iteration)
    if trial is None or trial.result is None or trial.seal.state != VERIFIED:
        why = trial.seal.sentence if trial else f"{path}: no {store.RESULT}"
        raise SpecError.single(str(path), f"{why}: refused (only a verified trial is published)")
    where = store.trial_dir(run_dir, task_id, iteration)
    card = _the_card(where)
    _check_evidence(card.parent, where / EVIDENCE, (trial.doc or {}).get(DIGESTS))
    block = trial.result.run or {}
    missing = [k for k in ("started_at", "finished_at", "wall_s") if block.get(k) is None]
    if missing:
        raise SpecError.single(
            str(where / store.RESULT), f"no measured {', '.join(missing)} (a trial recorded "
            "before benchwright measured runs, or the agent never started): cannot publish it",
        )  # fmt: skip
    run = {
        "startedAt": block["started_at"],
        "finishedAt": block["finished_at"],
        "engineEvents": block.get("engine_events") or 0,
        "repairRounds": block.get("repair_rounds") or 0,
        "wallSecs": block["wall_s"],
        "agent": trial.result.agent[:AGENT_MAX],
        "suite": _suite(seals),
        "inputTokens": block.get("input_tokens"),
        "outputTokens": block.get("output_tokens"),
        "costUsd": block.get("cost_usd"),
    }
    return TrialCard(card, block.get("model"), int(block.get("nodes") or 0), run)


def _locate(path: Path) -> tuple[Path, str, int]:
    """``(run dir, task, n)`` of a trial directory, or of a run's one trial with a card."""
    if (path / store.RESULT).is_file() and path.parent.parent.name == "trials":
        if not path.name.isdigit():
            raise SpecError.single(str(path), "not a trial directory (trials/<task>/<n>)")
        return path.parent.parent.parent, path.parent.name, int(path.name)
    if not (path / "run.json").is_file():
        raise SpecError.single(str(path), "neither a run directory (run.json) nor a trial "
                               "directory (trials/<task>/<n>/result.json)")  # fmt: skip
    trials = sorted(p.parent for p in (path / "trials").glob(f"*/*/{store.RESULT}"))
    carded = [t for t in trials if list(t.glob(f"{EVIDENCE}/*/{CARD_NAME}"))]
    if len(carded) == 1:
        return path, carded[0].parent.name, int(carded[0].name)
    listed = ", ".join(str(t.relative_to(path)) for t in (carded or trials)) or "none"
    what = "several trials have" if carded else "no trial has"
    raise SpecError.single(str(path), f"{what} a scorecard: publish one of its trials "
                           f"(RUN_DIR/trials/<task>/<n>); trials: {listed}")  # fmt: skip


def _the_card(trial: Path) -> Path:
    cards = sorted((trial / EVIDENCE).glob(f"*/{CARD_NAME}"))
    if len(cards) != 1:
        found = ", ".join(str(c.relative_to(trial)) for c in cards) or "none"
        raise SpecError.single(str(trial), f"needs exactly one {EVIDENCE}/<check>/{CARD_NAME} "
                               f"to publish; found {found}")  # fmt: skip
    return cards[0]


def _check_evidence(folder: Path, root: Path, listed: Any) -> None:
    """Every file of the check's evidence ``folder`` is listed in the sealed result with
    its sha256 (a file added, changed or put behind a symlink since is refused)."""
    digests = listed if isinstance(listed, Mapping) else {}
    for file in sorted(p for p in folder.rglob("*") if not p.is_dir()):
        name = file.relative_to(root).as_posix()
        sealed = digests.get(name)
        if file.is_symlink() or not isinstance(sealed, str):
            raise SpecError.single(str(file), "is not evidence the trial's sealed result "
                                   "lists: refused")  # fmt: skip
        if hashlib.sha256(file.read_bytes()).hexdigest() != sealed:
            raise SpecError.single(str(file), "differs from the sha256 its sealed result "
                                   "lists: refused")  # fmt: skip


def _suite(seals: RunSeals) -> str:
    info = store.read_run_json(seals.run_dir)
    suite = info.get("suite")
    name = suite.get("name") if isinstance(suite, Mapping) else suite
    return str(name or "unknown")[:ID_MAX]
