"""Reading an app's source without running it: a file's text, and the methods a class
defines in it (the static phases of every suite; nothing is imported or executed)."""

from __future__ import annotations

import ast
from pathlib import Path


def text(path: Path) -> str | None:
    """The file's text (undecodable bytes replaced), or None when it is no file."""
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def class_methods(path: Path, cls: str) -> tuple[tuple[str, ...], str | None]:
    """(the methods class ``cls`` defines in ``path``, why it could not be parsed). A
    class only imported there defines none; a missing file is no error."""
    source = text(path)
    if source is None:
        return (), None
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        return (), f"{path.name}: {exc.msg} (line {exc.lineno})"
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            names += [
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return tuple(names), None
