"""`printable`: text from a board, made safe to print in the user's terminal.

A board is someone else's server. Whatever it answers - an error code, a message, a
reason phrase, a URL - may carry escape sequences that move the cursor, clear the
screen, rewrite the window title, plant an OSC 8 link or reorder text (bidi controls).
Every character of Unicode categories Cc (C0, DEL, C1), Cf (format: bidi overrides,
zero-width), Zl and Zp is printed as its escape (``\\x1b``, ``\\u202e``), and the text is
cut to a bounded length, so what the user reads is what the board sent, inert.
"""

from __future__ import annotations

import unicodedata

LIMIT = 500
_INERT = frozenset(("Cc", "Cf", "Zl", "Zp"))


def printable(text: str, limit: int = LIMIT) -> str:
    """``text`` with every control and format character escaped, cut to ``limit`` chars."""
    shown = "".join(_escape(c) if unicodedata.category(c) in _INERT else c for c in text)
    return shown if len(shown) <= limit else shown[:limit] + "..."


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
