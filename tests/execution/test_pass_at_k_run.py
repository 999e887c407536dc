"""pass@k end to end: a real 3-iteration run through ``benchwright run`` whose agent solves
the task in exactly one of its trials, read back from ``summary.json``, the terminal,
``runs show``, the served viewer and ``report --html``.

The agent is honest about which trial it is in without any help from the harness: it
asks a real HTTP counter on 127.0.0.1 (outside every workspace and sandbox, reached
over the command agent's host network) for a ticket, and does the whole job only on
ticket 2. Whatever order the trials run in, exactly one gets that ticket.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from viewer.conftest import serving

from .minisuites import make_suite

pytestmark = pytest.mark.slow

AGENT = """\
import pathlib, sys, urllib.request
ticket = int(urllib.request.urlopen(sys.argv[1], timeout=30).read())
pathlib.Path("half.txt").write_text("always")
if ticket == 2:
    pathlib.Path("whole.txt").write_text("only once")
"""
FIGURES = {"trials": 3, "passed": 1, "errored": 0,
           "pass_at_k": {"1": 0.333333, "2": 0.666667, "3": 1.0},
           "mean_score": 0.666667}  # fmt: skip
"""Two file checks: 1 + 0.5 + 0.5 over three trials is a mean score of 2/3."""
SHOWN = "pass@1 0.33, pass@3 1.00, mean score 0.67"


@pytest.fixture
def ticket_url() -> Iterator[str]:
    """A counter that hands out 1, 2, 3 … one per request, under a lock."""
    issued = [0]
    lock = threading.Lock()

    class Tickets(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with lock:
                issued[0] += 1
                body = str(issued[0]).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Tickets)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/ticket"
    finally:
        server.shutdown()
        server.server_close()


def test_one_pass_in_three_iterations_is_pass_at_1_a_third_and_pass_at_3_one(
    cli, tmp_path: Path, ticket_url: str
) -> None:
    checks = [{"type": "file_exists", "path": "half.txt"},
              {"type": "file_exists", "path": "whole.txt"}]  # fmt: skip
    make_suite(tmp_path / "suite", [{"id": "t", "class": "edit", "workspace": {"a": "a"},
                                     "checks": checks}])  # fmt: skip
    (tmp_path / "agent.py").write_text(AGENT)
    done = cli("run", "suite", "--agent", f"command:python {tmp_path / 'agent.py'} {ticket_url}",
               "--iterations", "3", "--workers", "2", "--out", "runs")  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr  # strictly: not every trial passed
    with urllib.request.urlopen(ticket_url) as answer:
        assert int(answer.read()) == 4  # the three trials took a ticket each

    [run_dir] = (tmp_path / "runs").iterdir()
    summary = json.loads((run_dir / "summary.json").read_text())
    task = summary["tasks"]["t"]
    assert (task["verdict"], sorted(task["iterations"])) == ("failed", ["failed", "failed",
                                                                        "passed"])  # fmt: skip
    assert task["per_trial"] == FIGURES
    assert summary["classes"]["edit"]["per_trial"] == {**FIGURES, "tasks": 1}
    assert summary["per_trial"]["correctness"] == {**FIGURES, "tasks": 1}
    assert summary["tiers"]["correctness"]["passed"] == 0

    assert "correctness: 0/1 passed (0.0%), 0 errored, 1 task(s); a task passes only if all 3 " \
           "iterations passed" in done.stdout  # fmt: skip
    assert f"correctness per trial: {SHOWN} (3 trial(s), 0 errored)" in done.stdout
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in done.stdout.splitlines()]
    assert ["edit", "3", "1", "0", "0.33", "1.00", "0.67"] in rows  # the per-trial table

    shown = cli("runs", "show", run_dir.name)
    assert shown.returncode == 0, shown.stderr
    assert f"correctness per trial: {SHOWN} (3 trial(s), 0 errored)" in shown.stdout.splitlines()
    [line] = [line for line in shown.stdout.splitlines() if " t (" in line]
    assert line.split(" t (", 1)[1].endswith(f"; {SHOWN})")

    with (
        serving(tmp_path / "runs") as url,
        urllib.request.urlopen(f"{url}/runs/{run_dir.name}") as page,
    ):
        html = page.read().decode()
    assert f'<td class="per-trial">{SHOWN}</td>' in html
    assert f"{SHOWN} (3 trial(s), 0 errored)" in html

    report = cli("report", "runs", "--html", "report.html")
    assert report.returncode == 0, report.stderr
    assert f'<td class="per-trial">{SHOWN}</td>' in (tmp_path / "report.html").read_text()

    # An agent that rewrites a failed trial's result.json as passed gains nothing: the
    # figures come from the sealed summary, and a run with a tampered file shows none.
    failed = next(p for p in run_dir.glob("trials/t/*/result.json")
                  if json.loads(p.read_text())["verdict"] == "failed")  # fmt: skip
    failed.write_text(failed.read_text().replace('"failed"', '"passed"'))
    shown = cli("runs", "show", run_dir.name)
    assert "verdicts withheld: the run has tampered files" in shown.stdout
    assert "per trial" not in shown.stdout and SHOWN not in shown.stdout
    with (
        serving(tmp_path / "runs") as url,
        urllib.request.urlopen(f"{url}/runs/{run_dir.name}") as page,
    ):
        html = page.read().decode()
    assert '<td class="per-trial">withheld (tampered)</td>' in html and SHOWN not in html
