"""Red team: check commands share one copy of the workspace, and still cannot touch each other.

Every ``test_must_pass`` command needs a writable tree of its own. Copying and re-owning
the whole workspace per check made the harness's cost O(checks x tree); the trial now
copies it once into a read-only base that each command sees through an overlay of its
own. These tests count the work (files copied, ``lchown`` calls), never time it, and
attack the sharing: a check that rewrites, deletes, adds and chmods files, or writes the
base where it can see it, must leave the next check's view exactly the workspace.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import pytest
from processes import survivors

from benchwright.dsl import task_from_dict
from benchwright.execution.evaluate import evaluate
from benchwright.model import CheckResult, Status, Trajectory
from benchwright.sandbox import overlay_supported, unavailable_reason
from benchwright.workspace import Workspace

pytestmark = pytest.mark.skipif(
    unavailable_reason() is not None or not overlay_supported(),
    reason="needs the sandbox, as root, with overlay mounts",
)
TREE = 2_000
CHECKS = 4


def _grade(
    workspace_files: dict[str, str],
    commands: list[str],
    agent: Mapping[str, str] = MappingProxyType({}),
) -> tuple[CheckResult, ...]:
    doc = {
        "id": "views", "class": "edit", "prompt": "p", "workspace": workspace_files,
        "checks": [
            {"id": f"c{n}", "type": "test_must_pass", "command": command}
            for n, command in enumerate(commands)
        ],
    }  # fmt: skip
    task = task_from_dict(doc, Path("views.json"))
    with Workspace(task.files) as workspace:
        workspace.files.update({k: v.encode() for k, v in agent.items()})  # the agent's work
        return evaluate(task, workspace, Trajectory(()))


def _passed(results: tuple[CheckResult, ...]) -> None:
    for r in results:
        assert r.status is Status.PASS, (r.check_id, r.detail, r.evidence.get("stderr"))


def test_n_checks_over_a_tree_copy_and_reown_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = {f"d{n // 100}/f{n % 100}.txt": "x" for n in range(TREE)}
    chowned = []
    real = os.lchown
    monkeypatch.setattr(os, "lchown", lambda path, *ids: (chowned.append(path), real(path, *ids)))
    count = "import os; assert sum(len(f) for _, _, f in os.walk('.')) == 2000"
    results = _grade(tree, [f'python -c "{count}"'] * CHECKS)
    _passed(results)
    copied = [r.evidence["files_copied"] for r in results]
    assert copied == [TREE] + [0] * (CHECKS - 1)
    assert len(chowned) < TREE + TREE // 100 + 20 * CHECKS  # the base once, a few per check


def test_a_check_cannot_change_what_the_next_one_sees() -> None:
    marker = uuid.uuid4().hex
    vandal = (
        "import os, pathlib, subprocess\n"
        "pathlib.Path('app.py').write_text('VALUE = 3')\n"
        "os.remove('data/keep.txt'); os.chmod('data', 0o700)\n"
        "pathlib.Path('data/planted.txt').write_text('x'); os.mkdir('newdir')\n"
        "import sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', '"
        + marker
        + "'], start_new_session=True)\n"
        "caps = open('/proc/self/status').read().split('CapEff:')[1].split()[0]\n"
        "assert int(caps, 16) == 0, caps  # the mount prelude's CAP_SYS_ADMIN is gone\n"
        "assert subprocess.run(['umount', os.getcwd()]).returncode != 0\n"
        "base = [l.split()[4] for l in open('/proc/self/mountinfo') if 'check-base' in l]\n"
        "assert base, 'the base is bound read-only, so it is visible'\n"
        "try:\n"
        "    pathlib.Path(base[0], 'app.py').write_text('VALUE = 4')\n"
        "except OSError as exc:\n"
        "    assert exc.errno == 30, exc  # EROFS\n"
        "else:\n"
        "    raise SystemExit('the shared base was writable')\n"
    )
    look = (
        "import os, pathlib; import app; assert app.VALUE == 1, app.VALUE\n"
        "assert sorted(os.listdir('data')) == ['keep.txt'], os.listdir('data')\n"
        "assert not os.path.exists('newdir')\n"
        "assert os.stat('data').st_mode & 0o777 == 0o755, oct(os.stat('data').st_mode)\n"
    )
    files = {"app.py": "VALUE = 1\n", "data/keep.txt": "kept\n", "vandal.py": vandal}
    files["look.py"] = look
    _passed(_grade(files, ["python vandal.py", "python look.py"]))
    assert not survivors(marker)


def test_each_check_writes_its_own_caches_and_sees_only_its_own() -> None:
    """Two pytest runs both write in the tree (a data file, a cache dir); neither sees the
    other's, and both see the stamped-in files they must."""
    test = (
        "import os, pathlib\n"
        "def test_writes():\n"
        "    assert not os.path.exists('out.txt')\n"
        "    pathlib.Path('out.txt').write_text('mine')\n"
        "    os.makedirs('.cache/x', exist_ok=True)\n"
        "    assert pathlib.Path('pkg/mod.py').read_text() == 'X = 1\\n'\n"
    )
    files = {"pkg/__init__.py": "", "pkg/mod.py": "X = 1\n", "tests/test_w.py": test}
    _passed(_grade(files, ["pytest -q tests"] * 2))


def test_an_agents_conftest_is_hidden_from_pytest_but_not_from_the_next_check() -> None:
    planted = {"tests/conftest.py": "raise SystemExit(3)\n"}
    files = {"tests/test_ok.py": "def test_ok():\n    assert True\n"}
    seen = "import os; assert os.path.exists('tests/conftest.py')"
    results = _grade(files, ["pytest -q tests", f'python -c "{seen}"'], agent=planted)
    _passed(results)
    assert results[0].evidence["conftest_removed"] == ["tests/conftest.py"]


def test_bytecode_the_agent_planted_is_left_out_of_the_shared_base() -> None:
    planted = {"pkg/__pycache__/mod.cpython-311.pyc": "junk", "pkg/stale.pyc": "junk"}
    files = {"pkg/__init__.py": "", "pkg/mod.py": "X = 1\n"}
    absent = "import os; assert not os.path.exists('pkg/__pycache__/mod.cpython-311.pyc')"
    results = _grade(files, [f'python -c "{absent}"'] * 2, agent=planted)
    _passed(results)
    assert results[1].evidence["left_out"] == ["pkg/__pycache__", "pkg/stale.pyc"]
