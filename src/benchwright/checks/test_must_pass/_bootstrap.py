"""How the checker starts pytest: with nothing from the workspace importable until it has.

A workspace module is only ever *appended* to ``sys.path``, so it cannot stand in for a
module the standard library or pytest ships here. It can still stand in for one they
do **not** ship here but look for anyway: ``nt``, ``_winapi`` and ``msvcrt`` are tried
(and expected to be missing) by ``pathlib`` and ``subprocess`` on Linux, and a module
of that name on the path runs inside pytest before any test, free to rewrite the JUnit
report. And a root-level ``test_oracle.py`` is found before ``tests/test_oracle.py``
(the stamped oracle), which pytest imports by its basename.

So a pytest command runs ``python -P <harness>/benchwright_pytest.py`` instead of
``python -m pytest``. That script, run before anything of the workspace can be
imported:

* imports pytest and every plugin module pytest loads by default, then starts it;
* adds the task's import path only when pytest is about to load the first conftest
  (``pytest_load_initial_conftests``), so nothing pytest imports while starting can
  come from the workspace (the harness ``sitecustomize`` leaves the path alone in this
  one process, and restores the usual behaviour for the processes it starts);
* puts a finder first in ``sys.meta_path`` that refuses, from then on, any workspace
  module named like a standard-library module (``sys.stdlib_module_names``: those of
  every platform) or a package pytest runs on, and that resolves the module name of
  every task-owned test file (and the other task-owned modules beside it) only to that
  file, whatever else on the path has the same name.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

SCRIPT = "benchwright_pytest.py"
OWNED_VARIABLE = "BENCHWRIGHT_OWNED_MODULES"
DEFER_VARIABLE = "BENCHWRIGHT_DEFER_IMPORT_PATH"

BOOTSTRAP = '''\
"""benchwright: start pytest with no workspace directory importable, then let it in."""
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook
from _pytest.config import default_plugins
from _pytest.pathlib import module_name_from_path, resolve_pkg_root_and_module_name

for _plugin in default_plugins:
    importlib.import_module(f"_pytest.{_plugin}")

_TRUSTED = tuple(sys.path)
_RUNTIME = frozenset(sys.stdlib_module_names) | {
    "pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py",
}
_ROOT = Path.cwd()


def _owned_names(paths):
    """Module name -> the task-owned files pytest may import under it (any import mode)."""
    owned = {}
    for path in map(Path, paths):
        if not path.is_file():  # a fixture file the agent deleted
            continue
        try:
            _root, name = resolve_pkg_root_and_module_name(path)
        except Exception:
            name = path.stem
        for each in {name, module_name_from_path(path, _ROOT)}:
            owned.setdefault(each, set()).add(os.path.normpath(path))
    return owned


class _Guard:
    """Runtime and stdlib names from the grader's install only; owned modules from their file."""

    def __init__(self, owned):
        self.owned = owned

    def find_spec(self, name, path=None, target=None):
        if name in self.owned:
            return self._owned(name, path)
        top = name.partition(".")[0]
        if top != name or name not in _RUNTIME:
            return None
        for finder in (importlib.machinery.BuiltinImporter, importlib.machinery.FrozenImporter):
            if (spec := finder.find_spec(name)) is not None:
                return spec
        spec = importlib.machinery.PathFinder.find_spec(name, list(_TRUSTED))
        if spec is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return spec

    def _owned(self, name, path):
        leaf = name.rpartition(".")[2]
        for entry in sys.path if path is None else path:
            where = os.path.abspath(entry or ".")
            for candidate in (f"{leaf}.py", os.path.join(leaf, "__init__.py")):
                origin = os.path.normpath(os.path.join(where, candidate))
                if origin in self.owned[name]:
                    return _spec(name, origin)
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def _spec(name, origin):
    """The owned file's spec, through pytest's assertion rewriting when it rewrites it."""
    for finder in sys.meta_path:
        if isinstance(finder, AssertionRewritingHook):
            spec = finder.find_spec(name, [os.path.dirname(origin)])
            if spec is not None and spec.origin == origin:
                return spec
    return importlib.util.spec_from_file_location(name, origin)


class _LetTheWorkspaceIn:
    @pytest.hookimpl(tryfirst=True)
    def pytest_load_initial_conftests(self):
        with open(os.environ["BENCHWRIGHT_OWNED_MODULES"], encoding="utf-8") as listed:
            owned = json.load(listed)
        sys.meta_path.insert(0, _Guard(_owned_names(owned)))
        paths = os.environ.get("BENCHWRIGHT_IMPORT_PATH", "").split(os.pathsep)
        sys.path.extend(p for p in paths if p and p not in sys.path)


raise SystemExit(pytest.main(sys.argv[1:], plugins=[_LetTheWorkspaceIn()]))
'''


def write_bootstrap(site: Path) -> Path:
    """Put the bootstrap script beside the harness ``sitecustomize``; returns its path."""
    script = site / SCRIPT
    script.write_text(BOOTSTRAP, encoding="utf-8")
    return script


def owned_modules(
    copy: Path, owned: Collection[str], python_files: Collection[str], listing: Path
) -> str:
    """List the task's test modules, as paths in ``copy``, in ``listing`` (a harness file);
    returns the ``BENCHWRIGHT_OWNED_MODULES`` value that names it.

    Those are the task-owned ``.py`` files matching ``python_files`` (or ``conftest.py``)
    and the task-owned ``.py`` files in the same directories (helpers the tests import).
    The bootstrap skips those the agent deleted: it looks from inside the sandbox, where
    ``copy`` may be an overlay the harness does not see.
    """
    patterns = (*python_files, "conftest.py")
    python = [PurePosixPath(p) for p in owned if p.endswith(".py")]
    test_dirs = {p.parent for p in python if any(fnmatch(p.name, g) for g in patterns)}
    chosen = [copy / p for p in python if p.parent in test_dirs]
    listing.write_text(json.dumps(sorted(str(p) for p in chosen)))
    listing.chmod(0o644)
    return str(listing)
