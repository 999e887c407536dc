"""AgentBench v0.1.0 compatibility: recognising its task files and its lenient oracles.

benchwright reads AgentBench's JSON as-is, but AgentBench's semantics differ from our
strict validation in two places, and a user switching over must not lose a task to
them: keys of an oracle beyond its type's parameters are parameters there (kept here
on AgentBench's four oracle types, with a warning naming them, instead of refused),
and ``name`` is required there (optional in our own files). Only a file in
AgentBench's shape gets these semantics (`is_agentbench_task`); benchwright's own
files, and every YAML file, stay strict.
docs/agentbench.md lists the differences that remain on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

AGENTBENCH_TASK_KEYS = frozenset(
    {"id", "name", "description", "prompt", "workspace", "oracles", "tags"}
)
"""Every top-level key an AgentBench v0.1.0 task file may hold."""
AGENTBENCH_ORACLES = frozenset(
    {"test_must_pass", "file_not_modified", "no_network", "assertion_exists"}
)
"""AgentBench's oracle types: only these keep unknown keys; a benchwright-only check type
has no AgentBench semantics to keep, so it is read strictly even in an AgentBench file."""


def is_agentbench_task(raw: Mapping[str, Any], path: Path) -> bool:
    """True for a task file in AgentBench's shape: read with AgentBench's semantics.

    The rule (docs/agentbench.md): a ``.json`` file holding ``oracles`` and
    ``workspace`` and no key AgentBench does not know. Any benchwright-only key
    (``checks``, ``fixture``, ``class``, ``stamp``...) or a YAML file makes it ours.
    """
    keys = raw.keys()
    return (
        path.suffix.lower() == ".json"
        and {"oracles", "workspace"} <= keys
        and keys <= AGENTBENCH_TASK_KEYS
    )


def parameter_keys(params: type[BaseModel]) -> frozenset[str]:
    """The keys a check type's parameter model reads (field names and their aliases)."""
    return frozenset(
        key for name, info in params.model_fields.items() for key in (name, info.alias) if key
    )


@cache
def lenient(params: type[BaseModel]) -> type[BaseModel]:
    """``params`` that keeps unknown keys (in ``model_extra``) instead of refusing them.

    A subclass, so every check still finds the type it expects and validates the
    known parameters exactly as before; only the extra keys are let through.
    """
    config = ConfigDict(**{**params.model_config, "extra": "allow"})  # type: ignore[typeddict-item]
    namespace = {"model_config": config, "__module__": params.__module__, "__doc__": params.__doc__}
    return type(params.__name__, (params,), namespace)
