"""AppUnderTest boots real processes, rates the boot on the seed's ladder, and leaves
nothing behind: every test ends by scanning /proc for the app's group and session, and
for any process whose command line names the test's directory.

Every app test runs twice: unconfined, and inside the sandbox (bubblewrap, loopback)."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from benchwright.errors import HarnessError
from benchwright.sandbox import UNCONFINED, Confinement, unavailable_reason
from benchwright.services import app as app_module
from benchwright.services.app import (
    AppUnderTest,
    BootObservation,
    BootPolicy,
    boot_headline,
    boot_ladder,
)
from benchwright.services.ports import lease_port, port_is_free

FAKE_APP = r"""
import http.server, os, signal, socket, subprocess, sys, time

mode, args = sys.argv[1], sys.argv[2:]
db, port = args[args.index("--db") + 1], int(args[args.index("--port") + 1])
delay = float(os.environ.get("FAKE_DELAY", "0"))
if os.environ.get("FAKE_IGNORE_TERM"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
print(f"boot mode={mode} db_existed={os.path.exists(db)} cwd={os.getcwd()} "
      f"pythonpath={os.environ.get('PYTHONPATH')} vendor={os.environ.get('MERIDIAN_BASE_URL')}")
if mode == "crash":
    def nest(depth):
        if depth == 0:
            raise RuntimeError("boom: MERIDIAN_API_KEY is not set")
        nest(depth - 1)
    nest(40)
if mode == "sleep":
    time.sleep(60)
if mode == "late-exit":
    time.sleep(delay)
    sys.exit(3)
if mode == "hang":  # bound and listening, never answers: the kernel accepts into the backlog
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    time.sleep(60)
if mode == "selfkill":
    os.kill(os.getpid(), signal.SIGKILL)
if mode == "graceful":  # SIGTERM: take a moment, leave a note, then exit cleanly
    def bye(*_):
        time.sleep(0.5)
        with open(db + ".bye", "w") as out:
            out.write("stopped gracefully")
        sys.exit(0)
    signal.signal(signal.SIGTERM, bye)
if mode == "family":  # a child that ignores SIGTERM, and one that also left the group
    stubborn = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
    escaped = "import os; os.setsid(); " + stubborn
    # the db path in each child's argv lets the test find it in /proc (pids differ in a sandbox)
    kids = [subprocess.Popen([sys.executable, "-c", code, db]) for code in (stubborn, escaped)]
time.sleep(delay)
with open(db, "a") as store:
    store.write("row\n")
answers = {"500": (500, b'{"error": {}}'), "html": (200, b"<p>up</p>")}
status, body = answers.get(mode, (200, b'{"status": "ok"}'))

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""

ROOMY = BootPolicy(poll_s=0.1, budget_s=60.0, rung_s=30.0, request_timeout_s=5.0)
"""For tests about anything but the clock: a healthy app earns 1.0 however busy the host
(its boot takes ~0.3 s idle, seconds under load), and no test waits this budget out."""
SHORT_BUDGET = BootPolicy(poll_s=0.1, budget_s=5.0, rung_s=1.0, request_timeout_s=1.0)
"""For the rungs an app earns by *not* becoming healthy, which a test must wait out: a
budget many times an idle boot, so binding (0.4 rather than 0.15) is not a race."""
LATE = BootPolicy(poll_s=0.1, budget_s=60.0, rung_s=1.0, request_timeout_s=5.0)
"""For an app that is healthy only after the 1 s rung (it sleeps 1.3 s first): 0.75,
however long the host then takes."""
PROMPTLY_S = 30.0
"""What "at once" means in a test: far below the 60 s a wrong wait would take (a budget,
a grace, a child's sleep), far above any boot or stop on a busy host."""


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, pgrp, session) read straight from /proc, independently of the code under test."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return fields[0], int(fields[2]), int(fields[3])


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def _naming(*texts: str) -> list[int]:
    """Live processes (not this one) whose command line contains every one of ``texts``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if all(text in cmdline for text in texts) and _alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def _kids(app: AppUnderTest) -> tuple[int, int]:
    """(stubborn, escaped): the ``family`` mode's children as host pids, found by the db
    in their command lines (inside a sandbox the app sees other pids), once both have done
    what they start by doing: ignore SIGTERM, and (the escaped one) call ``setsid``. Their
    command lines show before their interpreters have run a line, so waiting for the
    processes alone is a race on a busy host."""
    deadline = time.monotonic() + PROMPTLY_S
    while True:
        kids = _naming("SIG_IGN", str(app.db))
        escaped = [pid for pid in kids if (_stat(pid) or ("", 0, 0))[2] == pid]
        settled = len(kids) == 2 and len(escaped) == 1 and all(map(_ignores_sigterm, kids))
        if settled:
            return next(pid for pid in kids if pid not in escaped), escaped[0]
        assert time.monotonic() < deadline, f"the family's children never settled: {kids}"
        time.sleep(0.05)


def _ignores_sigterm(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = next(line for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(ignored.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def _left_in_group_or_session(leader: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat and stat[0] not in ("Z", "X") and leader in (stat[1], stat[2]):
                found.append(int(entry.name))
    return found


class TrackedApp(AppUnderTest):
    """Remembers every leader it started, so teardown can prove they are all gone."""

    leaders: list[int]

    def _start(self, policy: BootPolicy) -> BootObservation:
        try:
            return super()._start(policy)
        finally:
            if self.pid is not None:
                self.leaders.append(self.pid)


MakeApp = Callable[..., TrackedApp]


@pytest.fixture(params=["none", "bwrap"])
def confinement(request: pytest.FixtureRequest) -> Confinement:
    """Unconfined, then sandboxed (skipped, with bubblewrap's reason, where it cannot run)."""
    if request.param == "none":
        return UNCONFINED
    if reason := unavailable_reason():
        pytest.skip(f"no sandbox here: {reason}")
    return Confinement()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The app's tree; its database lives in ``tmp_path/data``, its log in ``tmp_path``."""
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "fake_app.py").write_text(FAKE_APP)
    return tmp_path / "tree"


