"""Claude Code session transcripts (``~/.claude/projects/<project>/<session>.jsonl``).

Each line is an event. ``assistant`` lines hold ``message.content`` blocks, of
which ``tool_use`` blocks (``name``, ``input``) are the agent's actions; ``user``
lines carry the matching ``tool_result`` blocks. ``claude -p --output-format
stream-json`` output has the same lines plus a closing ``result`` line.

What is kept, and why:

* Write, Edit and MultiEdit become replayable steps under their own names, with
  ``file_path`` made relative to the session's *first* ``cwd`` (the workspace
  root: later lines follow the agent's ``cd``). A path outside it stays absolute
  and replay refuses it.
* Bash becomes a command step, whether or not it succeeded: a failed ``curl``
  still reached for the network.
* An edit whose ``tool_result`` is an error changed nothing, so it is kept as a
  ``failed_tool_call`` that replay skips (see `failed_step`).
* Read-only and bookkeeping tools (`DROPPED`) are left out and counted in
  ``metadata.dropped_tools``. Every other tool (WebFetch, WebSearch, Task,
  ``mcp__*``, NotebookEdit, tools we have never seen) is kept under its own
  name with its input: it may have reached the network or changed something,
  and ``no_network`` scans the raw JSON of every step.
* A ``tool_use`` id seen before (a resumed session repeats history) is skipped.
* Sub-agent (``isSidechain``) tool calls are kept and marked ``sidechain``: they
  changed the same workspace. Sessions that store sub-agents in their own files
  lose those calls here; the ``Task`` step at least records that one ran.

The answer is the last text block of a main-thread assistant message, or the
``result`` line's text when there is one; sub-agent (sidechain) text is not it.
The model is the first assistant message's that a model wrote (not Claude Code's
``<synthetic>``); token usage and cost are kept as `_usage` reads them.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c
from benchwright.agents.transcripts._usage import SYNTHETIC, claude_code_usage

FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})
PATH_KEYS = frozenset({"file_path", "notebook_path"})
DROPPED = frozenset(
    {"Read", "Grep", "Glob", "LS", "NotebookRead", "TodoRead", "TodoWrite", "ExitPlanMode"}
    | {"BashOutput", "KillBash", "KillShell"}
)
LINE_TYPES = frozenset({"user", "assistant", "system", "summary", "result"})
META = (("sessionId", "session_id"), ("session_id", "session_id"), ("version", "agent_version"))


def convert(lines: list[c.Line]) -> c.Converted:
    """Turn Claude Code session lines into trajectory steps."""
    if not any(line.get("type") in LINE_TYPES for _, line in lines):
        raise c.LineError(None, "no Claude Code session line (type user/assistant) found")
    errors = _tool_errors(lines)
    out, seen = c.Converted(), set[str]()
    for number, line in lines:
        if "cwd" not in out.metadata and isinstance(line.get("cwd"), str):
            out.metadata["cwd"] = line["cwd"]
        for key, name in META:
            if isinstance(line.get(key), str):
                out.metadata.setdefault(name, line[key])
        if line.get("type") == "result" and isinstance(line.get("result"), str):
            out.answer = line["result"]
        if line.get("type") != "assistant":
            continue
        sidechain = bool(line.get("isSidechain"))
        for block in _blocks(number, line, out.metadata):
            if block.get("type") == "text" and not sidechain and block.get("text"):
                out.answer = c.text_of([block])
            elif block.get("type") == "tool_use" and block.get("id") not in seen:
                seen.update([block["id"]] if isinstance(block.get("id"), str) else [])
                _tool_use(number, block, out.metadata.get("cwd"), errors, sidechain, out)
    out.metadata.update({"dropped_tools": out.dropped} if out.dropped else {})
    out.metadata.update(claude_code_usage(lines))
    return out


def _blocks(number: int, line: dict[str, Any], metadata: dict[str, Any]) -> list[dict[str, Any]]:
    message = line.get("message")
    if not isinstance(message, dict):
        raise c.LineError(number, "assistant line: message must be an object")
    if isinstance(message.get("model"), str) and message["model"] != SYNTHETIC:
        metadata.setdefault("model", message["model"])
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise c.LineError(number, "assistant line: message.content must be a list of blocks")
    return [block for block in content if isinstance(block, dict)]


def _tool_use(
    number: int,
    block: dict[str, Any],
    root: str | None,
    errors: dict[str, str],
    sidechain: bool,
    out: c.Converted,
) -> None:
    name, given = block.get("name"), block.get("input", {})
    if not isinstance(name, str) or not name:
        raise c.LineError(number, "tool_use block: name must be a non-empty string")
    if not isinstance(given, dict):
        raise c.LineError(number, f"tool_use {name!r}: input must be an object")
    if name in DROPPED:
        return out.drop(name)
    args = {k: c.rebase(v, root) if k in PATH_KEYS and isinstance(v, str) else v
            for k, v in given.items()}  # fmt: skip
    error = errors.get(str(block.get("id")))
    if error is not None and name in FILE_TOOLS:
        return out.add(number, c.failed_step(name, args, error))
    out.add(number, c.tool_step(name, name, args, **({"sidechain": True} if sidechain else {})))


def _tool_errors(lines: list[c.Line]) -> dict[str, str]:
    """``tool_use_id`` → error text, for every ``tool_result`` marked ``is_error``."""
    errors: dict[str, str] = {}
    for _, line in lines:
        message = line.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        results = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        for block in results:
            if block.get("type") == "tool_result" and block.get("is_error") is True:
                errors[str(block.get("tool_use_id"))] = c.text_of(block.get("content")) or "error"
    return errors
