"""A card's screenshot list as the viewer reads it: every kept screenshot with its rows,
nothing a hostile ``grading.screenshots`` names outside the card's directory, and the
reason a card has none."""

from __future__ import annotations

from pathlib import Path

from benchwright.viewer.sources import Card
from benchwright.viewer.views import card_shots, no_shots_reason
from viewer.conftest import png


class _Links:
    def run(self, run_id: str) -> str:
        return f"/runs/{run_id}"

    def task(self, run_id: str, task_id: str) -> str:
        return f"/runs/{run_id}/tasks/{task_id}"

    def trial(self, run_id: str, task_id: str, iteration: int) -> str:
        return f"/runs/{run_id}/trials/{task_id}/{iteration}"

    def card(self, card_id: str) -> str:
        return f"/cards/{card_id}"

    def evidence(self, card: Card, key: str, path: Path) -> str:
        return f"/cards/{card.id}/evidence/{key}"


def _card(tmp_path: Path, grading: dict) -> Card:
    (tmp_path / "c.browser" / "sync").mkdir(parents=True)
    (tmp_path / "c.browser" / "sync" / "sync-after.png").write_bytes(png(4, 4, (1, 1, 1)))
    (tmp_path.parent / "outside.png").write_bytes(png(4, 4, (0, 0, 0)))
    return Card("c", tmp_path / "c.json", {"score": 0.5, "grading": grading})


def test_every_kept_screenshot_is_shown_with_its_rows_and_none_from_outside(tmp_path) -> None:
    listed = [
        {"name": "sync-after", "scenario": "sync", "path": "c.browser/sync/sync-after.png",
         "rows": ["j_sync_journey"], "published": False},
        {"name": "escape", "path": "../outside.png", "rows": ["x"], "published": True},
        {"name": 3, "path": "c.browser/sync/sync-after.png"},
        "not an object",
    ]  # fmt: skip
    card = _card(tmp_path, {"evidence": {}, "screenshots": listed})
    assert set(card.evidence()) == {"screenshot_sync-after"}
    shots = card_shots(card, card.evidence(), _Links())
    assert shots == [{"name": "sync-after", "url": "/cards/c/evidence/screenshot_sync-after",
                      "rows": ["j_sync_journey"], "published": False}]  # fmt: skip
    hostile = _card(tmp_path / "h", {"evidence": ["x"], "screenshots": "everything"})
    assert hostile.evidence() == {} and card_shots(hostile, {}, _Links()) == []


def test_a_card_without_screenshots_says_why() -> None:
    failure = {"headline": "app exited 1 at boot: RuntimeError: boom", "output": "Traceback"}
    assert "the app never booted" in no_shots_reason({"boot_failure": failure, "phases": []})
    subset = {"phases": [{"name": "boot", "outcome": "ok"}]}
    assert "browser phase did not run" in no_shots_reason(subset)
    broke = {"phases": [{"name": "browser", "outcome": "failed: OSError: gone"}]}
    assert no_shots_reason(broke).endswith("ended failed: OSError: gone.")
