"""Phase ``static``: the files on disk (no import, no execution)."""

from __future__ import annotations

from pathlib import Path

from benchwright.suites.kit.source import class_methods, text
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
        methods[cls], error = class_methods(package / name, cls)
        errors += [error] if error else []
    web = {name: text(package / "web" / name) for name in WEB_FILES}
    return StaticObs(
        modules={path: (package / path).is_file() for path in MODULES},
        methods=methods,
        parse_errors=tuple(errors),
        store_source=text(package / "store.py"),
        meridian_source=text(package / "meridian.py"),
        web={name: found for name, found in web.items() if found is not None},
    )
