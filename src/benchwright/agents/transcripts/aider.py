"""aider chat histories (``--chat-history-file``, markdown).

aider prints no JSON, so its history file is the transcript. ``#### `` lines
are the user's messages; ``> `` lines are aider's own notes, of which
``Applied edit to PATH`` becomes a ``file_change`` audit step (the content is
on disk) and ``Running COMMAND`` a ``shell`` step; every other line belongs to
the assistant's reply, and the last reply is the answer.
"""

from __future__ import annotations

from typing import Any

from benchwright.agents.transcripts import _common as c

APPLIED = "Applied edit to "
RUNNING = "Running "


def convert_text(text: str) -> c.Converted:
    """Steps and the final reply from a chat-history markdown text."""
    out = c.Converted()
    reply: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("#### "):
            reply = []
        elif line.startswith("> ") or line == ">":
            _note(number, line[2:].strip(), out)
        elif not line.startswith("# aider chat started"):
            reply.append(line)
        answer = "\n".join(reply).strip()
        if answer:
            out.answer = answer
    return out


def _note(number: int, note: str, out: c.Converted) -> None:
    if note.startswith(APPLIED):
        args: dict[str, Any] = {"path": note[len(APPLIED) :].strip()}
        out.add(number, c.tool_step("file_change", "aider_edit", args))
    elif note.startswith(RUNNING):
        out.add(number, c.tool_step("shell", "aider_run", {"command": note[len(RUNNING) :]}))
