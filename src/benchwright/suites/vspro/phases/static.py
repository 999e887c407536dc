"""Phase ``static``: the files on disk (no import, no execution)."""

from __future__ import annotations

from pathlib import Path

from benchwright.suites.kit.source import class_methods, text
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import Observations, StaticObs

MODULES = (
    "meridian.py", "store.py", "api.py", "__main__.py",
    "web/index.html", "web/styles.css", "web/app.js", "web/viz.js",
)  # fmt: skip
WEB_FILES = ("index.html", "styles.css", "app.js", "viz.js")
CLASS_FILES = {"MeridianClient": "meridian.py", "Store": "store.py"}


def static(ctx: GradeContext, obs: Observations) -> StaticObs:
    """Spec paths present, class methods declared (AST), web sizes, store/client sources."""
    return observe_tree(ctx.tree)


def observe_tree(root: Path) -> StaticObs:
    package = root / "vspro"
    methods: dict[str, tuple[str, ...]] = {}
    errors: list[str] = []
    for cls, name in CLASS_FILES.items():
        found, error = class_methods(package / name, cls)
        methods[cls] = found
        if error:
            errors.append(error)
    return StaticObs(
        root_has_package=package.is_dir(),
        modules={path: (package / path).is_file() for path in MODULES},
        methods=methods,
        parse_errors=tuple(errors),
        asset_bytes={
            name: (package / "web" / name).stat().st_size
            for name in WEB_FILES
            if (package / "web" / name).is_file()
        },
        store_source=text(package / "store.py"),
        meridian_source=text(package / "meridian.py"),
    )
