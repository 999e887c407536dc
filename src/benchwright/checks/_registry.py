"""The check registry: check types by name, built from an explicit list.

A check type is a function ``(params, ctx) -> CheckResult`` marked with
`@check`. The decorator only attaches metadata; nothing is registered until a
`CheckRegistry` scans a module, so tests can build fresh registries freely.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import AfterValidator, ConfigDict

from benchwright.errors import BenchwrightError
from benchwright.model import StrictInput, inside_root, normalize_path

if TYPE_CHECKING:
    from benchwright.checks._context import CheckContext
    from benchwright.model import CheckResult

ENTRY_POINT_GROUP = "benchwright.checks"
_MARK = "__benchwright_check__"


class CheckParams(StrictInput):
    """Base of every check type's parameters: unknown keys are errors, and booleans,
    numbers and NUL-free strings are exactly that (`StrictInput`)."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    def task_errors(self, files: Mapping[str, bytes]) -> list[tuple[str, str]]:
        """Authoring errors visible before anything runs, as (field, message) pairs.

        Override when a parameter must agree with the task's initial workspace
        (e.g. a protected path that must exist in it).
        """
        return []

    def phase_errors(self, phases: Collection[str]) -> list[tuple[str, str]]:
        """Authoring errors against the task's phase names (``main`` when it declares none).

        Override when a parameter names a phase, so that a typo fails at load
        instead of as a harness fault after the whole trial ran.
        """
        return []

    def id_errors(self, check_id: str) -> list[tuple[str, str]]:
        """Authoring errors in the check's id (``id``), for a type whose id names what it
        checks (an ACE check's id is its ACE id)."""
        return []


def _inside_workspace(value: str) -> str:
    path = normalize_path(value)
    if not inside_root(path):
        raise ValueError(f"must be a relative path inside the workspace, got {value!r}")
    return path


WorkspacePath = Annotated[str, AfterValidator(_inside_workspace)]
"""A file named relative to the workspace root: normalized, never absolute, never ``..``."""


CheckFunction = Callable[[Any, "CheckContext"], "CheckResult"]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class CheckType:
    """A registered check type: its name, parameter model and implementation."""

    name: str
    params: type[CheckParams]
    run: CheckFunction

    @property
    def summary(self) -> str:
        doc = (self.run.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""


def check(name: str, *, params: type[CheckParams]) -> Callable[[F], F]:
    """Mark a function as the implementation of check type ``name``."""

    def mark(fn: F) -> F:
        setattr(fn, _MARK, CheckType(name, params, fn))
        return fn

    return mark


class UnknownCheckType(BenchwrightError, KeyError):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = sorted(known)
        super().__init__(
            f"unknown check type {name!r}; known: {', '.join(self.known)} "
            "(see 'benchwright checks list')"
        )

    def __str__(self) -> str:
        return str(self.args[0])


class CheckRegistry:
    """Check types by name. Registering a name twice is an error, never an overwrite."""

    def __init__(self) -> None:
        self._types: dict[str, CheckType] = {}

    def register(self, fn: Callable[..., Any]) -> CheckType:
        check_type = getattr(fn, _MARK, None)
        if not isinstance(check_type, CheckType):
            raise TypeError(f"{fn!r} is not marked with @check (did you forget the decorator?)")
        if check_type.name in self._types:
            raise ValueError(f"check type {check_type.name!r} is already registered")
        self._types[check_type.name] = check_type
        return check_type

    def register_module(self, module: ModuleType) -> list[CheckType]:
        """Register every `@check` function defined in ``module``."""
        marked = {  # keyed by identity: an alias of a check is still one check
            id(v): v
            for v in vars(module).values()
            if isinstance(getattr(v, _MARK, None), CheckType)
        }.values()
        if not marked:
            raise ValueError(f"module {module.__name__} defines no @check function")
        return [self.register(fn) for fn in marked]

    def get(self, name: str) -> CheckType:
        try:
            return self._types[name]
        except KeyError:
            raise UnknownCheckType(name, self._types) from None

    def names(self) -> list[str]:
        return sorted(self._types)

    def __contains__(self, name: object) -> bool:
        return name in self._types


class PluginLoadError(BenchwrightError):
    """A third-party check plugin failed to load; named, never swallowed."""


def load_entry_points(registry: CheckRegistry, group: str = ENTRY_POINT_GROUP) -> None:
    """Register the check types third-party packages publish under ``group``.

    An entry point may name a module (all its `@check` functions) or one function.
    """
    from importlib.metadata import entry_points

    for entry in entry_points(group=group):
        try:
            target = entry.load()
            if isinstance(target, ModuleType):
                registry.register_module(target)
            else:
                registry.register(target)
        except Exception as exc:
            raise PluginLoadError(
                f"check plugin {entry.name!r} ({entry.value}) failed to load: {exc}"
            ) from exc


def build_registry(modules: Iterable[str], *, plugins: bool = True) -> CheckRegistry:
    """A registry holding the `@check` functions of ``modules``, plus plugins."""
    registry = CheckRegistry()
    for name in modules:
        registry.register_module(importlib.import_module(name))
    if plugins:
        load_entry_points(registry)
    return registry
