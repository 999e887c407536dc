"""``board serve`` says where it listens, once it does (issue #26: it printed no URL)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx
import pytest
from conftest import BENCHWRIGHT

from benchwright.cli.board import listening_url

LISTENING = "board: listening on "


@pytest.mark.slow
def test_serve_prints_the_url_it_answers_on_with_the_port_it_got(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [str(BENCHWRIGHT), "board", "serve", "--db", f"sqlite:///{tmp_path / 'b.sqlite'}",
         "--port", "0"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        lines = []
        for line in server.stderr:
            lines.append(line)
            if line.startswith(LISTENING):
                break
        url = lines[-1].removeprefix(LISTENING).strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/"), lines
        assert not url.endswith(":0/")
        answer = httpx.get(url + "api/scorers", timeout=30)  # bound before it was printed
        assert answer.status_code == 200 and "sb-6.0" in answer.json()["accepted"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_an_ipv6_host_is_bracketed() -> None:
    assert listening_url(("::1", 8000, 0, 0)) == "http://[::1]:8000/"
    assert listening_url(("0.0.0.0", 80)) == "http://0.0.0.0:80/"
