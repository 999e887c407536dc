"""One meaning per exit code: errors.py's table, the README's table and every command's
help say the same thing (issue #12: the README called 3 a harness failure while
``grade --help`` called it a freeze-gate refusal; it is both, and both now say so)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import typer.main

import benchwright.errors as errors
from benchwright.cli import app
from benchwright.errors import EXIT_CODES

README = Path(__file__).parents[1] / "README.md"
ROW = re.compile(r"^\| `(\d+)` \| ([^|]+) \| (.+) \|$")
EXIT_MENTION = re.compile(r"\bexits? (\d+)\b")


def readme_rows(text: str) -> list[tuple[int, str, str]]:
    return [(int(m[1]), m[2], m[3]) for m in map(ROW.match, text.splitlines()) if m]


def helps() -> dict[str, str]:
    """Every command's help text by its full name (``scorer freeze``)."""
    found: dict[str, str] = {}

    def walk(command: click.Command, name: str) -> None:
        found[name] = " ".join((command.help or "").split())
        for sub, child in getattr(command, "commands", {}).items():
            walk(child, f"{name} {sub}".strip())

    walk(typer.main.get_command(app), "")
    return found


def test_the_readme_table_is_errors_py_table():
    assert readme_rows(README.read_text(encoding="utf-8")) == list(EXIT_CODES)


def test_the_table_parser_sees_a_wrong_meaning_or_a_missing_code():
    text = README.read_text(encoding="utf-8")
    wrong = text.replace("| `3` | refused |", "| `3` | freeze gate |")
    assert readme_rows(wrong) != list(EXIT_CODES)
    assert readme_rows(text.replace("| `130` |", "| 130 |")) != list(EXIT_CODES)


def test_every_exit_constant_is_in_the_table_and_3_is_harness_failure_and_refusal():
    constants = {v for k, v in vars(errors).items() if k.startswith("EXIT_") and k != "EXIT_CODES"}
    assert constants == {code for code, _, _ in EXIT_CODES}
    assert [name for code, name, _ in EXIT_CODES if code == 3] == ["harness failure", "refused"]


def test_every_command_help_names_only_codes_of_the_table():
    known = {code for code, _, _ in EXIT_CODES}
    texts = helps()
    for name, text in texts.items():
        for code in EXIT_MENTION.findall(text):
            assert int(code) in known, (name, text)
    grade = texts["grade"]
    assert "3 harness failure" in grade and "refused (the --reference freeze gate" in grade
    assert "exit 0 when every control met its expectations and the severity order held, 1 " \
        "when not" in texts["audit"]  # fmt: skip
    assert "refuses (exit 3)" in texts["scorer freeze"]