@pytest.fixture
def make_app(tmp_path: Path, tree: Path, confinement: Confinement) -> Iterator[MakeApp]:
    made: list[TrackedApp] = []
    leases = []

    def make(
        mode: str, *, delay: float = 0.0, policy: BootPolicy = ROOMY, env=(), **kw
    ) -> TrackedApp:
        lease = lease_port(lock_dir=tmp_path / "locks")
        leases.append(lease)
        app = TrackedApp(
            kw.pop("command", "{python} fake_app.py " + mode + " --db {db} --port {port}"),
            tree=tree,
            db=tmp_path / "data" / "graded.db",
            port=lease.port,
            env={"MERIDIAN_BASE_URL": "http://127.0.0.1:9", "FAKE_DELAY": str(delay), **dict(env)},
            policy=policy,
            stop_grace_s=0.5,
            log_path=kw.pop("log_path", tmp_path / "app.log"),
            confinement=confinement,
            **kw,
        )
        app.leaders = []
        made.append(app)
        return app

    yield make
    for app in made:
        app.stop()
        for leader in app.leaders:
            assert _left_in_group_or_session(leader) == [], f"orphans of {leader}"
    assert _naming(str(tmp_path)) == [], "a process of the test's app is still running"
    for lease in leases:
        lease.release()


def test_the_seed_boot_line_runs_a_package_from_the_tree(make_app, tree):
    """``python -m vspro`` exactly as documented: found on the app's PATH and PYTHONPATH."""
    (tree / "vspro").mkdir()
    (tree / "vspro" / "__main__.py").write_text(
        FAKE_APP.replace("sys.argv[1], sys.argv[2:]", '"ok", sys.argv[1:]')
    )
    venv_bin = str(Path(sys.executable).parent)
    app = make_app(
        "ok",
        command="python -m vspro --db {db} --port {port}",
        env={"PATH": venv_bin + os.pathsep + os.environ["PATH"]},
    )
    with app:
        assert app.argv[:3] == ["python", "-m", "vspro"]
        assert app.boot_observation.ladder == 1.0, app.boot_observation.detail


