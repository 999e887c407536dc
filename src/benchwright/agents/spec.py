"""Build an agent from its command-line spec (``nop``, ``command:…``, ``claude-code`` …).

Everything is checked here, before any trial starts: an unknown name, an empty
or unbalanced template, a missing recording. A template whose program is a
relative path (``./my-agent``) is made absolute against the directory benchwright
was started in, since agents run inside each task's workspace, where the
relative path would not exist and every task would error.

`preflight` then asks whether a command agent's program exists at all, and whether a
model agent's key variable is set, so that a typo in ``--agent`` or a key not exported
is one line and exit 2, not a run of trials that each say ``cannot start``.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from benchwright.agents._protocol import Agent
from benchwright.agents.builtin import NopAgent, OracleAgent, ReplayAgent
from benchwright.agents.command import PLACEHOLDER, CommandAgent, parse_template
from benchwright.agents.presets import PRESETS, preset_agent
from benchwright.errors import SpecError
from benchwright.model import Task

if TYPE_CHECKING:
    from benchwright.agents.model.agent import ModelAgent
    from benchwright.agents.model.config import ModelConfig

KNOWN = ("nop", "oracle", "replay:FILE|DIR", "command:TEMPLATE", "model:PROVIDER/MODEL", *PRESETS)


def build_agent(spec: str, tasks: Sequence[Task], model: ModelConfig | None = None) -> Agent:
    """The agent ``spec`` names, ready to run ``tasks``; `SpecError` (exit 2) otherwise.

    ``model`` configures a ``model:`` agent (the ``--model-*`` flags); without it, or when
    it is another model's, the defaults and the environment do.
    """
    if spec == "nop":
        return NopAgent()
    if spec == "oracle":
        return OracleAgent()
    if spec in PRESETS:
        return preset_agent(spec)
    kind, sep, rest = spec.partition(":")
    if sep and kind == "command":
        return CommandAgent(f"command:{absolute_program(rest)}", absolute_program(rest))
    if sep and kind == "replay":
        return _replay(rest, tasks)
    if sep and kind == "model":
        return _model(spec, model)
    raise SpecError.single("--agent", f"unknown agent {spec!r}; known: {', '.join(KNOWN)}")


def absolute_program(template: str) -> str:
    """The template with a relative program path (containing ``/``) made absolute."""
    try:
        words = parse_template(template)
    except ValueError as exc:
        raise SpecError.single("--agent", f"command template: {exc}") from None
    program = words[0]
    if "/" in program and not program.startswith("/"):
        words[0] = str(Path(program).resolve())
        return shlex.join(words)
    return template


def _replay(target: str, tasks: Sequence[Task]) -> ReplayAgent:
    from benchwright.dsl import pair_trajectories

    if not target:
        raise SpecError.single("--agent", "replay needs a trajectory file or directory: replay:F")
    path = Path(target).resolve()
    pairs = pair_trajectories(list(tasks), path)
    return ReplayAgent(f"replay:{path}", {task.id: trajectory for task, trajectory in pairs})


def _model(spec: str, config: ModelConfig | None) -> Agent:
    from benchwright.agents.model.agent import ModelAgent, provider_class
    from benchwright.agents.model.config import build_config

    if config is None or config.spec != spec:
        config = build_config(spec)
    provider_class(config.provider)  # a provider this install cannot load: exit 2 now
    return ModelAgent(config.spec, config)


def preflight(agent: Agent, env: dict[str, str] | None = None) -> None:
    """Refuse a command agent whose program is missing, before any trial starts.

    The program is the template's first word: a path must be an executable file, a
    bare name must be on ``PATH`` (the ``--env PATH=…`` the agent gets, else ours). A
    leading ``python``/``python3`` is the grader's interpreter and a program built from a
    placeholder is only known per phase, so neither is judged here.

    Raises:
        SpecError: on ``--agent``, naming the program and why it cannot run (exit 2).
    """
    from benchwright.agents.model.agent import ModelAgent

    if isinstance(agent, ModelAgent):
        return _model_preflight(agent)
    if not isinstance(agent, CommandAgent):
        return
    program = parse_template(agent.template)[0]
    if program in ("python", "python3") or PLACEHOLDER.search(program):
        return
    if "/" in program:
        if not Path(program).is_file():
            why = "no such file"
        elif not os.access(program, os.X_OK):
            why = "not executable"
        else:
            return
    else:
        path = (env or {}).get("PATH", os.environ.get("PATH", os.defpath))
        if shutil.which(program, path=path):
            return
        why = "not found on PATH"
    raise SpecError.single(
        "--agent", f"the agent's program {program!r} cannot start: {why}; no trial was started"
    )


def _model_preflight(agent: ModelAgent) -> None:
    """A model agent whose key variable is unset would error every trial: refuse it now
    (each endpoint's: a fleet file names one per endpoint)."""
    unset = [n for n in agent.config.key_names() if n is not None and not os.environ.get(n)]
    if unset:
        name = unset[0]
        raise SpecError.single(
            "--model-api-key-env",
            f"{name} is not set: export the key for {agent.spec} (or, for a server that needs "
            "none, pass --model-api-key-env none); no trial was started",
        )
