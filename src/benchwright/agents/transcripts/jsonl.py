"""Generic JSONL transcripts: one step per line, in whatever spelling the recorder used.

Harnesses log tool calls as JSON lines without a shared schema, so each field
is looked up under its common aliases (the first present wins):

* tool name: ``tool``, ``name``, ``tool_name`` or ``function`` (an OpenAI
  ``{"name": ..., "arguments": ...}`` object is unpacked);
* arguments: ``args``, ``arguments``, ``input`` or ``parameters``; a JSON
  string is decoded;
* step kind: ``type``, ``step_type`` or ``kind``. ``file_edit``, ``file_delete``
  and ``command`` are kept, since the normalization reads them; any other tool
  call becomes ``tool_call``.

Tool names are kept as written: the normalization already knows the common
spellings (``write_file``, ``str_replace``, ``run_command`` ...). A line of kind
``answer`` or ``final_answer`` gives the answer (``answer``, ``text`` or
``content``); a line of kind ``metadata`` is merged into the metadata. Any other
line without a tool name (a chat message, a log note) is kept verbatim as a
step: it replays nothing, but ``no_network`` still scans it, so a URL the agent
wrote in prose is not lost. Paths are not rebased: the format has no cwd. With
``lenient``, a line whose arguments string is not JSON becomes an opaque step with a
warning instead of failing the file.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c

TOOL_KEYS = ("tool", "name", "tool_name", "function")
ARGS_KEYS = ("args", "arguments", "input", "parameters")
KIND_KEYS = ("type", "step_type", "kind")
OPERATION_KINDS = frozenset({"file_edit", "file_delete", "command"})
ANSWER_KINDS = frozenset({"answer", "final_answer"})
ANSWER_KEYS = ("answer", "text", "content")


def convert(lines: list[c.Line], lenient: bool = False) -> c.Converted:
    """One step per line; answer and metadata lines are taken out of the steps."""
    out = c.Converted()
    for number, line in lines:
        kind = _first(line, KIND_KEYS)
        if kind in ANSWER_KINDS:
            text = _first(line, ANSWER_KEYS)
            if not isinstance(text, str):
                raise c.LineError(number, f"{kind} line: needs a string answer, text or content")
            out.answer = text
        elif kind == "metadata":
            fields = line.get("metadata")
            if not isinstance(fields, dict):
                fields = {k: v for k, v in line.items() if k not in KIND_KEYS}
            out.metadata.update(fields)
        else:
            try:
                out.add(number, _step(number, line, kind))
            except c.UnreadableArguments as exc:
                if not lenient:
                    raise
                tool = _first(line, TOOL_KEYS)
                name = tool.get("name") if isinstance(tool, dict) else tool
                out.opaque(exc, str(name or kind), line)
    return out


def _step(number: int, line: dict[str, Any], kind: object) -> dict[str, Any]:
    tool, raw_args = _first(line, TOOL_KEYS), _first(line, ARGS_KEYS)
    if isinstance(tool, dict):
        tool, raw_args = tool.get("name"), tool.get("arguments", raw_args)
    if tool is None and kind not in OPERATION_KINDS:
        return dict(line)
    if tool is not None and (not isinstance(tool, str) or not tool):
        raise c.LineError(number, "the tool name must be a non-empty string")
    args = c.decode_args(number, raw_args, f"{tool or kind} arguments")
    step_kind = kind if kind in OPERATION_KINDS else "tool_call"
    if tool is None:
        return {"type": step_kind, "args": args}
    return {**c.tool_step(tool, tool, args), "type": step_kind}


def _first(line: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((line[key] for key in keys if line.get(key) is not None), None)
