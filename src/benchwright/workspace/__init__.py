"""Isolated workspaces: materialize a task's files, replay an agent's edits, clean up."""

from benchwright.workspace._caps import WorkspaceCaps, over_caps
from benchwright.workspace._fresh import (
    read_inside,
    read_regular,
    tail_bytes,
    tail_text,
    write_fresh,
)
from benchwright.workspace._workspace import (
    HARNESS_DIRS,
    UNCOPIED_DIRS,
    Workspace,
    match_glob,
    read_tree,
)
from benchwright.workspace.replay import replay

__all__ = [
    "HARNESS_DIRS",
    "UNCOPIED_DIRS",
    "Workspace",
    "WorkspaceCaps",
    "match_glob",
    "over_caps",
    "read_inside",
    "read_regular",
    "read_tree",
    "replay",
    "tail_bytes",
    "tail_text",
    "write_fresh",
]