def test_a_healthy_app_earns_the_top_rung_in_its_tree_and_environment(make_app, tree, tmp_path):
    (tmp_path / "data").mkdir()
    for leftover in ("graded.db", "graded.db-wal", "graded.db-shm"):
        (tmp_path / "data" / leftover).write_text("warm state from an earlier run")
    with make_app("ok", delay=0.2) as app:
        obs = app.boot_observation
        assert obs is not None and obs.ladder == 1.0
        assert obs.detail.startswith("1.0: healthy in ") and obs.detail.endswith("(rung <= 30 s)")
        assert obs.statuses == (200,) and obs.health_body == b'{"status": "ok"}'
        assert obs.exit_code is None and obs.port == app.port
        boot_line = obs.output_tail.decode()
        assert "db_existed=False" in boot_line and f"cwd={tree} " in boot_line
        assert f"pythonpath={tree} " in boot_line and "vendor=http://127.0.0.1:9" in boot_line
        assert not (tmp_path / "data" / "graded.db-wal").exists()
        assert not (tmp_path / "data" / "graded.db-shm").exists()
        assert obs.log_path == tmp_path / "app.log"


def test_healthy_after_the_rung_earns_075(make_app):
    with make_app("ok", delay=1.3, policy=LATE) as app:
        obs = app.boot_observation
    assert obs.ladder == 0.75 and obs.healthy_after_s > 1.0
    assert obs.detail.startswith("0.75: healthy in ")
    assert obs.detail.endswith("(rung <= 60 s; top rung <= 1 s)")


def test_a_port_that_answers_but_never_200_earns_04(make_app):
    with make_app("500", policy=SHORT_BUDGET) as app:
        obs = app.boot_observation
    assert obs.ladder == 0.4 and obs.bound and obs.statuses == (500,)
    assert obs.detail == (
        "0.4: port answered but health never returned 200 within 5 s "
        "(statuses seen: 500; still running)"
    )
    assert obs.health_body == b'{"error": {}}'


def test_a_200_without_json_is_not_healthy_unless_the_policy_says_so(make_app):
    with make_app("html", policy=SHORT_BUDGET) as app:
        assert app.boot_observation.ladder == 0.4
        assert "(a 200 came without a JSON body)" in app.boot_observation.detail
    lenient = BootPolicy(poll_s=0.1, budget_s=60.0, rung_s=30.0, require_json=False)
    with make_app("html", policy=lenient) as app:
        assert app.boot_observation.ladder == 1.0


def test_a_port_that_accepts_but_never_speaks_earns_04(make_app):
    with make_app("hang", policy=SHORT_BUDGET) as app:
        obs = app.boot_observation
    assert obs.ladder == 0.4 and obs.bound and obs.statuses == ()
    assert "statuses seen: no HTTP response" in obs.detail


def test_alive_but_never_bound_earns_015(make_app):
    with make_app("sleep", policy=SHORT_BUDGET) as app:
        obs = app.boot_observation  # the wait ended with the budget (the app sleeps on)
    assert obs.ladder == 0.15 and not obs.bound and obs.exit_code is None
    assert obs.detail == "0.15: alive after 1 s but never bound the port (still running)"
    assert b"boot mode=sleep" in obs.output_tail


def test_exiting_after_the_rung_without_binding_still_earns_015(make_app):
    with make_app("late-exit", delay=1.3, policy=LATE) as app:
        obs = app.boot_observation
    assert obs.ladder == 0.15 and obs.exit_code == 3
    assert obs.detail.startswith(
        "0.15: alive after 1 s but never bound the port (exited with code 3"
    )


