"""The checker's pytest config: the initial fixture's, never the agent's.

pytest discovers its config from the directories it is given, so a workspace
``pytest.ini``, ``tox.ini`` or ``setup.cfg`` outranks a protected ``pyproject.toml``
(``addopts = -p evil``). The checker passes ``-c`` with a harness copy of the file
pytest would have chosen **in the task's initial fixture**, by pytest's own order of
precedence; with none, an empty ``pytest.ini``. pytest's ``pythonpath`` setting puts
directories *in front of* ``sys.path``; its entries join the task's import path
(appended) instead.
"""

from __future__ import annotations

import configparser
import re
import shlex
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EMPTY = "pytest.ini"
DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")


@dataclass(frozen=True, slots=True)
class PytestConfig:
    """Which fixture file configures the checker's pytest, and what it adds to the path."""

    source: str | None
    """The fixture's config file (``pyproject.toml``), or None when it has none."""
    pythonpath: tuple[str, ...] = ()
    """The file's ``pythonpath`` entries, relative to the workspace root."""
    python_files: tuple[str, ...] = DEFAULT_PYTHON_FILES
    """The file's ``python_files`` globs: which files pytest collects tests from."""
    addopts: tuple[str, ...] = ()
    """The file's ``addopts``, as words: options every run of it gets."""

    def write(self, files: Mapping[str, bytes], directory: Path) -> list[str]:
        """Write the config into ``directory``; returns the pytest options that use it."""
        name = self.source or EMPTY
        (directory / name).write_bytes(files[name] if self.source else b"[pytest]\n")
        (directory / name).chmod(0o644)
        return ["-c", str(directory / name), *(["-o", "pythonpath="] if self.pythonpath else [])]


def fixture_config(files: Mapping[str, bytes]) -> PytestConfig:
    """The config pytest would pick at the root of ``files`` (the initial fixture)."""
    for name, reader in _READERS.items():
        if name in files and (settings := reader(files[name])) is not None:
            return PytestConfig(
                name,
                _paths(settings.get("pythonpath", [])),
                _paths(settings.get("python_files", [])) or DEFAULT_PYTHON_FILES,
                _paths(settings.get("addopts", [])),
            )
    return PytestConfig(None)


def _toml_table(table: str) -> Callable[[bytes], dict[str, Any] | None]:
    def read(data: bytes) -> dict[str, Any] | None:
        try:
            doc = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None
        if table == "pytest":  # pytest.toml: always the config, even when empty
            return doc.get("pytest", {})
        tool = doc.get("tool", {}).get("pytest")
        if not isinstance(tool, dict):
            return None
        return tool.get("ini_options", tool)

    return read


def _ini_section(section: str, *, always: bool) -> Callable[[bytes], dict[str, Any] | None]:
    header = re.compile(rf"^\s*\[{re.escape(section)}\]\s*$", re.MULTILINE)

    def read(data: bytes) -> dict[str, Any] | None:
        text = data.decode("utf-8", errors="replace")
        if not header.search(text):
            return {} if always else None
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(text)
        except configparser.Error:
            return {}
        return dict(parser[section]) if parser.has_section(section) else {}

    return read


_READERS: dict[str, Callable[[bytes], dict[str, Any] | None]] = {
    "pytest.toml": _toml_table("pytest"),
    ".pytest.toml": _toml_table("pytest"),
    "pytest.ini": _ini_section("pytest", always=True),
    ".pytest.ini": _ini_section("pytest", always=True),
    "pyproject.toml": _toml_table("tool.pytest"),
    "tox.ini": _ini_section("pytest", always=False),
    "setup.cfg": _ini_section("tool:pytest", always=False),
}
"""pytest's config files in its order of precedence (``_pytest.config.findpaths``)."""


def _paths(value: object) -> tuple[str, ...]:
    """A setting of pytest's ``args``/``paths`` kinds: a list, or words in one string."""
    if isinstance(value, str):
        try:
            return tuple(shlex.split(value))
        except ValueError:
            return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()
