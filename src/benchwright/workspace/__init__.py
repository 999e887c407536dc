"""Isolated workspaces: materialize a task's files, replay an agent's edits, clean up."""

from benchwright.workspace._workspace import Workspace, match_glob, read_tree
from benchwright.workspace.replay import replay

__all__ = ["Workspace", "match_glob", "read_tree", "replay"]
