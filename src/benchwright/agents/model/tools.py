"""The model agent's three tools: ``shell``, ``editor`` and ``submit``.

* ``shell`` runs one command with ``bash -c`` in the trial's sandbox, exactly as a
  command agent's process runs (`run_process` with ``request.sandbox``): the workspace
  as its directory, the agent environment without the API key (the grader's interpreter
  first on ``PATH``, so ``python`` and ``pytest`` are the ones the checks use), a timeout
  within what is left of the phase. Each call is a fresh shell (a ``cd`` does not carry
  over). The files it changed are recorded as file steps (`changes`), so replay reproduces them.
* ``editor`` views a file (numbered lines, an optional line range), creates or
  overwrites one, or replaces one exact occurrence of a string. It runs in the grader's
  process, on a workspace the agent's commands have had the run of, so every path is
  hostile: it must stay inside the workspace, no link is followed on the way
  (`read_inside`, `write_fresh`), and sizes are capped.
* ``submit`` gives the final answer (the task's answer file and the outcome's answer)
  and ends the loop.

A call whose arguments are wrong raises `BadToolCall`; the loop answers it to the model.
"""

from __future__ import annotations

import os
import posixpath
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.agents._env import agent_env
from benchwright.agents._process import run_process
from benchwright.agents._protocol import AgentRequest
from benchwright.agents.model import changes
from benchwright.agents.model.wire import BadToolCall, ToolSpec
from benchwright.agents.transcripts._common import failed_step, tool_step
from benchwright.errors import HarnessError
from benchwright.model import inside_root, normalize_path
from benchwright.sandbox import Network
from benchwright.workspace import HARNESS_DIRS, UNCOPIED_DIRS, read_inside, write_fresh

EDIT_BYTES = changes.RECORD_BYTES
"""Largest file the editor writes or edits: every edit it makes is replayable."""
VIEW_BYTES = 8 * 1024 * 1024
"""Largest file the editor reads to view it (the view itself is capped like any output)."""

SHELL = ToolSpec(
    "shell",
    "Run one bash command in the workspace and get its exit code, stdout and stderr. "
    "Each call is a fresh shell started in the workspace directory. No network.",
    {"type": "object", "required": ["command"],
     "properties": {"command": {"type": "string", "description": "The bash command."}}},
)  # fmt: skip
EDITOR = ToolSpec(
    "editor",
    "View or edit one file of the workspace. command=view shows numbered lines (view_range "
    "[first, last], last -1 for the end); command=create writes file_text as the whole file; "
    "command=str_replace replaces the single exact occurrence of old_str by new_str.",
    {"type": "object", "required": ["command", "path"],
     "properties": {
         "command": {"type": "string", "enum": ["view", "create", "str_replace"]},
         "path": {"type": "string", "description": "Relative to the workspace."},
         "view_range": {"type": "array", "items": {"type": "integer"}},
         "file_text": {"type": "string"},
         "old_str": {"type": "string"},
         "new_str": {"type": "string"}}},
)  # fmt: skip
SUBMIT = ToolSpec(
    "submit",
    "Finish: give your final answer (for a question, the answer; for a change, a summary). "
    "Nothing runs after it.",
    {"type": "object", "required": ["answer"], "properties": {"answer": {"type": "string"}}},
)  # fmt: skip
TOOLS = (SHELL, EDITOR, SUBMIT)


class ToolInfra(Exception):
    """A tool could not run at all (the sandbox would not start), or the workspace passed
    its file cap: the phase errors with this message (``agent: …``, ``limit: …``)."""


@dataclass
class ToolResult:
    output: str
    """What the model is told."""
    steps: list[dict[str, Any]] = field(default_factory=list)
    """What the trajectory records (file steps included)."""
    answer: str | None = None
    """Set by ``submit``: the loop ends."""


