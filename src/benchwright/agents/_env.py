"""The environment an agent process sees: an allow-list, what the user passes, ours.

The grader's own environment may hold credentials for other systems; an agent
gets only the variables named here, so a benchmark never leaks them by accident.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from benchwright.agents._protocol import AgentRequest

ALLOWED = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TZ", "TMPDIR", "USER")
ALLOWED_MORE = ("LOGNAME", "SHELL")


def agent_env(request: AgentRequest, passthrough: Iterable[str] = ()) -> dict[str, str]:
    """Allow-listed and ``passthrough`` variables that are set, the user's, then ours.

    Args:
        request: The phase being run; gives the ``BENCHWRIGHT_*`` values.
        passthrough: Extra variable names a preset needs (API keys), copied when set.
    """
    names = (*ALLOWED, *ALLOWED_MORE, *passthrough)
    env = {name: os.environ[name] for name in names if name in os.environ}
    env.update(request.env)
    env.update(harness_env(request))
    return env


def harness_env(request: AgentRequest) -> Mapping[str, str]:
    return {
        "BENCHWRIGHT_ANSWER_FILE": str(request.answer_file),
        "BENCHWRIGHT_WORKSPACE": str(request.workspace),
        "BENCHWRIGHT_TASK_ID": request.task.id,
        "BENCHWRIGHT_PHASE": request.phase.name,
        "BENCHWRIGHT_BUDGET_S": f"{request.budget_s:g}",
        "BENCHWRIGHT_SEED": str(request.seed),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def parse_env_options(options: Iterable[str]) -> dict[str, str]:
    """``--env NAME`` copies NAME from this environment; ``--env NAME=VALUE`` sets it."""
    env: dict[str, str] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not name:
            raise ValueError(f"--env {option!r}: give NAME or NAME=VALUE")
        if sep:
            env[name] = value
        elif name in os.environ:
            env[name] = os.environ[name]
    return env
