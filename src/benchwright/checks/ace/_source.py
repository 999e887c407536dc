"""Comment stripping for Java, Kotlin, Gradle scripts and SQL, before any regex runs.

Every ACE money lint strips comments first: ``// double price`` is not a
declaration and ``/* import java.math.BigDecimal; */`` is not an import. A regex
that deletes ``//...`` would also eat ``"http://host"``, so this is a small
tokenizer: it walks the text once, knows when it is inside a string literal
(``"..."`` with backslash escapes, Java text blocks and Kotlin raw strings
``\"\"\"...\"\"\"``, char literals; in SQL ``'...'`` and ``"..."`` with doubled
quotes) and blanks only real comments. Kotlin block comments nest; Java's do not.

The result has the input's length and line breaks, so offsets and line numbers
found in it point at the same place in the original file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Language = Literal["java", "kotlin", "sql"]


@dataclass(frozen=True, slots=True)
class _Syntax:
    line: str
    nested: bool
    quotes: tuple[str, ...]
    doubled: bool
    """True when a quote is escaped by doubling it (SQL), False for backslashes."""
    names: str = ""
    """The quote that encloses a name, not a value (SQL ``"price"``): never blanked."""


_SYNTAX: dict[Language, _Syntax] = {
    "java": _Syntax("//", False, ('"""', '"', "'"), False),
    "kotlin": _Syntax("//", True, ('"""', '"', "'"), False),
    "sql": _Syntax("--", False, ("'", '"'), True, names='"'),
}

SUFFIX_LANGUAGE: dict[str, Language] = {
    ".java": "java",
    ".gradle": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".sql": "sql",
}
"""Which syntax a file is read with, by suffix (Groovy build scripts comment like Java)."""


def language_of(rel: str) -> Language | None:
    """The syntax of the file at ``rel``, or None for a file this module cannot read."""
    for suffix, lang in SUFFIX_LANGUAGE.items():
        if rel.endswith(suffix):
            return lang
    return None


def strip_comments(text: str, lang: Language, *, blank_strings: bool = False) -> str:
    """``text`` with every comment blanked (and string contents too when ``blank_strings``).

    Blanking keeps line breaks, so positions stay valid. String literals are kept
    by default because a query string (``@Query("... CASE WHEN side = 'SELL' ...")``)
    is code the lints read; ``blank_strings`` hides them where a literal must not
    count as an identifier (``"price".equals(key)`` compares names, not money).
    A quoted SQL name (``"price" FLOAT``) is a name, not a literal, and stays.
    """
    syntax = _SYNTAX[lang]
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith(syntax.line, i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(_blank(text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = _block_end(text, i, syntax.nested)
            out.append(_blank(text[i:end]))
            i = end
        elif quote := next((q for q in syntax.quotes if text.startswith(q, i)), None):
            end = _string_end(text, i, quote, syntax.doubled)
            closed = end - i >= 2 * len(quote) and text.startswith(quote, end - len(quote))
            body_end = end - len(quote) if closed else end
            body = text[i + len(quote) : body_end]
            hide = blank_strings and quote != syntax.names
            out += (quote, _blank(body) if hide else body, text[body_end:end])
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _blank(chunk: str) -> str:
    return "".join(c if c == "\n" else " " for c in chunk)


def _block_end(text: str, start: int, nested: bool) -> int:
    """The index just past the block comment opening at ``start`` (end of text if open)."""
    depth, i = 0, start
    while i < len(text):
        if text.startswith("/*", i):
            depth = depth + 1 if nested or depth == 0 else depth
            i += 2
        elif text.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(text)


def _string_end(text: str, start: int, quote: str, doubled: bool) -> int:
    """The index just past the literal opening at ``start``; a single-line literal left
    open ends at the line break, so one stray quote cannot swallow the whole file."""
    i = start + len(quote)
    while i < len(text):
        if text.startswith(quote * 2, i) if doubled else text[i] == "\\":
            i += 2
        elif text.startswith(quote, i):
            return i + len(quote)
        elif text[i] == "\n" and len(quote) == 1 and not doubled:
            return i
        else:
            i += 1
    return len(text)
