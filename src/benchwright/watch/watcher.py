"""Follow every session transcript under a directory and alert on new steps.

A Claude Code project directory holds one ``<session>.jsonl`` per session; a Codex
sessions directory holds ``YYYY/MM/DD/rollout-*.jsonl``; a run of the model agent holds
``RUN_DIR/live/<task>/<phase>-….jsonl`` (benchwright's own steps, the ``jsonl`` format,
as the agent appends them). Each poll finds new files,
reads the lines appended since the last poll (`TailedFile`), converts the whole
session so far with the importer's converter (the converters need earlier lines
for context: the workspace root, tool ids, tool results) and checks only the steps
not checked before. Corrupt lines are skipped with one warning each, as a live
file may hold a line its writer never finished.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from benchwright.agents.transcripts import _common as c
from benchwright.agents.transcripts import claude_code, codex, jsonl
from benchwright.agents.transcripts.detect import line_format
from benchwright.agents.transcripts.live import json_lines, safe_steps
from benchwright.model import step_label
from benchwright.watch.rules import Alert, Rules
from benchwright.watch.tail import TailedFile

CONVERTERS: dict[str, Callable[[list[c.Line]], c.Converted]] = {
    "claude-code": claude_code.convert,
    "codex": partial(codex.convert, lenient=True),  # a redacted call must not stop the watch
    "jsonl": partial(jsonl.convert, lenient=True),  # the model agent's live trajectory
}


@dataclass(frozen=True)
class SessionAlert:
    session: str
    """The transcript, relative to the watched directory."""
    line: int
    """The transcript line the step came from (from 1, as an editor numbers them)."""
    alert: Alert

    def __str__(self) -> str:
        """The step counted from 1 too (`step_label`), so that both numbers read the same
        way; `Alert.step` stays the index into the steps."""
        a = self.alert
        step = step_label(a.step)
        return f"ALERT {a.rule}: {self.session} {step} (line {self.line}): {a.detail}"


@dataclass
class _Session:
    tail: TailedFile
    name: str
    fmt: str | None = None
    checked: int = 0
    """Steps already checked (or, under ``--live-only``, already there at the start)."""
    skipped: set[int] = field(default_factory=set)
    ignored: bool = False
    """A transcript of another agent: warned about once, then left alone."""
    parsed: list[c.Line] = field(default_factory=list)
    """The JSON lines among `tail.lines` (numbered from 1), each parsed once."""
    read: int = 0
    restarts: int = 0

    def parsed_lines(self) -> list[c.Line]:
        """Every JSON line so far; a rewritten file starts the session over."""
        if self.tail.restarts != self.restarts:
            self.restarts, self.parsed, self.read, self.checked = self.tail.restarts, [], 0, 0
        fresh, _ = json_lines("\n".join(self.tail.lines[self.read :]))
        self.parsed += [(number + self.read, value) for number, value in fresh]
        self.read = len(self.tail.lines)
        return self.parsed


class SessionWatcher:
    """Polls ``root`` (a directory of transcripts, or one transcript).

    Args:
        root: The session directory (searched recursively for ``*.jsonl``) or a file.
        rules: What to alert on (`rules_for`).
        by_task: Rules for the sessions of a known task (their metadata's ``task``, as the
            model agent's live trajectories say), instead of ``rules``.
        live_only: Steps already written when the watcher first looks are history:
            they give context but raise no alert. Sessions that appear later are new.
        warn: Called with each warning (a skipped line, a file that is no session).
    """

    def __init__(
        self, root: Path, rules: Rules, *, by_task: Mapping[str, Rules] | None = None,
        live_only: bool = False, warn: Callable[[str], None] = lambda message: None,
    ) -> None:  # fmt: skip
        self.root, self.rules, self.warn = root, rules, warn
        self.by_task = by_task or {}
        self._live_only = live_only
        self.polls = 0
        self.sessions: dict[Path, _Session] = {}

    @property
    def steps(self) -> int:
        return sum(s.checked for s in self.sessions.values())

    def poll(self) -> list[SessionAlert]:
        """Read what was appended since the last poll; the alerts of the new steps."""
        for path in self._transcripts():
            if path not in self.sessions:
                name = str(path.relative_to(self.root)) if path != self.root else path.name
                self.sessions[path] = _Session(TailedFile(path), name)
        alerts = [a for s in self.sessions.values() if s.tail.read_new() for a in self._check(s)]
        self.polls += 1
        return alerts

    def _transcripts(self) -> list[Path]:
        if self.root.is_file():
            return [self.root]
        return sorted(p for p in self.root.rglob("*.jsonl") if p.is_file())

    def _check(self, session: _Session) -> list[SessionAlert]:
        lines = session.parsed_lines()
        session.fmt = session.fmt or _format(lines)
        if session.ignored or session.fmt is None:
            return []  # not decided yet: a session's first lines may all be neutral
        if session.fmt not in CONVERTERS:
            session.ignored = True
            self.warn(f"{session.name}: a {session.fmt} transcript, not a Claude Code or Codex "
                      "session or a model agent's trajectory: not watched")  # fmt: skip
            return []
        converted = self._convert(session, session.fmt, lines)
        steps = safe_steps(converted.steps)
        start, session.checked = session.checked, max(session.checked, len(steps))
        if self._live_only and self.polls == 0:
            return []
        rules = self.by_task.get(str(converted.metadata.get("task")), self.rules)
        found = rules.check(steps, start, converted.metadata)
        return [SessionAlert(session.name, converted.lines[a.step], a) for a in found]

    def _convert(self, session: _Session, fmt: str, lines: list[c.Line]) -> c.Converted:
        """Convert, leaving out (with one warning each) lines the converter cannot read."""
        while True:
            usable = [(n, v) for n, v in lines if n not in session.skipped]
            try:
                return CONVERTERS[fmt](usable)
            except c.LineError as exc:
                if exc.line is None or exc.line in session.skipped:
                    return c.Converted()
                session.skipped.add(exc.line)
                self.warn(f"{session.name}: line {exc.line}: {exc.message}: skipped")


def _format(lines: list[c.Line]) -> str | None:
    """The format of the first line whose shape decides it."""
    return next((fmt for _, line in lines if (fmt := line_format(line))), None)
