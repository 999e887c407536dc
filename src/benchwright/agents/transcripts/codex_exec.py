"""``codex exec --json`` event streams (``thread.started``, ``item.completed`` …).

Only completed items count. ``agent_message`` gives the answer (the last one);
``command_execution`` becomes a ``shell`` step; ``file_change`` lists the paths
Codex changed as ``file_change`` audit steps (the content is on disk, so they
are not replayed); ``mcp_tool_call`` and ``web_search`` are kept for
``no_network``; ``reasoning`` and ``todo_list`` are counted as dropped. The last
``turn.completed`` gives the token usage (`_usage`). Older Codex versions printed
rollout items instead: those go to `codex.convert`.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c
from benchwright.agents.transcripts import codex
from benchwright.agents.transcripts._usage import codex_exec_usage

EVENT_TYPES = frozenset({"thread.started", "turn.started", "turn.completed", "turn.failed"})


def convert(lines: list[c.Line]) -> c.Converted:
    """Turn ``codex exec --json`` lines into steps; fall back to the rollout format."""
    kinds = {line.get("type") for _, line in lines}
    if not kinds & EVENT_TYPES and not any(str(k).startswith("item.") for k in kinds):
        return codex.convert(lines)
    out = c.Converted()
    for number, line in lines:
        kind = line.get("type")
        if kind == "thread.started" and isinstance(line.get("thread_id"), str):
            out.metadata["session_id"] = line["thread_id"]
        elif kind in ("turn.failed", "error"):
            error = line.get("error") if isinstance(line.get("error"), dict) else line
            out.metadata["error"] = str(error.get("message", ""))[: c.ERROR_CHARS]
        elif kind == "item.completed" and isinstance(line.get("item"), dict):
            _item(number, line["item"], out)
    out.metadata.update({"dropped_tools": out.dropped} if out.dropped else {})
    out.metadata.update(codex_exec_usage(lines))
    return out


def _item(number: int, item: dict[str, Any], out: c.Converted) -> None:
    kind = item.get("type", item.get("item_type"))
    if kind in ("agent_message", "assistant_message") and isinstance(item.get("text"), str):
        out.answer = item["text"]
    elif kind == "command_execution":
        args = {"command": item.get("command"), "exit_code": item.get("exit_code")}
        out.add(number, c.tool_step("shell", "command_execution", args))
    elif kind == "file_change":
        for change in item.get("changes") or []:
            if isinstance(change, dict):
                args = {"path": change.get("path"), "kind": change.get("kind")}
                out.add(number, c.tool_step("file_change", "file_change", args))
    elif kind == "mcp_tool_call":
        name = f"mcp:{item.get('server')}/{item.get('tool')}"
        out.add(number, c.tool_step(name, name, {"arguments": item.get("arguments")}))
    elif kind == "web_search":
        out.add(number, c.tool_step("web_search", "web_search", {"query": item.get("query")}))
    elif isinstance(kind, str):
        out.drop(kind)
