"""The Typer application and the pieces every command module shares.

Exit codes (`benchwright.errors.EXIT_CODES`): 0 passed, 1 failed, 2 invalid input, 3 harness
failure or refused, 130 interrupted.
Command modules import only Typer at module level, so that ``--help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

app = typer.Typer(
    name="benchwright",
    help="Grade what AI coding agents build.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

JsonOpt = Annotated[Path | None, typer.Option("--json", help="Write the JSON report here.")]
JunitOpt = Annotated[Path | None, typer.Option("--junit", help="Write JUnit XML here.")]
AGENT_HELP = (
    "nop | oracle | replay:F | command:'…' | model:openai|anthropic/MODEL | claude-code | codex "
    "| aider | goose"
)
KeepOpt = Annotated[bool, typer.Option("--keep", help="Keep workspaces (and their initial copy).")]
NoSandboxOpt = Annotated[
    bool,
    typer.Option(
        "--no-sandbox",
        help="Run agents and check commands unconfined (results carry isolation: none).",
    ),
]
SandboxRoOpt = Annotated[
    list[Path] | None,
    typer.Option("--sandbox-ro", help="A host path sandboxes may read (repeatable)."),
]
AgentNetworkOpt = Annotated[
    str | None,
    typer.Option(
        "--agent-network",
        help="The agent's network: none | loopback | host (default: host for CLIs, none else).",
    ),
]
AgentEgressOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--agent-egress",
        help="A host (HOST or HOST:PORT; repeatable) an agent building against a vendor in its "
        "own network namespace may reach through the egress proxy (default: a preset's "
        "provider API, none for command: agents).",
    ),
]

WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Jobs at once (default: min(cores, 4); 1 runs them one by one in this process).",
    ),
]
ExecutorOpt = Annotated[
    str,
    typer.Option("--executor", help="local (a process pool here) | ray (a Ray cluster)."),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option("--ray-address", help="With --executor ray: auto | ray://HOST:PORT."),
]


def reports_errors(command: F) -> F:
    """Map `BenchwrightError` to its one-line messages on stderr and its exit code."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from benchwright.errors import BenchwrightError

        try:
            return command(*args, **kwargs)
        except BenchwrightError as exc:
            for line in exc.lines():
                typer.echo(f"error: {line}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper  # type: ignore[return-value]


def isolation_request(
    no_sandbox: bool, sandbox_ro: list[Path] | None, agent_network: str | None = None,
    agent_egress: list[str] | None = None,
) -> Any:  # fmt: skip
    """The `IsolationRequest` of ``--no-sandbox``/``--sandbox-ro``/``--agent-network``/
    ``--agent-egress``."""
    from benchwright.execution.isolation import IsolationRequest
    from benchwright.sandbox import Network

    choices = [n.value for n in Network]
    if agent_network is not None and agent_network not in choices:
        invalid(f"--agent-network {agent_network!r}: choose one of {', '.join(choices)}")
    network = Network(agent_network) if agent_network else None
    egress = None if agent_egress is None else tuple(agent_egress)
    return IsolationRequest(no_sandbox, tuple(sandbox_ro or ()), network, egress)


def say_written(*paths: Path | None) -> None:
    """End a command that wrote files by saying where: ``wrote PATH``, one line each."""
    for path in paths:
        if path is not None:
            typer.echo(f"wrote {path}")


def invalid(message: str) -> NoReturn:
    """Refuse invalid command-line input: one line on stderr, exit 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)
