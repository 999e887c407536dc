"""``file_exists``: a deliverable file exists and is not a stub."""

from __future__ import annotations

from pydantic import Field

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, WorkspacePath, check
from benchwright.model import CheckResult


class FileExistsParams(CheckParams):
    path: WorkspacePath
    """File that must exist, relative to the workspace root."""
    min_bytes: int = Field(default=1, ge=0)
    """Smallest acceptable size, so that a touched empty file does not pass."""


@check("file_exists", params=FileExistsParams)
def file_exists(p: FileExistsParams, ctx: CheckContext) -> CheckResult:
    """Passes when the file exists with at least ``min_bytes`` bytes."""
    data = ctx.workspace.read_bytes(p.path)
    if data is None:
        return ctx.failed(f"{p.path} does not exist", path=p.path)
    if len(data) < p.min_bytes:
        return ctx.failed(
            f"{p.path} has {len(data)} bytes, fewer than the {p.min_bytes} required",
            path=p.path,
            size=len(data),
        )
    return ctx.passed(
        f"{p.path} exists ({len(data)} bytes >= {p.min_bytes})", path=p.path, size=len(data)
    )
