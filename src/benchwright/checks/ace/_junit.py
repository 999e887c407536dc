"""Counting what ``gradle test`` actually ran, from the XML it leaves under build/test-results.

B2 is "not just a green exit code": an exit status is the build's word, and a build
script can make it 0. The counts come from Gradle's JUnit-style reports of every
project of a root (``**/build/test-results/**/*.xml``). ``test_must_pass``'s reader
is not reused: it reads the one report pytest writes and folds errors into failures,
where B2 keeps them apart as evidence.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from benchwright.workspace import read_regular

REPORT_LIMIT = 20 * 1024 * 1024
"""Bytes of one report read at most; a larger one is not Gradle's and counts as unreadable."""


@dataclass(frozen=True, slots=True)
class Tally:
    """Test cases of one root (or all roots), by outcome."""

    executed: int = 0
    """Cases that ran: every case not skipped."""
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    reports: int = 0
    unreadable: tuple[str, ...] = ()
    """Report files that did not parse (or were links, or too large)."""

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.executed + other.executed,
            self.failed + other.failed,
            self.errors + other.errors,
            self.skipped + other.skipped,
            self.reports + other.reports,
            self.unreadable + other.unreadable,
        )

    @property
    def broken(self) -> int:
        """Failed and errored cases: an error (a crash in setup) fails B2 like a failure."""
        return self.failed + self.errors

    def summary(self) -> str:
        return (
            f"{self.executed} executed, {self.failed} failed, {self.errors} errors, "
            f"{self.skipped} skipped in {self.reports} reports"
        )


def tally(root: Path) -> Tally:
    """The test cases reported under every ``build/test-results`` directory of ``root``."""
    total = Tally()
    for top, dirs, names in os.walk(root):  # never follows links the build left
        dirs.sort()
        if "/build/test-results/" not in f"/{Path(top).relative_to(root).as_posix()}/":
            continue
        for name in sorted(n for n in names if n.endswith(".xml")):
            total += _read(Path(top, name), root)
    return total


def _read(report: Path, root: Path) -> Tally:
    data = read_regular(report, REPORT_LIMIT + 1)
    name = report.relative_to(root).as_posix()
    if data is None or len(data) > REPORT_LIMIT:
        return Tally(unreadable=(name,))
    try:
        element = ET.fromstring(data)
    except ET.ParseError:
        return Tally(unreadable=(name,))
    executed = failed = errors = skipped = 0
    for case in element.iter("testcase"):
        tags = {child.tag for child in case}
        if "skipped" in tags:
            skipped += 1
            continue
        executed += 1
        if "failure" in tags:
            failed += 1
        elif "error" in tags:
            errors += 1
    return Tally(executed, failed, errors, skipped, 1)
