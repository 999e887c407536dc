"""A recorded agent session, normalized into file operations and commands.

Agents name their tools differently (``Write`` vs ``write_file``, ``file_path``
vs ``path``); this module maps every known spelling onto three operation kinds
so that replay and checks see one vocabulary. Steps it does not recognize
(reads, searches, chat) are kept in ``steps`` and scanned by network checks,
but produce no operation.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from benchwright.model.deobfuscate import deobfuscated, rewritable
from benchwright.model.shell import shell_writes, workspace_paths

WRITE_TOOLS = frozenset(
    {"write_file", "edit_file", "str_replace", "Write", "StrReplace", "Edit", "MultiEdit"}
)
REPLACE_TOOLS = frozenset({"str_replace", "StrReplace", "Edit", "MultiEdit"})
"""Tools whose meaning is old → new: with ``new_string`` but no ``old_string`` they are
malformed, not whole-file writes (only an explicit ``content`` writes the whole file)."""
DELETE_TOOLS = frozenset({"delete_file", "DeleteFile", "Delete", "remove_file"})
COMMAND_TOOLS = frozenset({"run_command", "shell", "bash", "Bash", "execute"})
PATH_KEYS = ("path", "file_path", "target_file")
CONTENT_KEYS = ("content", "new_string")
OLD_KEYS = ("old_string", "old_str")
NEW_KEYS = ("new_string", "new_str")
COMMAND_KEYS = ("command", "cmd")

_FOLDABLE = re.compile(r"\t|  ")
"""Runs of blanks `deobfuscated` folds into one space (which the raw JSON keeps)."""


def step_label(index: int) -> str:
    """How prose names the step at ``index`` into ``steps``: counted from 1 (``step 1`` is
    the first), as a reader and `watch`'s line numbers count. A JSON path such as
    ``steps[0]`` and evidence fields named ``step`` stay indices (docs/tasks.md)."""
    return f"step {index + 1}"


class StepError(ValueError):
    """A step that claims to be a file or command operation but lacks what it needs."""

    def __init__(self, index: int, field_path: str, message: str) -> None:
        super().__init__(f"steps[{index}].{field_path}: {message}")
        self.index = index
        self.field_path = field_path
        self.message = message


@dataclass(frozen=True, slots=True)
class Replacement:
    """Replace ``old`` by ``new`` in a file's current content."""

    old: str
    new: str
    replace_all: bool = False


@dataclass(frozen=True, slots=True)
class FileEdit:
    """One change to one file, in trajectory order."""

    step_index: int
    tool: str
    path: str
    """Forward slashes, no ``./``; may still be absolute or escape the root (replay refuses)."""
    kind: Literal["write", "replace", "delete", "unrecorded"]
    """``unrecorded``: the file was written but its content is not in the recording
    (binary or too large, ``type: file_unrecorded``): replay reports it, never guesses."""
    content: str | None = None
    """Whole new content, for ``write``."""
    replacements: tuple[Replacement, ...] = ()
    """Applied in order, for ``replace``."""


@dataclass(frozen=True, slots=True)
class CommandStep:
    step_index: int
    tool: str
    command: str


@dataclass(frozen=True, slots=True)
class NetworkViolation:
    step_index: int
    tool: str
    pattern: str

    def __str__(self) -> str:
        return f"{step_label(self.step_index)} ({self.tool}): {self.pattern!r}"


@dataclass(frozen=True, slots=True)
class ShellEvidence:
    """A recorded command that may write workspace paths (replay records it, never runs it)."""

    step_index: int
    tool: str
    fragment: str
    """The simple command that writes, e.g. ``sed -i s/a/b/ tests/test_x.py``."""
    paths: tuple[str, ...]
    """Workspace-relative candidates, possibly globs; "" is the workspace root."""
    recursive: bool
    """Everything under each path may be written too."""
    adds: bool
    """The command may create a file that was not there (a path under a protected glob)."""


def normalize_path(raw: str) -> str:
    """Forward slashes, no leading ``./``, no ``a/../`` detours."""
    path = posixpath.normpath(raw.replace("\\", "/"))
    return "" if path == "." else path


def inside_root(path: str) -> bool:
    """True for a normalized path that stays inside its root (not "", "/x" or "../x")."""
    return bool(path) and not path.startswith("/") and path != ".." and not path.startswith("../")


