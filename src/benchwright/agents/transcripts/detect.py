"""Which transcript format a file is, from its content (``--from auto``).

Each format has a line shape no other one shares: a Codex rollout has
``session_meta``/``turn_context``/``response_item`` lines, a Claude Code session
``user``/``assistant`` lines holding a ``message`` object, goose ``stream-json``
``message`` lines whose message has a ``role`` (or a ``complete`` line), a goose
session file bare ``role``/``created``/``content`` messages after a metadata line
(``description``, ``message_count``), and an aider chat history is markdown with
``#### `` user turns. JSON lines that match none
of them are the generic ``jsonl`` format; the model agent's live trajectory is that format
and says so on its first line (``"format": "benchwright-model-agent"``), so that a watcher
can tell it from any other JSON lines. The first line that decides wins.
"""

from __future__ import annotations

from benchwright.agents.model.records import FORMAT as MODEL_AGENT_FORMAT
from benchwright.agents.transcripts.goose import is_session_message, is_session_metadata
from benchwright.agents.transcripts.live import json_lines

CODEX_TYPES = frozenset({"session_meta", "turn_context", "response_item"})
CLAUDE_TYPES = frozenset({"user", "assistant"})
AIDER_MARKS = ("# aider chat started", "#### ")


def detect_format(text: str) -> str | None:
    """``codex``, ``claude-code``, ``goose``, ``aider`` or ``jsonl``; None when it is none."""
    lines, skipped = json_lines(text)
    if not lines:
        raw = text.split("\n")
        return "aider" if any(line.startswith(AIDER_MARKS) for line in raw) else None
    for _, line in lines:
        found = line_format(line)
        if found is not None:
            return found
    return "jsonl" if not skipped else None


def line_format(line: dict[str, object]) -> str | None:
    """The format one JSON line belongs to, when its shape says so."""
    kind, message = line.get("type"), line.get("message")
    if kind == "metadata" and line.get("format") == MODEL_AGENT_FORMAT:
        return "jsonl"
    if kind in CODEX_TYPES:
        return "codex"
    if kind in CLAUDE_TYPES and isinstance(message, dict):
        return "claude-code"
    if kind == "complete" or (
        kind == "message" and isinstance(message, dict) and "role" in message
    ):
        return "goose"
    if is_session_metadata(line) or is_session_message(line):
        return "goose"
    return None


def hint(fmt: str, text: str) -> str:
    """`` (this looks like X: try --from X)`` when the content says another format."""
    found = detect_format(text)
    return f" (this looks like {found}: try --from {found})" if found not in (None, fmt) else ""