def test_a_crash_at_boot_earns_0_and_quotes_the_end_of_its_output(make_app):
    started = time.monotonic()
    with make_app("crash") as app:
        obs = app.boot_observation
        assert time.monotonic() - started < PROMPTLY_S  # a crash ends the 60 s wait
    assert obs.ladder == 0.0 and obs.exit_code == 1 and not obs.bound
    assert len(obs.output_tail) == 800  # the traceback is longer: only its end is kept
    assert obs.output_tail.endswith(b"RuntimeError: boom: MERIDIAN_API_KEY is not set\n")
    assert obs.detail.startswith("0.0: crashed at boot (exited with code 1 after ")
    assert obs.detail.endswith("RuntimeError: boom: MERIDIAN_API_KEY is not set")
    assert "Traceback" in app.log_path.read_text()


def test_stop_ends_children_that_ignore_sigterm_or_left_the_group(make_app):
    with make_app("family") as app:
        assert app.boot_observation.ladder == 1.0
        leader = app.pid
        kids = _kids(app)
        assert all(_alive(pid) for pid in [leader, *kids])
        escaped = _stat(kids[1])
        assert escaped is not None and escaped[1] != leader  # really outside the group
        started = time.monotonic()
        app.stop(grace_s=0.5)
        assert time.monotonic() - started < PROMPTLY_S  # not the children's 60 s sleep
    assert app.pid is None
    assert not any(_alive(pid) for pid in [leader, *kids])
    assert _left_in_group_or_session(leader) == []


def test_a_signal_that_kills_the_app_reads_as_that_signal(make_app):
    """Sandboxed, bubblewrap exits 128 + n for the app's signal n: the ladder still says so."""
    with make_app("selfkill") as app:
        obs = app.boot_observation
    assert obs.ladder == 0.0 and obs.exit_code == -9, obs.detail
    assert obs.detail.startswith("0.0: crashed at boot (killed by signal 9 after ")


def test_stop_lets_the_app_shut_down_gracefully(make_app, tmp_path):
    """SIGTERM reaches the app itself (sandboxed: not bubblewrap, which would die of it and
    take the app down unwarned), and stop() returns as soon as the app has exited."""
    with make_app("graceful") as app:
        assert app.boot_observation.ladder == 1.0
        started = time.monotonic()
        app.stop(grace_s=60.0)
        assert time.monotonic() - started < PROMPTLY_S  # it exited: no grace waited out
    assert (tmp_path / "data" / "graded.db.bye").read_text() == "stopped gracefully"


def test_an_app_booted_from_a_thread_outlives_that_thread(make_app):
    """Browser lanes boot apps from pool threads; bubblewrap's --die-with-parent fires when
    the forking *thread* exits, so apps are forked by one long-lived thread instead."""
    app = make_app("ok")
    booted = threading.Thread(target=app.boot)
    booted.start()
    booted.join()
    try:
        assert app.boot_observation is not None and app.boot_observation.ladder == 1.0
        time.sleep(0.3)  # a pdeath signal would have landed by now
        answer = httpx.get(app.base_url + "/api/health", timeout=2, trust_env=False)
        assert answer.status_code == 200 and _alive(app.pid)
    finally:
        app.stop()


def test_the_log_defaults_beside_the_database_but_never_where_a_sandboxed_app_writes(
    make_app, tmp_path, confinement
):
    if not confinement.enabled:
        assert make_app("ok", log_path=None).log_path == tmp_path / "data" / "graded.db.app.log"
        return
    expected = (
        f"the app log {tmp_path}/data/graded.db.app.log lies under {tmp_path}/data, which "
        "the sandboxed app may write; give log_path= outside the tree and the database's "
        "directory"
    )
    with pytest.raises(HarnessError) as raised:
        make_app("ok", log_path=None)
    assert str(raised.value) == expected
    with pytest.raises(HarnessError, match=f"the app log {tmp_path}/tree/app.log lies under"):
        make_app("ok", log_path=tmp_path / "tree" / "app.log")


