"""Red team: a `command:` agent that tries to reach beyond its workspace, end to end.

Each attack is a small Python script run as the agent by the real console script on a
private copy of the turnbench suite (two edit tasks keep it fast). The asserted outcome
is always the same: the task FAILs, nothing outside the workspace changed, and no
process the agent started is left (scanned in /proc by a marker in its command line).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import survivors, with_marker

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
TASKS = "edit-0[12]"


def _digest(root: Path) -> str:
    """A hash of every path and file content under ``root``."""
    sha = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        sha.update(str(path.relative_to(root)).encode())
        if path.is_file() and not path.is_symlink():
            sha.update(path.read_bytes())
    return sha.hexdigest()


@pytest.fixture
def arena(tmp_path: Path) -> dict[str, Path]:
    """A private suite copy, a private TMPDIR and HOME, and an output directory."""
    suite = tmp_path / "turnbench"
    shutil.copytree(ROOT / "suites" / "turnbench", suite)
    tmp, home = tmp_path / "tmp", tmp_path / "home"
    tmp.mkdir()
    home.mkdir()
    return {"suite": suite, "tmp": tmp, "home": home, "out": tmp_path / "runs", "root": tmp_path}


def _run(arena: dict[str, Path], script: str, *extra: str, wait: bool = True):
    agent = arena["root"] / "agent.py"
    agent.write_text(script)
    spec = f"command:{sys.executable} {agent}"
    argv = [str(BENCHWRIGHT), "run", str(arena["suite"]), "--tasks", TASKS,
            "--agent", spec, "--out", str(arena["out"]), *extra]  # fmt: skip
    env = {**os.environ, "TMPDIR": str(arena["tmp"]), "HOME": str(arena["home"])}
    env["ATTACK_ROOT"] = str(arena["root"])
    if not wait:
        return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=240)


def _verdicts(out: Path) -> dict[str, str]:
    found = {}
    for path in out.glob("*/trials/*/*/result.json"):
        raw = json.loads(path.read_text())
        found[raw["task_id"]] = raw["verdict"]
    return found


ESCAPE = """\
import os, pathlib
root = pathlib.Path({root!r})
targets = [root / "turnbench" / "stamps" / "edit-02" / "planted.py",
           root / "turnbench" / "tasks" / "planted.yaml",
           root / "tmp" / "planted", root / "home" / "planted", root / "planted",
           pathlib.Path.home() / "planted", pathlib.Path("/tmp/planted-{marker}")]
for target in targets:
    try:
        target.write_text("planted")
        print("WROTE", target)
    except OSError as exc:
        print("refused", target, exc.strerror)
for stamp in (root / "turnbench" / "stamps").rglob("*.py"):
    try:
        stamp.write_text("def test_ok():\\n    pass\\n")
        print("WROTE", stamp)
    except OSError as exc:
        print("refused", stamp, exc.strerror)
