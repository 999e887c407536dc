"""What an sb-7 card shows: the rows name the screenshots they rely on (the card keeps
only those), and the board receives the suite's five first: the console, the 3D field,
the approval journey's end, the phone layout, the feed in its outage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sb7_observations import row

from benchwright.suites.sb7.grader import SHOT_RULE

TAKEN = ("load/load-1280", "load/load-375", "error/error", "empty/empty", "sync/sync-after",
         "flow/approval-end", "flow/rejection-end", "flow/paint-held", "feed/feed-degraded",
         "feed/feed-healed", "viz/viz-field")  # fmt: skip


def _paths(names: tuple[str, ...]) -> list[Path]:
    return [Path("/shots") / f"{name}.png" for name in names]


def test_the_board_receives_the_console_the_field_and_the_journeys_first() -> None:
    sizes = dict.fromkeys(_paths(TAKEN), 200_000)
    posted = SHOT_RULE.publishable(_paths(TAKEN), sizes)
    assert [p.stem for p in posted] == ["load-1280", "viz-field", "approval-end", "load-375",
                                        "feed-degraded"]  # fmt: skip


def test_a_screenshot_over_the_boards_limit_is_passed_over_never_cut() -> None:
    sizes = dict.fromkeys(_paths(TAKEN), 200_000) | {Path("/shots/viz/viz-field.png"): 2_000_000}
    posted = SHOT_RULE.publishable(_paths(TAKEN), sizes)
    assert "viz-field" not in [p.stem for p in posted] and len(posted) == 5


@pytest.mark.slow
def test_the_field_row_names_the_fields_screenshot(sb7_golden: tuple[Any, float]) -> None:
    """t_scene_binding judges the field as drawn: on the golden's observations its row
    names the field's PNG, so a card keeps it (a PNG no row names is evidence of nothing
    and is not kept). Judged on the check's own row: the session grading keeps no evidence
    directory, and a row's screenshots are dropped where nothing is kept."""
    found = row(sb7_golden[0].observations, "t_scene_binding")
    assert [Path(p).stem for p in found.evidence["screenshots"]] == ["viz-field"], found.detail
