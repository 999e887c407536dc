"""Red team: an app under test that tries to reach beyond its tree and database.

The app is a tiny stdlib HTTP server written into ``tmp_path``. At boot it attacks what
a grader keeps beside it — the log the harness reads, the vendor trace, another grader
temp dir, the suite directory, the reference tree, the host's ``/tmp`` — and leaves
``setsid`` and double-forked daemons behind; then it serves what each attempt gave at
its health path. The paths are handed to it, as to an attacker who knows the layout.

Sandboxed, every attempt fails, nothing outside the tree and the database directory
changes, and no process survives ``stop()`` (scanned in /proc by a marker in its command
line). The same app unconfined is the control: there the attacks land and the
double-forked daemon outlives ``stop()``, so the assertions can see them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchwright.sandbox import UNCONFINED, Confinement, unavailable_reason
from benchwright.services.app import AppUnderTest, BootPolicy
from benchwright.services.ports import lease_port

ROOT = Path(__file__).resolve().parents[2]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
REFERENCE = ROOT / "suites" / "vspro" / "reference" / "vspro" / "__main__.py"
needs_bwrap = pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here")

ATTACKER = r"""
import http.server, json, os, subprocess, sys, time

args = sys.argv[1:]
db, port = args[args.index("--db") + 1], int(args[args.index("--port") + 1])
marker = os.environ["ATTACK_MARKER"]
seen = {}

def attempt(name, act):
    try:
        seen[name] = "ok: " + str(act())
    except Exception as exc:
        seen[name] = f"refused: {type(exc).__name__}: {exc}"

def write(path, mode="a"):
    with open(path, mode) as out:
        out.write(f"pwned by {marker}\n")
    return path

def read(path):
    with open(path) as src:
        return src.read(40)

attempt("db_dir", lambda: write(os.path.join(os.path.dirname(db), "mine.txt")))
attempt("tree", lambda: write("tree-note.txt"))
attempt("log", lambda: write(os.environ["ATTACK_LOG"], "w"))
attempt("log_via_fd", lambda: write("/proc/self/fd/1", "w"))
attempt("trace", lambda: write(os.environ["ATTACK_TRACE"]))
attempt("work_dir", lambda: write(os.path.join(os.environ["ATTACK_WORK"], "planted.txt")))
attempt("suite", lambda: write(os.path.join(os.environ["ATTACK_SUITE"], "stamp.txt")))
attempt("host_tmp", lambda: write(f"/tmp/{marker}.txt"))
attempt("read_reference", lambda: read(os.environ["ATTACK_REFERENCE"]))
attempt("read_grader_tmp", lambda: read(os.environ["ATTACK_SECRET"]))
attempt("list_above_work", lambda: sorted(os.listdir(os.environ["ATTACK_ABOVE"])))
attempt("sees", lambda: [os.path.exists(os.environ[f"ATTACK_{name}"])
                         for name in ("LOG", "TRACE", "SUITE", "SECRET", "REFERENCE")])
if os.environ.get("ATTACK_DAEMONS"):
    sleeper = f"import time; time.sleep(120)  # {marker}"
    subprocess.Popen([sys.executable, "-c", sleeper], start_new_session=True)  # setsid
    grandchild = f"import time; time.sleep(120)  # {marker}"
    double = ("import os, subprocess, sys; os.setsid(); "
              f"subprocess.Popen([sys.executable, '-c', {grandchild!r}])")
    subprocess.run([sys.executable, "-c", double])  # its parent is gone before anyone looks
body = json.dumps(seen).encode()

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

