"""What a Codex call ran: its shell script, the patch inside it, and whether it failed.

Codex intercepts ``apply_patch`` even when the model runs it through the shell
(``["apply_patch", patch]`` or a ``bash -lc "apply_patch <<'EOF' ..."`` heredoc),
so such a shell call edited files and must replay as edits, not as a command.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex

from benchwright.agents.transcripts._common import Line, text_of

PATCH_TOOLS = frozenset({"apply_patch", "applypatch"})
SHELLS = frozenset({"bash", "sh", "zsh"})
HEREDOC = re.compile(
    r"\s*(?:cd\s+(?P<cd>\S+)\s*&&\s*)?apply_?patch\s*<<\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)[ \t]*\n"
    r"(?P<patch>.*?)\n(?P=tag)\s*",
    re.S,
)
FAILED = re.compile(r"(apply_patch )?(verification failed|error|failed|invalid)", re.I)
EXIT = re.compile(r"^(?:Exit code:|Process exited with code) (\d+)", re.M)
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def shell_script(command: object) -> str:
    """The script a shell call ran: ``bash -lc X`` gives X, other argv is shell-quoted."""
    if isinstance(command, str):
        return command
    if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
        raise ValueError("command must be a string or a list of strings")
    shell, flag = posixpath.basename(command[0]), command[1] if len(command) > 1 else ""
    if len(command) == 3 and shell in SHELLS and flag in ("-lc", "-c"):
        return command[2]
    return shlex.join(command)


def embedded_patch(command: object) -> tuple[str, str | None] | None:
    """(patch, directory to ``cd`` into) when a shell call is really ``apply_patch``."""
    if isinstance(command, list) and len(command) == 2 and command[0] in PATCH_TOOLS:
        return str(command[1]), None
    heredoc = HEREDOC.fullmatch(shell_script(command))
    return (heredoc["patch"], heredoc["cd"]) if heredoc else None


def failed_calls(lines: list[Line]) -> dict[str, str]:
    """``call_id`` → error text, for every call whose output reports a failure."""
    failed: dict[str, str] = {}
    for _, line in lines:
        item = line.get("payload") if line.get("type") == "response_item" else line
        if isinstance(item, dict) and item.get("type") in OUTPUTS:
            error = _failure(item.get("output"))
            if error is not None:
                failed[str(item.get("call_id"))] = error
    return failed


def _failure(output: object) -> str | None:
    """The error of a failed call: a nonzero exit code, ``success: false`` or an error message."""
    if isinstance(output, dict):
        failed = output.get("success") is False
        return (text_of(output.get("content")) or "failed") if failed else None
    text = output if isinstance(output, str) else ""
    try:
        decoded = json.loads(text)
    except json.JSONDecodeError:
        decoded = None
    if isinstance(decoded, dict) and isinstance(decoded.get("metadata"), dict):
        code = decoded["metadata"].get("exit_code")
        if isinstance(code, int):
            return str(decoded.get("output") or f"exit code {code}") if code != 0 else None
    match = EXIT.search(text)
    if match:
        return text if int(match[1]) != 0 else None
    return text if FAILED.match(text) else None
