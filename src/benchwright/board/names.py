"""What a handle or a model name may hold, so that a name on the board shows what it is.

A name is a poster's claim that others read on screen, and text can lie there: a
right-to-left override turns ``gpt-5-evil`` into ``live-5-tpg``, a zero-width space
makes a second ``crimson-heron-7f3a``, a Cyrillic ``a`` (U+0430) passes for a Latin one. So
both are NFKC-normalised first (fullwidth, ligatures and mathematical letters fold to
their plain forms), then:

- **handles** (`handle`) are ASCII: letters, digits, and ``.``, ``_``, ``-`` between
  them, at most `HANDLE_MAX` characters (the generated ``crimson-heron-7f3a`` fits).
  No homoglyph outside ASCII can enter one.
- **model names** (`model_name`) may be in any script, at most `MODEL_MAX` characters,
  but refuse control, format (bidi overrides and isolates, zero-width characters, BOM),
  line and paragraph separators, private-use, unassigned and surrogate code points,
  more than `MAX_MARKS` combining marks in a row, and letters of more than one script
  except Latin with the CJK scripts (UTS #39 "highly restrictive": Latin with Han,
  Hiragana and Katakana, or Han and Bopomofo, or Han and Hangul).

What stays out of reach: a name wholly in one script that looks like another
(``coco`` spelt in Cyrillic letters), and ASCII look-alikes (``l`` and ``1``, ``rn`` and ``m``).
Every name is also rendered inside ``<bdi>``, so that even a name stored before these
rules cannot reorder the text around it.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic_core import PydanticCustomError

HANDLE_MAX = 64
MODEL_MAX = 200
MAX_MARKS = 2
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "a format character (bidi control, zero-width or BOM)",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
ERROR_TYPE = "bad_name"
"""The pydantic error type of every refusal here (the board answers it 400 ``bad_name``)."""
_HANDLE = re.compile(r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*")
_MIXES = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)


def handle(value: str) -> str:
    """``value`` NFKC-normalised, or a `bad_name` error saying which character is refused."""
    found = _normalised(value, HANDLE_MAX)
    if not _HANDLE.fullmatch(found):
        odd = next((c for c in found if not (c.isascii() and (c.isalnum() or c in "._-"))), None)
        why = f"{_named(odd)} is not allowed" if odd else "a separator must stand between two"
        raise _refused(f"{why}: a handle is ASCII letters and digits, with . _ - between them")
    return found


def model_name(value: str) -> str:
    """``value`` NFKC-normalised, or a `bad_name` error naming the refused character or mix."""
    found = _normalised(value, MODEL_MAX)
    marks = 0
    for char in found:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES:
            raise _refused(f"{_named(char)} is {REFUSED_CATEGORIES[category]}")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise _refused(f"more than {MAX_MARKS} combining marks on one character")
    scripts = sorted({s for s in map(_script, found) if s is not None})
    if len(scripts) > 1 and not any(set(scripts) <= mix for mix in _MIXES):
        raise _refused(f"mixes scripts ({', '.join(scripts)}): write it in one script")
    return found


def _normalised(value: str, cap: int) -> str:
    """NFKC of ``value``, refusing more than ``cap`` characters after it (the payload model
    caps them before; NFKC can lengthen a string: U+FDFA becomes 18 characters)."""
    found = unicodedata.normalize("NFKC", value)
    if len(found) > cap:
        raise _refused(f"{len(found)} characters once NFKC-normalised, at most {cap}")
    return found


def _script(char: str) -> str | None:
    """The script of a letter, from the first word of its Unicode name (``CYRILLIC``...);
    None for what belongs to every script: digits, punctuation, spaces, marks."""
    if unicodedata.category(char) not in ("Lu", "Ll", "Lt", "Lo"):
        return None
    return unicodedata.name(char, "UNKNOWN").split()[0]


def _named(char: str) -> str:
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})"


def _refused(message: str) -> PydanticCustomError:
    return PydanticCustomError(ERROR_TYPE, message)
