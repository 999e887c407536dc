"""The sandbox, against real bubblewrap: what a confined process can and cannot do."""

from __future__ import annotations

import dataclasses
import http.server
import os
import sys
import threading
from pathlib import Path

import pytest

from benchwright.probes import run_command
from benchwright.sandbox import (
    UID_RANGE,
    UNCONFINED,
    Confinement,
    Limits,
    Network,
    unavailable_reason,
)

pytestmark = pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here")


@pytest.fixture
def box(tmp_path: Path) -> Path:
    """A workspace beside a secret, in a private (0700) parent, as trials have."""
    (tmp_path / "secret.txt").write_text("grader only")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "mine.txt").write_text("agent's")
    return workspace


def _py(code: str, workspace: Path, *, confinement: Confinement | None = None, **kw):
    sandbox = (confinement or Confinement()).sandbox([workspace], **kw)
    return run_command([sys.executable, "-c", code], workspace, timeout_s=30, sandbox=sandbox)


def test_the_workspace_is_writable_and_the_rest_of_the_host_is_not_there(box):
    code = (
        "import os, pathlib\n"
        "pathlib.Path('new.txt').write_text('x')\n"
        f"print(os.path.exists({str(box.parent / 'secret.txt')!r}))\n"
        f"print(sorted(os.listdir({str(box.parent)!r})))\n"
        "print(os.path.exists('/work'), os.path.exists('/root/.ssh'))\n"
        "for target in ('/usr/evil', '/etc/evil'):\n"
        "    try:\n"
        "        open(target, 'w')\n"
        "        print('wrote', target)\n"
        "    except OSError as exc:\n"
        "        print('refused', exc.errno)\n"
    )
    done = _py(code, box)
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "False" and lines[1] == "['workspace']"
    assert lines[3:] == ["refused 30", "refused 30"]  # EROFS: the system is read-only
    assert (box / "new.txt").read_text() == "x"


def test_home_and_tmp_are_private_and_empty(box, tmp_path):
    code = (
        "import os, tempfile\n"
        "print(os.environ['HOME'], os.listdir(os.environ['HOME']))\n"
        "open(os.path.join(tempfile.gettempdir(), 'left'), 'w').write('x')\n"
        "print(sorted(os.listdir('/tmp')))\n"
    )
    done = _py(code, box)
    home, tmp = done.stdout.splitlines()
    assert home == "/tmp/home []"
    assert "left" in tmp and not any(p.name == "left" for p in Path("/tmp").iterdir())


def test_it_runs_as_an_unprivileged_uid_with_no_capabilities(box):
    code = "import os; print(os.getuid(), open('/proc/self/status').read().split('CapEff:')[1])"
    done = _py(code, box)
    uid, caps = done.stdout.split()[:2]
    assert int(caps, 16) == 0
    if os.geteuid() == 0:
        assert int(uid) in UID_RANGE


def test_it_sees_only_its_own_processes(box):
    done = _py("import os; print(len([p for p in os.listdir('/proc') if p.isdigit()]))", box)
    assert int(done.stdout) <= 3  # bubblewrap's init, python (and a reaper at most)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def host_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


CONNECT = (
    "import socket, sys\n"
    "try:\n"
    "    socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3).close()\n"
    "    print('reached')\n"
    "except OSError as exc:\n"
    "    print('unreachable', exc.errno)\n"
)


@pytest.mark.parametrize(
    ("network", "expected"),
    [
        (Network.NONE, "unreachable"),
        (Network.BRIDGED, "unreachable"),  # only what its bridge relays crosses
        (Network.LOOPBACK, "reached"),
        (Network.HOST, "reached"),
    ],
)
def test_the_network_policy_decides_what_a_host_service_sees(box, host_server, network, expected):
    sandbox = Confinement().sandbox([box], network=network)
    argv = [sys.executable, "-c", CONNECT, str(host_server)]
    done = run_command(argv, box, timeout_s=30, sandbox=sandbox)
    assert done.stdout.split()[0] == expected, done.stderr


