"""Git snapshots of a trial's workspace: ``start``, one per phase, and ``agent``.

Two git processes per snapshot (``add -A``, ``commit``): the commit id is read
from ``.git`` and tags are written as loose refs, which is what ``git tag``
would do in a fresh repository. Hooks and user/system configuration are
switched off, so an agent cannot make the harness run its code at a snapshot,
and a grader's ``~/.gitconfig`` cannot change what is committed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from benchwright.errors import HarnessError

GIT_TIMEOUT_S = 60.0
_IDENTITY = ("-c", "user.name=benchwright", "-c", "user.email=benchwright@localhost")
_SAFE = (
    *("-c", "core.hooksPath=/dev/null", "-c", "core.excludesFile=/dev/null"),
    *("-c", "commit.gpgsign=false", "-c", "gc.auto=0"),
)
EXCLUDED = ".benchwright/\n"
"""Harness files never enter a snapshot (``.git/info/exclude``)."""


def _env(directory: Path) -> dict[str, str]:
    """Pinned to this workspace's ``.git``, never a repository above it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0")
    env.update(GIT_DIR=str(directory / ".git"), GIT_WORK_TREE=str(directory))
    return env


class Snapshots:
    """The snapshot commits of one workspace, by tag."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.commits: dict[str, str] = {}
        self._env = _env(directory)

    def init(self) -> str:
        """Make the workspace a repository and commit its initial files as ``start``."""
        self._git("-c", "init.defaultBranch=main", "init", "-q", "--template=")
        return self.snapshot("start")

    def snapshot(self, tag: str) -> str:
        """Commit everything the agent left (even nothing) and tag it; return the commit id.

        The exclude file is rewritten first: an agent may not hide files from a snapshot
        through ``.git/info/exclude`` (a ``.gitignore`` it edits is itself in the diff).
        """
        info = self.directory / ".git" / "info"
        info.mkdir(parents=True, exist_ok=True)
        (info / "exclude").write_text(EXCLUDED)
        self._git("add", "-A")
        self._git(*_IDENTITY, "commit", "-q", "--allow-empty", "--no-verify", "-m", tag)
        return self.tag(tag, self._head())

    def tag(self, tag: str, commit: str) -> str:
        ref = self.directory / ".git" / "refs" / "tags" / tag
        ref.parent.mkdir(parents=True, exist_ok=True)
        ref.write_text(commit + "\n")
        self.commits[tag] = commit
        return commit

    def _head(self) -> str:
        git = self.directory / ".git"
        head = (git / "HEAD").read_text().strip()
        if head.startswith("ref: "):
            ref = git / head[5:]
            if ref.is_file():
                return ref.read_text().strip()
        return self._git("rev-parse", "HEAD").strip()

    def _git(self, *args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *_SAFE, *args],
                cwd=self.directory,
                env=self._env,
                capture_output=True,
                text=True,
                timeout=GIT_TIMEOUT_S,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"git {args[-1]}: {exc}") from exc
        if done.returncode != 0:
            message = (done.stderr or done.stdout).strip().splitlines()
            raise HarnessError(f"git {' '.join(args[:2])}: {message[-1] if message else 'failed'}")
        return done.stdout
