"""The check registry: marks, explicit registration, loud unknowns, entry-point plugins."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from builders import fake_distribution

from benchwright.checks import (
    BUILTIN_CHECKS,
    CheckParams,
    CheckRegistry,
    CheckType,
    PluginLoadError,
    UnknownCheckType,
    build_registry,
    check,
)
from benchwright.errors import BenchwrightError

BUILTIN_NAMES = [
    "ace",
    "answer_matches",
    "assertion_exists",
    "executed_app",
    "file_exists",
    "file_not_modified",
    "no_network",
    "no_source_during_phase",
    "pattern_absent",
    "test_must_pass",
]


class NoParams(CheckParams):
    pass


def make_check(name: str) -> Callable[..., object]:
    @check(name, params=NoParams)
    def run(p, ctx):
        """First line of help.

        More text.
        """
        return ctx.passed("ok")

    return run


def module_with(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    vars(module).update(attrs)
    return module


# -- the decorator and the registry -----------------------------------------------------


def test_the_decorator_only_marks():
    def raw(p, ctx):
        return None

    marked = check("marked_only", params=NoParams)(raw)
    assert marked is raw  # the function itself, callable as before
    assert "marked_only" not in build_registry(BUILTIN_CHECKS, plugins=False)
    assert "marked_only" not in CheckRegistry().names()


def test_register_returns_the_check_type_and_get_finds_it():
    fn = make_check("one")
    registry = CheckRegistry()
    check_type = registry.register(fn)
    assert check_type == CheckType("one", NoParams, fn)
    assert registry.get("one") is check_type
    assert "one" in registry and registry.names() == ["one"]
    assert check_type.summary == "First line of help."


def test_registering_a_name_twice_raises_and_keeps_the_first():
    first, second = make_check("dup"), make_check("dup")
    registry = CheckRegistry()
    registry.register(first)
    with pytest.raises(ValueError, match="check type 'dup' is already registered"):
        registry.register(second)
    assert registry.get("dup").run is first


def test_registering_an_unmarked_function_asks_about_the_decorator():
    with pytest.raises(
        TypeError, match=r"not marked with @check \(did you forget the decorator\?\)"
    ):
        CheckRegistry().register(lambda p, ctx: None)


def test_an_unknown_name_lists_every_known_type(registry):
    with pytest.raises(UnknownCheckType) as info:
        registry.get("file_exist")
    err = info.value
    assert isinstance(err, BenchwrightError) and isinstance(err, KeyError)
    assert err.known == BUILTIN_NAMES
    assert str(err) == (
        "unknown check type 'file_exist'; known: "
        + ", ".join(BUILTIN_NAMES)
        + " (see 'benchwright checks list')"
    )


def test_the_builtin_registry_holds_exactly_the_builtins(registry):
    assert registry.names() == BUILTIN_NAMES
    assert all(registry.get(n).summary for n in BUILTIN_NAMES)  # help text for `checks list`


def test_fresh_registries_are_independent(registry):
    registry.register(make_check("extra"))
    assert "extra" not in build_registry(BUILTIN_CHECKS, plugins=False)


def test_register_module_registers_every_marked_function_once():
    a, b = make_check("a"), make_check("b")
    module = module_with("mod_ab", a=a, b=b, alias_of_a=a, helper=lambda: None, N=3)
    registry = CheckRegistry()
    assert [t.name for t in registry.register_module(module)] == ["a", "b"]
    assert registry.names() == ["a", "b"]


def test_register_module_without_checks_raises_naming_the_module():
    with pytest.raises(ValueError, match="module empty_mod defines no @check function"):
        CheckRegistry().register_module(module_with("empty_mod", helper=lambda: None))


def test_build_registry_imports_the_listed_modules_only():
    registry = build_registry(["benchwright.checks.file_exists"], plugins=False)
    assert registry.names() == ["file_exists"]


# -- entry-point plugins ----------------------------------------------------------------


PLUGIN_MODULE = '''
from benchwright.checks import CheckParams, check


class LinesParams(CheckParams):
    path: str
    limit: int


@check("max_lines", params=LinesParams)
def max_lines(p, ctx):
    """Passes when the file has at most ``limit`` lines."""
    text = ctx.workspace.read_text(p.path) or ""
    n = len(text.splitlines())
    return ctx.passed(f"{n} lines") if n <= p.limit else ctx.failed(f"{n} > {p.limit}")


@check("always", params=CheckParams)
def always(p, ctx):
    return ctx.passed("always")
'''


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Install a fake distribution on ``sys.path``: its modules and entry points."""
    added: list[str] = []

    def make(dist: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
        fake_distribution(tmp_path, dist, entry_points, modules)
        added.extend(modules)
        monkeypatch.syspath_prepend(str(tmp_path))

    yield make
    for name in added:
        sys.modules.pop(name, None)


def test_a_module_entry_point_registers_all_its_checks(install):
    install("bw-lines", {"lines": "bw_lines_plugin"}, {"bw_lines_plugin": PLUGIN_MODULE})
    registry = build_registry(BUILTIN_CHECKS)
    assert set(registry.names()) == {*BUILTIN_NAMES, "max_lines", "always"}
    assert registry.get("max_lines").summary == "Passes when the file has at most ``limit`` lines."


def test_a_function_entry_point_registers_that_check_only(install):
    install("bw-fn", {"max_lines": "bw_fn_plugin:max_lines"}, {"bw_fn_plugin": PLUGIN_MODULE})
    registry = build_registry(BUILTIN_CHECKS)
    assert "max_lines" in registry and "always" not in registry


def test_plugins_are_not_loaded_when_asked_not_to(install):
    install("bw-off", {"lines": "bw_off_plugin"}, {"bw_off_plugin": PLUGIN_MODULE})
    assert build_registry(BUILTIN_CHECKS, plugins=False).names() == BUILTIN_NAMES


def test_a_plugin_check_grades_a_task(install):
    from builders import make_task, make_trajectory, write

    from benchwright.execution import run_task

    install("bw-grade", {"lines": "bw_grade_plugin"}, {"bw_grade_plugin": PLUGIN_MODULE})
    registry = build_registry(BUILTIN_CHECKS)
    task = make_task([{"type": "max_lines", "path": "a.py", "limit": 2}], registry=registry)
    short = run_task(task, make_trajectory(write("Write", "a.py", "1\n2\n")), registry=registry)
    long = run_task(task, make_trajectory(write("Write", "a.py", "1\n2\n3\n")), registry=registry)
    assert short.passed and short.results[0].detail == "2 lines"
    assert not long.passed and long.results[0].detail == "3 > 2"


def test_a_plugin_that_fails_to_import_raises_naming_it(install):
    install(
        "bw-broken",
        {"broken": "bw_broken_plugin"},
        {"bw_broken_plugin": "import no_such_dependency_xyz\n"},
    )
    with pytest.raises(PluginLoadError) as info:
        build_registry(BUILTIN_CHECKS)
    message = str(info.value)
    assert message.startswith("check plugin 'broken' (bw_broken_plugin) failed to load: ")
    assert "no_such_dependency_xyz" in message
    assert isinstance(info.value.__cause__, ModuleNotFoundError)


def test_a_plugin_reusing_a_builtin_name_fails_loudly(install):
    source = (
        "from benchwright.checks import CheckParams, check\n\n"
        "@check('file_exists', params=CheckParams)\n"
        "def shadow(p, ctx):\n    return ctx.passed('fake')\n"
    )
    install("bw-shadow", {"shadow": "bw_shadow_plugin"}, {"bw_shadow_plugin": source})
    with pytest.raises(PluginLoadError, match=r"'shadow'.*'file_exists' is already registered"):
        build_registry(BUILTIN_CHECKS)


def test_a_plugin_module_without_checks_fails_loudly(install):
    install("bw-empty", {"empty": "bw_empty_plugin"}, {"bw_empty_plugin": "X = 1\n"})
    with pytest.raises(PluginLoadError, match="defines no @check function"):
        build_registry(BUILTIN_CHECKS)


def test_a_plugin_pointing_at_an_unmarked_function_fails_loudly(install):
    install(
        "bw-unmarked",
        {"f": "bw_unmarked_plugin:f"},
        {"bw_unmarked_plugin": "def f(p, ctx): pass\n"},
    )
    with pytest.raises(PluginLoadError, match="did you forget the decorator"):
        build_registry(BUILTIN_CHECKS)
