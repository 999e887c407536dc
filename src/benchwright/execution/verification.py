"""One verification rule for every reader of a run: verified, unverified or tampered.

``run --resume``, ``compare``, ``view``, ``report --html`` and ``runs list|show`` all
read a run through `verify_run` (or, for the trials a resume planned, `read_trial`),
so none of them can trust a file the others would refuse. Each file lands in one state:

* ``verified``: the run's key is on this machine and the file's MAC matches (a result
  must also name its own directory's task and iteration, a summary its own run);
* ``unverified``: no key here (a run copied from another machine), or a ``summary.json``
  written before summaries were sealed: shown as it is, flagged, never called verified;
* ``tampered``: the key is here and the MAC is missing or wrong, or the file is not what
  benchwright writes there (unreadable, malformed, another trial's result, a symlink).
  Whatever it claims is never counted.

Why the summary is sealed rather than recomputed by readers: a summary says which tasks
the run planned and how each ended, including tasks that left no result (killed,
not attempted); recomputing from the results alone would let whoever deletes a failing
task's directory (and its line in the unsealed ``run.json``) raise the pass rate
unseen. Sealing it with the same key makes any edit, or a summary from another run,
fail verification. A summary without a MAC is an old run's, unless a verified result
of the run carries `integrity.SUMMARY_SEALED` (every result written since summaries
were sealed does): then its MAC was stripped, and it is tampered.

The key is looked up by the directory's name (what it was created under), then by the
``run_id`` in ``run.json`` (a run copied under another name); a lookup that finds no key
can only ever make a run ``unverified``, never ``verified``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.execution import integrity, store
from benchwright.execution.records import TrialResult

VERIFIED, UNVERIFIED, TAMPERED = "verified", "unverified", "tampered"
STATES = (VERIFIED, UNVERIFIED, TAMPERED)
NO_KEY = "no key on this machine"
UNSEALED = "not sealed (written before benchwright sealed summaries)"
SUMMARY = "summary.json"


@dataclass(frozen=True)
class Seal:
    """One file's state and, unless verified, why."""

    path: Path
    state: str
    why: str = ""
    """Short: ``MAC mismatch``, ``no MAC``, ``no key on this machine``, …"""
    phrase: str = ""
    """What follows the file's name in a sentence (``fails verification (MAC mismatch)``)."""

    @property
    def badge(self) -> str:
        """What a page or a listing shows: ``verified``, ``TAMPERED: MAC mismatch``, …"""
        return VERIFIED if self.state == VERIFIED else f"{self.state.upper()}: {self.why}"

    @property
    def sentence(self) -> str:
        """The file and what is wrong with it (``… fails verification (MAC mismatch)``)."""
        return f"{self.path} {self.phrase}"


def _tampered(path: Path, why: str, phrase: str = "") -> Seal:
    return Seal(path, TAMPERED, why, phrase or f"fails verification ({why})")


@dataclass(frozen=True)
class TrialSeal:
    """A trial's ``result.json``: its state, the JSON object it holds (None when it holds
    none) and, when that parses as the result of this trial, the result."""

    task_id: str
    iteration: int
    seal: Seal
    doc: dict[str, Any] | None = None
    result: TrialResult | None = None

    @property
    def counted(self) -> bool:
        """Whether a reader may count what it says (verified, or flagged unverified)."""
        return self.seal.state != TAMPERED and self.result is not None


@dataclass(frozen=True)
class RunSeals:
    """A run's trial results and summary, each with its state, as read once."""

    run_dir: Path
    keyed: bool
    """The run's key is on this machine."""
    trials: tuple[TrialSeal, ...]
    summary: Seal | None
    """None when the run has no summary (still running, or killed)."""
    summary_doc: dict[str, Any] | None
    """The summary, only when it is not tampered (a reader then shows no figure of it)."""

    def trial(self, task_id: str, iteration: int) -> TrialSeal | None:
        return next((t for t in self.trials if (t.task_id, t.iteration) == (task_id, iteration)),
                    None)  # fmt: skip

    def counts(self) -> dict[str, int]:
        """How many trial results are in each state."""
        return {s: sum(t.seal.state == s for t in self.trials) for s in STATES}

    def tampered(self) -> list[Seal]:
        """Every tampered file: the trials' results, then the summary."""
        seals = [t.seal for t in self.trials] + ([self.summary] if self.summary else [])
        return [s for s in seals if s.state == TAMPERED]

    def unverified_note(self) -> str | None:
        """One line saying why nothing (or not everything) here can be verified, or None."""
        if self.tampered():
            return None
        if not self.keyed:
            return f"{self.run_dir}: results cannot be verified on this machine ({NO_KEY})"
        if self.summary and self.summary.state == UNVERIFIED:
            return f"{self.summary.path}: {self.summary.why}: its verdicts cannot be verified"
        return None


def verify_run(run_dir: Path, summary: Path | None = None) -> RunSeals:
    """Read and classify every ``trials/<task>/<n>/result.json`` of ``run_dir`` and its
    summary (``summary``, default ``run_dir/summary.json``)."""
    summary_path = summary or run_dir / SUMMARY
    summary_raw = _read_object(summary_path) if summary_path.exists() else None
    key = _key(run_dir, summary_raw)
    trials = tuple(read_trial(run_dir, t, n, key) for t, n in _trial_dirs(run_dir))
    if summary_raw is None:
        return RunSeals(run_dir, key is not None, trials, None, None)
    seal = _summary_seal(summary_path, summary_raw, key, trials)
    doc = summary_raw if isinstance(summary_raw, dict) and seal.state != TAMPERED else None
    return RunSeals(run_dir, key is not None, trials, seal, doc)


