"""`LiveSources` lists again only when what a listing depends on changed: the same
listing while nothing moved (no walk of every run per page), a new one once a trial
finished, a run appeared or a scorecard was rewritten."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.viewer.live import LiveSources


def _touch_later(path: Path) -> None:
    """Move ``path``'s modification time on (a rewrite within one clock tick keeps it)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_the_listing_is_kept_until_something_it_depends_on_changes(
    runs: dict[str, Any], cards: dict[str, Path], tmp_path: Path
) -> None:
    served = tmp_path / "runs"
    served.mkdir()
    shutil.copytree(runs["dir"] / runs["nop"], served / runs["nop"])
    (served / runs["nop"] / "trials" / "fix-02" / "1" / "result.json").rename(
        tmp_path / "later.json"
    )  # fix-02 #1 has not finished yet
    card = tmp_path / "good.json"
    shutil.copy(cards["good"], card)
    live = LiveSources([served, card])
    first = live.current()
    assert live.current() is first  # nothing changed: not listed again
    assert len(first.runs[runs["nop"]].trials) == 5
    # the trial finishes: its result.json is renamed into its directory
    (tmp_path / "later.json").rename(
        served / runs["nop"] / "trials" / "fix-02" / "1" / "result.json"
    )
    second = live.current()
    assert second is not first and len(second.runs[runs["nop"]].trials) == 6
    assert live.current() is second
    # the scorecard is rewritten in place
    card.write_text(json.dumps(json.loads(card.read_text()) | {"score": 0.25}))
    _touch_later(card)
    assert live.current().cards["good"].doc["score"] == 0.25


def test_a_path_that_holds_nothing_is_refused_at_start_only(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="holds no run directory"):
        LiveSources([tmp_path])
