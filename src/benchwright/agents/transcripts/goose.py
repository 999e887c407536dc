"""goose ``run --output-format stream-json`` lines.

Each ``{"type": "message", "message": {"role", "content": [...]}}`` line holds
content blocks: ``text`` (the last assistant text is the answer) and
``toolRequest`` (``toolCall.value`` = ``{name, arguments}``). The developer
extension's tools map onto the trajectory vocabulary: ``developer__shell``
becomes a ``shell`` step, ``developer__text_editor`` ``write`` a ``Write`` and
``str_replace`` a ``str_replace``; ``view`` is dropped. Every other tool is kept
under its own name for ``no_network``. ``error`` lines are noted in metadata.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c

SHELL = "developer__shell"
EDITOR = "developer__text_editor"


def convert(lines: list[c.Line]) -> c.Converted:
    """Turn goose stream-json lines into steps and the answer."""
    if not any(line.get("type") in ("message", "complete") for _, line in lines):
        raise c.LineError(None, "no goose stream line (type message/complete) found")
    out = c.Converted()
    for number, line in lines:
        if line.get("type") == "error":
            out.metadata["error"] = str(line.get("error", ""))[: c.ERROR_CHARS]
        message = line.get("message")
        if line.get("type") != "message" or not isinstance(message, dict):
            continue
        if message.get("role") != "assistant":
            continue
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and block.get("text"):
                out.answer = block["text"]
            elif block.get("type") == "toolRequest":
                _tool(number, block, out)
    out.metadata.update({"dropped_tools": out.dropped} if out.dropped else {})
    return out


def _tool(number: int, block: dict[str, Any], out: c.Converted) -> None:
    call = block.get("toolCall") if isinstance(block.get("toolCall"), dict) else {}
    value = call.get("value") if isinstance(call.get("value"), dict) else {}
    name, args = value.get("name"), value.get("arguments")
    if not isinstance(name, str) or not isinstance(args, dict):
        raise c.LineError(number, "toolRequest: toolCall.value needs a name and arguments")
    if name == SHELL:
        return out.add(number, c.tool_step("shell", name, {"command": args.get("command")}))
    if name == EDITOR:
        action, path = args.get("command"), args.get("path")
        if action == "write":
            write = {"path": path, "content": args.get("file_text", "")}
            return out.add(number, c.tool_step("Write", name, write))
        if action == "str_replace":
            edit = {"path": path, "old_str": args.get("old_str"), "new_str": args.get("new_str")}
            return out.add(number, c.tool_step("str_replace", name, edit))
        return out.drop(f"{name}:{action}")
    out.add(number, c.tool_step(name, name, args))