def test_stop_forces_an_app_that_ignores_sigterm(make_app):
    with make_app("ok", env={"FAKE_IGNORE_TERM": "1"}) as app:
        leader = app.pid
        started = time.monotonic()
        app.stop()  # grace 0.5 s, then SIGKILL
        assert 0.4 < time.monotonic() - started < PROMPTLY_S
    assert not _alive(leader)


def test_kill_ends_everything_at_once_and_restart_keeps_the_database(make_app):
    app = make_app("family")
    with app:
        first = app.pid
        kids = _kids(app)
        app.kill()
        assert not any(_alive(pid) for pid in [first, *kids]) and app.pid is None
        assert port_is_free(app.port)
        obs = app.restart()
        assert obs.ladder == 1.0 and app.pid != first and obs.port == app.port
        assert b"db_existed=True" in obs.output_tail  # same db, not wiped
    assert app.log_path.read_text().count("--- benchwright: starting") == 2


def test_restart_of_a_running_app_sigkills_it_first(make_app):
    with make_app("ok") as app:
        first = app.pid
        assert app.restart().ladder == 1.0
        assert not _alive(first) and _left_in_group_or_session(first) == []


def test_leaving_the_block_by_an_exception_still_stops_the_app(make_app):
    app = make_app("ok")
    with pytest.raises(RuntimeError, match="grader bug"), app:
        leader = app.pid
        raise RuntimeError("grader bug")
    assert not _alive(leader)


def test_a_port_already_taken_is_a_harness_error_before_anything_starts(make_app, monkeypatch):
    monkeypatch.setattr(app_module, "PORT_FREE_TIMEOUT_S", 0.2)
    app = make_app("ok")
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", app.port))
        squatter.listen()
        with pytest.raises(HarnessError, match=f"port {app.port} is in use"):
            app.boot()
    assert app.pid is None and app.leaders == []


def test_booting_twice_is_a_harness_error(make_app):
    with make_app("ok") as app, pytest.raises(HarnessError, match="already running"):
        app.boot()


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("{python} app.py --db {database}", r"placeholders are \{db\}, \{port\}"),
        ("", "empty"),
        ("/no/such/interpreter -m vspro", "cannot start '/no/such/interpreter'"),
    ],
)
def test_bad_commands_are_harness_errors(make_app, command, message):
    with pytest.raises(HarnessError, match=message):
        make_app("ok", command=command).boot()


@pytest.mark.slow
def test_the_seed_defaults_rate_a_quick_boot_10(make_app):
    with make_app("ok", policy=BootPolicy()) as app:
        obs = app.boot_observation
    assert obs.ladder == 1.0 and obs.detail.endswith("(rung <= 5 s)")


def test_the_environment_is_the_harness_one_plus_the_apps(make_app, monkeypatch):
    monkeypatch.setenv("GRADER_SECRET", "s3cret")
    app = make_app("ok")
    assert app.env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert app.env["PYTHONPATH"] == str(app.tree)
    assert app.env["PATH"] == os.environ["PATH"]
    assert app.env["MERIDIAN_BASE_URL"] == "http://127.0.0.1:9"
    # unconfined the app inherits everything; sandboxed only the allow-list (and its own)
    assert ("GRADER_SECRET" in app.env) is (app.sandbox is None)


SEED = BootPolicy()


