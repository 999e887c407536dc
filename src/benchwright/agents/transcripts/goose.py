"""goose transcripts: ``goose run --output-format stream-json`` lines and session files.

Both hold goose messages ``{"role", "created", "content": [...]}``, in two wrappings:

* **stream-json** wraps each one in ``{"type": "message", "message": {...}}`` and ends
  with a ``complete`` line; ``error`` lines are noted in metadata.
* **A session file** (``~/.local/share/goose/sessions/<id>.jsonl``, written by goose
  before 1.10, which moved sessions into SQLite) has one bare message per line, after an
  optional first line of session metadata: ``working_dir``, ``description``,
  ``message_count`` and token counts (kept as `_usage` reads them).

Content blocks are ``text`` (the last assistant text is the answer), ``toolRequest``
(``id``, ``toolCall: {"status": "success", "value": {name, arguments}}``) and, in the
next user message, ``toolResponse`` (``id``, ``toolResult: {"status": "success",
"value": [...]}`` or ``{"status": "error", "error": ...}``). The developer extension's
tools map onto the trajectory vocabulary: ``developer__shell`` becomes a ``shell`` step,
``developer__text_editor`` ``write`` a ``Write`` and ``str_replace`` a ``str_replace``,
paths made relative to the session's ``working_dir`` (goose's editor takes absolute
paths); ``view`` is dropped. Every other tool, and the editor's other commands
(``insert``, ``undo_edit``), is kept under its own name: not replayed, but scanned by
``no_network``.

A response is paired with its request by ``id``: an edit answered with an error changed
nothing, so it is kept as a ``failed_tool_call`` (see `failed_step`); a shell command
is kept whatever it returned (a failed ``curl`` still reached out). The response's text
is not kept: it is what a tool printed, not what the agent did (``no_network`` would
read a URL in a file the agent only looked at as the agent reaching out). A request
goose could not parse (``toolCall`` status ``error``) ran nothing; it is counted in
``dropped_tools``.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c
from benchwright.agents.transcripts._usage import goose_session_usage

SHELL = "developer__shell"
EDITOR = "developer__text_editor"
ROLES = frozenset({"user", "assistant"})
UNPARSED = "(tool call goose could not parse)"
HEADER_KEYS = frozenset({"description", "message_count"})
"""What every goose session metadata line has (older ones lack ``working_dir``)."""


def convert(lines: list[c.Line]) -> c.Converted:
    """Turn goose stream-json or session-file lines into steps and the answer."""
    header = lines[0] if lines and is_session_metadata(lines[0][1]) else None
    messages = [(number, m) for number, line in lines if (m := _message(line)) is not None]
    streamed = any(line.get("type") == "complete" for _, line in lines)
    if not messages and header is None and not streamed:
        raise c.LineError(
            None, "no goose line (a stream-json message/complete line, or a session message "
            "with role, created and content) found",
        )  # fmt: skip
    out = c.Converted()
    root = _session_root(header, out)
    errors = _failed_responses(messages)
    for _, line in lines:
        if line.get("type") == "error":
            out.metadata["error"] = str(line.get("error", ""))[: c.ERROR_CHARS]
    for number, message in messages:
        if message.get("role") != "assistant":
            continue
        for block in message.get("content") or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and block.get("text"):
                out.answer = block["text"]
            elif block.get("type") == "toolRequest":
                _tool(number, block, root, errors, out)
    out.metadata.update({"dropped_tools": out.dropped} if out.dropped else {})
    out.metadata.update(goose_session_usage(header) if header else {})
    return out


def is_session_metadata(line: dict[str, Any]) -> bool:
    """A goose session file's first line: its metadata, not a message."""
    return line.keys() >= HEADER_KEYS and "role" not in line and "type" not in line


def is_session_message(line: dict[str, Any]) -> bool:
    """A message line of a goose session file (stream-json wraps them instead)."""
    return (
        "type" not in line
        and line.get("role") in ROLES
        and isinstance(line.get("content"), list)
        and isinstance(line.get("created"), int)
    )


def _message(line: dict[str, Any]) -> dict[str, Any] | None:
    """The goose message a line holds: stream-json's wrapped one, or a session file's."""
    if line.get("type") == "message":
        message = line.get("message")
        return message if isinstance(message, dict) else None
    return line if is_session_message(line) else None


def _session_root(header: c.Line | None, out: c.Converted) -> str | None:
    """The session's working directory (kept as ``cwd``) and description, when it has them."""
    if header is None:
        return None
    fields = header[1]
    if isinstance(fields.get("description"), str) and fields["description"]:
        out.metadata["description"] = fields["description"]
    root = fields.get("working_dir")
    if not isinstance(root, str) or not root:
        return None
    out.metadata["cwd"] = root
    return root


def _failed_responses(messages: list[c.Line]) -> dict[str, str]:
    """``toolRequest`` id → the error its ``toolResponse`` carried."""
    errors: dict[str, str] = {}
    for _, message in messages:
        for block in message.get("content") or []:
            if not isinstance(block, dict) or block.get("type") != "toolResponse":
                continue
            result = block.get("toolResult")
            if isinstance(result, dict) and result.get("status") == "error":
                errors[str(block.get("id"))] = str(result.get("error") or "error")
    return errors


def _tool(
    number: int, block: dict[str, Any], root: str | None, errors: dict[str, str], out: c.Converted
) -> None:
    call = block.get("toolCall") if isinstance(block.get("toolCall"), dict) else {}
    if call.get("status") == "error":
        return out.drop(UNPARSED)
    value = call.get("value") if isinstance(call.get("value"), dict) else {}
    name, args = value.get("name"), value.get("arguments")
    if not isinstance(name, str) or not isinstance(args, dict):
        raise c.LineError(number, "toolRequest: toolCall.value needs a name and arguments")
    if name == SHELL:
        return out.add(number, c.tool_step("shell", name, {"command": args.get("command")}))
    if name != EDITOR:
        return out.add(number, c.tool_step(name, name, args))
    action, path = args.get("command"), args.get("path")
    if action == "view":
        return out.drop(f"{name}:view")
    path = c.rebase(path, root) if isinstance(path, str) else path
    if action == "write":
        tool, edit = "Write", {"path": path, "content": args.get("file_text", "")}
    elif action == "str_replace":
        tool = "str_replace"
        edit = {"path": path, "old_str": args.get("old_str"), "new_str": args.get("new_str")}
    else:
        kept = {**args, "path": path} if "path" in args else args
        return out.add(number, c.tool_step(name, name, kept))
    error = errors.get(str(block.get("id")))
    if error is not None:
        return out.add(number, c.failed_step(name, edit, error))
    out.add(number, c.tool_step(tool, name, edit))
