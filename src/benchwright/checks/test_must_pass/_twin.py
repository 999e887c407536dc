"""Which of a stamped file's tests a canary can copy, and how the copy is made to fail.

A test can be twinned when its outcome is its asserts (no skip/xfail mark, no
``pytest.skip``/``fail``, no ``return`` or ``yield``) and one statement of its body,
at the top level, is ``assert <expr> == <literal>`` (or ``<literal> == <expr>``), where
the literal is a number, a plain string, or a list/tuple/set/dict of them — or is an
argument of a ``pytest.mark.parametrize`` whose rows give it literals, and which the
body uses nowhere else. The copy changes one such literal (in every row, for a
parameter): code that makes the test pass gives ``<expr>`` the original value, so the
copy's assert fails.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

Literal = int | float | str
Edit = tuple[ast.expr, Literal]
"""A literal to change: its node (a constant, or a minus sign and a number) and value."""
_QUIET = frozenset({"skip", "skipif", "xfail", "importorskip", "fail", "fixture"})
"""Names that make a test's outcome something other than its asserts: never twinned."""
_SIMPLE_STRING = re.compile(rb"""^(['"])([^'"\\]*)\1$""")


@dataclass(frozen=True, slots=True)
class Twin:
    """A test a canary copies, and the literals the copy changes."""

    function: ast.FunctionDef
    edits: tuple[Edit, ...]


def is_test(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")


def twins(tree: ast.Module, source: bytes, rng: random.Random) -> Iterator[Twin]:
    """The file's top-level tests that can be twinned, each with one way, chosen at random."""
    for node in tree.body:
        if not (is_test(node) and isinstance(node, ast.FunctionDef)) or _quiet(node):
            continue
        choices = [edits for stmt in node.body for edits in _choices(node, stmt, source)]
        if choices:
            yield Twin(node, rng.choice(choices))


def clone(
    lines: Sequence[bytes], twin: Twin, name: str, rng: random.Random, newline: bytes
) -> bytes:
    """The twin's own lines (decorators included), renamed, with its literals changed."""
    function = twin.function
    start = min([d.lineno for d in function.decorator_list] + [function.lineno])
    block = list(lines[start - 1 : function.end_lineno])
    for node, value in sorted(twin.edits, key=lambda e: (e[0].lineno, -e[0].col_offset)):
        at, line = node.lineno - start, block[node.lineno - start]
        other = _other(value, line[node.col_offset : node.end_col_offset], rng)
        block[at] = line[: node.col_offset] + other + line[node.end_col_offset :]
    at = function.lineno - start
    head = re.compile(rb"(def\s+)" + re.escape(function.name.encode()) + rb"\b")
    block[at] = head.sub(rb"\g<1>" + name.encode(), block[at], count=1)
    if not block[-1].endswith((b"\n", b"\r")):
        block[-1] += newline
    return b"".join(block)


def _quiet(function: ast.FunctionDef) -> bool:
    """Whether something other than its asserts may decide the test's outcome."""
    for node in ast.walk(function):
        if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom | ast.Global | ast.Nonlocal):
            return True
        if isinstance(node, ast.Attribute | ast.Name) and _word(node) in _QUIET:
            return True
    return False


def _word(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _choices(function: ast.FunctionDef, stmt: ast.stmt, source: bytes) -> list[tuple[Edit, ...]]:
    """Each way to make the copy of ``stmt`` (an ``==`` assert) fail: the edits it takes."""
    if not isinstance(stmt, ast.Assert) or not isinstance(stmt.test, ast.Compare):
        return []
    compare = stmt.test
    if len(compare.ops) != 1 or not isinstance(compare.ops[0], ast.Eq):
        return []
    for side in (compare.comparators[0], compare.left):
        if isinstance(side, ast.Name) and (rows := _parameter(function, side.id, source)):
            return [rows]
        if found := _literals(side, source):
            return [(edit,) for edit in found]
    return []


def _literals(node: ast.expr, source: bytes) -> list[Edit]:
    """The literals inside ``node`` when it is a literal (``[1, "a"]``), else none."""
    try:
        ast.literal_eval(node)
    except ValueError:
        return []
    return [(n, v) for n in _leaves(node) if (v := _value(n, source)) is not None]


def _leaves(node: ast.expr) -> Iterator[ast.expr]:
    """The numbers (with their minus sign) and strings of a literal."""
    if isinstance(node, ast.Constant | ast.UnaryOp):
        yield node
    elif isinstance(node, ast.List | ast.Tuple | ast.Set):
        for element in node.elts:
            yield from _leaves(element)
    elif isinstance(node, ast.Dict):
        for part in (*node.values, *node.keys):
            if part is not None:
                yield from _leaves(part)


def _value(node: ast.expr, source: bytes) -> Literal | None:
    """The value of a one-line number, negative number or plain string literal, else None."""
    if node.lineno != node.end_lineno:
        return None
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        sign, node = -1, node.operand
        if not isinstance(node, ast.Constant) or isinstance(node.value, str):
            return None
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
        return None
    if isinstance(node.value, str):
        line = source.splitlines()[node.lineno - 1]
        written = line[node.col_offset : node.end_col_offset]
        return node.value if _SIMPLE_STRING.match(written) else None
    return sign * node.value if isinstance(node.value, int | float) else None


def _parameter(function: ast.FunctionDef, name: str, source: bytes) -> tuple[Edit, ...]:
    """One literal per row of the ``parametrize`` giving ``name``, when the body uses
    ``name`` only in the assert being twinned; () when that is not so."""
    uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
    if len(uses) != 1:
        return ()
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call) or _word(decorator.func) != "parametrize":
            continue
        if len(decorator.args) < 2 or name not in (names := _argnames(decorator.args[0])):
            continue
        rows = decorator.args[1]
        if not isinstance(rows, ast.List | ast.Tuple) or not rows.elts:
            return ()
        edits = []
        for row in rows.elts:
            cell = row if len(names) == 1 else _cell(row, names.index(name), len(names))
            found = _literals(cell, source) if cell is not None else []
            if not found:
                return ()
            edits.append(found[0])
        return tuple(edits)
    return ()


def _argnames(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, ast.List | ast.Tuple):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def _cell(row: ast.expr, index: int, width: int) -> ast.expr | None:
    if isinstance(row, ast.List | ast.Tuple) and len(row.elts) == width:
        return row.elts[index]
    return None


def _other(value: Literal, written: bytes, rng: random.Random) -> bytes:
    """Another literal of the same type, never equal to ``value``, written the same way."""
    if isinstance(value, str):
        quote = written[:1].decode()
        letters = "abcdefghijklmnopqrstuvwxyz"
        places = [i for i, c in enumerate(value) if c.isalnum()]
        if not places:
            return (quote + value + rng.choice(letters) + quote).encode()
        at = rng.choice(places)
        old = value[at]
        pool = "0123456789" if old.isdigit() else letters.upper() if old.isupper() else letters
        new = rng.choice([c for c in pool if c != old.lower() and c != old])
        return (quote + value[:at] + new + value[at + 1 :] + quote).encode()
    step = rng.randint(1, max(3, int(abs(value)) // 4))
    same_sign = [v for v in (value + step, value - step) if (v < 0) == (value < 0)]
    return repr(rng.choice(same_sign)).encode()
