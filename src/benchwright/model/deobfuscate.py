"""Undo the cheap disguises of a word in a command or source line, for pattern matching.

A shell joins ``pi''p``, ``c""url``, ``"cu"rl`` and ``c\\url`` into one word, and
``$'\\x63url'`` decodes to ``curl``; Python and JavaScript join ``'url'+'lib'``,
``'url' 'lib'``, ``"".join(["cu", "rl"])`` and ``f"{'cu'}{'rl'}"``. `deobfuscated`
rewrites text the way those joins read, so that a substring search for ``curl``
sees what the interpreter would run. It only ever *adds* readings: callers match
the raw text too. Variables (``c=cu; ${c}rl``) and computed strings are beyond it.
"""

from __future__ import annotations

import re
import unicodedata

_CONTINUATION = re.compile(r"\\\r?\n")
_ANSI_C = re.compile(r"\$(?=')")
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{4})|([0-7]{1,3}))")
_FORMATTED_LITERAL = re.compile(r"""\{\s*(['"])([^'"{}]*)\1\s*\}""")
_JOIN = re.compile(r"""\.join\(\s*[\[(]([^\])]*)[\])]\s*\)""")
_SEPARATOR = re.compile(r"""(['"`])\s*,\s*(['"`])""")
_CONCATENATION = re.compile(r"""(['"`])[ \t]*\+?[ \t]*(['"`])""")
_QUOTES_AND_ESCAPES = str.maketrans("", "", "'\"`\\")
_SPACES = re.compile(r"[ \t]+")
_SPECIAL = re.compile(r"""['"`\\$]""")
"""Characters every rewriting below starts from (quotes, backslashes, ``$'…'``)."""


def rewritable(text: str) -> bool:
    """Would `deobfuscated` read ``text`` otherwise than as its words, spaces folded?"""
    return not text.isascii() or _SPECIAL.search(text) is not None


def deobfuscated(text: str) -> str:
    """``text`` with quotes glued, concatenations joined and escapes decoded.

    Examples:
        ``pi''p inst''all`` → ``pip install``; ``'url' + 'lib.request'`` →
        ``urllib.request``; ``$'\\x63url'`` → ``curl``; fullwidth letters → ASCII (NFKC).
    """
    if not rewritable(text):  # nothing to glue, join or decode: the common case
        return _SPACES.sub(" ", text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # zero-width joiners
    text = _CONTINUATION.sub("", text)
    text = _ANSI_C.sub("", text)
    text = _ESCAPE.sub(_decoded, text)
    text = _FORMATTED_LITERAL.sub(r"\2", text)
    text = _JOIN.sub(lambda m: _SEPARATOR.sub("", m.group(1)), text)
    text = _CONCATENATION.sub("", text)
    return _SPACES.sub(" ", text.translate(_QUOTES_AND_ESCAPES))


def _decoded(match: re.Match[str]) -> str:
    hexadecimal, unicode, octal = match.groups()
    code = int(hexadecimal or unicode, 16) if hexadecimal or unicode else int(octal, 8)
    return chr(code)
