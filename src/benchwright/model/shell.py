"""Which paths a recorded shell command may write, read statically (never executed).

Replay applies file-tool steps and only *records* shell steps, so a command such
as ``sed -i ... tests/test_x.py`` changes nothing in the replayed workspace. This
module reads such commands as evidence: it splits a command line on ``;``,
``&&``, ``||``, ``|``, ``&``, parentheses and newlines (quoting understood by
POSIX rules), follows ``cd``, strips wrappers (``sudo``, ``env``, ``VAR=x``), and asks
the writer rules of `benchwright.model.shell_writers` which operands each simple
command writes or deletes. It is a heuristic and errs towards "may write": a
glob or a directory counts for everything under it. What it cannot see (paths in
variables, ``xargs``, patches, scripts written first and run later) is listed in
docs/tasks.md.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from benchwright.model.shell_writers import Target, targets_of

_PIECE = re.compile(
    r"(?P<space>[ \t\r]+)"
    r"|(?P<redirect>&>>|&>|>>|>&|>\||<<<|<<-|<<|<&|<>|[<>])"
    r"|(?P<separator>&&|\|\||\|&|;;|[;&|()\n])"
    r"|'(?P<single>[^']*)'?"
    r'|"(?P<double>(?:[^"\\]|\\.)*)"?'
    r"|\\(?P<escaped>.?)"
    r"|(?P<bare>[^\s;&|()<>'\"\\]+)",
    re.DOTALL,
)
_DOUBLE_QUOTED_ESCAPE = re.compile(r'\\([\\"$`\n])')
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    # name: (options that take a value, positional operands before the wrapped command)
    **dict.fromkeys(("nohup", "time", "command", "builtin", "exec", "busybox"), (frozenset(), 0)),
    "sudo": (frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}), 0),
    "env": (frozenset({"-u", "-C", "-S"}), 0),
    "nice": (frozenset({"-n"}), 0),
    "xargs": (frozenset({"-I", "-n", "-P", "-L", "-d", "-s", "-E", "-a"}), 0),
    "timeout": (frozenset({"-s", "-k"}), 1),
}
_REDIRECTION = re.compile(r"[<>&|]+")
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_PWD = re.compile(r"^(?:\$PWD|\$\{PWD\})(?=/|$)")
_SYSTEM = ("/dev/", "/proc/", "/sys/")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
_QUOTED_PATH = r"""(?P<q>['"])(?P<path>[^'"]+)(?P=q)"""
_WRITING_MODE = r"""['"](?=[^'"]*[wax+])[^'"]*['"]\s*\)?"""  # linear: no backtracking
_CODE_WRITES = tuple(
    re.compile(pattern.replace("PATH", _QUOTED_PATH))
    for pattern in (
        # Python: open(p, "w"), Path(p).write_text(...), os.remove(p), shutil.copy(x, p)
        rf"\bopen\(\s*PATH\s*,\s*(?:mode\s*=\s*)?{_WRITING_MODE}",
        r"\bPath\(\s*PATH\s*\)\s*\.\s*(?:write_text|write_bytes|unlink|rename|replace|touch"
        rf"|chmod|rmdir|open\(\s*(?:mode\s*=\s*)?{_WRITING_MODE})",
        r"\b(?:remove|unlink|rmtree|rename|replace|truncate|chmod|move)\(\s*PATH",
        r"""\bcopy\w*\(\s*['"][^'"]*['"]\s*,\s*PATH""",
        # Node: fs.writeFileSync(p, ...), fs.rmSync(p, ...)
        r"\b(?:writeFile|appendFile|unlink|rm|rmdir|truncate|rename)(?:Sync)?\(\s*PATH",
    )
)
"""Writes by code inside a command (``python -c``, a heredoc, ``node -e``): a quoted path."""
_CODE_REMOVES = re.compile(r"\b(?:remove|unlink|rmtree|rmdir|rm)(?:Sync)?\(")


@dataclass(frozen=True, slots=True)
class ShellWrite:
    """One path a command may write, with where the command ran and what it said."""

    target: Target
    """The path as the command named it: maybe a glob, relative to ``cwd``, or absolute."""
    cwd: str
    """The directory the command ran in, relative to the workspace ("" is its root)."""
    fragment: str
    """The simple command that writes it, for the failure detail."""


def shell_writes(command: str, cwd: str = "") -> tuple[list[ShellWrite], str]:
    """Every path ``command`` may write, and the directory it ends in (for the next step)."""
    found: list[ShellWrite] = []
    for pattern in _CODE_WRITES:
        for match in pattern.finditer(command):
            text = match.group(0)
            removes = _CODE_REMOVES.search(text) is not None
            target = Target(match.group("path"), "rmtree" in text or "rmSync" in text, removes)
            found.append(ShellWrite(target, cwd, text))
    for inner in _SUBSTITUTION.finditer(command):
        found.extend(shell_writes(inner.group(1) or inner.group(2) or "", cwd)[0])
    for argv in _simple_commands(command):
        argv = _unwrapped(argv)
        name = posixpath.basename(argv[0]) if argv else ""
        if name in ("cd", "pushd"):
            cwd = _changed_directory(cwd, argv[1:])
            continue
        fragment = " ".join(w if _REDIRECTION.fullmatch(w) else shlex.quote(w) for w in argv)
        if name in _SHELLS and "-c" in argv[1:-1]:
            found.extend(shell_writes(argv[argv.index("-c") + 1], cwd)[0])
        elif name == "eval":
            found.extend(shell_writes(" ".join(argv[1:]), cwd)[0])
        found.extend(ShellWrite(t, cwd, fragment) for t in targets_of(argv))
    return list(dict.fromkeys(found)), cwd


def workspace_paths(write: ShellWrite, root: str | None) -> tuple[tuple[str, ...], bool]:
    """Workspace-relative candidates for the written path, and whether they are guesses.

    Candidates may be globs ("" is the workspace root). A relative path is tried
    against the command's directory and against the root (a recording may have
    lost a ``cd``). An absolute path is made relative to ``root`` (the recorded
    workspace directory) when known; otherwise every suffix is a *guess*
    (``/any/where/tests/x.py`` may be ``tests/x.py``), which callers should match
    against files only, never directories or globs: ``cp -r tests /tmp/copy``
    does not write ``tests``. Device and process files are never workspace files.
    """
    raw = _PWD.sub(".", write.target.path)
    if raw.startswith(("~", "$")):
        return (), False
    full = posixpath.normpath(posixpath.join(write.cwd, raw))
    tried = () if raw.startswith("/") else _inside(raw)
    if not full.startswith("/"):
        return tuple(dict.fromkeys(_inside(full) + tried)), False
    if full.startswith(_SYSTEM):
        return tried, False
    if root is not None:
        return tuple(dict.fromkeys(_inside(posixpath.relpath(full, root)) + tried)), False
    parts = full.strip("/").split("/")
    return tuple(dict.fromkeys(["/".join(parts[k:]) for k in range(len(parts))] + [*tried])), True


def _inside(path: str) -> tuple[str, ...]:
    normal = posixpath.normpath(path)
    if normal == ".":
        return ("",)
    if normal == ".." or normal.startswith(("../", "/")):
        return ()
    return (normal,)


def _changed_directory(cwd: str, args: list[str]) -> str:
    operands = [a for a in args if not a.startswith("-")]
    if not operands or operands[0].startswith(("~", "$")):
        return ""
    return posixpath.normpath(posixpath.join(cwd, operands[0])).removeprefix("./")


def _unwrapped(argv: list[str]) -> list[str]:
    """``argv`` without leading assignments and wrappers: ``sudo env X=1 rm f`` → ``rm f``."""
    while argv:
        name = posixpath.basename(argv[0])
        if _ASSIGNMENT.match(argv[0]):
            argv = argv[1:]
        elif name in _WRAPPERS:
            valued, operands = _WRAPPERS[name]
            argv = argv[1:]
            while argv and (argv[0].startswith("-") or _ASSIGNMENT.match(argv[0])):
                argv = argv[2:] if argv[0] in valued else argv[1:]
            argv = argv[operands:]
        else:
            break
    return argv


def _simple_commands(command: str) -> Iterator[list[str]]:
    """Each simple command's words, separators removed and redirections kept as words.

    A regex tokenizer rather than `shlex`, which is some fifty times slower on a
    long heredoc; an unterminated quote runs to the end, as if it were closed.
    """
    words: list[str] = []
    word: str | None = None
    for piece in _PIECE.finditer(command):
        kind, text = piece.lastgroup, piece.group(piece.lastgroup or 0)
        if kind in ("single", "double", "escaped", "bare"):
            if kind == "double":
                text = _DOUBLE_QUOTED_ESCAPE.sub(lambda m: m.group(1).strip("\n"), text)
            elif kind == "escaped" and text == "\n":
                text = ""  # a line continuation
            word = (word or "") + text
            continue
        if word is not None:
            words.append(word)
            word = None
        if kind == "redirect":
            words.append(text)
        elif kind == "separator":
            if words:
                yield words
            words = []
    if word is not None:
        words.append(word)
    if words:
        yield words
