"""Named presets for real agent CLIs: a command template, a parser, the keys they need.

These CLIs run headless, write into the workspace without asking, and print a
machine-readable transcript that the parser turns into steps and the answer.
The templates are the documented non-interactive invocations; pass anything
else (a model, a profile) with ``command:`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchwright.agents.command import CommandAgent, Parser
from benchwright.agents.transcripts import aider, claude_code, codex_exec, goose
from benchwright.agents.transcripts.live import Parsed, parse_json_stream, safe_steps
from benchwright.probes.process import OUTPUT_LIMIT
from benchwright.workspace import read_regular


def _claude(stdout: str, workspace: Path, scratch: Path) -> Parsed:
    return parse_json_stream(stdout, claude_code.convert, workspace)


def _codex(stdout: str, workspace: Path, scratch: Path) -> Parsed:
    return parse_json_stream(stdout, codex_exec.convert, workspace)


def _goose(stdout: str, workspace: Path, scratch: Path) -> Parsed:
    return parse_json_stream(stdout, goose.convert, workspace)


def _aider(stdout: str, workspace: Path, scratch: Path) -> Parsed:
    history = read_regular(scratch / "aider.chat.md", OUTPUT_LIMIT)  # never through a link
    text = stdout if history is None else history.decode("utf-8", errors="replace")
    converted = aider.convert_text(text)
    return Parsed(safe_steps(converted.steps), converted.answer, converted.metadata)


@dataclass(frozen=True)
class Preset:
    template: str
    parser: Parser
    passthrough: tuple[str, ...]
    """Credentials and settings copied from the grader's environment when set."""
    egress: tuple[str, ...]
    """The provider hosts it must reach from a build vendor's namespace (its allow-list:
    ``host`` for port 443, or ``host:port``); ``--agent-egress`` replaces it."""


PRESETS: dict[str, Preset] = {
    "claude-code": Preset(
        "claude -p {prompt} --output-format stream-json --verbose "
        "--permission-mode bypassPermissions",
        _claude,
        ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "CLAUDE_CONFIG_DIR"),
        ("api.anthropic.com",),
    ),
    "codex": Preset(
        "codex exec --json --sandbox workspace-write --skip-git-repo-check {prompt}",
        _codex,
        ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME"),
        ("api.openai.com",),
    ),
    "aider": Preset(
        "aider --message {prompt} --yes-always --no-auto-commits --no-gitignore --no-pretty "
        "--no-stream --no-check-update --chat-history-file {scratch}/aider.chat.md "
        "--input-history-file {scratch}/aider.input.md",
        _aider,
        ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AIDER_MODEL"),
        ("api.openai.com", "api.anthropic.com"),
    ),
    "goose": Preset(
        "goose run --no-session --output-format stream-json --text {prompt}",
        _goose,
        ("GOOSE_PROVIDER", "GOOSE_MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"),
        ("api.openai.com", "api.anthropic.com"),
    ),
}


def preset_agent(name: str) -> CommandAgent:
    preset = PRESETS[name]
    return CommandAgent(
        name, preset.template, preset.parser, preset.passthrough, egress=preset.egress
    )