@pytest.mark.parametrize(
    ("facts", "ladder", "detail"),
    [
        ({"healthy_after_s": 1.3, "bound": True}, 1.0, "1.0: healthy in 1.3 s (rung <= 5 s)"),
        ({"healthy_after_s": 5.0, "bound": True}, 1.0, "1.0: healthy in 5.0 s (rung <= 5 s)"),
        (
            {"healthy_after_s": 5.01, "bound": True},
            0.75,
            "0.75: healthy in 5.0 s (rung <= 25 s; top rung <= 5 s)",
        ),
        (
            {"healthy_after_s": None, "bound": True, "statuses": (503, 500)},
            0.4,
            "0.4: port answered but health never returned 200 within 25 s "
            "(statuses seen: 503, 500; still running)",
        ),
        (  # answered, then died: more progress than a crash, so the 0.4 rung
            {
                "healthy_after_s": None,
                "bound": True,
                "statuses": (500,),
                "exit_code": -9,
                "exited_after_s": 2.0,
            },
            0.4,
            "0.4: port answered but health never returned 200 within 25 s "
            "(statuses seen: 500; killed by signal 9 after 2.0 s)",
        ),
        (
            {"healthy_after_s": None, "bound": False},
            0.15,
            "0.15: alive after 5 s but never bound the port (still running)",
        ),
        (
            {"healthy_after_s": None, "bound": False, "exit_code": 2, "exited_after_s": 6.0},
            0.15,
            "0.15: alive after 5 s but never bound the port (exited with code 2 after 6.0 s)",
        ),
        (  # the near miss: dead just before the rung
            {
                "healthy_after_s": None,
                "bound": False,
                "exit_code": 1,
                "exited_after_s": 4.9,
                "output_tail": b"\nImportError: no module named vspro\n",
            },
            0.0,
            "0.0: crashed at boot (exited with code 1 after 4.9 s); "
            "last output: ImportError: no module named vspro",
        ),
        (
            {"healthy_after_s": None, "bound": False, "exit_code": 0, "exited_after_s": 0.1},
            0.0,
            "0.0: crashed at boot (exited with code 0 after 0.1 s); last output: (no output)",
        ),
    ],
)
def test_boot_ladder_rungs(facts, ladder, detail):
    assert boot_ladder(**facts, policy=SEED) == (ladder, detail)


def test_boot_ladder_uses_the_policy_rungs():
    short = BootPolicy(budget_s=3, rung_s=1)
    assert boot_ladder(healthy_after_s=1.2, bound=True, policy=short) == (
        0.75,
        "0.75: healthy in 1.2 s (rung <= 3 s; top rung <= 1 s)",
    )
    assert boot_ladder(healthy_after_s=None, bound=False, policy=short)[0] == 0.15


TRACEBACK = (b'Traceback (most recent call last):\n  File "vspro/__main__.py", line 9, in main\n'
             b"    raise RuntimeError('boom')\nRuntimeError: boom\n\n")  # fmt: skip


def _seen(**facts) -> BootObservation:
    facts = {"healthy_after_s": None, "bound": False, "exit_code": 1, "exited_after_s": 0.3,
             "output_tail": TRACEBACK} | facts  # fmt: skip
    ladder, detail = boot_ladder(**facts, policy=SEED)
    return BootObservation(ladder, detail, facts["healthy_after_s"], facts["bound"], (),
                           facts["exit_code"], facts["exited_after_s"], facts["output_tail"],
                           None, 1, Path("app.log"))  # fmt: skip


def test_a_crash_is_quoted_by_its_last_line_and_headlined_once() -> None:
    """The detail quotes the traceback's exception line, not the traceback: every row the
    boot blocked used to repeat it."""
    crashed = _seen()
    assert crashed.detail == ("0.0: crashed at boot (exited with code 1 after 0.3 s); "
                              "last output: RuntimeError: boom")  # fmt: skip
    assert boot_headline(crashed) == "app exited 1 at boot: RuntimeError: boom"
    killed = "app killed by signal 9 at boot: RuntimeError: boom"
    assert boot_headline(_seen(exit_code=-9)) == killed
    assert boot_headline(_seen(exit_code=None, exited_after_s=None)) == (
        "app never became healthy at boot: alive after 5 s but never bound the port "
        "(still running)")  # fmt: skip
    assert boot_headline(_seen(healthy_after_s=1.0, exit_code=None)) is None
