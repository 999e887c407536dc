"""The harness on a tree whose ledgerd dies at boot: the boot is the gate, so the phases
that need a running ledgerd are recorded as the app's absence (never run, never a harness
fault), the vendor's ledgers are still read, the boot's failure is said once, and the
rows read it as the app's: server_runs 0, the rows that needed the app blocked by it.
A crashing ``python -m app`` fails the smoke boot too; notifierd, which works, is seen
healthy on its own."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import Status
from benchwright.suites.sb7 import grade
from benchwright.suites.sb7.observations import BOOT, SMOKE

pytestmark = pytest.mark.slow

NOTIFIERD = """
import http.server, json, sys

args = sys.argv[1:]
port = int(args[args.index("--port") + 1])

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"status": "ok"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


@pytest.fixture(scope="module")
def dead(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tree = tmp_path_factory.mktemp("dead-ledgerd")
    for package in ("app", "app/ledgerd", "app/notifierd"):
        (tree / package).mkdir(exist_ok=True)
        (tree / package / "__init__.py").write_text("")
    (tree / "app" / "__main__.py").write_text("raise SystemExit('combined: not built')\n")
    (tree / "app" / "ledgerd" / "__main__.py").write_text("raise RuntimeError('no ledger')\n")
    (tree / "app" / "notifierd" / "__main__.py").write_text(NOTIFIERD)
    return grade(tree, seed=3)


def test_a_dead_ledgerd_stops_the_app_phases_but_not_the_vendors(dead: Any) -> None:
    outcomes = {p.name: p.outcome for p in dead.phases}
    assert outcomes["tree"] == outcomes["smoke"] == outcomes["vendor"] == "ok"
    assert outcomes["boot"].startswith("app exited 1 at boot: RuntimeError: no ledger")
    assert {n for n, o in outcomes.items() if o == "app down"} == {
        "sync1",
        "reads",
        "matrix",
        "resync",
        "partition",
        "workflow",
        "final",
        "stream",
        "browser",
    }
    assert dead.boot_failure is not None and "no ledger" in dead.boot_failure.headline
    obs = dead.observations
    assert obs[BOOT].notifierd.healthy_after_s is not None
    assert obs[BOOT].ledgerd.healthy_after_s is None and not obs[BOOT].b4.recovered_unattended
    assert not obs[SMOKE].ledgerd_healthy and not obs[SMOKE].notifierd_healthy


def test_the_rows_read_a_dead_ledgerd_as_the_apps(dead: Any) -> None:
    rows = {r.check_id: r for r in dead.rows}
    assert rows["server_runs"].score < 0.4
    assert rows["a_combined_entrypoint"].score == 0.0
    assert rows["r_b4_vendor_down_boot"].score < 1.0
    assert all(r.status is not Status.INFRA for r in dead.rows)
