"""The issue's acceptance, end to end with real processes: grade the vspro golden, start
``benchwright board serve``, ``benchwright publish reports/vspro.json --to URL``; the run
is on the board and its card (in Chromium) shows the scorecard and its screenshots."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import BENCHWRIGHT

REPO = Path(__file__).parents[2]
GOLDEN = REPO / "suites" / "vspro" / "reference"
READY_S = 30.0

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present"),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The board's database and the poster's identity live here."""
    return tmp_path_factory.mktemp("e2e")


@pytest.fixture(scope="module")
def board_url(workdir: Path) -> Iterator[str]:
    """``benchwright board serve`` on a free port of 127.0.0.1 with a fresh SQLite file."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [str(BENCHWRIGHT), "board", "serve", "--db", f"sqlite:///{workdir / 'board.sqlite'}",
         "--port", str(port)],
        cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_S
        while True:
            try:
                if httpx.get(url + "/api/scorers", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, server.communicate()[0]
            assert time.monotonic() < deadline, f"board not ready within {READY_S} s"
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_published_grading_is_on_the_board_with_its_card_and_screenshots(
    workdir: Path, board_url: str, browser, golden_card: Path
) -> None:
    card = json.loads(golden_card.read_text())
    env = {**os.environ, "XDG_CONFIG_HOME": str(workdir / "config")}
    done = subprocess.run(
        [str(BENCHWRIGHT), "publish", str(golden_card), "--to", board_url,
         "--model", "golden-reference"],
        cwd=workdir, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run_url = done.stdout.strip()
    handle = json.loads((workdir / "config/benchwright/identity.json").read_text())["handle"]
    marked = [k for k in card["grading"]["evidence"] if k.startswith("screenshot_")]
    assert 1 <= len(marked) <= 5
    chosen = [s["name"] for s in card["grading"]["screenshots"] if s["published"]]
    assert marked == [f"screenshot_{name}" for name in chosen]  # the rule's five, in order

    page = browser.new_context().new_page()
    page.goto(board_url + "/")
    assert page.locator("h1 .version").inner_text() == card["scorer_version"]
    page.get_by_role("link", name=handle).click()
    page.wait_for_url(run_url)
    assert page.locator(".score-value").inner_text() == f"{card['score']:.4f}"
    assert page.locator("tr.check").count() == len(card["rows"])
    thumbs = page.locator("img.thumb")
    assert thumbs.count() == len(marked)
    for n in range(len(marked)):
        thumbs.nth(n).scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    widths = thumbs.evaluate_all("imgs => imgs.map(i => i.naturalWidth)")
    assert all(w > 0 for w in widths), widths
    shown = thumbs.evaluate_all("imgs => imgs.map(i => i.getBoundingClientRect().width)")
    assert all(w >= 320 for w in shown), shown  # large enough to read
    assert page.locator(".shot-name").all_inner_texts() == [f"{n}.png" for n in chosen]
    page.context.close()
