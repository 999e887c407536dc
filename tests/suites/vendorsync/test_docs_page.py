"""docs/vendorsync.md's "Checks" chapter is the registry's: generated from
``scorers/sb52.yaml`` and ``suites/vendorsync/checks.yaml``, which must name exactly the
scorer's 60 checks; and ``make demo-vendorsync`` grades the golden."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from benchwright.errors import SpecError
from benchwright.suites.vendorsync.docs_page import (
    chapter_of,
    load_registry,
    main,
    render,
    row_weights,
    with_chapter,
)

REPO = Path(__file__).resolve().parents[3]
SUITE = REPO / "suites" / "vendorsync"
PAGE = REPO / "docs" / "vendorsync.md"
REGISTRY = load_registry(SUITE)


def test_the_docs_page_s_checks_chapter_is_the_generated_one():
    chapter = chapter_of(PAGE.read_text(encoding="utf-8"))
    assert chapter == render(REGISTRY), "docs/vendorsync.md is stale: run make docs-vendorsync"


def test_checks_yaml_names_exactly_the_scorer_s_60_checks_each_under_its_tier():
    assert len(REGISTRY.scorer.wanted) == 60
    assert list(REGISTRY.texts) == list(REGISTRY.scorer.wanted)
    chapter = render(REGISTRY)
    for check in REGISTRY.scorer.wanted:
        assert chapter.count(f"#### `{check}`\n") == 1
    hard = [c for c, t in REGISTRY.texts.items() if t.home]
    assert hard == list(REGISTRY.scorer.members("HARD"))
    assert "#### `request_efficiency`\n\nHard block (home tier D); weight 1.667 %" in chapter
    assert "#### `sync_completeness`\n\nTier B, not hard; weight 1.125 %" in chapter


def test_row_weights_are_the_facts_effective_weights_and_add_up_to_one():
    weights, tier_of = row_weights(REGISTRY.scorer), REGISTRY.scorer.tier_of
    # the effective weights of docs/facts/sb52-checks.md §2
    per_tier = {"A": 0.025, "B": 0.01125, "C": 0.015, "D": 0.015, "HARD": 0.1 / 6,
                "J": 0.03, "V": 0.1 / 6, "P": 0.05 / 3}  # fmt: skip
    for check, weight in weights.items():
        assert weight == pytest.approx(per_tier[tier_of[check]]), check
    assert sum(weights.values()) == pytest.approx(1.0)


def _suite_with(tmp_path: Path, edit) -> Path:
    suite = tmp_path / "suites" / "vendorsync"
    suite.mkdir(parents=True)
    doc = yaml.safe_load((SUITE / "checks.yaml").read_text(encoding="utf-8"))
    edit(doc)
    (suite / "checks.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return suite


def test_a_checks_file_that_drifts_from_the_scorer_is_refused_naming_each_field(tmp_path):
    def drift(doc):
        doc["checks"]["no_such_check"] = {"earns": "x", "lowers": "y"}
        del doc["checks"]["v_filter"]
        del doc["checks"]["restart_persistence"]["home"]
        doc["checks"]["ui_states"]["home"] = "B"
        doc["checks"]["p_sync_wall"]["lowers"] = " "

    suite = _suite_with(tmp_path, drift)
    with pytest.raises(SpecError) as caught:
        load_registry(suite)
    assert caught.value.source == str(suite / "checks.yaml")
    assert sorted(field for field, _ in caught.value.problems) == [
        "checks.no_such_check", "checks.p_sync_wall.lowers", "checks.restart_persistence.home",
        "checks.ui_states.home", "checks.v_filter",
    ]  # fmt: skip
    assert main(["--suite", str(suite)]) == 2


def test_write_replaces_only_the_chapter_and_is_idempotent(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nIntro.\n\n## Checks\n\nold text\n\n## Later\n\nkept\n")
    assert main(["--suite", str(SUITE), "--write", str(page)]) == 0
    written = page.read_text()
    assert written == "# Title\n\nIntro.\n\n" + render(REGISTRY) + "\n## Later\n\nkept\n"
    main(["--suite", str(SUITE), "--write", str(page)])
    assert page.read_text() == written
    assert with_chapter("# Title\n", "## Checks\n") == "# Title\n\n## Checks\n"
    assert main(["--suite", str(SUITE)]) == 0 and capsys.readouterr().out == render(REGISTRY)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_vendorsync_grades_the_vendorsync_golden():
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", "setup", "demo-vendorsync"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    command = done.stdout.replace("\\\n", " ").splitlines()[0].split()
    assert command[:6] == [".venv/bin/benchwright", "grade", "suites/vendorsync", "--tree",
                           "suites/vendorsync/reference", "--json"]  # fmt: skip
    assert command[-1] == "--reference"  # the freeze gate, through the golden's build phase
