"""``command:TEMPLATE``: run any CLI once per phase, in the workspace.

The template is split like a shell would (`shlex`), then each word gets its
placeholders filled, so a prompt full of quotes and ``$`` reaches the agent
verbatim and is never interpreted by a shell:

* ``{prompt}`` the phase's prompt; ``{prompt_file}`` a file holding it;
* ``{workspace}`` the workspace directory; ``{scratch}`` a private directory
  outside the workspace (for the agent's own logs).

A leading ``python``/``python3`` is the grader's interpreter, as in check commands
(a version manager's shim on PATH would not run inside the sandbox).

The process runs sandboxed (`benchwright.sandbox`): the workspace and the scratch
directory are all it can write, and the phase's end ends every process it started.

The final answer is what the agent writes to ``$BENCHWRIGHT_ANSWER_FILE``,
else its whole stdout. Presets (`benchwright.agents.presets`) reuse this agent
with a transcript parser that reads the answer and steps from stdout.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.agents._env import agent_env
from benchwright.agents._process import run_process
from benchwright.agents._protocol import AgentOutcome, AgentRequest
from benchwright.agents.transcripts.live import Parsed
from benchwright.sandbox import Network
from benchwright.workspace import write_fresh

PLACEHOLDER = re.compile(r"\{(prompt|prompt_file|workspace|scratch)\}")
Parser = Callable[[str, Path, Path], Parsed]
"""(stdout, workspace, scratch) → steps, answer, metadata."""


def parse_template(template: str) -> list[str]:
    """The template's words; raise `ValueError` for an empty or unbalanced template."""
    words = shlex.split(template)
    if not words:
        raise ValueError("the command template is empty")
    return words


@dataclass(frozen=True)
class CommandAgent:
    """Runs ``template`` per phase; ``parser`` turns its stdout into steps and an answer."""

    spec: str
    template: str
    parser: Parser | None = None
    passthrough: Sequence[str] = ()
    """Environment variable names copied when set (a preset's API keys)."""
    network: Network = Network.HOST
    """A live agent CLI needs its model's API; the run's ``--agent-network`` overrides it."""
    egress: tuple[str, ...] = ()
    """Hosts it reaches through the allow-listing egress proxy when it builds against a
    vendor in a namespace of its own (a preset's provider API); ``--agent-egress``
    replaces them (services/_egress.py)."""

    def run(self, request: AgentRequest) -> AgentOutcome:
        prompt_file = request.scratch / f"prompt-{request.phase.name}.txt"
        # The scratch dir is the agent's too: a link it left there must not be written through.
        write_fresh(request.scratch, {prompt_file.name: request.phase.prompt.encode()}, "agent")
        values = {
            "prompt": request.phase.prompt,
            "prompt_file": str(prompt_file),
            "workspace": str(request.workspace),
            "scratch": str(request.scratch),
        }
        argv = [
            PLACEHOLDER.sub(lambda m: values[m.group(1)], word)
            for word in parse_template(self.template)
        ]
        if argv[0] in ("python", "python3"):  # the grader's, which the sandbox shows
            argv[0] = sys.executable
        request.answer_file.unlink(missing_ok=True)
        env = agent_env(request, self.passthrough)
        sandbox = request.sandbox(self.network, readable=_named_files(argv, env))
        logs = request.log_dir()
        done = run_process(argv, request.workspace, env, request.budget_s, logs, sandbox)
        if done.error:
            return AgentOutcome(None, done.duration_s, error=done.error)
        parsed = (
            self.parser(done.stdout, request.workspace, request.scratch)
            if self.parser
            else Parsed()
        )
        answer = request.read_answer()
        if answer is None:
            answer = parsed.answer if self.parser else done.stdout
        error = None
        if done.timed_out:
            error = (
                f"budget: phase {request.phase.name} exceeded its {request.budget_s:g}s budget "
                "(process group killed)"
            )
        return AgentOutcome(
            exit_code=done.exit_code,
            wall_s=done.duration_s,
            stdout=done.stdout,
            stderr=done.stderr,
            answer=answer,
            steps=tuple(parsed.steps),
            metadata=parsed.metadata,
            timed_out=done.timed_out,
            error=error,
            limit=done.limit,
        )


def _named_files(argv: list[str], env: dict[str, str]) -> tuple[Path, ...]:
    """The agent's executable and the existing files its command names by absolute path.

    The user named these as the agent (``~/.local/bin/claude``, ``python /opt/solver.py``),
    so the sandbox shows them read-only, symlinks and their targets alike; anything else
    they need outside the system directories is the user's to add with ``--sandbox-ro``.
    """
    found = shutil.which(argv[0], path=env.get("PATH"))
    named = [Path(found).absolute()] if found else []
    named += [Path(word) for word in argv[1:] if word.startswith("/") and Path(word).is_file()]
    return tuple({p: None for path in named for p in (path, path.resolve())})
