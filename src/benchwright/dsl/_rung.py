"""A task's ``rung``: an ACE ladder rung whose checks the task lists as ``ace`` entries.

The fixed denominator is only honest when the task scores exactly the rung's
checks, so a rung task that drops or adds an id is refused at load.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchwright.errors import SpecError


def rung_problems(rung: str, ace_ids: Sequence[str]) -> list[tuple[str, str]]:
    """``(field, message)`` when ``rung`` is unknown or the task's ace ids are not its checks."""
    from benchwright.checks.ace.grade import rung_scorer

    try:
        wanted = rung_scorer(rung).wanted
    except SpecError as exc:
        return [("rung", exc.problems[0][1])]
    missing = [i for i in wanted if i not in ace_ids]
    extra = [i for i in ace_ids if i not in wanted]
    if not missing and not extra:
        return []
    told = [f"missing {', '.join(missing)}" if missing else "",
            f"not on the rung: {', '.join(extra)}" if extra else ""]  # fmt: skip
    return [("checks", f"rung {rung} scores {', '.join(wanted)} as 'ace' checks; "
             + "; ".join(t for t in told if t))]  # fmt: skip
