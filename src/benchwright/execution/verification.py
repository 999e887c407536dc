"""One verification rule for every reader of a run: verified, unverified or tampered.

``run --resume``, ``compare``, ``view``, ``report --html``, ``gate`` (of a run's
trajectory) and ``runs list|show`` all read a run through `verify_run` (or, for the
trials a resume planned, `read_trial`), so none of them can trust a file the others
would refuse. Each file lands in one state:

* ``verified``: the run was sealed on this machine (it has a row in the run index,
  `key_index`) and the file's MAC matches under its key (a result must also name its
  own directory's task and iteration, ``run.json`` the run the row was made for);
* ``unverified``: no row here (a run never sealed on this machine: copied from
  elsewhere, or made up), or a ``run.json``/``summary.json`` written before those were
  sealed: shown as it is, flagged UNVERIFIED, never called verified, and ``compare``
  prints no verdict from it unless told ``--allow-unverified``;
* ``tampered``: the row is here and the MAC is missing or wrong, or the file is not what
  benchwright writes there (unreadable, malformed, another trial's result, a symlink,
  a ``run.json`` naming another run than the one sealed in this directory).
  Whatever it claims is never counted.

Why the summary is sealed rather than recomputed by readers: a summary says which tasks
the run planned and how each ended, including tasks that left no result (killed,
not attempted); recomputing from the results alone would let whoever deletes a failing
task's directory (and its line in ``run.json``) raise the pass rate unseen. Sealing it
with the same key makes any edit, or a summary from another run, fail verification. A
summary without a MAC is an old run's, unless a verified result of the run carries
`integrity.SUMMARY_SEALED` (every result written since summaries were sealed does):
then its MAC was stripped, and it is tampered.

The row is found by the directory read (where the run was created), else by the run id
``run.json`` claims (a copy of a run sealed here, which verifies as the original: it is
the same sealed content); nothing in the run directory is ever read as a key. A run id
with no row makes the run ``unverified`` however its files look: a copy given a new run
id with its MACs stripped is exactly that.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.execution import evidence, integrity, key_index, store
from benchwright.execution.key_index import Entry
from benchwright.execution.records import TrialResult

VERIFIED, UNVERIFIED, TAMPERED = "verified", "unverified", "tampered"
STATES = (VERIFIED, UNVERIFIED, TAMPERED)
NO_KEY = "no key on this machine"
NEVER_SEALED = f"never sealed on this machine ({NO_KEY})"
UNSEALED = "not sealed (written before benchwright sealed summaries)"
UNSEALED_RUN_JSON = "not sealed (written before benchwright sealed run.json)"
SUMMARY = "summary.json"
RUN_JSON = "run.json"


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


def _unverified(path: Path, why: str) -> Seal:
    return Seal(path, UNVERIFIED, why, f"cannot be verified ({why})")


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
    """A run's ``run.json``, trial results and summary, each with its state, as read once."""

    run_dir: Path
    entry: Entry | None
    """The run's row in the run index; None when it was never sealed here."""
    run_json: Seal | None
    """None when there is no ``run.json`` (a bare summary file)."""
    trials: tuple[TrialSeal, ...]
    summary: Seal | None
    """None when the run has no summary (still running, or killed)."""
    summary_doc: dict[str, Any] | None
    """The summary, only when it is not tampered (a reader then shows no figure of it)."""

    @property
    def keyed(self) -> bool:
        """The run's key is on this machine."""
        return self.entry is not None

    @property
    def origin(self) -> Path | None:
        """Where the run was sealed, when that is not this directory (a copy of it)."""
        if self.entry is None or self.entry.path is None:
            return None
        return None if self.entry.path == self.run_dir.resolve() else self.entry.path

    def trial(self, task_id: str, iteration: int) -> TrialSeal | None:
        return next((t for t in self.trials if (t.task_id, t.iteration) == (task_id, iteration)),
                    None)  # fmt: skip

    def counts(self) -> dict[str, int]:
        """How many trial results are in each state."""
        return {s: sum(t.seal.state == s for t in self.trials) for s in STATES}

    def files(self) -> list[Seal]:
        """``run.json``, the trials' results, then the summary."""
        first = [self.run_json] if self.run_json else []
        return first + [t.seal for t in self.trials] + ([self.summary] if self.summary else [])

    def tampered(self) -> list[Seal]:
        """Every tampered file."""
        return [s for s in self.files() if s.state == TAMPERED]

    @property
    def state(self) -> str:
        """The run's: tampered if any file is, else unverified if it was never sealed here
        or any file is unverified, else verified."""
        if self.tampered():
            return TAMPERED
        if not self.keyed or any(s.state == UNVERIFIED for s in self.files()):
            return UNVERIFIED
        return VERIFIED

    def worst(self, *, verdicts: bool = False) -> Seal | None:
        """The seal that decides `state` (the run itself when it was never sealed here);
        None when the run is verified. ``verdicts``: judge the files verdicts are read
        from, so an old run's unsealed ``run.json`` (only labels) does not count; a
        tampered one always does."""
        if found := self.tampered():
            return found[0]
        if not self.keyed:
            return Seal(self.run_dir, UNVERIFIED, NO_KEY, f"was {NEVER_SEALED}")
        judged = [s for s in self.files() if not (verdicts and s is self.run_json)]
        return next((s for s in judged if s.state == UNVERIFIED), None)

    def headline(self, *, verdicts: bool = False) -> str | None:
        """One line for a reader's first line: ``UNVERIFIED: runs/X was never sealed on this
        machine (no key on this machine)``; None when the run is verified (``verdicts``: as
        `worst`)."""
        worst = self.worst(verdicts=verdicts)
        return None if worst is None else f"{worst.state.upper()}: {worst.sentence}"


