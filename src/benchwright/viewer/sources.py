"""What the viewer may show: the runs and scorecards under the paths it was given.

A URL never becomes a path. Runs, trials and scorecards are found by listing the
given directories (`Sources.scan`; again when they change, `benchwright.viewer.live`),
and a request names them by id; the viewer looks the id up among what it listed and
reads that file. Evidence files a scorecard
names (screenshots, the app log, the vendor trace) are read only when they resolve,
symlinks followed, inside the scorecard's own directory: a hostile card naming
``/etc/passwd`` or ``../../secret`` shows nothing. A run's results and summary are read
only through `verify_run` (``Run.verify``), so every page knows what it may count.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.execution.verification import RunSeals, verify_run

MAX_TEXT_BYTES = 1_000_000
"""A log or trace is cut here on a page (the file on disk stays whole)."""


@dataclass(frozen=True)
class Trial:
    """One trial directory of a run (``trials/<task>/<iteration>/``)."""

    task_id: str
    iteration: int
    path: Path
    root: Path
    """The run directory: a file (or a symlink) resolving outside it is not read."""

    def json(self, name: str, default: Any) -> Any:
        """A JSON file of the trial, ``default`` when it is absent or unreadable."""
        path = inside(self.root, str(self.path / name))
        try:
            return json.loads(path.read_text(encoding="utf-8")) if path else default
        except (OSError, ValueError):
            return default

    def text(self, name: str) -> str:
        path = inside(self.root, str(self.path / name))
        return read_text(path) if path else ""


@dataclass(frozen=True)
class Run:
    """A run directory: ``run.json``, ``summary.json`` (absent while running) and trials."""

    id: str
    path: Path
    info: Mapping[str, Any]
    trials: tuple[Trial, ...]

    def verify(self) -> RunSeals:
        """Its results and summary, read and verified now: each page verifies what it shows
        as it renders, so a file edited while the viewer runs shows as what it is."""
        return verify_run(self.path)

    def trial(self, task_id: str, iteration: int) -> Trial | None:
        return next(
            (t for t in self.trials if (t.task_id, t.iteration) == (task_id, iteration)), None
        )

    def task_trials(self, task_id: str) -> list[Trial]:
        return [t for t in self.trials if t.task_id == task_id]


@dataclass(frozen=True)
class Card:
    """A scorecard JSON file (``benchwright grade --json``) and the directory it owns."""

    id: str
    path: Path
    doc: Mapping[str, Any]

    def evidence(self) -> dict[str, Path]:
        """The evidence files it names that exist inside its directory, by key: the
        ``evidence`` object's, and each kept screenshot (``grading.screenshots``, not only
        the published ones) as ``screenshot_<name>``."""
        grading = self.doc.get("grading", {})
        listed = grading.get("evidence") if isinstance(grading, Mapping) else None
        named = dict(listed) if isinstance(listed, Mapping) else {}
        for shot in self.screenshots():
            named.setdefault(f"screenshot_{shot['name']}", shot["path"])
        found = {}
        for key, value in named.items():
            path = inside(self.path.parent, str(value))
            if path is not None:
                found[str(key)] = path
        return found

    def screenshots(self) -> list[Mapping[str, Any]]:
        """``grading.screenshots``: each kept screenshot's name, path, the rows relying on
        it and whether it was published; entries that are not of that shape are left out
        (a card is data)."""
        grading = self.doc.get("grading", {})
        listed = grading.get("screenshots") if isinstance(grading, Mapping) else None
        if not isinstance(listed, list):
            return []
        return [s for s in listed if isinstance(s, Mapping)
                and isinstance(s.get("name"), str) and isinstance(s.get("path"), str)]  # fmt: skip


@dataclass
class Sources:
    """Every run and scorecard found under the given paths, by id."""

    runs: dict[str, Run] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)

    @classmethod
    def scan(cls, paths: Iterable[Path], *, strict: bool = True) -> Sources:
        """List ``paths``: run directories, directories of runs (and of scorecards), and
        scorecard files; runs newest first (as ``runs list`` orders them). `SpecError`
        names a path that holds none of these, unless not ``strict`` (a listing again,
        while serving: a directory whose last run was removed lists nothing)."""
        found = cls()
        for path in paths:
            if not path.exists():
                if not strict:
                    continue
                raise SpecError.single(str(path), "no such file or directory")
            before = len(found.runs) + len(found.cards)
            if path.is_file():
                found._add_card(path, strict=True)
            elif (path / "run.json").is_file():
                found._add_run(path)
            else:
                for child in sorted(path.iterdir()):
                    if not child.resolve().is_relative_to(path.resolve()):
                        continue  # a symlink out of the directory given
                    if child.is_dir() and (child / "run.json").is_file():
                        found._add_run(child)
                    elif child.is_file() and child.suffix == ".json":
                        found._add_card(child, strict=False)
            if strict and len(found.runs) + len(found.cards) == before:
                raise SpecError.single(str(path), "holds no run directory and no scorecard JSON")
        newest = sorted(found.runs.values(), key=_newest_first, reverse=True)
        found.runs = {run.id: run for run in newest}
        return found

    def summary_line(self) -> str:
        """What ``view`` and ``report`` say first: the counts, then every run that is not
        verified and why (``1 run(s), 0 scorecard(s); UNVERIFIED: runs/X was never …``)."""
        lines = [line for run in self.runs.values() if (line := run.verify().headline())]
        counts = f"{len(self.runs)} run(s), {len(self.cards)} scorecard(s)"
        return "; ".join([counts, *lines])

    def _add_run(self, path: Path) -> None:
        info = _json_object(path / "run.json")
        if info is None:
            return
        # by its directory's name: the run_id in run.json is the run's claim, and a forged
        # run claiming a real run's id must not take that id's pages
        run_id = _unique(path.name, self.runs)
        self.runs[run_id] = Run(run_id, path, info, tuple(_trials(path / "trials")))

    def _add_card(self, path: Path, *, strict: bool) -> None:
        doc = _json_object(path)
        if doc is None or not {"scorer_version", "rows", "score"} <= doc.keys():
            if strict:
                raise SpecError.single(str(path), "not a scorecard JSON (benchwright grade --json)")
            return
        card_id = _unique(path.stem, self.cards)
        self.cards[card_id] = Card(card_id, path, doc)


def _newest_first(run: Run) -> tuple[str, str]:
    """The key ``runs list`` sorts by (reversed): creation time, then id."""
    return str(run.info.get("created_at", "")), run.id


def _trials(root: Path) -> list[Trial]:
    """``trials/<task>/<n>/`` directories that hold a ``result.json``, by task then n."""
    trials = []
    for task in sorted(os.listdir(root)) if root.is_dir() else ():
        for n in os.listdir(root / task) if (root / task).is_dir() else ():
            where = root / task / n
            if n.isdigit() and inside(root.parent, str(where / "result.json")):
                trials.append(Trial(task, int(n), where, root.parent))
    return sorted(trials, key=lambda t: (t.task_id, t.iteration))


def _json_object(path: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _unique(wanted: str, taken: Mapping[str, Any]) -> str:
    name, n = wanted, 2
    while name in taken:
        name, n = f"{wanted}-{n}", n + 1
    return name


def inside(root: Path, named: str) -> Path | None:
    """The file ``named`` stands for inside ``root``, or None.

    Graders record evidence paths as they wrote them (relative to their working
    directory, e.g. ``reports/vspro.browser/load/load-1280.png``, or absolute), so a
    relative name is tried with its leading parts dropped one by one until it lands on
    a file; whatever it lands on must resolve inside ``root``.
    """
    base = root.resolve()
    path = Path(named)
    candidates = [path] if path.is_absolute() else []
    if not path.is_absolute():
        candidates = [root.joinpath(*path.parts[i:]) for i in range(len(path.parts))]
    for candidate in candidates:
        resolved = candidate.resolve()
        if resolved.is_file() and resolved.is_relative_to(base):
            return resolved
    return None


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """A text file as shown on a page: cut at ``limit`` bytes (saying so), '' if absent."""
    try:
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except OSError:
        return ""
    text = data[:limit].decode("utf-8", errors="replace")
    return text + (
        f"\n[cut at {limit} bytes; the whole file is {path}]" if len(data) > limit else ""
    )
