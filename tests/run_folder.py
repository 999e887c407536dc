"""A folder for one ``pytest -n`` run that the controller makes and names to its workers:
the plugins under ``pytest_plugins`` (worker groups, the host lease) talk through files."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest


def name_to_worker(node: Any, key: pytest.StashKey[Path], name: str, prefix: str) -> None:
    """Controller, in ``pytest_configure_node``: make the run's folder for ``key`` on the
    first worker's configuration and put it in each worker's ``workerinput[name]``."""
    config = node.config
    if key not in config.stash:
        config.stash[key] = Path(tempfile.mkdtemp(prefix=prefix))
    node.workerinput[name] = str(config.stash[key])


def remove(config: pytest.Config, key: pytest.StashKey[Path]) -> None:
    """Controller, in ``pytest_unconfigure``: the run's folder goes with the run."""
    if key in config.stash:
        shutil.rmtree(config.stash[key], ignore_errors=True)
