"""Whether a shell check command's own program could start: a missing tool is INFRA.

A task's ``make test`` on a machine without ``make`` says nothing about the work, so it
must not be a FAIL charged to the agent. But exit 127 alone cannot tell: a script that
exists and runs a missing inner command exits 127 too, and so does a ``./run.sh`` the
agent was asked to write and did not. The rule, therefore:

* only the command's own program is judged: the first word after any ``NAME=value``
  assignments, and only when it is a bare name looked up on ``PATH`` (a path such as
  ``./run.sh`` names the work, whose absence is the work's FAIL); shell keywords and
  builtins, and words the shell would still expand, are left to the shell;
* before running, a program missing from ``PATH`` is INFRA without a run;
* after running, exit 126/127 is INFRA only when the shell's own message names that
  program (``sh: 1: make: not found``, ``…: Permission denied``); any other 126/127 is
  the command's own exit status.
"""

from __future__ import annotations

import re
import shutil

from benchwright.checks.test_must_pass._command import _tokens

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_EXPANDS = re.compile(r"[$`*?\[\]{}~\\'\"]")
_SHELL_WORDS = frozenset({
    "!", "[", "[[", "{", "}", ".", ":", "alias", "bg", "break", "case", "cd", "command",
    "continue", "echo", "eval", "exec", "exit", "export", "false", "fg", "for", "function",
    "getopts", "hash", "if", "jobs", "kill", "let", "local", "printf", "pwd", "read",
    "readonly", "return", "set", "shift", "source", "test", "times", "trap", "true", "type",
    "ulimit", "umask", "unalias", "unset", "until", "wait", "while",
})  # fmt: skip
PREFIX = "check command could not start"


def program_of(command: str) -> str | None:
    """The program a shell line starts with, when it is a bare name the shell looks up."""
    for token in _tokens(command):
        if _ASSIGNMENT.match(token):
            continue
        if token in _SHELL_WORDS or "/" in token or _EXPANDS.search(token):
            return None
        return token if re.fullmatch(r"[\w.+-]+", token) else None
    return None


def missing_program(command: str, path: str) -> str | None:
    """Why ``command`` cannot start on ``path`` (its program is not there), else None."""
    program = program_of(command)
    if program is None or shutil.which(program, path=path):
        return None
    return f"{PREFIX}: {program!r} is not on PATH ({path}): {command}"


def not_started(command: str, exit_code: int | None, stderr: str) -> str | None:
    """The shell's own report that the command's program was not found or not executable."""
    program = program_of(command)
    if program is None or exit_code not in (126, 127):
        return None
    said = re.search(
        rf"^(?:\S*sh: (?:\d+: |line \d+: )?)?{re.escape(program)}: "
        r"(not found|command not found|Permission denied)\s*$",
        stderr,
        re.M,
    )
    if said is None:
        return None
    return f"{PREFIX}: {program!r}: {said.group(1)} (exit {exit_code}): {command}"
