"""The viewer over plain HTTP and on disk: nothing outside the paths given is ever read
(URLs with ``..``, evidence names pointing out, symlinks out of a run), problems answer
404/400 pages, and the command line refuses bad input with one line and exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest

from benchwright.errors import SpecError
from benchwright.viewer.sources import Sources
from viewer.conftest import cli


def test_a_screenshot_the_card_names_inside_its_directory_is_served(viewer, cards) -> None:
    shot = httpx.get(viewer + "/cards/good/evidence/screenshot_load-1280")
    assert shot.status_code == 200 and shot.headers["content-type"] == "image/png"
    assert shot.content == (cards["good"].parent / "good.browser/load/load-1280.png").read_bytes()


def test_the_app_log_and_trace_it_names_are_served_as_plain_text(viewer, cards) -> None:
    """The card page folds them and links here: text an app wrote, never a page."""
    for key, name in (("app_log", "good.app.log"), ("vendor_trace", "good.vendor-trace.jsonl")):
        answer = httpx.get(viewer + f"/cards/good/evidence/{key}")
        assert answer.status_code == 200, key
        assert answer.headers["content-type"] == "text/plain; charset=utf-8"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.content == (cards["good"].parent / name).read_bytes()


@pytest.mark.parametrize(
    "path",
    [
        "/cards/good/evidence/screenshot_escape",  # names ../outside.png
        "/cards/good/evidence/screenshot_absolute",  # names an absolute path outside
        "/cards/good/evidence/..%2F..%2Foutside.png",
        "/cards/%2E%2E/evidence/screenshot_load-1280",
        "/runs/%2E%2E%2F%2E%2E%2Fetc/trials/passwd/1",
        "/runs/{oracle}/trials/..%2F..%2F..%2Frun.json/1",
        "/runs/{oracle}/trials/fix-01/9",
        "/runs/{oracle}/tasks/%2E%2E",
        "/cards/nope",
    ],
)
def test_nothing_outside_the_given_paths_is_served(viewer, runs, path: str) -> None:
    answer = httpx.get(viewer + path.format(oracle=runs["oracle"]))
    assert answer.status_code == 404, (path, answer.text[:200])
    assert "outside" not in answer.text and "root:" not in answer.text


def test_pages_say_what_is_missing_and_refuse_mixed_compares(viewer, runs) -> None:
    missing = httpx.get(viewer + f"/runs/{runs['oracle']}/trials/fix-01/9")
    assert f"no trial &#39;fix-01&#39; #9 in run &#39;{runs['oracle']}&#39;" in missing.text
    mixed = httpx.get(viewer + f"/compare?a=run:{runs['oracle']}&b=card:good")
    assert mixed.status_code == 400 and "compare two runs (run:ID) or two scorecards" in mixed.text
    page = httpx.get(viewer + "/")
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_symlinks_out_of_a_run_are_not_followed(runs, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    root = tmp_path / "given"
    run = root / "copied"
    shutil.copytree(runs["dir"] / runs["oracle"], run)
    trial = run / "trials" / "fix-01" / "1"
    (trial / "agent.log").unlink()
    (trial / "agent.log").symlink_to(secret)
    (run / "trials" / "fix-02" / "1").rename(tmp_path / "moved")
    (run / "trials" / "fix-02" / "1").symlink_to(tmp_path / "moved")
    (root / "linked-run").symlink_to(runs["dir"] / runs["nop"])
    found = Sources.scan([root])
    # the symlinked run directory is skipped; a run is named by its directory, not by the
    # run_id its run.json claims
    assert list(found.runs) == ["copied"]
    shown = found.runs["copied"]
    assert shown.trial("fix-01", 1).text("agent.log") == ""
    assert shown.trial("fix-02", 1) is None
    assert shown.trial("fix-03", 1).text("agent.log").startswith("=== phase main")


def test_a_path_holding_nothing_to_show_is_named(tmp_path: Path) -> None:
    not_card = tmp_path / "other.json"
    not_card.write_text(json.dumps({"hello": 1}))
    with pytest.raises(SpecError, match="not a scorecard JSON"):
        Sources.scan([not_card])
    with pytest.raises(SpecError, match="holds no run directory and no scorecard JSON"):
        Sources.scan([tmp_path])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["view", "/nonexistent/runs"], "error: /nonexistent/runs: no such file or directory"),
        (["report", "/nonexistent/runs", "--html", "x.html"],
         "error: /nonexistent/runs: no such file or directory"),
        (["view", "{runs}", "--host", "203.0.113.9"],
         "error: --host 203.0.113.9 --port 0: cannot bind"),
    ],
)  # fmt: skip
def test_the_command_line_refuses_bad_input_with_exit_2(runs, args, message) -> None:
    done = cli(*(a.format(runs=runs["dir"]) for a in args), timeout=60)
    assert done.returncode == 2, done
    assert done.stderr.startswith(message) and len(done.stderr.splitlines()) == 1
