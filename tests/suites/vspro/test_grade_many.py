"""``benchwright grade SUITE --many TREE...``: one job per tree, each scorecard written as
it finishes, a row per tree in the order given, exit code the worst row's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from control_cases import GOLDEN, SUITE, needs_golden

from benchwright.errors import SpecError
from benchwright.suites.grade_many import TreeRow, read_trees, tree_names, worst


@needs_golden
@pytest.mark.slow
def test_two_trees_on_two_workers_give_the_one_worker_rows_and_a_card_each(cli, tmp_path):
    empty = tmp_path / "built-nothing"
    empty.mkdir()
    listed = tmp_path / "trees.txt"
    listed.write_text(f"# the golden, then a tree with nothing in it\n{GOLDEN}\n\nbuilt-nothing\n")
    runs = {}
    for workers in ("1", "2"):
        out = tmp_path / f"cards-{workers}"
        runs[workers] = cli("grade", str(SUITE), "--many", "--trees-from", str(listed),
                            "--phases", "static,boot", "--json-dir", str(out),
                            "--workers", workers)  # fmt: skip
        assert runs[workers].returncode == 0, runs[workers].stderr
    assert runs["2"].stdout == runs["1"].stdout
    reference, nothing = runs["2"].stdout.splitlines()
    assert reference.startswith("reference ") and reference.endswith("exit 0  completed")
    assert nothing.split()[:2] == ["built-nothing", "0.0000"]
    cards = {p.name: json.loads(p.read_text()) for p in (tmp_path / "cards-2").glob("*.json")}
    assert set(cards) == {"reference.json", "built-nothing.json"}
    golden_score = float(reference.split()[1])
    assert cards["reference.json"]["score"] == pytest.approx(golden_score, abs=5e-5)
    assert cards["reference.json"]["score"] > cards["built-nothing.json"]["score"] == 0.0
    assert "graded built-nothing" in runs["2"].stderr  # a progress line as each finishes


def test_trees_come_from_arguments_then_the_list_relative_to_it(tmp_path):
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
    listed = tmp_path / "list.txt"
    listed.write_text("  b  \n# c is out\n\nc\n")
    assert read_trees([tmp_path / "a"], listed) == [tmp_path / "a", tmp_path / "b", tmp_path / "c"]


def test_every_tree_that_is_no_directory_is_named_before_anything_runs(tmp_path):
    with pytest.raises(SpecError) as caught:
        read_trees([tmp_path, tmp_path / "gone", tmp_path / "lost"], None)
    assert caught.value.lines() == [
        f"--many: {tmp_path / 'gone'}: no such directory",
        f"--many: {tmp_path / 'lost'}: no such directory",
    ]
    with pytest.raises(SpecError, match="no trees: give them as arguments or --trees-from"):
        read_trees([], None)


def test_trees_of_one_name_get_numbered_cards_instead_of_sharing_one():
    trees = [Path("/x/vspro"), Path("/y/vspro"), Path("/z/app"), Path("/w/vspro")]
    assert tree_names(trees) == ["vspro", "vspro-2", "app", "vspro-3"]


def test_the_batch_exits_with_its_worst_row():
    def row(code: int) -> TreeRow:
        return TreeRow("t", "t", None, "-", code, "")

    assert worst([row(0), row(3), row(0)]) == 3
    assert worst([row(0), row(0)]) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--many", "--tree", "."], "--many grades TREE arguments: --tree, --json, --junit"),
        (["--many"], "--many: no trees: give them as arguments or --trees-from"),
        (["--many", "nowhere"], "--many: nowhere: no such directory"),
        (["."], "grade one tree with --tree PATH, several with --many TREE..."),
        (["--tree", ".", "--json-dir", "d"], "(--trees-from, --json-dir, --workers, --executor"),
        (["--tree", ".", "--workers", "2"], "several with --many TREE..."),
    ],
)
def test_many_and_one_tree_options_do_not_mix(cli, args, message):
    done = cli("grade", str(SUITE), *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
