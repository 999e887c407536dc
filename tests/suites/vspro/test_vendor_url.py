"""The vendor where the entrant was told it is (issue #13, item 0).

The app under test is the golden with its vendor hard-coded at one base URL and
``MERIDIAN_BASE_URL`` ignored, as an app built for the public benchmark does (it
was told ``http://127.0.0.1:9003``). Sandboxed, every grading serves the vendor at
that address on a loopback of its own, so gradings at once never contend for it;
unconfined, the mock must hold the port itself, and a taken port is refused.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchwright.cli import app
from benchwright.sandbox import unavailable_reason
from benchwright.services.ports import lease_port

REPO = Path(__file__).parents[3]
SUITE = str(REPO / "suites" / "vspro")
GOLDEN = REPO / "suites" / "vspro" / "reference"
BENCHWRIGHT = Path(sys.executable).parent / "benchwright"
PHASES = "sync1,sync_full,reads"
"""Enough to sync every payment (sync1 sees the half cap) and count them (reads)."""
ENV_READ = 'os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_VENDOR'

pytestmark = pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="no golden reference")
sandboxed = pytest.mark.skipif(bool(unavailable_reason()), reason=f"{unavailable_reason()}")


def hard_coded(tmp_path: Path, url: str) -> Path:
    """The golden, told the vendor is at ``url`` and deaf to ``MERIDIAN_BASE_URL``."""
    tree = tmp_path / f"hard-coded-{url.rsplit(':', 1)[1]}"
    shutil.copytree(GOLDEN, tree, ignore=shutil.ignore_patterns("*.db*", "sb6-reference-pass*"))
    main = tree / "vspro" / "__main__.py"
    source = main.read_text()
    assert ENV_READ in source, "the golden no longer reads its vendor URL this way"
    main.write_text(source.replace(ENV_READ, repr(url)))
    return tree


def grade(tree: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    argv = [str(BENCHWRIGHT), "grade", SUITE, "--tree", str(tree), "--phases", PHASES]
    argv += ["--json", str(out), *extra]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def completeness(proc: subprocess.Popen[str], out: Path) -> dict:
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, output
    rows = {r["check_id"]: r for r in json.loads(out.read_text())["grading"]["results"]}
    return rows["sync_completeness"]


@sandboxed
def test_three_gradings_at_once_each_serve_the_vendor_at_the_rendered_9003(tmp_path):
    tree = hard_coded(tmp_path, "http://127.0.0.1:9003")
    with socket.socket() as squatter:  # the host's 9003 is taken: it plays no part
        with contextlib.suppress(OSError):  # taken already: as good
            squatter.bind(("127.0.0.1", 9003))
            squatter.listen()
        outs = [tmp_path / f"card{i}.json" for i in range(3)]
        procs = [grade(tree, out) for out in outs]
        rows = [completeness(proc, out) for proc, out in zip(procs, outs, strict=True)]
    for row in rows:
        assert row["status"] == "PASS", row
        assert row["detail"] == "1: best count 1553 (GET /api/payments total) of 1553"


@sandboxed
def test_a_hard_coded_app_told_another_address_syncs_nothing(tmp_path):
    """The near miss: the app dials 9003, the grading renders 9004: nothing answers it."""
    tree = hard_coded(tmp_path, "http://127.0.0.1:9003")
    out = tmp_path / "card.json"
    row = completeness(grade(tree, out, "--vendor-url", "http://127.0.0.1:9004"), out)
    assert row["score"] == 0.0 and "best count 0" in row["detail"], row


def test_unconfined_the_mock_listens_on_the_rendered_port_itself(tmp_path):
    with lease_port(lock_dir=tmp_path) as lease:
        url = f"http://127.0.0.1:{lease.port}"
        out = tmp_path / "card.json"
        proc = grade(hard_coded(tmp_path, url), out, "--no-sandbox", "--vendor-url", url)
        row = completeness(proc, out)
    assert row["status"] == "PASS" and "best count 1553" in row["detail"], row


def test_unconfined_a_taken_rendered_port_is_refused_in_one_line_naming_the_cure(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        url = f"http://127.0.0.1:{taken.getsockname()[1]}"
        done = CliRunner().invoke(
            app,
            ["grade", SUITE, "--tree", str(GOLDEN), "--phases", "boot", "--no-sandbox",
             "--vendor-url", url],
        )  # fmt: skip
    assert done.exit_code == 3, done.output
    lines = [line for line in done.output.splitlines() if "cannot serve the vendor" in line]
    assert len(lines) == 1, done.output
    assert f"--no-sandbox: cannot serve the vendor at {url}" in lines[0]
    assert "run sandboxed, where every grading has that address to itself" in lines[0]


@pytest.mark.parametrize(
    "url", ["https://127.0.0.1:9003", "http://10.0.0.1:9003", "http://127.0.0.1", "http://127.0.0.1:80",
            "http://127.0.0.1:9003/v2"],
)  # fmt: skip
def test_a_vendor_url_off_the_loopback_or_without_a_port_is_invalid_input(url):
    done = CliRunner().invoke(
        app, ["grade", SUITE, "--tree", str(GOLDEN), "--phases", "boot", "--vendor-url", url]
    )
    assert done.exit_code == 2, done.output
    assert "--vendor-url" in done.output and repr(url) in done.output
