"""A neutered test task in a Gradle script: B2 fails it whatever the JUnit XML says.

ACE's detector catches a test task that cannot fail or does not run: failures
ignored (``ignoreFailures = true``), the task disabled (``enabled = false``,
``onlyIf { false }``), test classes excluded by pattern (``exclude '**/...'``,
``excludeTestsMatching``), or the task removed from the run (``-x test``,
``startParameter.excludedTaskNames``). Groovy and Kotlin DSL shapes are read
alike, comments blanked first.

A setting counts only where it reaches the ``test`` task: inside a block that
configures it (``test { }``, ``tasks.test { }``, ``tasks.named("test") { }``,
``tasks.withType(Test) { }``, nested blocks included) or on a statement qualified
by it (``test.enabled = false``, ``tasks.test.ignoreFailures = true``). So
``bootJar { enabled = false }`` and ``checkstyle { ignoreFailures = true }`` are
innocent, as they are in Gradle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchwright.checks.ace._source import strip_comments

_NAMED_TEST = (
    r"tasks\s*\.\s*(?:named|getByName)\s*(?:<\s*Test\s*>)?\s*\(\s*[\"']test[\"']"
    r"\s*(?:,\s*Test(?:::class(?:\.java)?)?\s*)?\)"
)
_TEST_BLOCK = re.compile(
    rf"(?:(?:tasks\s*\.\s*)?test|{_NAMED_TEST}"
    r"|tasks\s*\.\s*withType\s*(?:<\s*Test\s*>|\(\s*Test(?:::class(?:\.java)?)?\s*\)))"
    r"(?:\s*\.\s*(?:configure|configureEach|all|get\s*\(\s*\)))?\s*",
)
"""The callee of a block that configures the test task (matched against the whole opener)."""
_TEST_QUALIFIER = re.compile(
    rf"(?:^|[^\w.])(?:tasks\s*\.\s*test|test|{_NAMED_TEST}(?:\s*\.\s*get\s*\(\s*\))?)\s*\.\s*$"
)
"""What precedes ``.enabled`` on a statement that names the test task itself."""

_SETTINGS = (
    ("ignoreFailures = true", r"\b(?:is)?[iI]gnoreFailures\s*(?:=\s*|\.set\s*\(\s*|\s+)true\b"),
    ("enabled = false", r"\b(?:is)?[eE]nabled\s*(?:=\s*|\.set\s*\(\s*|\s+)false\b"),
    ("onlyIf { false }", r"\bonlyIf\s*\{\s*false\s*\}"),
    (
        "test class exclusion",
        r"\b(?:exclude|excludes|excludeTestsMatching)\s*(?:\(\s*|\+?=\s*\[?\s*|\s+)[\"']"
        r"|\bexclude\s*\{",
    ),
)
_ANYWHERE = (
    (
        "-x test",
        r"(?:^|[\s\"',\[(])(?:-x|--exclude-task)[\"']?(?:\s*,\s*|[\s=]+)[\"']?:?(?:[\w-]+:)*test\b",
    ),
    ("excludedTaskNames", r"\bexcludedTaskNames\b[^\n]*[\"']:?(?:[\w-]+:)*test[\"']"),
)
"""Shapes that neuter the test run wherever they appear in a build script."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One neutering statement: where, and which shape."""

    path: str
    line: int
    shape: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.shape} ({self.text})"


def find_neutered(path: str, text: str) -> list[Finding]:
    """Every neutering of the test task in one Gradle script, in order."""
    code = strip_comments(text, "kotlin" if path.endswith(".kts") else "java")
    lines = text.splitlines()
    found: list[tuple[int, str]] = []
    for shape, pattern in _SETTINGS:
        for match in re.finditer(pattern, code):
            if _qualified(code, match.start()) or _in_test_block(code, match.start()):
                found.append((match.start(), shape))
    for shape, pattern in _ANYWHERE:
        found += [(m.start(), shape) for m in re.finditer(pattern, code)]
    findings = []
    for offset, shape in sorted(found):
        line = code.count("\n", 0, offset) + 1
        findings.append(Finding(path, line, shape, lines[line - 1].strip()[:120]))
    return findings


def _qualified(code: str, offset: int) -> bool:
    start = code.rfind("\n", 0, offset) + 1
    return _TEST_QUALIFIER.search(code[start:offset]) is not None


def _in_test_block(code: str, offset: int) -> bool:
    """Whether any block enclosing ``offset`` configures the test task."""
    return any(_TEST_BLOCK.fullmatch(opener) for opener in _openers(code, offset))


def _openers(code: str, offset: int) -> list[str]:
    """The callee text before each ``{`` still open at ``offset``, innermost last."""
    stack: list[int] = []
    for index, char in enumerate(code[:offset]):
        if char == "{":
            stack.append(index)
        elif char == "}" and stack:
            stack.pop()
    return [_callee(code, brace) for brace in stack]


def _callee(code: str, brace: int) -> str:
    """The statement text leading up to the ``{`` at ``brace``, chained lines joined."""
    start = max(code.rfind(c, 0, brace) for c in "{};") + 1
    lines = [line.strip() for line in code[start:brace].splitlines() if line.strip()]
    if not lines:
        return ""
    chain = [lines.pop()]
    while lines and (chain[0].startswith(".") or lines[-1].endswith(".")):
        chain.insert(0, lines.pop())
    return "".join(chain).strip()
