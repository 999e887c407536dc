"""An app that dies at boot (issue #26 item 5), graded through the real command line: the
golden reference with its entry point broken to raise, so the grading takes seconds.

The terminal says it once, at the top (``app exited 1 at boot: <last line>``), prints the
traceback once, says on the boot's phase line that the boot failed, and names
``server_runs`` as the one root; the viewer's card page shows the same headline, the
attribution as a table, and why there are no screenshots.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from viewer.conftest import cli, serving

GOLDEN = Path(__file__).parents[3] / "suites" / "vspro" / "reference"
BROKEN = "    raise RuntimeError(f'cannot open {args.db}: driver missing')\n"
LAST_LINE = "RuntimeError: cannot open "


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The golden tree whose ``main`` raises before it binds its port, graded with
    ``--json``: the process and the card."""
    if not (GOLDEN / "vspro" / "__main__.py").is_file():
        pytest.skip("golden reference not present")
    tmp = tmp_path_factory.mktemp("crashed")
    tree = tmp / "tree"
    skip = shutil.ignore_patterns("__pycache__", "*.db*", "sb6-reference-pass.json")
    shutil.copytree(GOLDEN, tree, ignore=skip)
    main = tree / "vspro" / "__main__.py"
    text = main.read_text()
    anchor = "    args = parse_args(argv)\n"
    assert anchor in text
    main.write_text(text.replace(anchor, anchor + BROKEN, 1))
    card = tmp / "reports" / "crashed.json"
    done = cli("grade", "suites/vspro", "--tree", str(tree), "--json", str(card), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return {"done": done, "card": card, "doc": json.loads(card.read_text())}


def test_the_terminal_says_why_once(crashed: dict[str, Any]) -> None:
    out: str = crashed["done"].stdout
    lines = out.splitlines()
    assert lines[0].startswith(f"app exited 1 at boot: {LAST_LINE}"), lines[0]
    assert lines[0].endswith(": driver missing")
    assert out.count("Traceback (most recent call last)") == 1
    assert out.count("raise RuntimeError") == 1
    phases = lines[lines.index("phases:") + 1 :]
    boot = next(line for line in phases if line.split()[0] == "boot")
    assert "app exited 1 at boot" in boot and not boot.endswith(" ok"), boot
    assert "phase boot: app exited 1 at boot" in crashed["done"].stderr
    roots = [line for line in lines if line.startswith("ROOT ")]
    assert len(roots) == 1 and roots[0].startswith("ROOT server_runs (0.0000) explains ")
    assert "sync_completeness" in roots[0]  # a dependent of the boot, not a root of its own
    blocked = [line for line in lines if "(see the boot failure above)" in line]
    assert len(blocked) > 40
    assert len(lines) < 200, len(lines)


def test_the_card_records_the_failure_and_its_root(crashed: dict[str, Any]) -> None:
    doc = crashed["doc"]
    failure = doc["grading"]["boot_failure"]
    assert failure["headline"].startswith(f"app exited 1 at boot: {LAST_LINE}")
    assert failure["output"].startswith("Traceback (most recent call last)")
    assert [a["root"] for a in doc["attribution"]] == ["server_runs"]
    rows = {r["check_id"]: r for r in doc["grading"]["results"]}
    assert "Traceback" in rows["server_runs"]["evidence"]["output"]
    assert "Traceback" not in json.dumps([r["detail"] for r in doc["rows"]])
    assert rows["sync_completeness"]["evidence"]["blocked_by"] == "server_runs"


@pytest.fixture(scope="module")
def served(crashed: dict[str, Any]) -> Iterator[str]:
    with serving(crashed["card"]) as url:
        yield url


def test_the_card_page_reads_as_a_boot_failure(crashed, served, page) -> None:
    page.goto(f"{served}/cards/{crashed['card'].stem}")
    headline = page.locator(".boot-failure .headline").inner_text()
    assert headline == crashed["doc"]["grading"]["boot_failure"]["headline"]
    assert page.locator("pre.boot-output").count() == 1
    assert "Traceback" in page.locator("pre.boot-output").inner_text()
    table = page.locator("table.attribution")
    assert table.locator("tbody tr").count() == 1
    root = table.locator("tbody tr").first
    assert root.get_attribute("data-root") == "server_runs"
    assert root.locator("td").nth(0).inner_text() == "server_runs"
    assert int(root.locator("td").nth(2).inner_text()) > 40
    body = page.locator("main").inner_text()
    assert "{'root'" not in body and "'dependents'" not in body
    empty = page.locator(".gallery, .no-shots").first
    assert "never booted" in empty.inner_text(), empty.inner_text()
    assert "were posted" not in body
