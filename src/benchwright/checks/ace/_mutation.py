"""B3's seeded mutation: flip the sell side's arithmetic and see whether the tests notice.

ACE applies one of five syntactic mutations to the real sell-side arithmetic:
``.subtract(`` -> ``.add(``, ``.negate()`` -> identity, a dropped unary minus on a
qty/quantity/amount token, ``-=`` -> ``+=`` on a money line, ``.minus(`` ->
``.plus(``. Candidates are read from Java and Kotlin under ``src/main`` with
comments blanked (a mutation inside a comment kills nothing). A candidate is
sell-side when it lies within 3000 characters of an anchor in the same file: a
``SELL``/``BUY``/``Side.*`` token, or a point-in-time method definition
(holdingsAt/positionsAt/balanceAt/asOf/pointInTime/snapshotAt/replay*, or a method
taking an Instant-family parameter in a file named for holdings/positions/a ledger).
The nearest candidate wins (ties: path, then offset); with none, there is nothing
sell-side to protect and B3 is NOT_ATTEMPTED.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from benchwright.checks.ace._methods import methods
from benchwright.checks.ace._source import Language, language_of, strip_comments

REACH = 3000
"""Characters between a candidate and its anchor, at most."""
SOURCE_SUFFIXES = (".java", ".kt")
_MONEY = re.compile(
    r"price|amount|balance|cash|total|cost|fee|qty|quantity|notional|premium|margin", re.I
)
_QUANTITY = re.compile(r"qty|quantity|amount", re.I)
_PIT_NAME = re.compile(r"holdingsAt|positionsAt|balanceAt|asOf|pointInTime|snapshotAt|replay\w*")
_INSTANT = re.compile(r"\b(?:Instant|OffsetDateTime|ZonedDateTime|LocalDateTime|Timestamp)\b")
_PIT_FILE = re.compile(r"holding|position|ledger", re.I)
_SIDE = re.compile(r"\b(?:SELL|BUY)\b|\bSide\s*\.\s*[A-Za-z_]\w*")
_UNARY_BEFORE = frozenset("=(,?:[{+-*/<>!&|;")
_UNARY_MINUS = re.compile(
    r"(?<![-\w)\]])-(?![-=>])\s*(?P<token>[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*(?:\s*\(\s*\))?)*)"
)


@dataclass(frozen=True, slots=True)
class Mutation:
    """One seeded mutation: where, which of the five, and the file's mutated text."""

    path: str
    line: int
    kind: str
    before: str
    """The original source line."""
    after: str
    """The same line, mutated."""
    anchor: str
    """The SELL/BUY/Side.* token or point-in-time definition that made it sell-side."""
    distance: int
    mutated: str
    """The whole mutated file."""

    def evidence(self) -> dict[str, object]:
        return {
            "file": self.path,
            "line": self.line,
            "mutation": self.kind,
            "before": self.before.strip(),
            "after": self.after.strip(),
            "anchor": self.anchor,
            "distance": self.distance,
        }


@dataclass(frozen=True, slots=True)
class _Site:
    start: int
    end: int
    replacement: str
    kind: str


def mutable_sources(files: Iterable[str]) -> list[str]:
    """The Java and Kotlin files under a ``src/main`` directory, among relative paths."""
    found = []
    for rel in files:
        parts = PurePosixPath(rel).parts  # the file's own name is never "main"
        if rel.endswith(SOURCE_SUFFIXES) and ("src", "main") in itertools.pairwise(parts[:-1]):
            found.append(rel)
    return sorted(found)


def choose(root: Path, files: Iterable[str]) -> Mutation | None:
    """The mutation B3 applies to the sources ``files`` (relative to ``root``); None: nothing."""
    best: tuple[int, str, int, _Site, str, str] | None = None
    for rel in mutable_sources(files):
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        lang = language_of(rel) or "java"
        code = strip_comments(text, lang)
        anchors = list(_anchors(rel, code, lang))
        if not anchors:
            continue
        for site in _sites(code):
            distance, anchor = min((abs(site.start - a), label) for a, label in anchors)
            key = (distance, rel, site.start)
            if distance <= REACH and (best is None or key < best[:3]):
                best = (distance, rel, site.start, site, anchor, text)
    if best is None:
        return None
    distance, rel, _, site, anchor, text = best
    return _mutate(rel, text, site, anchor, distance)


def apply(mutation: Mutation, root: Path) -> None:
    """Write the mutated file into ``root`` (a scratch copy, never the workspace)."""
    (root / mutation.path).write_text(mutation.mutated, encoding="utf-8")


def _mutate(rel: str, text: str, site: _Site, anchor: str, distance: int) -> Mutation:
    mutated = text[: site.start] + site.replacement + text[site.end :]
    line = text.count("\n", 0, site.start) + 1
    before = text.splitlines()[line - 1]
    after = mutated.splitlines()[line - 1] if mutated.splitlines() else ""
    return Mutation(rel, line, site.kind, before, after, anchor, distance, mutated)


def _anchors(rel: str, code: str, lang: Language) -> Iterator[tuple[int, str]]:
    """Offsets of SELL/BUY/Side.* tokens and point-in-time definitions, with a label."""
    for found in _SIDE.finditer(code):
        yield found.start(), " ".join(found.group(0).split())
    by_type = _PIT_FILE.search(PurePosixPath(rel).name) is not None
    for method in methods(strip_comments(code, lang, blank_strings=True), lang):
        if _PIT_NAME.fullmatch(method.name) or (by_type and _INSTANT.search(method.params)):
            params = " ".join(method.params.split())
            yield method.start, f"point-in-time method {method.name}({params})"


def _sites(code: str) -> Iterator[_Site]:
    """Every place one of the five mutations applies, in the comment-blanked ``code``."""
    for found in re.finditer(r"\.\s*(subtract)\s*\(", code):
        yield _Site(found.start(1), found.end(1), "add", ".subtract( -> .add(")
    for found in re.finditer(r"\.\s*(minus)\s*\(", code):
        yield _Site(found.start(1), found.end(1), "plus", ".minus( -> .plus(")
    for found in re.finditer(r"\.\s*negate\s*\(\s*\)", code):
        yield _Site(found.start(), found.end(), "", ".negate() -> identity")
    for found in re.finditer(r"-=", code):
        start = code.rfind("\n", 0, found.start()) + 1
        end = code.find("\n", found.end())
        if _MONEY.search(code[start : end if end >= 0 else len(code)]):
            yield _Site(found.start(), found.end(), "+=", "-= -> += on a money line")
    for found in _UNARY_MINUS.finditer(code):
        before = code[: found.start()].rstrip()
        unary = not before or before[-1] in _UNARY_BEFORE or re.search(r"\breturn$", before)
        if unary and _QUANTITY.search(found.group("token")):
            yield _Site(found.start(), found.start() + 1, "", "unary minus dropped on a quantity")
