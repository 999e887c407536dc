"""The screenshots docs/viewer.md shows, made from real runs, a real grading and a real board.

Run (one command, from the repository root, after ``make setup``)::

    .venv/bin/python docs/images/make.py [--card reports/vspro.json]

Writes ``docs/images/{run,trial-failed,card-vspro,board}-{1280,390}.png``: the first screen
of each page in headless Chromium at a 1280 px laptop and a 390 px phone width. Everything
is made fresh in a temporary directory (removed afterwards), through the real commands:

* a run of ``suites/quickstart`` replaying its honest trajectories for most tasks and its
  ``cheat-a`` ones for a few, so the run page shows passes and failures with their reasons
  (``benchwright run``), and one of its failed trials;
* a vspro scorecard: ``--card`` when given (``make demo`` writes ``reports/vspro.json``),
  else the golden reference graded now (``benchwright grade``, a minute or two);
* ``benchwright view`` serving both; a local board (SQLite) that the card is published to
  with ``benchwright publish``.

Keys, the identity ``publish`` signs with and temporary files all live in the temporary
directory, so the script leaves nothing in ``~`` or the repository but the PNGs. Re-run it
after changing a template or ``web.css`` and commit the PNGs it rewrites.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchwright.board.app import create_app
from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore
from benchwright.execution.integrity import STATE_ENV
from benchwright.probes.browser import BrowserSession
from benchwright.services._server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
BIN = Path(sys.executable).with_name("benchwright")
SCREENS = {1280: 900, 390: 844}
"""Width -> height (CSS px) of each screenshot: a laptop and a phone."""
QUICKSTART = ROOT / "suites" / "quickstart"
CHEATS = ("write-contributing", "offline-fix", "protect-ci-lockfile")
"""Tasks replayed from ``cheat-a`` (each caught by a check); the rest replay ``honest``."""
MODEL = "golden-reference"
"""The model name the card is published under (the golden reference was written by hand)."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--card", type=Path, help="a graded vspro scorecard JSON to reuse")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="benchwright-docs-images-") as name:
        tmp = Path(name)
        env = _hermetic_env(tmp)
        run = _make_run(tmp, env)
        card = args.card.resolve() if args.card else _grade_golden(tmp, env)
        failed = _first_failed_task(run)
        with _viewer([run.parent, card], env) as view, _board(tmp, card, env) as board:
            pages = {
                "run": f"{view}/runs/{run.name}",
                "trial-failed": f"{view}/runs/{run.name}/trials/{failed}/1",
                "card-vspro": f"{view}/cards/{card.stem}",
                "board": f"{board}/",
            }
            for written in _shoot(pages, tmp / "chromium"):
                print(f"wrote {written.relative_to(ROOT)}")


def _hermetic_env(tmp: Path) -> dict[str, str]:
    """The environment of every command: run keys, identity and temp files under ``tmp``."""
    for folder in ("state", "config", "scratch"):
        (tmp / folder).mkdir()
    return {**os.environ, STATE_ENV: str(tmp / "state"), "XDG_CONFIG_HOME": str(tmp / "config"),
            "TMPDIR": str(tmp / "scratch"), "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip


def _cli(env: Mapping[str, str], *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)  # fmt: skip


def _make_run(tmp: Path, env: Mapping[str, str]) -> Path:
    """A quickstart run replaying honest trajectories, and `CHEATS` from ``cheat-a``."""
    replays = tmp / "trajectories"
    shutil.copytree(QUICKSTART / "trajectories" / "honest", replays)
    for task in CHEATS:
        shutil.copy(QUICKSTART / "trajectories" / "cheat-a" / f"{task}.json", replays)
    # from tmp, so that the agent (and the run's name) reads replay:trajectories
    done = _cli(env, "run", str(QUICKSTART), "--agent", "replay:trajectories",
                "--out", str(tmp / "runs"), cwd=tmp)  # fmt: skip
    if done.returncode not in (0, 1):  # 1: some tasks failed, as intended
        sys.exit(f"benchwright run failed:\n{done.stdout}{done.stderr}")
    return next((tmp / "runs").iterdir())


def _grade_golden(tmp: Path, env: Mapping[str, str]) -> Path:
    """The golden vspro reference graded on a copy of its tree; the card's path."""
    tree = tmp / "golden"
    skip = shutil.ignore_patterns("__pycache__", "*.db*", "*-reference-pass.json")
    shutil.copytree(QUICKSTART.parent / "vspro" / "reference", tree, ignore=skip)
    card = tmp / "cards" / "vspro.json"
    card.parent.mkdir()
    print("grading the golden vspro reference (a minute or two) ...", flush=True)
    done = _cli(env, "grade", "suites/vspro", "--tree", str(tree), "--json", str(card))
    if not card.is_file():
        sys.exit(f"benchwright grade wrote no scorecard:\n{done.stdout}{done.stderr}")
    return card


def _first_failed_task(run: Path) -> str:
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    return next(task for task, row in summary["tasks"].items() if row["verdict"] == "failed")


@contextmanager
def _viewer(paths: list[Path], env: Mapping[str, str]) -> Iterator[str]:
    """``benchwright view PATHS`` as a real process; yields its URL."""
    proc = subprocess.Popen([str(BIN), "view", *map(str, paths)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if " at http://" not in line:
            sys.exit(f"benchwright view did not start: {line}{proc.stderr.read()}")
        yield line.split(" at ", 1)[1].split()[0].rstrip("/")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@contextmanager
def _board(tmp: Path, card: Path, env: Mapping[str, str]) -> Iterator[str]:
    """A fresh SQLite board served on 127.0.0.1, ``card`` published to it; yields its URL."""
    store = BoardStore(f"sqlite:///{tmp / 'board.sqlite'}")
    upgrade(store.engine)  # the schema and the published sb-5.2 baselines
    try:
        with BackgroundServer(create_app(store)) as server:
            done = _cli(env, "publish", str(card), "--to", server.base_url, "--model", MODEL)
            if done.returncode != 0:
                sys.exit(f"benchwright publish failed:\n{done.stdout}{done.stderr}")
            yield server.base_url
    finally:
        store.engine.dispose()


def _shoot(pages: Mapping[str, str], scratch: Path) -> Iterator[Path]:
    """Each page's first screen at each width, as ``OUT/<name>-<width>.png``."""
    scratch.mkdir()
    with BrowserSession(scratch=scratch) as session:
        for width, height in SCREENS.items():
            context: Any = session.browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            for name, url in pages.items():
                page.goto(url, wait_until="load")
                path = OUT / f"{name}-{width}.png"
                page.screenshot(path=str(path))
                yield path
            context.close()


if __name__ == "__main__":
    main()
