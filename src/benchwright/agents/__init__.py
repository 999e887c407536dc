"""Agents: the protocol, the built-ins (nop, oracle, replay, command), presets for real CLIs.

Transcript converters for recorded sessions live in `benchwright.agents.transcripts`.
"""

from benchwright.agents._env import parse_env_options
from benchwright.agents._protocol import Agent, AgentOutcome, AgentRequest
from benchwright.agents.builtin import NopAgent, OracleAgent, ReplayAgent
from benchwright.agents.command import CommandAgent
from benchwright.agents.presets import PRESETS
from benchwright.agents.spec import KNOWN, build_agent, preflight

__all__ = [
    "KNOWN",
    "PRESETS",
    "Agent",
    "AgentOutcome",
    "AgentRequest",
    "CommandAgent",
    "NopAgent",
    "OracleAgent",
    "ReplayAgent",
    "build_agent",
    "parse_env_options",
    "preflight",
]
