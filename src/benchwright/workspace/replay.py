"""Replay a trajectory's file operations onto a workspace, faithfully or not at all.

Beyond the AgentBench reference, which overwrote a file with ``new_string``,
an edit applies ``old → new`` to the file's *current* content. An edit that
cannot apply (``old`` absent or ambiguous, path outside the workspace) leaves
the file as it was — as the agent's own tool would have — and is reported.
"""

from __future__ import annotations

from benchwright.model import FileEdit, Replacement, ReplayError, Trajectory
from benchwright.workspace._workspace import Workspace


def replay(workspace: Workspace, trajectory: Trajectory) -> tuple[ReplayError, ...]:
    """Apply every file edit in order; return the steps that could not be applied."""
    errors: list[ReplayError] = []
    for edit in trajectory.file_edits():
        problem = _apply(workspace, edit)
        if problem:
            errors.append(ReplayError(edit.step_index, edit.tool, edit.path, problem))
    return tuple(errors)


def _apply(workspace: Workspace, edit: FileEdit) -> str | None:
    path = edit.path
    if not path or path.startswith("/") or path == ".." or path.startswith("../"):
        return "path is outside the workspace"
    if edit.kind == "write":
        workspace.files[path] = (edit.content or "").encode()
        return None
    if edit.kind == "delete":
        if workspace.files.pop(path, None) is None:
            return "cannot delete: file does not exist"
        return None
    current = workspace.read_text(path)
    text, problem = _replace_all(current, edit.replacements)
    if problem is None:
        workspace.files[path] = text.encode()
    return problem


def _replace_all(
    current: str | None, replacements: tuple[Replacement, ...]
) -> tuple[str, str | None]:
    """Apply replacements in order; all of them or none."""
    if not replacements:
        return "", "no edits given"
    text = current
    for n, rep in enumerate(replacements):
        where = f"edit {n + 1}: " if len(replacements) > 1 else ""
        if text is None:
            if rep.old:
                return "", f"{where}cannot edit: file does not exist"
            text = rep.new  # an empty old_string on a new file creates it
            continue
        if not rep.old:
            return "", f"{where}empty old_string on an existing file"
        count = text.count(rep.old)
        if count == 0:
            return "", f"{where}old_string not found in current content"
        if count > 1 and not rep.replace_all:
            return "", f"{where}old_string is ambiguous ({count} occurrences) without replace_all"
        text = text.replace(rep.old, rep.new)
    return text or "", None  # text is set: there was at least one replacement
