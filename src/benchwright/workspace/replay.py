"""Replay a trajectory's file operations onto a workspace, faithfully or not at all.

Beyond the AgentBench reference, which overwrote a file with ``new_string``,
an edit applies ``old → new`` to the file's *current* content. An edit that
cannot apply (``old`` absent or ambiguous, path outside the workspace, a file
where a directory must be, text that is not UTF-8) leaves the file as it was —
as the agent's own tool would have — and is reported. A step that takes the view past
the workspace caps (`WorkspaceCaps`) is reported with the cap as its problem, and
nothing after it is applied.
"""

from __future__ import annotations

from benchwright.model import FileEdit, Replacement, ReplayError, Trajectory, inside_root
from benchwright.workspace._caps import WorkspaceCaps
from benchwright.workspace._workspace import Workspace


def replay(
    workspace: Workspace, trajectory: Trajectory, caps: WorkspaceCaps | None = None
) -> tuple[ReplayError, ...]:
    """Apply every file edit in order; return the steps that could not be applied.

    Past ``caps`` (default `WorkspaceCaps()`) the step that passed them is the last error
    and the rest of the trajectory is not applied.
    """
    caps = caps or WorkspaceCaps()
    errors: list[ReplayError] = []
    size = sum(len(data) for data in workspace.files.values())
    for edit in trajectory.file_edits():
        before = len(workspace.files.get(edit.path, b""))
        problem = _apply(workspace, edit)
        size += len(workspace.files.get(edit.path, b"")) - before
        problem = problem or caps.reason(len(workspace.files), size)
        if problem:
            errors.append(ReplayError(edit.step_index, edit.tool, edit.path, problem))
        if problem and problem.startswith("limit:"):
            break
    return tuple(errors)


def _apply(workspace: Workspace, edit: FileEdit) -> str | None:
    path = edit.path
    if not inside_root(path):
        return "path is outside the workspace"
    if edit.kind == "unrecorded":
        return "content not recorded (binary or too large): replay cannot reproduce this file"
    if edit.kind == "delete":
        if workspace.files.pop(path, None) is None:
            return "cannot delete: file does not exist"
        return None
    if conflict := _tree_conflict(workspace, path):
        return conflict
    if edit.kind == "write":
        return _store(workspace, path, edit.content or "")
    data = workspace.read_bytes(path)
    try:
        current = None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return "cannot edit: file is not UTF-8 text"
    text, problem = _replace_all(current, edit.replacements)
    return problem or _store(workspace, path, text)


def _store(workspace: Workspace, path: str, text: str) -> str | None:
    try:
        workspace.files[path] = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate escaped from the recording's JSON
        return f"content is not encodable as UTF-8: {exc.reason} at character {exc.start}"
    return None


def _tree_conflict(workspace: Workspace, path: str) -> str | None:
    """Why ``path`` cannot be a file next to the existing ones (a file/directory clash)."""
    parts = path.split("/")
    for n in range(1, len(parts)):
        parent = "/".join(parts[:n])
        if parent in workspace.files:
            return f"path conflict: {parent} is a file, not a directory"
    if any(other.startswith(path + "/") for other in workspace.files):
        return f"path conflict: {path} is a directory"
    return None


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