@dataclass
class Toolbox:
    """The tools of one phase, bound to its workspace, sandbox and deadline."""

    request: AgentRequest
    deadline: float
    """``time.monotonic()`` past which nothing runs (the phase's budget)."""
    shell_timeout_s: float
    hidden_env: tuple[str, ...] = ()
    """Variable names never passed to a command (the API key's)."""
    secrets: tuple[str, ...] = ()
    """Values never passed to a command under any name (the API key)."""
    recorded_bytes: int = 0
    """File content the phase's shell steps recorded so far (`changes.RECORD_PHASE_BYTES`)."""

    def run(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        """Run one call. Raises `BadToolCall` (unknown tool, bad arguments), `ToolInfra`."""
        if name == "shell":
            return self.shell(_text(args, "command"))
        if name == "editor":
            return self.editor(args)
        if name == "submit":
            return self.submit(_text(args, "answer"))
        raise BadToolCall(f"unknown tool {name!r}; the tools are shell, editor and submit")

    # -- shell ---------------------------------------------------------------------

    def shell(self, command: str) -> ToolResult:
        request = self.request
        timeout = min(self.shell_timeout_s, self.deadline - time.monotonic())
        step = tool_step("shell", "shell", {"command": command})
        if timeout <= 0:
            return ToolResult("not run: the phase's time budget is spent", [step])
        env = {k: v for k, v in agent_env(request).items()
               if k not in self.hidden_env and v not in self.secrets}  # fmt: skip
        # ``python``/``pytest`` are the grader's, as in check commands (the sandbox shows it)
        env["PATH"] = os.pathsep.join((os.path.dirname(sys.executable), env.get("PATH", "")))
        logs = request.log_dir() / "shell"
        logs.mkdir(exist_ok=True)
        before = self._snapshot()
        done = run_process(["bash", "-c", command], request.workspace, env, timeout, logs,
                           request.sandbox(Network.NONE))  # fmt: skip
        if done.error:
            raise ToolInfra(done.error)
        step.update(exit_code=done.exit_code, duration_s=round(done.duration_s, 3))
        allowance = changes.RECORD_PHASE_BYTES - self.recorded_bytes
        found, used = changes.changed_steps(request.workspace, before, self._snapshot(), allowance)
        self.recorded_bytes += used
        steps = [step, *found]
        if done.timed_out:
            head = f"timed out after {timeout:.0f}s: the command was killed"
        else:
            head = f"exit code: {done.exit_code}"
        if done.limit:
            head += f" ({done.limit})"
        text = f"{head}\n--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"
        return ToolResult(text, steps)

    def _snapshot(self) -> dict[str, changes.Stamp]:
        """The tree's stamps; past the workspace's file cap the phase ends, as it would
        after the phase (``limit: workspace files … exceeded``), at a bounded cost."""
        try:
            return changes.snapshot(self.request.workspace, self.request.caps.files)
        except changes.TooManyEntries:
            raise ToolInfra(self.request.caps.files_reason()) from None

    # -- editor --------------------------------------------------------------------

    def editor(self, args: Mapping[str, Any]) -> ToolResult:
        command = _text(args, "command")
        path = self._path(_text(args, "path"))
        if command == "view":
            return ToolResult(self._view(path, args.get("view_range")),
                              [tool_step("view_file", "editor", {"path": path})])  # fmt: skip
        if command == "create":
            content = _text(args, "file_text")
            return self._write(path, content, {"path": path, "content": content}, "write_file")
        if command == "str_replace":
            old, new = _text(args, "old_str"), _text(args, "new_str")
            recorded = {"path": path, "old_str": old, "new_str": new}
            try:
                content = self._replaced(path, old, new)
            except BadToolCall as exc:
                return ToolResult(f"error: {exc}", [failed_step("str_replace", recorded, str(exc))])
            return self._write(path, content, recorded, "str_replace")
        raise BadToolCall(f"editor: unknown command {command!r} (view, create, str_replace)")

    def _path(self, raw: str) -> str:
        """``raw`` as a workspace-relative path; `BadToolCall` when it leaves the workspace."""
        root = str(self.request.workspace)
        if posixpath.isabs(raw):
            raw = posixpath.relpath(posixpath.normpath(raw), root)
        path = normalize_path(raw)
        if "\0" in path or not inside_root(path):
            raise BadToolCall(f"editor: {raw!r} is outside the workspace")
        if any(part in UNCOPIED_DIRS | HARNESS_DIRS for part in path.split("/")):
            raise BadToolCall(f"editor: {path!r} is in a directory the workspace does not keep")
        return path

    def _read(self, path: str, limit: int) -> bytes:
        data = read_inside(self.request.workspace, path, limit + 1)
        if data is None:
            raise BadToolCall(f"editor: {path}: no regular file there (absent, a directory, "
                              "or reached through a link)")  # fmt: skip
        if len(data) > limit:
            raise BadToolCall(f"editor: {path}: over {limit} bytes; use the shell")
        return data

    def _view(self, path: str, view_range: Any) -> str:
        try:
            lines = self._read(path, VIEW_BYTES).decode("utf-8", errors="replace").split("\n")
        except BadToolCall as exc:
            return f"error: {exc}"
        first, last = 1, len(lines)
        if view_range is not None:
            if (not isinstance(view_range, list) or len(view_range) != 2
                    or not all(isinstance(n, int) for n in view_range)):  # fmt: skip
                raise BadToolCall("editor: view_range must be [first, last] (integers)")
            first, last = max(1, view_range[0]), view_range[1]
            last = len(lines) if last == -1 else min(last, len(lines))
        shown = [f"{n:6}\t{lines[n - 1]}" for n in range(first, last + 1)]
        return "\n".join(shown) if shown else f"(no lines {first}-{last}: {len(lines)} lines)"

    def _replaced(self, path: str, old: str, new: str) -> str:
        if not old:
            raise BadToolCall("editor: old_str must not be empty (create writes a whole file)")
        try:
            text = self._read(path, EDIT_BYTES).decode("utf-8")
        except UnicodeDecodeError:
            raise BadToolCall(f"editor: {path}: not UTF-8 text") from None
        count = text.count(old)
        if count != 1:
            found = "not found" if count == 0 else f"found {count} times: give more context"
            raise BadToolCall(f"editor: old_str {found} in {path}")
        return text.replace(old, new)

    def _write(
        self, path: str, content: str, recorded: dict[str, Any], tool: str
    ) -> ToolResult:  # fmt: skip
        try:
            data = content.encode("utf-8")
        except UnicodeEncodeError:
            data = b""
            problem = "the text is not encodable as UTF-8"
        else:
            problem = f"the file would be over {EDIT_BYTES} bytes" if len(data) > EDIT_BYTES else ""
        if not problem:
            try:
                write_fresh(self.request.workspace, {path: data}, "editor")
            except HarnessError as exc:
                problem = str(exc)
        if problem:
            return ToolResult(f"error: {problem}", [failed_step(tool, recorded, problem)])
        step = tool_step(tool, "editor", recorded)
        return ToolResult(f"{path}: written ({len(data)} bytes)", [step])

    # -- submit --------------------------------------------------------------------

    def submit(self, answer: str) -> ToolResult:
        target = self.request.answer_file
        write_fresh(target.parent, {target.name: answer.encode("utf-8", "replace")}, "answer")
        return ToolResult("submitted", [tool_step("submit", "submit", {"answer": answer})], answer)


def _text(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    if value is None:
        raise BadToolCall(f"missing argument {name!r}")
    if not isinstance(value, str):
        raise BadToolCall(f"argument {name!r} must be a string, got {type(value).__name__}")
    return value
