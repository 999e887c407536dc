"""The grader's interpreter, run so that nothing in the workspace changes what it imports.

Every Python the command starts (the leading one and any it spawns) gets:

* safe-path mode (``-P`` / ``PYTHONSAFEPATH``): neither the current directory nor a
  script's directory is put in front of ``sys.path``;
* the task's import path **appended** after the standard library and site-packages,
  by a harness ``sitecustomize`` that is the only thing on ``PYTHONPATH``; so a
  workspace ``json.py``, ``unittest/``, ``pytest.py`` or ``_pytest/`` is never found
  first, and a workspace ``sitecustomize.py`` never runs (a pytest run's own process
  gets it later, from the harness bootstrap: see `_bootstrap`);
* no bytecode from the workspace: ``PYTHONDONTWRITEBYTECODE`` and a ``pycache_prefix``
  the harness owns, read-only in the sandbox (the copy is also stripped of ``*.pyc``; see
  `_workdir`). The harness fills that prefix once per install, from a pytest run of its
  own on a test of its own, so the grader's modules are not compiled afresh per check
  (`_pycache`); it never holds bytecode for a workspace path;
* no user site, no ``PYTHONSTARTUP``, none of the grader's other variables.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

SITECUSTOMIZE = '''\
"""benchwright: append the task's import path after the stdlib and site-packages."""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if p != _here]
if os.environ.pop("BENCHWRIGHT_DEFER_IMPORT_PATH", "") != "1":  # else the pytest bootstrap adds it
    sys.path.extend(p for p in os.environ.get("BENCHWRIGHT_IMPORT_PATH", "").split(os.pathsep) if p)
'''
_KEPT = ("PATH", "LANG", "LC_ALL")
"""The grader variables a command may see; everything else (tokens, keys) stays out."""


def write_site(site: Path) -> None:
    """Put the harness ``sitecustomize`` in ``site`` (a directory only it occupies)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")


def interpreter_words(pycache: Path) -> list[str]:
    """The leading ``python`` of a command: the grader's own, in safe-path mode."""
    return [sys.executable, "-P", "-X", f"pycache_prefix={pycache}"]


def environment(
    site: Path, pycache: Path, import_path: Sequence[Path], *, home: Path, extra: dict[str, str]
) -> dict[str, str]:
    """The whole environment of a check command (the sandbox then sets HOME and TMPDIR)."""
    env = {name: os.environ[name] for name in _KEPT if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(
        HOME=str(home),
        TMPDIR=str(home),
        PYTHONSAFEPATH="1",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONNOUSERSITE="1",
        PYTHONPYCACHEPREFIX=str(pycache),
        PYTHONPATH=str(site),
        BENCHWRIGHT_IMPORT_PATH=os.pathsep.join(str(p) for p in import_path),
        **extra,
    )
    return env
