"""The evidence pytest leaves where the harness reads it: a JUnit report outside the copy.

An exit status is the command's word; agent code can make it 0 (``os._exit(0)`` at
import, an ``atexit`` hook). The report is written by pytest itself into a harness
directory, and the check passes only when it shows tests that ran and passed —
and, when the command names stamped (hidden oracle) test files, every test those
files define, counted from the stamped bytes with `ast`.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeGuard

from benchwright.workspace import read_regular

REPORT_LIMIT = 50 * 1024 * 1024
"""Bytes of report read at most: a bigger one is not pytest's."""
_VALUE_OPTIONS = frozenset(
    {"-k", "-m", "-p", "-c", "-o", "--ignore", "--ignore-glob", "--deselect", "--rootdir"}
    | {"--confcutdir", "--config-file", "--override-ini", "--junitxml", "--junit-xml"}
    | {"--basetemp"}
)
"""pytest options whose next word is their value, never a test path to run."""

Outcome = Literal["passed", "failed", "skipped"]


class ReportError(Exception):
    """The report is missing or unreadable; the message says which."""


@dataclass(frozen=True, slots=True)
class Case:
    classname: str
    name: str
    outcome: Outcome

    @property
    def shown(self) -> str:
        return f"{self.classname}::{self.name}"


def read_report(path: Path) -> list[Case]:
    """Every ``<testcase>`` of the report, with its outcome."""
    data = read_regular(path, REPORT_LIMIT + 1)  # the command could leave a link there
    if data is None:
        raise ReportError("pytest wrote no JUnit report (the run ended before pytest did)")
    if len(data) > REPORT_LIMIT:
        raise ReportError(f"the JUnit report is over {REPORT_LIMIT // 1024 // 1024} MiB")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ReportError(f"the JUnit report does not parse ({exc})") from exc
    return [_case(element) for element in root.iter("testcase")]


def _case(element: ET.Element) -> Case:
    tags = {child.tag for child in element}
    outcome: Outcome = "passed"
    if tags & {"failure", "error"}:
        outcome = "failed"
    elif "skipped" in tags:
        outcome = "skipped"
    return Case(element.get("classname", ""), element.get("name", ""), outcome)


def shortfall(cases: Sequence[Case], stamped: Sequence[str]) -> str | None:
    """Why the report does not show a pass (None when it does); ``stamped`` are node ids."""
    if not cases:
        return "the JUnit report shows 0 tests"
    failed = [c for c in cases if c.outcome == "failed"]
    if failed:
        return f"the JUnit report shows {len(failed)} failed or errored: {failed[0].shown}"
    if not any(c.outcome == "passed" for c in cases):
        return f"the JUnit report shows no passed test ({len(cases)} skipped)"
    for node in stamped:
        outcomes = {c.outcome for c in cases if _is(c, node)}
        if "passed" not in outcomes:
            return f"stamped test {node} {'was skipped' if outcomes else 'did not run'}"
    return None


def _is(case: Case, node: str) -> bool:
    """Whether ``case`` is a run of ``node`` (any parametrisation of it)."""
    path, *names = node.split("::")
    classname = ".".join([path.removesuffix(".py").replace("/", "."), *names[:-1]])
    return case.classname == classname and (
        case.name == names[-1] or case.name.startswith(names[-1] + "[")
    )


def stamped_tests(words: Sequence[str], stamp: Mapping[str, bytes]) -> list[str]:
    """The node ids of every test in the stamped files the pytest ``words`` name.

    Raises:
        SyntaxError: a named stamped file does not parse (the task's fault).
    """
    wanted: list[str] = []
    for i, word in enumerate(words):
        if word.startswith("-") or (i and words[i - 1] in _VALUE_OPTIONS):
            continue
        path, *selector = word.removeprefix("./").split("::")
        if path in stamp:
            selector = [s.partition("[")[0] for s in selector]
            nodes = _tests(path, stamp[path])
            wanted += [n for n in nodes if n.split("::")[1 : 1 + len(selector)] == selector]
    return list(dict.fromkeys(wanted))


def _tests(path: str, source: bytes) -> Iterator[str]:
    """pytest's default collection, read statically: ``test*`` functions, ``Test*`` methods."""
    for node in ast.parse(source, filename=path).body:
        if _is_test_function(node):
            yield f"{path}::{node.name}"
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [
                m for m in node.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            if any(m.name == "__init__" for m in methods):
                continue  # pytest refuses to collect a test class with __init__
            yield from (f"{path}::{node.name}::{m.name}" for m in methods if _is_test_function(m))


def _is_test_function(node: ast.stmt) -> TypeGuard[ast.FunctionDef | ast.AsyncFunctionDef]:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    return node.name.startswith("test") and not any(_is_fixture(d) for d in node.decorator_list)


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name == "fixture"


_NARROWING = ("-k", "-m", "--deselect")
"""Options that run part of a file: its canaries may be left out honestly."""


def canary_cases(cases: Sequence[Case], canaries: Mapping[str, Sequence[str]]) -> list[Case]:
    """The cases of ``cases`` that are runs of a canary."""
    nodes = [f"{path}::{name}" for path, names in canaries.items() for name in names]
    return [c for c in cases if any(_is(c, node) for node in nodes)]


def tampered(
    cases: Sequence[Case],
    canaries: Mapping[str, Sequence[str]],
    stamp: Mapping[str, bytes],
    words: Sequence[str],
) -> str | None:
    """Why the report cannot be pytest's honest account of the canaries (None when it can).

    Every canary reported must have failed. A canary missing is tampering only where the
    run took its whole file: some test of the file is in the report and ``words`` (the
    command and the config's ``addopts``) select no part of a file (``-k``, ``-m``,
    ``--deselect``, ``path::name``).
    """
    narrowed = any(w.startswith(_NARROWING) or "::" in w for w in words)
    for path, names in canaries.items():
        ran = any(_is(c, node) for c in cases for node in _tests(path, stamp[path]))
        for name in names:
            outcomes = {c.outcome for c in cases if _is(c, f"{path}::{name}")}
            if outcomes - {"failed"}:
                shown = "/".join(sorted(outcomes - {"failed"}))
                return f"report tampered: canary test {path}::{name} was reported {shown}"
            if not outcomes and ran and not narrowed:
                return f"report tampered: canary test {path}::{name} is missing from the report"
    return None
