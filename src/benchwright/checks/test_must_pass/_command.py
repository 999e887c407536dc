"""What a check command is: a pytest run, a Python run, or any other shell line.

The checker runs a pytest invocation on its own terms (its config, its report, its
import path), so it must recognise one: only as the whole command, led by
``python -m pytest``, ``python3 -m pytest`` or ``pytest``. A pytest run buried in a
compound line (``cd sub && pytest``, ``FOO=1 pytest``) is refused when the task
loads, rather than run with weaker guarantees.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Literal

Runner = Literal["pytest", "python", "shell"]

_PYTEST = re.compile(r"^\s*(?:python3?\s+-m\s+pytest|pytest)(?=\s|$)")
_PYTHON = re.compile(r"^\s*python3?(?=\s|$)")
_OPERATOR = re.compile(r"^[();<>|&]+$")
_PYTEST_WORDS = ("pytest", "py.test")


@dataclass(frozen=True, slots=True)
class Invocation:
    """A command split into the runner that leads it and the rest, kept as written."""

    runner: Runner
    tail: str
    """For ``pytest`` and ``python``: the text after the leading runner, for the shell to
    expand as the task wrote it; for ``shell``: the whole command."""

    @property
    def words(self) -> list[str]:
        """The tail as shell words (quotes removed); [] when the shell would not parse it."""
        try:
            return shlex.split(self.tail)
        except ValueError:
            return []


def parse(command: str) -> Invocation:
    """Classify ``command``; raises ValueError for a pytest run the checker cannot own."""
    if found := _PYTEST.match(command):
        tail = command[found.end() :]
        if _is_compound(tail):
            raise ValueError(_BURIED)
        return Invocation("pytest", tail)
    if _names_pytest(command):
        raise ValueError(_BURIED)
    if found := _PYTHON.match(command):
        return Invocation("python", command[found.end() :])
    return Invocation("shell", command)


_BURIED = (
    "a pytest run must be the whole command, led by 'python -m pytest' or 'pytest' "
    "(no ;, &&, |, redirection, cd or VAR=value around it), so that the checker can run it "
    "with its own config and read its own report; split other steps into separate checks"
)


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: the shell will say so
        return []


def _is_compound(text: str) -> bool:
    return any(_OPERATOR.match(token) for token in _tokens(text))


def _names_pytest(command: str) -> bool:
    """Whether pytest runs somewhere in ``command``: after ``-m`` or where a command starts.

    ``grep -q pytest requirements.txt`` names pytest as data, and is left alone.
    """
    before: list[str] = [";"]
    for token in _tokens(command):
        if _is_pytest(token) and _starts_command(before):
            return True
        before.append(token)
    return False


def _is_pytest(token: str) -> bool:
    return token in _PYTEST_WORDS or token.endswith(("/pytest", "/py.test"))


def _starts_command(before: list[str]) -> bool:
    last = before[-1]
    if last == "-m" or _OPERATOR.match(last) or last in _WRAPPERS:
        return True
    if "=" in last and not last.startswith("-"):  # FOO=1 pytest
        return True
    return len(before) > 1 and before[-2] in _WRAPPERS  # timeout 30 pytest


_WRAPPERS = frozenset({"env", "exec", "command", "nohup", "nice", "time", "timeout", "xargs"})
