"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Lines are ``{"type": ..., "payload": ...}``: ``session_meta`` and ``turn_context``
give the ``cwd`` (the first one is the workspace root), ``response_item`` holds
model output. Older rollouts wrote the items unwrapped; both are read.

* Shell calls (``shell`` argv, ``shell_command``/``exec_command`` strings,
  ``local_shell_call``) become ``shell`` steps with the script as ``command``,
  failed or not: a failed ``curl`` still reached for the network.
* ``apply_patch``, as a tool or through the shell (see `_codex_calls`), becomes
  file steps (see `_patch`). A patch Codex rejected changed nothing (Codex
  verifies every hunk before writing), so it stays a ``failed_tool_call``.
* Read-only and planning tools (`DROPPED`) are counted in metadata; every other
  call (``web_search_call``, MCP tools, ``write_stdin``) is kept as it came so
  that ``no_network`` scans it.

The answer is the text of the last assistant ``message`` item. The model is the
``turn_context``'s; token usage is read from the ``token_count`` events (`_usage`).
With ``lenient``, a call whose JSON arguments cannot be decoded (a sanitised rollout
redacts them) is kept as an opaque step with a warning instead of failing the file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from benchwright.agents.transcripts import _common as c
from benchwright.agents.transcripts._codex_calls import (
    PATCH_TOOLS,
    embedded_patch,
    failed_calls,
    shell_script,
)
from benchwright.agents.transcripts._patch import patch_steps
from benchwright.agents.transcripts._usage import codex_rollout_usage

SHELL_TOOLS = frozenset({"shell", "shell_command", "container.exec", "exec_command", "local_shell"})
DROPPED = frozenset({"update_plan", "view_image", "read_file", "list_dir", "grep_files"})
CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
ITEMS = CALLS | {"message", "web_search_call"}
CONTEXTS = frozenset({"session_meta", "turn_context"})
META = (("id", "session_id"), ("cli_version", "agent_version"), ("model", "model"))


def convert(lines: list[c.Line], lenient: bool = False) -> c.Converted:
    """Turn Codex rollout lines into trajectory steps."""
    if not any(line.get("type") in CONTEXTS | ITEMS | {"response_item"} for _, line in lines):
        raise c.LineError(None, "no Codex rollout line (session_meta/response_item) found")
    failed = failed_calls(lines)
    out, dirs = c.Converted(), _Dirs()
    for number, line in lines:
        kind, payload = line.get("type"), line.get("payload")
        if kind in CONTEXTS and isinstance(payload, dict):
            dirs.enter(payload.get("cwd"))
            out.metadata.update({n: payload[k] for k, n in META if isinstance(payload.get(k), str)})
        item = payload if kind == "response_item" else line if kind in ITEMS else None
        if isinstance(item, dict):
            try:
                _item(number, item, dirs, failed, out, lenient)
            except ValueError as exc:  # PatchError included
                raise c.LineError(number, f"{item.get('name', item.get('type'))}: {exc}") from None
    out.metadata.update({"cwd": dirs.root} if dirs.root else {})
    out.metadata.update({"dropped_tools": out.dropped} if out.dropped else {})
    out.metadata.update(codex_rollout_usage(lines))
    return out


class _Dirs:
    """The workspace root (the first cwd) and the directory the agent works in now."""

    def __init__(self) -> None:
        self.root: str | None = None
        self.cwd: str | None = None

    def enter(self, cwd: object) -> None:
        if isinstance(cwd, str):
            self.root, self.cwd = self.root or cwd, cwd

    def locator(self, *subdirs: str | None) -> Callable[[str], str]:
        """Patch path → workspace path, for a patch applied in ``cwd/subdirs``."""
        base = posixpath.join(self.cwd or "", *(d for d in subdirs if d)) or None
        return lambda path: c.rebase(path, self.root, base)


def _item(
    number: int, item: dict[str, Any], dirs: _Dirs, failed: dict[str, str], out: c.Converted,
    lenient: bool,
) -> None:  # fmt: skip
    kind, content = item.get("type"), item.get("content")
    if kind == "message" and item.get("role") == "assistant" and isinstance(content, list):
        texts = [b for b in content if isinstance(b, dict) and b.get("type") == "output_text"]
        out.answer = c.text_of(texts) or out.answer
    elif kind == "web_search_call":
        action = item.get("action") if isinstance(item.get("action"), dict) else {}
        out.add(number, c.tool_step("web_search", "web_search", action))
    elif kind in CALLS:
        name = item.get("name", "local_shell")
        if not isinstance(name, str) or not name:
            raise ValueError("name must be a non-empty string")
        if name in DROPPED:
            return out.drop(name)
        error = failed.get(str(item.get("call_id")))
        try:
            args = _arguments(number, name, item)
        except c.UnreadableArguments as exc:
            if not lenient:
                raise
            return out.opaque(exc, name, item.get("arguments"))
        for step in _steps(name, args, dirs, error):
            out.add(number, step)


def _arguments(number: int, name: str, item: dict[str, Any]) -> dict[str, Any]:
    if item["type"] == "function_call":
        return c.decode_args(number, item.get("arguments"), f"{name} arguments")
    if item["type"] == "custom_tool_call":
        return {"input": item.get("input")}
    action = item.get("action") if isinstance(item.get("action"), dict) else {}
    return {"command": action.get("command"), "workdir": action.get("working_directory")}


def _steps(name: str, args: dict[str, Any], dirs: _Dirs, error: str | None) -> list[dict[str, Any]]:
    """The steps one call becomes."""
    if name in PATCH_TOOLS:
        return _patch(name, args.get("input"), dirs.locator(), error)
    if name not in SHELL_TOOLS:
        return [c.tool_step(name, name, args)]
    workdir = args.get("workdir") if isinstance(args.get("workdir"), str) else None
    command = args.get("command", args.get("cmd"))
    embedded = embedded_patch(command)
    if embedded is not None:
        return _patch(name, embedded[0], dirs.locator(workdir, embedded[1]), error)
    shell_args = {"command": shell_script(command)} | ({"workdir": workdir} if workdir else {})
    return [c.tool_step("shell", name, shell_args)]


def _patch(
    tool: str, patch: object, locate: Callable[[str], str], error: str | None
) -> list[dict[str, Any]]:
    if not isinstance(patch, str):
        raise ValueError("the patch must be a string")
    if error is not None:
        return [c.failed_step(tool, {"input": patch}, error)]
    return patch_steps(patch, tool, locate)