def read_trial(run_dir: Path, task_id: str, iteration: int, key: bytes | None) -> TrialSeal:
    """The state of one trial's ``result.json`` (which must exist) under ``key``."""
    path = store.trial_dir(run_dir, task_id, iteration) / store.RESULT

    def tampered(why: str, doc: dict[str, Any] | None = None, phrase: str = "") -> TrialSeal:
        return TrialSeal(task_id, iteration, _tampered(path, why, phrase), doc)

    if not _inside(run_dir, path):
        return tampered("outside the run directory", phrase="resolves outside the run directory")
    raw = _read_object(path)
    if isinstance(raw, Problem):
        return tampered(raw.why, phrase=raw.phrase)
    if key is not None and (failure := integrity.verify(raw, key)):
        return tampered(failure, raw)
    try:
        result = TrialResult.from_dict(raw)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        why = f"malformed ({type(exc).__name__}: {exc})"
        return tampered(why, raw, f"is {why}")
    if (result.task_id, result.iteration) != (task_id, iteration):
        other = f"{result.task_id} #{result.iteration}"
        return tampered(f"the result of {other}", raw, f"is the result of {other}")
    state, why = (VERIFIED, "") if key is not None else (UNVERIFIED, NO_KEY)
    return TrialSeal(task_id, iteration, Seal(path, state, why), raw, result)


def verified_results(
    run_dir: Path, trials: Iterable[tuple[str, int]], key: bytes
) -> tuple[dict[tuple[str, int], TrialResult], dict[tuple[str, int], str]]:
    """``--resume``: the planned trials' verified results, and for every other planned
    trial why it must (re-)run. An untrusted trial's directory is deleted, so what runs
    next starts clean."""
    results: dict[tuple[str, int], TrialResult] = {}
    reruns: dict[tuple[str, int], str] = {}
    for task_id, iteration in trials:
        where = store.trial_dir(run_dir, task_id, iteration)
        found = None
        if (where / store.RESULT).exists():
            found = read_trial(run_dir, task_id, iteration, key)
        if found is not None and found.seal.state == VERIFIED and found.result is not None:
            results[(task_id, iteration)] = found.result
            continue
        reruns[(task_id, iteration)] = (
            f"{store.RESULT} {found.seal.phrase}" if found else f"no {store.RESULT}"
        )
        shutil.rmtree(where, ignore_errors=True)
    return results, reruns


def _trial_dirs(run_dir: Path) -> list[tuple[str, int]]:
    """``(task, n)`` of every ``trials/<task>/<n>/result.json``, by task then n."""
    found = [
        (p.parent.parent.name, int(p.parent.name))
        for p in (run_dir / "trials").glob(f"*/*/{store.RESULT}")
        if p.parent.name.isdigit()
    ]
    return sorted(found)


def run_key(run_dir: Path) -> bytes | None:
    """The run's key, found as every reader finds it (`_key`); None when none is here."""
    return _key(run_dir, None)


def _key(run_dir: Path, summary: Any) -> bytes | None:
    """The run's key: by the directory's name, else ``run.json``'s run id, else (a bare
    summary file) the summary's; None when none is on this machine."""
    ids = [run_dir.name]
    info = _read_object(run_dir / "run.json")
    for doc in (info, summary):
        if isinstance(doc, dict) and isinstance(doc.get("run_id"), str):
            ids.append(doc["run_id"])
    for run_id in dict.fromkeys(ids):
        try:
            key = integrity.load_key(run_id)
        except SpecError:  # not a run id: no key was ever made for it
            continue
        if key is not None:
            return key
    return None


def _summary_seal(
    path: Path, raw: dict[str, Any] | Problem, key: bytes | None, trials: tuple[TrialSeal, ...]
) -> Seal:
    if isinstance(raw, Problem):
        return _tampered(path, raw.why, raw.phrase)
    if integrity.MAC_FIELD not in raw:
        stripped = any(
            t.seal.state == VERIFIED and (t.doc or {}).get(integrity.SUMMARY_SEALED) for t in trials
        )
        return _tampered(path, "no MAC") if stripped else Seal(path, UNVERIFIED, UNSEALED)
    if key is None:
        return Seal(path, UNVERIFIED, NO_KEY)
    if failure := integrity.verify(raw, key):
        return _tampered(path, failure)
    return Seal(path, VERIFIED)


@dataclass(frozen=True)
class Problem:
    """Why a file holds no JSON object: short, and as the rest of a sentence."""

    why: str
    phrase: str


def _read_object(path: Path) -> dict[str, Any] | Problem:
    """The JSON object in ``path``, or why there is none."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        why = f"unreadable ({type(exc).__name__}: {exc})"
        return Problem(why, f"is {why}")
    return raw if isinstance(raw, dict) else Problem("not an object", "does not hold an object")


def _inside(run_dir: Path, path: Path) -> bool:
    """No symlink in ``path`` leads out of the run directory (benchwright writes none)."""
    return not path.is_symlink() and path.resolve().is_relative_to(run_dir.resolve())
