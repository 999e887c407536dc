"""Red team: the app under test reaching for the vendor mock's control plane (#24, item 4).

The app's vendor relay forwards its connections to the mock's public listener; a control
there (``/admin/phase`` resets the traps, ``stall`` disarms the hold, ``ledgers`` reads the
grade) would let the app steer or read its own grading. Held: the public listener has no
control in any spelling (`vendor_attacks`: paths, absolute-form targets, Host and
forwarding headers, pipelining, smuggling, obs-fold), the controls live on a listener of
their own that answers only the mock's token, and the mock's own webhook calls (a URL the
app chose) cannot use them either. Each attack asserts that every control the grader set
is still set, that no control ran (the trace), and that no answer said anything only a
control says. The sandboxed attacker does it all from inside a real sandbox, through the
bridge; the hostile golden (test_vendor_control_golden.py) does it during a grading.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from processes import survivors

from benchwright.sandbox import Confinement, unavailable_reason
from benchwright.services.app import AppUnderTest, BootPolicy, VendorRoute
from benchwright.services.meridian import MeridianMock, url_port
from benchwright.services.ports import lease_port
from security.vendor_attacks import ACTIONS, attacks, send, statuses, strike

ATTACKS_SOURCE = Path(__file__).with_name("vendor_attacks.py")
needs_bwrap = pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here")


@pytest.fixture(scope="module")
def served() -> Iterator[MeridianMock]:
    with MeridianMock(0) as mock:
        mock.start_control()
        yield mock


@pytest.fixture
def armed(served: MeridianMock) -> MeridianMock:
    """Every control a grader sets, set: half cap, stall, conflicts always, a register
    fault, one list request counted in the phase (a phase reset would zero it)."""
    served.reset()
    served.set_visible_cap(776)
    served.arm_stall(True)
    served.set_conflict_mode("always")
    served.arm_register_fault(port=1)
    assert httpx.get(served.base_url + "/v2/payments", trust_env=False).status_code == 200
    return served


def control_state(mock: MeridianMock) -> dict[str, Any]:
    """Everything a control can change, copied."""
    store = mock.store
    with store.lock:
        return copy.deepcopy(
            {
                "traps": dataclasses.asdict(store.traps),
                "conflict": (store.conflict_mode, store.conflict_armed),
                "cap": store.cap,
                "register_fault": store.register_fault,
                "webhook": store.webhook,
                "failing": store.failing,
                "generation": store.generation,
                "rows": store.rows,
                "created": store.created,
                "creates": mock.creates,
            }
        )


def controls_run(mock: MeridianMock, since: set[int]) -> list[dict]:
    """Trace lines after ``since`` (the seqs seen before) that only a control leaves: a
    control request that ran, a phase marker, a marker of a control call, a delivery."""
    return [
        line
        for line in mock.trace.lines()
        if line["seq"] not in since
        and ("admin" in line or "__phase__" in line or line["method"] == "POST(out)")
    ]


def seqs(mock: MeridianMock) -> set[int]:
    return {line["seq"] for line in mock.trace.lines()}


def test_every_spelling_of_every_control_on_the_api_listener_is_an_unknown_path(armed):
    before, since = control_state(armed), seqs(armed)
    port = url_port(armed.base_url)
    assert port is not None

    assert strike("127.0.0.1", port) == {}

    assert control_state(armed) == before
    assert controls_run(armed, since) == []
    arrived = [x for x in armed.trace.lines() if x["seq"] not in since and x["status"] == 404]
    assert len(arrived) >= 30 * len(ACTIONS), "the attacks did not reach the mock"


def test_admin_gets_the_very_bytes_of_any_unknown_path(armed):
    """Not a 403, not a shorter 404: nothing tells the app a control was ever there."""
    port = url_port(armed.base_url)
    assert port is not None

    def answer(path: str) -> bytes:
        raw = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}".encode()
        return re.sub(rb"Date: [^\r]*", b"Date: -", send("127.0.0.1", port, raw))

    for action in ACTIONS:
        assert answer(f"/admin/{action}") == answer(f"/nowhere/{action}")
        assert statuses(answer(f"/admin/{action}")) == [404, 200]  # and the sentinel's 200


def test_the_control_listener_runs_nothing_without_the_mocks_token(armed):
    """Every spelling of every control, then the vendor's own API key, a token one
    character off, the token without its scheme: 401 each, nothing runs."""
    before, since = control_state(armed), seqs(armed)
    port = url_port(armed.control_url)
    assert port is not None
    tries = [raw for action in ACTIONS for _, raw, _ in attacks(action, port)]
    token = armed.control_token
    for action, fields in ACTIONS.items():
        body = json.dumps(fields)
        for auth in ("Bearer sk_test_meridian", f"Bearer {token[:-1]}", token, f"bearer {token}",
                     f"Bearer  {token}", f"Bearer {token}x"):  # fmt: skip
            tries.append(
                f"POST /admin/{action} HTTP/1.1\r\nHost: x\r\nAuthorization: {auth}\r\n"
                f"Content-Length: {len(body)}\r\n\r\n{body}".encode()
            )
    for raw in tries:
        answer = send("127.0.0.1", port, raw)
        assert b'"ok"' not in answer and b"trap_results" not in answer, answer
        assert set(statuses(answer)) <= {400, 401, 404, 405}, answer

    assert control_state(armed) == before
    assert controls_run(armed, since) == []
    refused = [x for x in armed.trace.lines() if x["seq"] not in since and x["status"] == 401]
    assert len(refused) >= 6 * len(ACTIONS)


def test_a_webhook_registered_at_a_control_moves_nothing(armed):
    """The mock's handshake POSTs from the mock's side, to a URL the app chose: aimed at
    the controls, or at the API's own /admin, it is refused like a failed handshake."""
    before, since = control_state(armed), seqs(armed)
    port = url_port(armed.base_url)
    assert port is not None
    bases = [armed.control_url, armed.base_url, armed.control_url.replace("127.0.0.1", "localhost")]

    problems = strike("127.0.0.1", port, webhook_bases=bases)

    assert {name for name in problems if name.startswith("webhook")} == set()
    assert control_state(armed) == before
    assert controls_run(armed, since) == []
    hooks = [
        x for x in armed.trace.lines() if x["seq"] not in since and x["path"] == "/v2/webhooks"
    ]
    assert len(hooks) == len(bases) * len(ACTIONS)
    assert {x["handshake"] for x in hooks} == {"failed: status 401", "failed: status 404"}


