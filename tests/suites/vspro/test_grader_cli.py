"""``benchwright grade``: input errors exit 2, a static-only run writes a full scorecard."""

import json
from pathlib import Path

from typer.testing import CliRunner

from benchwright.cli import app

REPO = Path(__file__).parents[3]
SUITE = str(REPO / "suites" / "vspro")


def run(*args):
    return CliRunner().invoke(app, ["grade", *args])


def test_unknown_suite_and_phase_and_missing_tree_exit_2(tmp_path):
    assert run("suites/nope", "--tree", str(tmp_path)).exit_code == 2
    bad = run(SUITE, "--tree", str(tmp_path), "--phases", "static,sink")
    assert bad.exit_code == 2 and "unknown phase(s) sink" in bad.output
    gone = run(SUITE, "--tree", str(tmp_path / "missing"))
    assert gone.exit_code == 2 and "is not a directory" in gone.output


def test_static_only_grading_of_a_nested_tree(tmp_path):
    package = tmp_path / "build" / "nested" / "vspro"
    (package / "web").mkdir(parents=True)
    (package / "store.py").write_text("CREATE TABLE payments (id TEXT PRIMARY KEY)\n")
    (package / "web" / "index.html").write_text("<html></html>")
    out = tmp_path / "out" / "card.json"
    done = run(SUITE, "--tree", str(tmp_path / "build"), "--phases", "static", "--json", str(out))
    assert done.exit_code == 0, done.output
    assert "SUBSET:" in done.output
    doc = json.loads(out.read_text())
    assert doc["grading"]["tree"].endswith("nested")
    assert [p["name"] for p in doc["grading"]["phases"]] == ["static"]
    rows = {r["check_id"]: r for r in doc["grading"]["results"]}
    assert rows["store_indexed"]["score"] == 1.0
    assert rows["modules_present"]["detail"].startswith("0.25: 2/8")
    assert rows["server_runs"]["status"] == "NOT_ATTEMPTED"
    assert doc["grading"]["evidence"] == {}  # no app ran, so no log and no trace
