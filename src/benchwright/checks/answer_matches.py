"""``answer_matches``: the agent's captured final answer states the required facts.

Patterns are anchored to whole lines by default (``count: 5`` must be a line of
its own), so ``the count: 50`` or a substring cannot rubber-stamp the answer;
``all_of`` lets a task demand a fact only readable from the workspace next to
the headline value, closing the blind-guess game.
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, Status


class AnswerMatchesParams(CheckParams):
    all_of: tuple[str, ...] = Field(min_length=1)
    """Regexes that must each match the answer."""
    none_of: tuple[str, ...] = ()
    """Regexes that must not match (e.g. a plausible wrong value)."""
    anchored: bool = True
    """Each pattern must match a whole line (trailing spaces ignored) rather than anywhere."""

    @field_validator("all_of", "none_of")
    @classmethod
    def _compile(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"invalid regex {pattern!r}: {exc}") from None
        return value


def _matches(pattern: str, answer: str, anchored: bool) -> bool:
    if anchored:
        return any(re.fullmatch(pattern, line.rstrip()) for line in answer.splitlines())
    return re.search(pattern, answer, re.MULTILINE) is not None


@check("answer_matches", params=AnswerMatchesParams)
def answer_matches(p: AnswerMatchesParams, ctx: CheckContext) -> CheckResult:
    """Passes when every ``all_of`` pattern matches and no ``none_of`` does."""
    answer = ctx.answer
    if answer is None or not answer.strip():
        return ctx.result(Status.NOT_ATTEMPTED, 0.0, "no final answer was captured")
    missing = [pat for pat in p.all_of if not _matches(pat, answer, p.anchored)]
    forbidden = [pat for pat in p.none_of if _matches(pat, answer, p.anchored)]
    evidence = {"missing": missing, "forbidden": forbidden, "answer": answer[-2000:]}
    if missing:
        return ctx.failed(
            f"answer lacks /{missing[0]}/ ({len(missing)} of {len(p.all_of)} missing)", **evidence
        )
    if forbidden:
        return ctx.failed(f"answer contains forbidden /{forbidden[0]}/", **evidence)
    return ctx.passed(f"answer states all {len(p.all_of)} required fact(s)", **evidence)
