"""Canary tests: harness-made tests, hidden among the stamped ones, that must FAIL.

The code under test runs inside the pytest process, so it can patch pytest's reporting
and have every test reported passed. Each stamped test file therefore gets, per trial,
up to `PER_FILE` extra tests built to fail; a report that shows one passed (or, where
the file ran in full, does not show it) was not written honestly.

A canary is a **twin** of one of the file's own tests (`_twin`): the same decorators,
arguments and statements, under a new name made from the words of the file's test
names, with one literal its ``assert <expr> == <literal>`` compares with changed to
another value of the same type. Code that passes the twin gives that expression the
twin's value, so the canary's assert fails; it is placed at a random point among the
file's statements. Names, positions and values come from the caller's generator
(`secrets.SystemRandom` in a trial).

What a canary cannot hide from code that reads the test file at run time is written
down in docs/security.md ("Canary tests"): a twin differs from its original by one
literal and one name, and an adversary who knows the hidden tests (or which value is
right) can tell them apart.
"""

from __future__ import annotations

import ast
import random
import secrets
from collections.abc import Mapping, Sequence
from fnmatch import fnmatch
from itertools import pairwise
from pathlib import PurePosixPath

from benchwright.checks.test_must_pass._twin import clone, is_test, twins

PER_FILE = 2
"""Canaries per stamped file (fewer when the file has fewer tests that can be twinned)."""


def plant(
    stamp: Mapping[str, bytes], python_files: Sequence[str], rng: random.Random
) -> tuple[dict[str, bytes], dict[str, tuple[str, ...]]]:
    """``stamp`` with canaries in its test files, and the canary names by file.

    Files that do not parse, hold no test with a literal ``==`` assert, or are not test
    files (by ``python_files``) are stamped as they are.
    """
    files, planted = dict(stamp), {}
    for path, source in stamp.items():
        name = PurePosixPath(path).name
        if not any(fnmatch(name, glob) for glob in python_files):
            continue
        if made := _plant_file(source, rng):
            files[path], planted[path] = made
    return files, planted


def _plant_file(source: bytes, rng: random.Random) -> tuple[bytes, tuple[str, ...]] | None:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    found = list(twins(tree, source, rng))
    if not found:
        return None
    rng.shuffle(found)
    lines = source.splitlines(keepends=True)
    newline = b"\r\n" if lines[0].endswith(b"\r\n") else b"\n"
    if not lines[-1].endswith((b"\n", b"\r")):
        lines[-1] += newline
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | _defined(tree)
    tests = [n.name for n in ast.walk(tree) if is_test(n)]
    inserts: dict[int, list[bytes]] = {}
    names: list[str] = []
    for twin in found[:PER_FILE]:
        name = _name(tests, twin.function, taken, rng)
        taken.add(name)
        names.append(name)
        after = rng.randint(_first_place(tree, twin.function), len(tree.body) - 1)
        inserts.setdefault(tree.body[after].end_lineno or 0, []).append(
            newline * 2 + clone(lines, twin, name, rng, newline)
        )
    out = b"".join(
        line + b"".join(inserts.get(number, ())) for number, line in enumerate(lines, start=1)
    )
    if not _only_added(out, tree, names):
        return None
    return out, tuple(names)


def _defined(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).partition(".")[0])
    return names


def _name(tests: Sequence[str], twin: ast.FunctionDef, taken: set[str], rng: random.Random) -> str:
    """A new test name in the file's own style: a real name with one word changed."""
    split = [name.split("_")[1:] for name in tests]
    common = _common_prefix(split)
    pool = sorted(
        {w for words in split for w in words[len(common) :] if w}
        | {w for n in ast.walk(twin) if isinstance(n, ast.Name) for w in _words(n.id)}
    ) or ["case"]
    others = [words for name, words in zip(tests, split, strict=True) if name != twin.name]
    for _ in range(100):
        words = list(rng.choice(others or split)[len(common) :])
        at = rng.randint(0, len(words))
        choice = rng.randrange(3) if words else 1
        if choice == 0:  # replace a word
            words[min(at, len(words) - 1)] = rng.choice(pool)
        elif choice == 1:  # add a word
            words.insert(at, rng.choice(pool))
        elif len(words) > 1:  # drop a word
            del words[min(at, len(words) - 1)]
        name = "_".join(["test", *common, *words])
        if name not in taken and name.isidentifier() and _no_repeat(words):
            return name
    return "_".join(["test", *common, *(rng.choice(pool) for _ in range(3)), secrets.token_hex(2)])


def _common_prefix(split: Sequence[Sequence[str]]) -> list[str]:
    common: list[str] = []
    for column in zip(*split, strict=False):
        if len(set(column)) != 1 or len(split) < 2:
            break
        common.append(column[0])
    shortest = min(map(len, split), default=0)
    return common[: max(shortest - 1, 0)]


def _words(identifier: str) -> list[str]:
    return [w for w in identifier.lower().split("_") if len(w) > 2 and w.isalpha()]


def _no_repeat(words: Sequence[str]) -> bool:
    return bool(words) and all(a != b for a, b in pairwise(words))


def _first_place(tree: ast.Module, twin: ast.FunctionDef) -> int:
    """The first top-level statement the canary may follow: after every import and every
    statement binding a name the twin's decorators or defaults use (they run at def time)."""
    used = {
        n.id
        for part in (*twin.decorator_list, *twin.args.defaults, *twin.args.kw_defaults)
        if part is not None
        for n in ast.walk(part)
        if isinstance(n, ast.Name)
    }
    first = 0
    for index, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.Import | ast.ImportFrom) or _binds(stmt) & used:
            first = index
    return first


def _binds(stmt: ast.stmt) -> set[str]:
    """The module-level names a top-level statement binds."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    stores = (n for n in ast.walk(stmt) if isinstance(n, ast.Name))
    return {n.id for n in stores if isinstance(n.ctx, ast.Store)}


def _only_added(out: bytes, tree: ast.Module, names: Sequence[str]) -> bool:
    """Whether ``out`` parses and defines the original top-level tests plus the canaries."""
    try:
        planted = ast.parse(out)
    except (SyntaxError, ValueError):
        return False
    before = [n.name for n in tree.body if is_test(n)]
    after = [n.name for n in planted.body if is_test(n)]
    return sorted(after) == sorted([*before, *names])