@pytest.mark.parametrize(
    ("code", "limits", "reason"),
    [
        ("bytearray(400 * 2**20)", Limits(memory_mb=256), "limit: memory (256 MiB"),
        ("import os\nfor _ in range(64):\n    os.fork() or __import__('time').sleep(5)",
         Limits(processes=16), "limit: process count (16) reached"),
        ("open('big', 'wb').write(b'x' * 3 * 2**20)", Limits(file_size_mb=1),
         "limit: a file grew past 1 MiB"),
    ],
)  # fmt: skip
def test_a_limit_hit_is_recorded_as_the_reason(box, code, limits, reason):
    done = _py(code, box, confinement=Confinement(limits=limits))
    assert done.exit_code != 0
    assert done.limit is not None and done.limit.startswith(reason), (done.limit, done.stderr)


def test_an_ordinary_failure_is_not_blamed_on_a_limit(box):
    done = _py("raise SystemExit(3)", box)
    assert done.exit_code == 3 and done.limit is None


def test_a_missing_program_is_a_start_error_not_an_exit_code(box):
    sandbox = Confinement().sandbox([box])
    done = run_command(["no-such-agent", "--x"], box, timeout_s=30, sandbox=sandbox)
    assert done.error == "cannot start 'no-such-agent': not found"


def test_readable_paths_are_shown_read_only(box, tmp_path):
    tool = tmp_path / "tool.txt"
    tool.write_text("tool")
    code = (
        f"print(open({str(tool)!r}).read())\n"
        "try:\n"
        f"    open({str(tool)!r}, 'w')\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    done = _py(code, box, confinement=Confinement(readable=(tool,)))
    assert done.stdout.split() == ["tool", "refused", "30"]


def test_unconfined_runs_on_the_host(box):
    assert UNCONFINED.sandbox([box]) is None
    assert UNCONFINED.isolation == "none" and Confinement().isolation == "bwrap"


def test_at_the_budget_the_command_gets_its_grace_past_bubblewrap(box):
    code = (
        "import signal, sys, time\n"
        "def flush(*_):\n"
        "    open('flushed', 'w').write('yes')\n"
        "    sys.exit(0)\n"
        "signal.signal(signal.SIGTERM, flush)\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    sandbox = Confinement().sandbox([box])
    argv = [sys.executable, "-c", code]
    done = run_command(argv, box, timeout_s=1.5, grace_s=2, sandbox=sandbox)
    assert done.timed_out
    assert (box / "flushed").read_text() == "yes", "SIGTERM never reached the command"


def test_an_edge_runs_its_relay_before_the_command_in_a_namespace_of_its_own(box, tmp_path):
    """`Edge`: the relay's words run first (they exec the command), its directory is
    writable, its files readable, its variables set, and the network is unshared whatever
    the caller asked for."""
    from benchwright.sandbox import Edge, command_line

    relay_dir = tmp_path / "edge"
    relay_dir.mkdir()
    script = tmp_path / "relay.sh"
    script.write_text('echo relayed > "$1/mark"; shift; exec "$@"\n')
    edge = Edge(relay_dir, ("/bin/sh", str(script), str(relay_dir)), (script,),
                (("EDGE_VAR", "set"),))  # fmt: skip
    sandbox = Confinement().sandbox([box], network=Network.HOST, edge=edge)
    assert sandbox is not None and sandbox.network is Network.BRIDGED
    words = command_line(dataclasses.replace(sandbox, uid=UID_RANGE[0]), ["true"], box)
    assert "--unshare-net" in words and words[-4:] == ["/bin/sh", str(script), str(relay_dir),
                                                       "true"]  # fmt: skip
    done = _py("import os; print(os.environ['EDGE_VAR'])", box, network=Network.HOST, edge=edge)
    assert done.stdout.strip() == "set", done.stderr
    assert (relay_dir / "mark").read_text() == "relayed\n"