def _first(args: Mapping[str, Any], keys: Sequence[str]) -> tuple[str | None, Any]:
    for key in keys:
        if key in args:
            return key, args[key]
    return None, None


def _text(index: int, field_path: str, value: Any) -> str:
    if not isinstance(value, str):
        raise StepError(index, field_path, f"must be a string, got {type(value).__name__}")
    return value


def _name(index: int, field_path: str, value: Any) -> str:
    """A string that becomes a path or a command: a NUL byte would cut it short there."""
    text = _text(index, field_path, value)
    if "\0" in text:
        raise StepError(index, field_path, "must not contain a NUL byte")
    return text


def _replacement(index: int, args: Mapping[str, Any], where: str) -> Replacement:
    old_key, old = _first(args, OLD_KEYS)
    new_key, new = _first(args, NEW_KEYS)
    if old_key is None:
        raise StepError(index, f"{where}old_string", "required next to new_string")
    if new_key is None:
        raise StepError(index, f"{where}new_string", "required next to old_string")
    replace_all = args.get("replace_all", False)
    if not isinstance(replace_all, bool):  # bool("false") is True: a string must not flip it
        raise StepError(
            index, f"{where}replace_all", f"must be true or false, got {type(replace_all).__name__}"
        )
    return Replacement(
        _text(index, f"{where}{old_key}", old),
        _text(index, f"{where}{new_key}", new),
        replace_all,
    )


def _file_edit(index: int, tool: str, args: Mapping[str, Any], delete: bool) -> FileEdit:
    path_key, raw_path = _first(args, PATH_KEYS)
    if path_key is None:
        raise StepError(
            index, "args.path", f"required for file tool {tool!r} ({' | '.join(PATH_KEYS)})"
        )
    path = normalize_path(_name(index, f"args.{path_key}", raw_path))
    if delete:
        return FileEdit(index, tool, path, "delete")
    if isinstance(args.get("edits"), list):
        edits = args["edits"]
        replacements = []
        for n, edit in enumerate(edits):
            if not isinstance(edit, Mapping):
                raise StepError(index, f"args.edits[{n}]", "must be an object")
            replacements.append(_replacement(index, edit, f"args.edits[{n}]."))
        return FileEdit(index, tool, path, "replace", replacements=tuple(replacements))
    replacing = tool in REPLACE_TOOLS and "content" not in args
    if replacing or _first(args, OLD_KEYS)[0] is not None:
        return FileEdit(
            index, tool, path, "replace", replacements=(_replacement(index, args, "args."),)
        )
    content_key, content = _first(args, CONTENT_KEYS)
    if content_key is None:
        raise StepError(
            index, "args.content", f"required for write tool {tool!r} ({' | '.join(CONTENT_KEYS)})"
        )
    content = _text(index, f"args.{content_key}", content)
    return FileEdit(index, tool, path, "write", content=content)


