"""Writer rules: which operands of one simple command it writes or deletes.

One rule per command family, each reading the command's own option syntax
(``sed -n`` reads while ``sed -i`` writes; ``git restore --staged`` leaves the
worktree alone). Redirections (``>``, ``>>``, ``&>``, ``<>``) write whatever the
command is. A command not listed here writes nothing as far as this module
knows: reading commands (``cat``, ``grep``, ``sed -n``) are meant to fall there.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&", "<>"})
_READ_REDIRECTS = frozenset({"<", "<<", "<<<", "<&", "<<-"})
_RECURSIVE = frozenset({"-r", "-R", "--recursive", "-a", "--archive"})
_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


@dataclass(frozen=True, slots=True)
class Target:
    """An operand a command may write: a file, a directory or a glob, as written."""

    path: str
    recursive: bool = False
    """Everything under ``path`` may be written too (``rm -r``, ``mv``, ``chmod -R``)."""
    deletes: bool = False
    """Only removes (``rm``, ``mv``'s source): it cannot add a file that was not there."""


def targets_of(argv: Sequence[str]) -> list[Target]:
    """The paths one simple command (redirections included) may write."""
    words, found = _without_redirections(argv)
    rule = _RULES.get(posixpath.basename(words[0])) if words else None
    return found + (rule(words[1:]) if rule else [])


def _without_redirections(argv: Sequence[str]) -> tuple[list[str], list[Target]]:
    words: list[str] = []
    found: list[Target] = []
    tokens = iter(argv)
    for token in tokens:
        if token in _WRITE_REDIRECTS or token in _READ_REDIRECTS:
            if words and words[-1].isdigit():  # the fd of ``2>`` (shlex splits it off)
                words.pop()
            operand = next(tokens, "")
            duplicated = token == ">&" and (operand.isdigit() or operand == "-")
            if token in _WRITE_REDIRECTS and operand and not duplicated:
                found.append(Target(operand))
        else:
            words.append(token)
    return words, found


def _parse(
    args: Sequence[str], valued: frozenset[str] = frozenset()
) -> tuple[list[str], set[str], dict[str, str]]:
    """Operands, option flags seen (``-r`` from ``-rf``), and values of ``valued`` options."""
    operands: list[str] = []
    flags: set[str] = set()
    values: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            operands += rest
            break
        if arg.startswith("--"):
            name, has_value, value = arg.partition("=")
            flags.add(name)
            if name in valued:
                values[name] = value if has_value else (rest.pop(0) if rest else "")
        elif arg.startswith("-") and len(arg) > 1:
            if arg[:2] in valued:
                flags.add(arg[:2])
                values[arg[:2]] = arg[2:] or (rest.pop(0) if rest else "")
            else:
                flags.update(f"-{c}" for c in arg[1:])
        else:
            operands.append(arg)
    return operands, flags, values


def _each(
    valued: frozenset[str] = frozenset(),
    recursive: frozenset[str] = frozenset(),
    deletes: bool = False,
) -> Callable[[Sequence[str]], list[Target]]:
    """A rule writing every operand: ``rm -r``, ``tee -a``, ``truncate -s 0``, ``touch -d``."""

    def rule(args: Sequence[str]) -> list[Target]:
        operands, flags, _ = _parse(args, valued)
        return [Target(o, bool(flags & recursive), deletes) for o in operands]

    return rule


def _into(moves: bool) -> Callable[[Sequence[str]], list[Target]]:
    """``cp``/``mv``/``ln``/``rsync``: the destination, what lands in it, ``mv``'s sources."""
    valued = frozenset({"-t", "--target-directory", "-S", "--suffix", "-e", "--rsh",
                        "-m", "--mode", "-o", "--owner", "-g", "--group"})  # fmt: skip

    def rule(args: Sequence[str]) -> list[Target]:
        operands, flags, values = _parse(args, valued)
        named = values.get("-t") or values.get("--target-directory")
        if named:
            directory, sources = named, operands
        elif len(operands) < 2:
            directory, sources = ".", operands  # ``ln -s x``: the link lands here
        else:
            directory, sources = operands[-1], operands[:-1]
        recursive = moves or bool(flags & _RECURSIVE)
        landed = [posixpath.join(directory, posixpath.basename(s.rstrip("/"))) for s in sources]
        moved = [Target(s, True, deletes=True) for s in sources] if moves else []
        return moved + [Target(p, recursive) for p in [directory, *landed]]

    return rule


def _install(args: Sequence[str]) -> list[Target]:
    """``install -d`` creates its operands; otherwise it copies like ``cp``."""
    operands, flags, _ = _parse(args, frozenset({"-m", "-o", "-g", "-t", "-S"}))
    return [Target(o) for o in operands] if "-d" in flags else _into(moves=False)(args)


def _in_place(script_options: str) -> Callable[[Sequence[str]], list[Target]]:
    """``sed -i`` / ``perl -pi``: the files after the script, only when editing in place."""

    def rule(args: Sequence[str]) -> list[Target]:
        in_place, script_given, operands = False, False, []
        rest = list(args)
        while rest:
            arg = rest.pop(0)
            if arg == "--in-place" or arg.startswith("--in-place="):
                in_place = True
            elif arg in ("--expression", "--file") or arg.startswith(("--expression=", "--file=")):
                script_given = True
                if "=" not in arg and rest:
                    rest.pop(0)
            elif arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
                for n, letter in enumerate(arg[1:], start=1):
                    if letter == "i":  # its suffix (``-i.bak``) ends the cluster
                        in_place = True
                        break
                    if letter in script_options:
                        script_given = True
                        if n == len(arg) - 1 and rest:
                            rest.pop(0)
                        break
            elif not arg.startswith("-"):
                operands.append(arg)
        files = operands if script_given else operands[1:]
        return [Target(f) for f in files] if in_place else []

    return rule


_MODE = re.compile(r"^[-+=][rwxXstugo]+$")


def _mode_change(args: Sequence[str]) -> list[Target]:
    """``chmod``/``chown``/``chgrp``: a changed mode can make a test unreadable or inert."""
    operands = [a for a in args if _MODE.match(a) or not a.startswith("-")]
    recursive = any(a in ("-R", "--recursive") for a in args)
    referenced = any(a.startswith("--reference") for a in args)
    return [Target(o, recursive) for o in (operands if referenced else operands[1:])]


def _dd(args: Sequence[str]) -> list[Target]:
    return [Target(a[3:]) for a in args if a.startswith("of=")]


def _patch(args: Sequence[str]) -> list[Target]:
    operands, _, values = _parse(args, frozenset({"-i", "--input", "-o", "--output", "-d"}))
    written = values.get("-o") or values.get("--output")
    return [Target(p) for p in operands[:1] + ([written] if written else [])]


def _git(args: Sequence[str]) -> list[Target]:
    """``git checkout -- p``, ``git restore p``, ``git rm p``, ``git mv a b``."""
    rest = list(args)
    while rest and rest[0].startswith("-"):  # global options: -C dir, -c key=value
        rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    if not rest:
        return []
    sub, args = rest[0], rest[1:]
    if sub == "mv":
        return _into(moves=True)(args)
    valued = frozenset({"-s", "--source", "-b", "-B", "--orphan", "--pathspec-from-file"})
    operands, flags, _ = _parse(args, valued)
    index_only = (sub == "rm" and "--cached" in flags) or (
        sub == "restore" and flags & {"--staged", "-S"} and not flags & {"--worktree", "-W"}
    )
    if sub not in ("checkout", "restore", "rm") or index_only:
        return []
    if sub == "checkout" and "--" in args:
        operands = list(args[args.index("--") + 1 :])
    return [Target(o, True, deletes=sub == "rm") for o in operands]


def _find(args: Sequence[str]) -> list[Target]:
    """``find root -name x -delete`` (or ``-exec`` a writer on ``{}``): ``root/**/x``."""
    split = next((n for n, a in enumerate(args) if a.startswith(("-", "(", "!"))), len(args))
    roots, expression = list(args[:split]) or ["."], list(args[split:])
    executed = [
        t
        for n, arg in enumerate(expression)
        if arg in _EXEC
        for t in targets_of([a for a in expression[n + 1 :] if a != "+"])
        if t.path.startswith("{}")
    ]
    if not executed and "-delete" not in expression:
        return []
    deletes = all(t.deletes for t in executed)
    names = [expression[n + 1] for n, a in enumerate(expression[:-1]) if a in ("-name", "-iname")]
    return [
        Target(posixpath.join(root, "**", name) if name else root, True, deletes)
        for root in roots
        for name in names or [""]
    ]


_RULES: dict[str, Callable[[Sequence[str]], list[Target]]] = {
    **dict.fromkeys(("rm", "unlink", "rmdir", "shred"), _each(recursive=_RECURSIVE, deletes=True)),
    "tee": _each(),
    "truncate": _each(frozenset({"-s", "--size", "-r", "--reference"})),
    "touch": _each(frozenset({"-d", "--date", "-r", "--reference", "-t"})),
    **dict.fromkeys(("cp", "ln", "rsync"), _into(moves=False)),
    "install": _install,
    "mv": _into(moves=True),
    "sed": _in_place("ef"),
    "perl": _in_place("eE"),
    **dict.fromkeys(("chmod", "chown", "chgrp"), _mode_change),
    "dd": _dd,
    "patch": _patch,
    "git": _git,
    "find": _find,
}