ATTACKER = r"""
import http.server, json, os, socket, sys
import vendor_attacks as va

args = sys.argv[1:]
port = int(args[args.index("--port") + 1])
vendor, control, api = (int(os.environ[n]) for n in ("VENDOR_PORT", "CONTROL_PORT", "API_PORT"))

def dial(where):
    try:
        socket.create_connection(("127.0.0.1", where), timeout=2).close()
        return "connected"
    except OSError as exc:
        return f"refused: {exc}"

def attack():
    bases = [f"http://127.0.0.1:{control}", f"http://127.0.0.1:{api}"]
    return {
        "reached": va.statuses(va.send("127.0.0.1", vendor, b"")),
        "problems": va.strike("127.0.0.1", vendor, webhook_bases=bases),
        "dial_control": dial(control),
        "dial_api": dial(api),
    }

class Attack(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps(attack() if self.path == "/attack" else {"ok": True}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", port), Attack).serve_forever()
"""


@needs_bwrap
def test_a_sandboxed_app_trying_every_control_through_its_relay_moves_nothing(armed, tmp_path):
    """From inside a real sandbox, through the bridge: every spelling at the vendor address,
    webhooks aimed at the controls and at the API's real port, and a dial of both (an app
    that learned them): the ports are not even there, and nothing runs."""
    before, since = control_state(armed), seqs(armed)
    tree, marker = tmp_path / "tree", f"bw-vendor-attack-{uuid.uuid4().hex[:12]}"
    tree.mkdir()
    (tree / "attacker.py").write_text(ATTACKER)
    (tree / "vendor_attacks.py").write_text(ATTACKS_SOURCE.read_text())
    api, control = url_port(armed.base_url), url_port(armed.control_url)
    assert api is not None and control is not None
    env = {"VENDOR_PORT": "9003", "CONTROL_PORT": str(control), "API_PORT": str(api)}
    with lease_port() as lease:
        app = AppUnderTest(
            f"{{python}} attacker.py --db {{db}} --port {{port}} --marker {marker}",
            tree=tree,
            db=tmp_path / "db" / "graded.db",
            port=lease.port,
            env=env,
            health_path="/",
            policy=BootPolicy(poll_s=0.1, budget_s=10.0),
            log_path=tmp_path / "app.log",
            stop_grace_s=1.0,
            confinement=Confinement(),
            vendor=VendorRoute(9003, ("127.0.0.1", api)),
        )
        with app:
            assert app.boot_observation.ladder == 1.0, app.boot_observation.detail
            seen = httpx.get(app.base_url + "/attack", timeout=120, trust_env=False).json()

    assert seen["reached"] == [200], "the vendor address did not reach the mock"
    assert seen["problems"] == {}
    assert seen["dial_control"].startswith("refused: [Errno 111]"), seen["dial_control"]
    assert seen["dial_api"].startswith("refused: [Errno 111]"), seen["dial_api"]
    assert control_state(armed) == before
    assert controls_run(armed, since) == []
    hooks = [
        x for x in armed.trace.lines() if x["seq"] not in since and x["path"] == "/v2/webhooks"
    ]
    assert {x["handshake"] for x in hooks} == {"failed: status 401", "failed: status 404"}
    assert survivors(marker) == [], "a process of the attacker outlived it"