print("attacker up", flush=True)
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def _survivors(marker: str) -> list[int]:
    """Live processes whose command line carries ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


class Arena:
    """A grader's layout in ``tmp_path``: work dir with tree, db dir, log and trace; a
    second grader temp dir; a suite directory."""

    def __init__(self, root: Path) -> None:
        self.marker = f"bw-attack-{uuid.uuid4().hex[:12]}"
        self.work, self.suite, self.other = root / "work", root / "suite", root / "grader-tmp"
        self.tree, self.db = self.work / "tree", self.work / "db" / "graded.db"
        self.log, self.trace = self.work / "app.log", self.work / "vendor-trace.jsonl"
        self.secret = self.other / "secret.txt"
        for directory in (self.tree, self.db.parent, self.suite, self.other):
            directory.mkdir(parents=True)
        (self.tree / "attacker.py").write_text(ATTACKER)
        self.trace.write_text('{"call": "list"}\n')
        self.secret.write_text("the grader's own notes")
        (self.suite / "task.yaml").write_text("id: t\n")

    def outside(self) -> dict[str, bytes]:
        """Every file outside the tree and the db dir (the log aside), with its bytes."""
        root = self.work.parent
        return {
            str(p): p.read_bytes()
            for p in root.rglob("*")
            if p.is_file() and p != self.log
            and not p.is_relative_to(self.tree) and not p.is_relative_to(self.db.parent)
        }  # fmt: skip

    def env(self, daemons: bool) -> dict[str, str]:
        return {
            "ATTACK_MARKER": self.marker,
            "ATTACK_LOG": str(self.log),
            "ATTACK_TRACE": str(self.trace),
            "ATTACK_WORK": str(self.work),
            "ATTACK_SUITE": str(self.suite),
            "ATTACK_REFERENCE": str(REFERENCE),
            "ATTACK_SECRET": str(self.secret),
            "ATTACK_ABOVE": str(self.work.parent),
            **({"ATTACK_DAEMONS": "1"} if daemons else {}),
        }


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    made = Arena(tmp_path)
    yield made
    Path(f"/tmp/{made.marker}.txt").unlink(missing_ok=True)  # the control's host write


def _attack(arena: Arena, confinement: Confinement, daemons: bool) -> dict[str, str]:
    """Boot the attacker, read what each attempt gave, stop it."""
    with lease_port() as lease:
        app = AppUnderTest(
            "{python} attacker.py --db {db} --port {port}",
            tree=arena.tree,
            db=arena.db,
            port=lease.port,
            env=arena.env(daemons),
            policy=BootPolicy(poll_s=0.1, budget_s=10.0),
            log_path=arena.log,
            stop_grace_s=1.0,
            confinement=confinement,
        )
        with app:
            assert app.boot_observation.ladder == 1.0, app.boot_observation.detail
            seen = httpx.get(app.base_url + "/", timeout=5, trust_env=False).json()
            if daemons:
                assert len(_survivors(arena.marker)) == 2, "both daemons run before stop()"
    return seen


@needs_bwrap
def test_a_sandboxed_app_can_write_only_its_tree_and_database_directory(arena):
    before = arena.outside()
    seen = _attack(arena, Confinement(), daemons=True)

    assert seen["db_dir"].startswith("ok") and seen["tree"].startswith("ok"), seen
    for name in ("log", "trace", "work_dir"):  # not there; its directory is bubblewrap's, root's
        assert seen[name].startswith("refused: PermissionError: [Errno 13]"), (name, seen[name])
    for name in ("suite", "read_reference", "read_grader_tmp"):  # not even the directory
        assert seen[name].startswith("refused: FileNotFoundError"), (name, seen[name])
    assert seen["sees"] == "ok: [False, False, False, False, False]"
    if os.geteuid() == 0:  # as root the app is uid 65534; the log stays root's (see report)
        assert seen["log_via_fd"].startswith("refused: PermissionError"), seen["log_via_fd"]
    assert seen["host_tmp"].startswith("ok")  # the sandbox's own /tmp: gone with it
    assert not Path(f"/tmp/{arena.marker}.txt").exists()
    assert json.loads(seen["list_above_work"][4:].replace("'", '"')) == ["work"]

    assert arena.outside() == before, "a file outside the tree and the db dir changed"
    assert arena.marker not in arena.log.read_text()
    assert "attacker up" in arena.log.read_text()  # its own output still reaches the log
    assert (arena.db.parent / "mine.txt").is_file() and (arena.tree / "tree-note.txt").is_file()
    assert _survivors(arena.marker) == [], "a daemon outlived the app"


def test_the_same_app_unconfined_lands_its_attacks(arena):
    """The control: without the sandbox the assertions above would see every attack."""
    before = arena.outside()
    seen = _attack(arena, UNCONFINED, daemons=True)
    survivors = _survivors(arena.marker)
    for pid in survivors:  # the double-forked daemon: out of the harness's sight
        os.kill(pid, signal.SIGKILL)
    assert len(survivors) == 1
    for name in ("log", "trace", "work_dir", "suite", "host_tmp", "read_grader_tmp"):
        assert seen[name].startswith("ok"), (name, seen[name])
    assert seen["read_reference"].startswith("ok")
    assert seen["sees"] == "ok: [True, True, True, True, True]"
    assert arena.outside() != before
    assert arena.marker in arena.log.read_text()
    assert Path(f"/tmp/{arena.marker}.txt").is_file()


@needs_bwrap
def test_a_sandboxed_app_does_not_inherit_the_graders_environment(arena, monkeypatch):
    monkeypatch.setenv("GRADER_TOKEN", "do-not-leak")
    (arena.tree / "attacker.py").write_text(
        ATTACKER.replace("body = json.dumps(seen)", "body = json.dumps(dict(os.environ))")
    )
    seen = _attack(arena, Confinement(), daemons=False)
    assert "GRADER_TOKEN" not in seen
    assert seen["ATTACK_MARKER"] == arena.marker and seen["HOME"] == "/tmp/home"
    assert seen["PATH"] == os.environ["PATH"]


def _grade(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    suite = ROOT / "suites" / "vspro"
    argv = [str(BENCHWRIGHT), "grade", str(suite), "--tree", str(suite / "reference"),
            "--phases", "boot", *args]  # fmt: skip
    return subprocess.run(
        argv, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=240
    )


def test_grade_refuses_in_one_line_where_bwrap_cannot_run(tmp_path):
    done = _grade("--json", str(tmp_path / "v.json"), env={"BENCHWRIGHT_BWRAP": "/nonexistent"})
    assert done.returncode == 3, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: sandbox: bwrap not found: install Debian's bubblewrap")
    assert "--no-sandbox" in line and done.stdout == ""
    assert not (tmp_path / "v.json").exists(), "nothing is graded before the refusal"


def test_grade_no_sandbox_warns_and_records_isolation_none(tmp_path):
    done = _grade("--no-sandbox", "--json", str(tmp_path / "v.json"),
                  env={"BENCHWRIGHT_BWRAP": "/nonexistent"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    headline, warning = done.stdout.splitlines()[:2]
    assert headline.startswith("sb-6 ")
    assert warning.startswith("WARNING: isolation: none — the agent's code (the app under test)")
    card = json.loads((tmp_path / "v.json").read_text())
    assert card["provenance"]["isolation"] == "none" and card["grading"]["isolation"] == "none"


@needs_bwrap
def test_grade_sandboxed_records_bwrap_and_prints_no_warning(tmp_path):
    done = _grade("--json", str(tmp_path / "v.json"))
    assert done.returncode == 0, done.stderr
    assert "isolation: none" not in done.stdout
    card = json.loads((tmp_path / "v.json").read_text())
    assert card["provenance"]["isolation"] == "bwrap"
    assert "(sandboxed: bwrap)" in (tmp_path / "v.app.log").read_text()
    runs = next(r for r in card["grading"]["results"] if r["check_id"] == "server_runs")
    assert runs["status"] == "PASS" and runs["detail"].startswith("1.0: healthy in ")
