"""Phase ``static``: the files on disk (no import, no execution)."""

from __future__ import annotations

import ast
from pathlib import Path

from benchwright.suites.vendorsync.context import GradeContext
from benchwright.suites.vendorsync.observations import Observations, StaticObs

PACKAGE = "vendorsync"
MODULES = (
    "__init__.py", "__main__.py", "meridian.py", "store.py", "api.py",
    "web/index.html", "web/styles.css", "web/app.js",
)  # fmt: skip
"""The package paths spec §2 names."""
WEB_FILES = ("index.html", "styles.css", "app.js")
CLASS_FILES = {"MeridianClient": "meridian.py", "Store": "store.py"}


def static(ctx: GradeContext, obs: Observations) -> StaticObs:
    """Spec paths present, class methods declared (AST), the store, client and page sources."""
    return observe_tree(ctx.tree)


def observe_tree(root: Path) -> StaticObs:
    package = root / PACKAGE
    methods: dict[str, tuple[str, ...]] = {}
    errors: list[str] = []
    for cls, name in CLASS_FILES.items():
        methods[cls], error = _methods(package / name, cls)
        errors += [error] if error else []
    web = {name: _text(package / "web" / name) for name in WEB_FILES}
    return StaticObs(
        modules={path: (package / path).is_file() for path in MODULES},
        methods=methods,
        parse_errors=tuple(errors),
        store_source=_text(package / "store.py"),
        meridian_source=_text(package / "meridian.py"),
        web={name: text for name, text in web.items() if text is not None},
    )


def _text(path: Path) -> str | None:
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def _methods(path: Path, cls: str) -> tuple[tuple[str, ...], str | None]:
    """The methods class ``cls`` defines in ``path`` (defined there, not imported)."""
    source = _text(path)
    if source is None:
        return (), None
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        return (), f"{path.name}: {exc.msg} (line {exc.lineno})"
    found = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return tuple(
        item.name
        for node in found
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
    ), None