def _tool_and_args(index: int, step: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    tool = step.get("tool") or ""
    args = step.get("args", {})
    if not isinstance(args, Mapping):
        raise StepError(index, "args", "must be an object")
    return str(tool), args


def normalize_step(index: int, step: Mapping[str, Any]) -> FileEdit | CommandStep | None:
    """The operation one step performs (None for reads, chat, unknown tools).

    Raises:
        StepError: The step names a file or command tool but lacks what it needs.
    """
    tool, args = _tool_and_args(index, step)
    kind = step.get("type")
    if tool in WRITE_TOOLS or kind == "file_edit":
        return _file_edit(index, tool or "file_edit", args, delete=False)
    if tool in DELETE_TOOLS or kind == "file_delete":
        return _file_edit(index, tool or "file_delete", args, delete=True)
    if kind == "file_unrecorded":
        edit = _file_edit(index, tool or "file_unrecorded", args, delete=True)
        return FileEdit(index, edit.tool, edit.path, "unrecorded")
    if tool in COMMAND_TOOLS or kind == "command":
        key, text = _first(args, COMMAND_KEYS)
        if key is None:
            named = f"command tool {tool!r}" if tool else "a 'type: command' step"
            raise StepError(index, "args.command", f"required for {named} (command | cmd)")
        return CommandStep(index, tool or "command", _name(index, f"args.{key}", text))
    return None


def step_errors(steps: Sequence[Mapping[str, Any]]) -> list[StepError]:
    """Every step that cannot be normalized, so that one pass reports them all."""
    errors = []
    for index, step in enumerate(steps):
        try:
            normalize_step(index, step)
        except StepError as exc:
            errors.append(exc)
    return errors


@dataclass(frozen=True)
class Trajectory:
    """The steps of one recorded agent session and what they did to files and shells."""

    steps: tuple[Mapping[str, Any], ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    answer: str | None = None
    """The agent's captured final answer, when the recording has one."""
    source: str = ""

    @cached_property
    def _operations(self) -> tuple[tuple[FileEdit, ...], tuple[CommandStep, ...]]:
        operations = [normalize_step(index, step) for index, step in enumerate(self.steps)]
        return (
            tuple(op for op in operations if isinstance(op, FileEdit)),
            tuple(op for op in operations if isinstance(op, CommandStep)),
        )

    def validate(self) -> None:
        """Raise `StepError` for the first step that cannot be normalized."""
        self._operations  # noqa: B018 - computing the operations is the validation

    def file_edits(self) -> tuple[FileEdit, ...]:
        """Every write, replace and delete, in step order."""
        return self._operations[0]

    def commands(self) -> tuple[CommandStep, ...]:
        """Every shell command the agent ran, in step order."""
        return self._operations[1]

    @cached_property
    def _touched(self) -> frozenset[str]:
        return frozenset(edit.path for edit in self.file_edits())

    def touched_file(self, path: str) -> bool:
        """True if any step wrote, edited or deleted ``path``."""
        return normalize_path(path) in self._touched

    @cached_property
    def shell_evidence(self) -> tuple[ShellEvidence, ...]:
        """Every path a recorded command may write, in step order (see `model.shell`).

        The directory a ``cd`` enters carries over to later steps, as an agent's
        shell tool keeps it; absolute paths are read against the recorded
        workspace directory (``metadata.cwd``) when the transcript gave one;
        otherwise they are guesses by suffix and name files only (neither
        recursive nor adding).
        """
        root = self.metadata.get("cwd")
        root = root if isinstance(root, str) and root.startswith("/") else None
        found: list[ShellEvidence] = []
        cwd = ""
        for step in self.commands():
            writes, cwd = shell_writes(step.command, cwd)
            for write in writes:
                paths, guessed = workspace_paths(write, root)
                recursive = write.target.recursive and not guessed
                adds = not write.target.deletes and not guessed
                if paths:
                    found.append(
                        ShellEvidence(
                            step.step_index, step.tool, write.fragment, paths, recursive, adds
                        )
                    )
        return tuple(found)

    @cached_property
    def _step_texts(self) -> tuple[str, ...]:
        return tuple(json.dumps(step, sort_keys=True, default=str).lower() for step in self.steps)

    @cached_property
    def _step_strings(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(_strings(step)) for step in self.steps)

    def find_network_violations(
        self,
        patterns: Sequence[str],
        *,
        allow: Sequence[str] = (),
        exempt: re.Pattern[str] | None = None,
    ) -> list[NetworkViolation]:
        """Every (step, pattern) whose pattern occurs in the step, raw or deobfuscated.

        Matching is a case-insensitive substring search over the whole step's
        JSON, as the AgentBench seed prescribes, and over each of its strings as
        a shell or interpreter would join them (`deobfuscated`: ``pi''p``,
        ``'url'+'lib'``). Text matching an ``allow`` substring, or the compiled
        regex ``exempt`` (e.g. loopback URLs), is blanked first so that it cannot
        trigger a pattern; in a deobfuscated string it is blanked before and
        after joining, so a joined URL is exempt too but cannot swallow its
        neighbours.
        """
        lowered = [p.lower() for p in patterns]
        blanks = [a.lower() for a in allow if a]

        def blank(text: str) -> str:
            for allowed in blanks:
                text = text.replace(allowed, " ")
            return exempt.sub(" ", text) if exempt is not None else text

        found: list[NetworkViolation] = []
        for index, text in enumerate(self._step_texts):
            joined = "\n".join(
                blank(deobfuscated(blank(s.lower())).lower())
                for s in self._step_strings[index]
                if rewritable(s) or _FOLDABLE.search(s)  # else the raw reading says it all
            )
            readings = (blank(text), joined)
            tool = str(self.steps[index].get("tool") or self.steps[index].get("type") or "")
            found.extend(
                NetworkViolation(index, tool, p) for p in lowered if any(p in r for r in readings)
            )
        return found


def _strings(value: Any) -> list[str]:
    """Every string in a JSON-like value, keys included, depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for k, v in value.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []
