"""ACE M1-M4: money lints over the main sources, comments stripped first.

"A cheap early signal, not the correctness oracle" (the registry): regexes over
Java, Kotlin and SQL under any ``src/main`` - a package named ``test`` inside
``src/main`` included, since it ships; ``src/test`` left out. Money names are
the registry's list matched on identifier parts (see `_money`).

- M1: no money name declared float/double: Java ``double price`` (also
  ``Double``/``float``, arrays, generics such as ``Map<String, Double> balances``
  and accessors such as ``double getPrice()``), Kotlin ``price: Double``/``Float``
  and ``fun price(): Double``, SQL columns typed FLOAT/FLOAT4/FLOAT8/REAL/DOUBLE
  [PRECISION].
- M2: of the Java/Kotlin files using a money-named identifier in code, at least
  half import ``java.math.BigDecimal`` (or ``java.math.*``).
- M3: no ``.equals(`` whose receiver or argument is money-named
  (``price.equals(x)``, ``getTotal().equals(y)``, ``Objects.equals(a.getCost(), c)``).
- M4: every point-in-time method (which ones: `_pit`) shows a sell-side
  subtraction shape in its own span, or calls another point-in-time method that
  does (a ``holdingsAt`` that delegates to ``replay`` is judged by ``replay``);
  NOT_ATTEMPTED when there is no such method.

M1-M3 FAIL when ``src/main`` holds nothing of their language to inspect: a stub
workspace with no money code has not met a money rule, and the registry's
NOT_ATTEMPTED belongs to M4 alone.

A source entry the lints cannot read whole - a directory or link named
``Ledger.java``, a file that is not UTF-8 or exceeds the read limit - could hold
exactly what a lint looks for, so no money check PASSes (or is NOT_ATTEMPTED)
beside one: it FAILs naming the entry; a FAIL stays a FAIL with the entries in
its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from typing import Any

from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._files import Tree
from benchwright.checks.ace._methods import Method, methods
from benchwright.checks.ace._money import IDENTIFIER, is_money, money_identifiers
from benchwright.checks.ace._pit import is_point_in_time, subtraction
from benchwright.checks.ace._source import Language, language_of, strip_comments
from benchwright.model import CheckResult, Status

JVM = (".java", ".kt")
LINTED = (*JVM, ".sql")

_DECLARATIONS: dict[Language, tuple[re.Pattern[str], ...]] = {
    "java": (re.compile(r"\b(?:double|float|Double|Float)\b(?:\s*\[\s*\]|\s*>)*\s+([\w$]+)"),),
    "kotlin": (
        re.compile(r"\b(\w+)\s*:\s*(?:[\w.]+\s*<\s*)*(?:kotlin\.)?(?:Double|Float)\b"),
        re.compile(
            r"\bfun\s+(?:[\w.]+\.)?(\w+)\s*\([^)]*\)\s*:\s*(?:[\w.]+\s*<\s*)*(?:Double|Float)\b"
        ),
    ),
    "sql": (
        re.compile(
            r"\b(\w+)\"?\s+(?:(?:SET\s+DATA\s+)?TYPE\s+)?"
            r"(?:DOUBLE\s+PRECISION|DOUBLE|FLOAT[48]?|REAL)\b",
            re.IGNORECASE,
        ),
    ),
}
_BIGDECIMAL_IMPORT = re.compile(r"^[ \t]*import\s+java\.math\.(?:BigDecimal\b|\*)", re.MULTILINE)
_HEADER_LINES = re.compile(r"^[ \t]*(?:package|import)\s[^\n]*", re.MULTILINE)
"""A package or import line names where code lives, not money it handles (``app.fees``)."""
_EQUALS = re.compile(r"(?:([\w$]+)\s*(?:\(\s*\))?\s*)?\.\s*equals\s*\(")


_Key = tuple[str, str, int]
"""A point-in-time method: (file, name, line)."""


@dataclass(frozen=True, slots=True)
class _Source:
    rel: str
    lang: Language
    code: str
    """Comments blanked, string literals kept (queries inside them are code)."""
    blank: str
    """Comments and string contents blanked."""

    def line(self, at: int) -> int:
        return self.code.count("\n", 0, at) + 1


def _sources(tree: Tree, suffixes: tuple[str, ...]) -> tuple[list[_Source], list[str]]:
    """The readable sources, and each entry that cannot be read whole, said in words."""
    found = []
    unreadable = [f"{rel} is {kind}" for rel, kind in tree.irregular_main_sources(suffixes)]
    for rel in tree.main_sources(suffixes):
        lang = language_of(rel)
        if lang is not None:
            text, problem = tree.source(rel)
            if problem is not None:
                unreadable.append(f"{rel} {problem}")
            found.append(
                _Source(
                    rel,
                    lang,
                    strip_comments(text, lang),
                    strip_comments(text, lang, blank_strings=True),
                )
            )
    return found, sorted(unreadable)


def _unread(result: CheckResult, unreadable: list[str]) -> CheckResult:
    """``result``, unless an entry it could not read leaves its PASS (or M4's
    NOT_ATTEMPTED) unproven: then a FAIL naming the entry."""
    if not unreadable:
        return result
    evidence = {**result.evidence, "unreadable": unreadable}
    if result.status is Status.FAIL:
        return replace(result, evidence=evidence)
    more = f" (+{len(unreadable) - 1} more)" if len(unreadable) > 1 else ""
    return CheckResult.failing(
        result.check_id, f"unreadable source: {unreadable[0]}{more}", **evidence
    )


def _nothing(check_id: str, suffixes: tuple[str, ...]) -> CheckResult:
    kinds = "/".join(s.lstrip(".") for s in suffixes)
    return CheckResult.failing(check_id, f"no {kinds} source under src/main to inspect")


def _m1(sources: list[_Source]) -> CheckResult:
    if not sources:
        return _nothing("M1", LINTED)
    hits = [
        f"{s.rel}:{s.line(m.start())} declares {m.group(1)} as {_type_of(m.group())}"
        for s in sources
        for pattern in _DECLARATIONS[s.lang]
        for m in pattern.finditer(s.blank)
        if is_money(m.group(1))
    ]
    if hits:
        more = f" (+{len(hits) - 1} more)" if len(hits) > 1 else ""
        return CheckResult.failing("M1", f"float money: {hits[0]}{more}", findings=hits)
    return CheckResult.passing(
        "M1", f"no money name declared float/double in {len(sources)} file(s)", files=len(sources)
    )


def _type_of(declaration: str) -> str:
    found = re.search(r"double precision|double|float[48]?|real", declaration, re.IGNORECASE)
    return found.group().lower() if found else "float"


def _m2(sources: list[_Source]) -> CheckResult:
    jvm = [s for s in sources if s.lang != "sql"]
    if not jvm:
        return _nothing("M2", JVM)
    names = {s.rel: money_identifiers(_HEADER_LINES.sub("", s.blank)) for s in jvm}
    handling = {rel: found[:3] for rel, found in names.items() if found}
    importing = [s.rel for s in jvm if s.rel in handling and _BIGDECIMAL_IMPORT.search(s.blank)]
    evidence: dict[str, Any] = {"handling": handling, "importing": importing}
    if not handling:
        return CheckResult.failing(
            "M2", "no main source file handles a money-named field", **evidence
        )
    tally = (
        f"{len(importing)} of {len(handling)} money-handling file(s) import java.math.BigDecimal"
    )
    if 2 * len(importing) >= len(handling):
        return CheckResult.passing("M2", tally, **evidence)
    missing = next(rel for rel in handling if rel not in importing)
    return CheckResult.failing("M2", f"{tally} (needs half); e.g. {missing}", **evidence)


def _m3(sources: list[_Source]) -> CheckResult:
    jvm = [s for s in sources if s.lang != "sql"]
    if not jvm:
        return _nothing("M3", JVM)
    hits = []
    for s in jvm:
        for m in _EQUALS.finditer(s.blank):
            args = _arguments(s.blank, m.end() - 1)
            names = [n for n in (m.group(1) or "", *IDENTIFIER.findall(args)) if is_money(n)]
            if names:
                hits.append(f"{s.rel}:{s.line(m.start())} compares {names[0]} with .equals(")
    if hits:
        more = f" (+{len(hits) - 1} more)" if len(hits) > 1 else ""
        return CheckResult.failing("M3", f"{hits[0]}{more}", findings=hits)
    return CheckResult.passing("M3", f"no .equals( on a money value in {len(jvm)} file(s)")


def _arguments(text: str, open_at: int) -> str:
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[open_at + 1 : i]
    return text[open_at + 1 :]


def _pit_methods(sources: list[_Source]) -> Iterator[tuple[_Source, Method]]:
    for s in sources:
        if s.lang != "sql":
            yield from ((s, m) for m in methods(s.blank, s.lang) if is_point_in_time(m, s.rel))


def _m4(sources: list[_Source]) -> CheckResult:
    found = [(s, m, subtraction(s.code[m.start : m.end])) for s, m in _pit_methods(sources)]
    if not found:
        return CheckResult(
            "M4", Status.NOT_ATTEMPTED, 0.0, "no point-in-time method in src/main to inspect"
        )
    verdict = {(s.rel, m.name, m.line): shape for s, m, shape in found}
    _settle_delegation(
        verdict, {(s.rel, m.name, m.line): s.blank[m.start : m.end] for s, m, _ in found}
    )
    rows = [
        f"{rel}:{line} {name}" + (f": {v}" if v else "") for (rel, name, line), v in verdict.items()
    ]
    bad = [f"{rel}:{line} {name}" for (rel, name, line), v in verdict.items() if v is None]
    evidence: dict[str, Any] = {"methods": rows}
    if bad:
        more = f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
        return CheckResult.failing(
            "M4", f"point-in-time method {bad[0]} never subtracts the sell side{more}", **evidence
        )
    return CheckResult.passing(
        "M4", f"{len(rows)} point-in-time method(s) subtract sells: {'; '.join(rows)}", **evidence
    )


def _settle_delegation(verdict: dict[_Key, str | None], spans: dict[_Key, str]) -> None:
    """Give a method with no subtraction of its own the verdict of a point-in-time method
    it calls (``holdingsAt`` returning ``replay(...)``), until nothing changes."""
    changed = True
    while changed:
        changed = False
        passing = sorted({name for (_, name, _), v in verdict.items() if v})
        for key, span in spans.items():
            if verdict[key] is None:
                callee = next(
                    (
                        n
                        for n in passing
                        if n != key[1] and re.search(rf"\b{re.escape(n)}\s*\(", span)
                    ),
                    None,
                )
                if callee is not None:
                    verdict[key], changed = f"calls {callee}", True


_CHECKS: dict[str, Callable[[list[_Source]], CheckResult]] = {
    "M1": _m1,
    "M2": _m2,
    "M3": _m3,
    "M4": _m4,
}
IDS = frozenset(_CHECKS)


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """One record per wanted money id (M1-M4), over the sources read once."""
    ids = sorted(IDS & set(wanted))
    sources, unreadable = _sources(Tree(env.workspace), LINTED) if ids else ([], [])
    return {check_id: _unread(_CHECKS[check_id](sources), unreadable) for check_id in ids}