def verify_run(run_dir: Path, summary: Path | None = None) -> RunSeals:
    """Read and classify ``run_dir``'s ``run.json``, every ``trials/<task>/<n>/result.json``
    and its summary (``summary``, default ``run_dir/summary.json``)."""
    summary_path = summary or run_dir / SUMMARY
    summary_raw = _read_object(summary_path) if summary_path.exists() else None
    info_path = run_dir / RUN_JSON
    info_raw = _read_object(info_path) if info_path.exists() else None
    claimed = next((d.get("run_id") for d in (info_raw, summary_raw) if isinstance(d, dict)), None)
    entry = key_index.lookup(run_dir, claimed)
    key = entry.key if entry else None
    info_seal = None if info_raw is None else run_json_seal(run_dir, info_raw, entry)
    trials = tuple(read_trial(run_dir, t, n, key) for t, n in _trial_dirs(run_dir))
    if summary_raw is None:
        return RunSeals(run_dir, entry, info_seal, trials, None, None)
    seal = _summary_seal(summary_path, summary_raw, key, trials)
    doc = summary_raw if isinstance(summary_raw, dict) and seal.state != TAMPERED else None
    return RunSeals(run_dir, entry, info_seal, trials, seal, doc)


def run_json_seal(run_dir: Path, raw: dict[str, Any] | Problem, entry: Entry | None) -> Seal:
    """The state of ``run.json`` (read as ``raw``) under the run's row ``entry``.

    ``run --resume`` runs the agent and suite it names, and every listing shows them, so
    it must be the one the run was sealed with: its MAC verifies, it names the run the
    row was made for, and (for a run sealed since the index) its MAC is the one recorded.
    """
    path = run_dir / RUN_JSON
    if not _inside(run_dir, path):
        return _tampered(path, "outside the run directory", "resolves outside the run directory")
    if isinstance(raw, Problem):
        return _tampered(path, raw.why, raw.phrase)
    if entry is None:
        return _unverified(path, NO_KEY)
    if raw.get("run_id") != entry.run_id:
        why = f"names run {raw.get('run_id')!r}, not {entry.run_id}, sealed in {run_dir}"
        return _tampered(path, why)
    if integrity.MAC_FIELD not in raw and entry.run_json_mac is None:
        return _unverified(path, UNSEALED_RUN_JSON)
    if failure := integrity.verify(raw, entry.key):
        return _tampered(path, failure)
    if entry.run_json_mac not in (None, raw[integrity.MAC_FIELD]):
        return _tampered(path, "not the run.json the run was sealed with")
    return Seal(path, VERIFIED)


def sealed_entry(run_dir: Path, info: dict[str, Any]) -> Entry | None:
    """The run's row, found as every reader finds it; None when it was never sealed here."""
    return key_index.lookup(run_dir, info.get("run_id"))


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
    if why := evidence.mismatch(path.parent, result.evidence_files):
        return tampered(why, raw, f"lists evidence that is not on disk as sealed ({why})")
    seal = Seal(path, VERIFIED) if key is not None else _unverified(path, NO_KEY)
    return TrialSeal(task_id, iteration, seal, raw, result)


NOT_RUN = f"no {store.RESULT}"
"""Why `verified_results` re-runs a trial that never finished (the usual case, not news)."""


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
        reruns[(task_id, iteration)] = f"{store.RESULT} {found.seal.phrase}" if found else NOT_RUN
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


def _summary_seal(
    path: Path, raw: dict[str, Any] | Problem, key: bytes | None, trials: tuple[TrialSeal, ...]
) -> Seal:
    if isinstance(raw, Problem):
        return _tampered(path, raw.why, raw.phrase)
    if key is None:  # whatever else it lacks, nothing here can tell
        return _unverified(path, NO_KEY)
    if integrity.MAC_FIELD not in raw:
        stripped = any(
            t.seal.state == VERIFIED and (t.doc or {}).get(integrity.SUMMARY_SEALED) for t in trials
        )
        return _tampered(path, "no MAC") if stripped else _unverified(path, UNSEALED)
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