"""


def test_an_agent_cannot_write_outside_its_workspace(arena):
    before = _digest(arena["root"] / "turnbench")
    marker = f"bw{os.getpid()}x{time.monotonic_ns()}"
    done = _run(arena, ESCAPE.format(root=str(arena["root"]), marker=marker))
    assert done.returncode == 1, done.stdout + done.stderr
    assert _verdicts(arena["out"]) == {"edit-01": "failed", "edit-02": "failed"}
    assert _digest(arena["root"] / "turnbench") == before, "the suite or its stamps changed"
    assert not list(arena["root"].glob("**/planted*")), "the agent wrote outside its workspace"
    assert not Path(f"/tmp/planted-{marker}").exists()
    assert list(arena["tmp"].iterdir()) == [], "the run left temp dirs behind"
    logs = "".join(p.read_text() for p in arena["out"].glob("*/trials/*/*/agent.log"))
    wrote = [line for line in logs.splitlines() if line.startswith("WROTE")]
    # Only the sandbox's private, discarded $HOME and /tmp took a write.
    assert all(line.split()[1].startswith("/tmp/") for line in wrote), wrote
    assert not any(str(arena["root"]) in line for line in wrote), wrote
    # A later honest no-op run on the same suite copy still fails (nothing was planted).
    nop = subprocess.run([str(BENCHWRIGHT), "run", str(arena["suite"]), "--tasks", TASKS,
                          "--agent", "nop", "--out", str(arena["root"] / "nop")],
                         capture_output=True, text=True, timeout=240)  # fmt: skip
    assert nop.returncode == 1 and _verdicts(arena["root"] / "nop") == {
        "edit-01": "failed", "edit-02": "failed"}  # fmt: skip


RACE = """\
import os, subprocess, sys
code = (
    "import pathlib, time\\n"
    "time.sleep(0.2)\\n"
    "for p in pathlib.Path('.').glob('tests/test_oracle_*.py'):\\n"
    "    p.write_text('def test_ok():\\\\n    pass\\\\n')\\n"
    "time.sleep(60)\\n"
)
subprocess.Popen([sys.executable, "-c", code, "{marker}"], start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", "60{marker}"])
"""


def test_a_daemon_cannot_outlive_the_phase_to_overwrite_the_stamped_oracle(arena):
    marker = f"{os.getpid()}{time.monotonic_ns() % 10**8}"
    done = _run(arena, RACE.format(marker=marker))
    assert done.returncode == 1, done.stdout + done.stderr
    assert _verdicts(arena["out"]) == {"edit-01": "failed", "edit-02": "failed"}
    assert survivors(marker) == []


LINGER = """\
import os, subprocess, sys, time
if os.environ.get("QUICK"):
    sys.exit(0)
subprocess.Popen(["sleep", "60{marker}"], start_new_session=True)
subprocess.Popen(["sleep", "61{marker}"])
time.sleep(60)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_killing_benchwright_ends_every_agent_process_and_resume_finishes(arena, sig):
    marker = f"{os.getpid()}{time.monotonic_ns() % 10**8}"
    proc = _run(arena, LINGER.format(marker=marker), wait=False)
    deadline = time.monotonic() + 30
    while len(with_marker(marker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    # Each running trial's agent is two processes; with the default pool both trials may run.
    assert len(with_marker(marker)) >= 2, "the agent never started"
    proc.send_signal(sig)
    output = proc.communicate(timeout=30)[0].decode()
    assert survivors(marker) == [], f"survivors after {sig.name}"
    if sig != signal.SIGKILL:  # SIGKILL gives no chance to clean up; the processes die anyway
        assert proc.returncode == 130, output
        assert list(arena["tmp"].iterdir()) == [], "temp dirs left behind"
    [run_dir] = arena["out"].iterdir()
    resumed = subprocess.run(
        [str(BENCHWRIGHT), "run", "--resume", str(run_dir), "--env", "QUICK=1"],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr  # finished: both failed
    assert _verdicts(arena["out"]) == {"edit-01": "failed", "edit-02": "failed"}


FORGER = """\
import json, os, pathlib, signal
root = pathlib.Path({root!r})
forged = dict(schema_version=1, task_id="edit-02", iteration=1, tier="correctness",
              agent="x", verdict="passed", checks=[], phases=[])
hits = []
for base in (root / "runs", pathlib.Path("/proc") / str(os.getppid()) / "cwd"):
    try:
        runs = list(base.glob("*"))
    except OSError:
        runs = []
    for run in runs:
        target = run / "trials" / "edit-02" / "1"
        try:
            target.mkdir(parents=True, exist_ok=True)
            (target / "result.json").write_text(json.dumps(forged))
            hits.append(str(target))
        except OSError:
            pass
print("forged", hits)
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as exc:
    print("cannot kill parent", exc)
"""


def test_an_agent_cannot_forge_another_trials_result(arena):
    done = _run(arena, FORGER.format(root=str(arena["root"])))
    assert _verdicts(arena["out"]) == {"edit-01": "failed", "edit-02": "failed"}, done.stdout
    logs = "".join(p.read_text() for p in arena["out"].glob("*/trials/*/*/agent.log"))
    assert "forged []" in logs


SHADOWS = {
    "pytest.py": "raise SystemExit(0)\n",
    "conftest.py": (
        "import pytest\n"
        "@pytest.hookimpl(hookwrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n"
        "    outcome.get_result().outcome = 'passed'\n"
    ),
    "pytest.ini": "[pytest]\naddopts = --co\n",
    "sitecustomize.py": "import os\nos._exit(0)\n",
}

SHADOW = """\
import pathlib
pathlib.Path({name!r}).write_text({content!r})
"""


@pytest.mark.parametrize("name", sorted(SHADOWS))
def test_files_that_shadow_or_configure_the_test_runner_do_not_pass_a_task(arena, name):
    done = _run(arena, SHADOW.format(name=name, content=SHADOWS[name]))
    assert done.returncode == 1, done.stdout + done.stderr
    assert _verdicts(arena["out"]) == {"edit-01": "failed", "edit-02": "failed"}


SCRATCH_LINKS = """\
import os, pathlib
scratch = pathlib.Path(os.environ["BENCHWRIGHT_ANSWER_FILE"]).parent
if os.environ["BENCHWRIGHT_PHASE"] == "p1_plan":
    # Links the harness would follow as root: its next prompt file, and the answer file.
    (scratch / "prompt-p2_implementation.txt").symlink_to({victim!r})
    os.replace(scratch / "prompt-p1_plan.txt", scratch / "gone.txt")
else:
    os.symlink({secret!r}, os.environ["BENCHWRIGHT_ANSWER_FILE"])
"""


def test_links_an_agent_leaves_in_its_scratch_dir_are_never_followed(tmp_path):
    from benchwright.agents import build_agent
    from benchwright.dsl import load_suite
    from benchwright.execution import TrialOptions, run_trial

    victim, secret = tmp_path / "victim.txt", tmp_path / "secret.txt"
    victim.write_text("untouched")
    secret.write_text("grader secret")
    agent_file = tmp_path / "agent.py"
    agent_file.write_text(SCRATCH_LINKS.format(victim=str(victim), secret=str(secret)))
    suite = load_suite(ROOT / "tests" / "data" / "minisuite")
    agent = build_agent(f"command:{sys.executable} {agent_file}", [suite.task("phased-plan")])
    result = run_trial(suite.task("phased-plan"), "correctness", agent, 1, TrialOptions())
    assert [p.exit_code for p in result.phases] == [0, 0], result.log
    assert victim.read_text() == "untouched", "the harness wrote through the agent's link"
    assert "grader secret" not in result.answer
