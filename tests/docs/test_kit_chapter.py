"""docs/suites.md "Writing an executed-app suite" stays true: every code excerpt in the
chapter names its file (```python PATH) and appears in it verbatim, so the walk-through
cannot drift from the kitdemo suite it quotes."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).parents[2]
CHAPTER = "## Writing an executed-app suite"
UNQUOTED = ("sh", "text")
"""Fences that quote no file: commands and listings."""
FENCE = re.compile(r"^```(\w+)(?: (\S+))?\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def chapter() -> str:
    text = (REPO / "docs" / "suites.md").read_text(encoding="utf-8")
    start = text.index(f"\n{CHAPTER}\n")
    end = text.index("\n## ", start + len(CHAPTER))
    return text[start:end]


def test_every_excerpt_is_in_the_file_it_names():
    excerpts = [m.groups() for m in FENCE.finditer(chapter())]
    quoted = [(path, body) for lang, path, body in excerpts if lang not in UNQUOTED]
    assert len(quoted) >= 8, "the chapter quotes the suite it walks through"
    for path, body in quoted:
        assert path, f"an excerpt names no file: {body[:60]!r}"
        assert body in (REPO / path).read_text(encoding="utf-8"), f"not verbatim in {path}"
