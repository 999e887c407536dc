"""The screenshots a card keeps (issue #26 item 4): exactly those a row relies on, each
listed with those rows, the board's five marked by the one rule (`browser.publishable`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from viewer.conftest import png

from benchwright.model import CheckResult, Status
from benchwright.suites.kit.screenshots import keep_screenshots, relied_on
from benchwright.suites.vspro.browser import publishable
from benchwright.suites.vspro.browser._publish import PREFERRED
from benchwright.suites.vspro.grader import SHOTS


def _row(check_id: str, *shots: Path) -> CheckResult:
    evidence = {"screenshots": [str(s) for s in shots]} if shots else {}
    return CheckResult(check_id, Status.PASS, 1.0, "1: fine", evidence)


def test_a_card_keeps_the_screenshots_rows_rely_on_and_lists_those_rows(tmp_path: Path) -> None:
    taken_dir, into = tmp_path / "work" / "browser", tmp_path / "card.browser"
    names = {"load": ["load-1280", "load-375"], "sync": ["sync-after"],
             "viz": ["viz-before-drag", "viz-after-drag", "viz-orphan"]}  # fmt: skip
    taken = []
    for scenario, stems in names.items():
        (taken_dir / scenario).mkdir(parents=True)
        for stem in stems:
            (taken_dir / scenario / f"{stem}.png").write_bytes(png(4, 4, (1, 2, 3)))
            taken.append(taken_dir / scenario / f"{stem}.png")
    load, load375, sync, before, after, _orphan = taken
    rows = [_row("j_first_use", load, load375), _row("v_responsive_375", load375),
            _row("j_sync_journey", sync), _row("t_camera", before, after),
            _row("t_scene_binding", before), _row("health_shape")]  # fmt: skip
    assert relied_on(rows)[str(load375)] == ("j_first_use", "v_responsive_375")
    shots, moved = keep_screenshots(sorted(taken), rows, taken_dir, into, SHOTS)
    by_name = {s.name: s for s in shots}
    assert list(by_name) == ["load-1280", "viz-before-drag", "load-375", "sync-after",
                             "viz-after-drag"]  # the board's order  # fmt: skip
    assert "viz-orphan" not in by_name and not (into / "viz" / "viz-orphan.png").exists()
    assert by_name["viz-before-drag"].rows == ("t_camera", "t_scene_binding")
    assert by_name["viz-before-drag"].scenario == "viz"
    assert all(Path(s.path).is_file() and Path(s.path).is_relative_to(into) for s in shots)
    assert all(s.published for s in shots)  # five small ones: the board takes them all
    assert moved[str(sync)] == str(into / "sync" / "sync-after.png")


@pytest.mark.slow
def test_a_golden_card_keeps_every_screenshot_a_row_names_and_says_so(golden_twice) -> None:
    """Nine PNGs, each named by a row and only those, listed on the card and on the
    terminal with their rows; the five the board receives are the rule's."""
    tmp, runs, _tree = golden_twice
    done, card = runs[0]
    kept = {p for p in (tmp / "card1.browser").rglob("*.png")}
    listed = card["grading"]["screenshots"]
    assert {Path(s["path"]) for s in listed} == kept and len(kept) == 9
    named: dict[str, set[str]] = {}
    for row in card["grading"]["results"]:
        for path in row["evidence"].get("screenshots", []):
            named.setdefault(path, set()).add(row["check_id"])
    assert {s["path"]: set(s["rows"]) for s in listed} == named  # every one, and only these
    assert {"sync-after", "viz-before-drag", "viz-after-drag", "viz-fallback"} <= {
        s["name"] for s in listed
    }
    ranked_names = [s["name"] for s in listed]
    assert [n for n in ranked_names if n in PREFERRED] == [
        n for n in PREFERRED if n in ranked_names
    ]
    published = [s["name"] for s in listed if s["published"]]
    assert published == [p.stem for p in publishable(Path(s["path"]) for s in listed)]
    evidence = card["grading"]["evidence"]
    assert [k for k in evidence if k.startswith("screenshot_")] == [
        f"screenshot_{n}" for n in published
    ]
    out = done.stdout.splitlines()
    head = out.index("screenshots (9 kept, 5 for the board):")
    for line, shot in zip(out[head + 1 : head + 10], listed, strict=True):
        path, mark, rows = line.split(None, 2)
        assert (path, mark == "board", rows) == (shot["path"], shot["published"],
                                                 ", ".join(shot["rows"]))  # fmt: skip
