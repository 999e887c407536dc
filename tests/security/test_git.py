"""Harness git: nothing the agent writes runs code in the harness or changes a snapshot.

Each attack is planted the way an agent would (a real ``git init`` in the
workspace, config, hooks, attributes, spoofed refs), then the harness takes a
snapshot. A planted command would create ``MARKER``; every test asserts it is
absent and that the snapshot holds exactly the bytes on disk.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest
from builders import REPO

from benchwright.agents import CommandAgent
from benchwright.dsl import load_suite
from benchwright.execution import TrialOptions, run_trial
from benchwright.execution._git import Snapshots

HOOKS = ("pre-commit", "post-commit", "commit-msg", "prepare-commit-msg", "post-index-change",
         "reference-transaction", "pre-auto-gc", "post-checkout", "fsmonitor-watchman")  # fmt: skip


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return {**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, **extra}


def _workspace(tmp_path: Path) -> tuple[Path, Snapshots]:
    ws = tmp_path / "trial" / "workspace"
    ws.mkdir(parents=True)
    (ws / "app.py").write_text("print('real')\n")
    snapshots = Snapshots(ws)
    snapshots.init()
    return ws, snapshots


def _files(snapshots: Snapshots, commit: str) -> dict[str, tuple[str, bytes]]:
    """Path -> (mode, bytes) of a snapshot, read from the harness's git dir."""
    env = _clean_env(GIT_DIR=str(snapshots.git_dir))
    listing = subprocess.run(["git", "ls-tree", "-r", "-z", commit], env=env,
                             capture_output=True, check=True).stdout  # fmt: skip
    found = {}
    for entry in filter(None, listing.split(b"\0")):
        meta, path = entry.split(b"\t", 1)
        mode, _, sha = meta.decode().split()
        blob = subprocess.run(["git", "cat-file", "blob", sha], env=env,
                              capture_output=True, check=True).stdout  # fmt: skip
        found[os.fsdecode(path)] = (mode, blob)
    return found


def _agent_repo(ws: Path, config: str = "") -> Path:
    """What an agent does: make ``workspace/.git`` its own and configure it."""
    subprocess.run(["git", "init", "-q", str(ws)], env=_clean_env(), check=True)
    git = ws / ".git"
    with (git / "config").open("a") as file:
        file.write(config)
    return git


def _snapshot_is_disk(snapshots: Snapshots, commit: str, expected: dict[str, bytes]) -> None:
    assert {p: blob for p, (_, blob) in _files(snapshots, commit).items()} == expected


@pytest.mark.parametrize(
    "config",
    [
        '[core]\n\tfsmonitor = "touch {marker}"\n',
        '[core]\n\tsshCommand = "touch {marker}"\n\tgitProxy = "touch {marker}"\n'
        '\taskPass = "touch {marker}"\n[remote "origin"]\n\turl = ssh://example.invalid/x\n',
        '[core]\n\tpager = "touch {marker}"\n[alias]\n\tdiff-tree = "!touch {marker}"\n'
        '[diff]\n\texternal = "touch {marker}"\n',
    ],
    ids=["fsmonitor", "sshCommand", "pager-alias-external-diff"],
)
def test_planted_git_config_runs_nothing_and_changes_no_snapshot(tmp_path, config):
    ws, snapshots = _workspace(tmp_path)
    marker = tmp_path / "MARKER"
    _agent_repo(ws, config.format(marker=marker))
    (ws / "app.py").write_text("print('edited')\n")
    before = snapshots.commits["start"]
    after = snapshots.snapshot("phase/main")
    assert snapshots.changed(before, after) == ["app.py"]
    assert not marker.exists()
    _snapshot_is_disk(snapshots, after, {"app.py": b"print('edited')\n"})


def test_planted_hooks_run_nothing(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    marker = tmp_path / "MARKER"
    git = _agent_repo(ws, f"[core]\n\thooksPath = {ws / '.git' / 'hooks'}\n")
    (git / "hooks").mkdir(exist_ok=True)
    for hook in HOOKS:
        (git / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (git / "hooks" / hook).chmod(0o755)
    snapshots.snapshot("phase/main")
    assert not marker.exists()


def test_a_clean_filter_with_gitattributes_neither_runs_nor_rewrites_content(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    marker = tmp_path / "MARKER"
    _agent_repo(ws, f'[filter "x"]\n\tclean = "touch {marker}; echo forged"\n\trequired = true\n')
    (ws / ".gitattributes").write_text("* filter=x\n")
    commit = snapshots.snapshot("phase/main")
    assert not marker.exists()
    _snapshot_is_disk(
        snapshots, commit, {".gitattributes": b"* filter=x\n", "app.py": b"print('real')\n"}
    )


def test_gitattributes_cannot_mark_files_binary_ignored_or_rewrite_their_bytes(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    attributes = b"*.py binary export-ignore -diff\n*.txt text eol=crlf ident\n"
    (ws / ".gitattributes").write_bytes(attributes)
    (ws / "crlf.txt").write_bytes(b"$Id: kept $\r\nline\r\n")
    commit = snapshots.snapshot("phase/main")
    _snapshot_is_disk(snapshots, commit, {
        ".gitattributes": attributes, "app.py": b"print('real')\n",
        "crlf.txt": b"$Id: kept $\r\nline\r\n",
    })  # fmt: skip


def test_a_spoofed_head_or_agent_tag_does_not_change_the_commits_the_harness_records(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    git = _agent_repo(ws)
    subprocess.run(["git", "-C", str(ws), "add", "-A"], env=_clean_env(), check=True)
    subprocess.run(["git", "-C", str(ws), "-c", "user.name=a", "-c", "user.email=a@b",
                    "commit", "-qm", "clean"], env=_clean_env(), check=True)  # fmt: skip
    clean = (git / "refs" / "heads").iterdir().__next__().read_text()
    (git / "HEAD").write_text(clean)
    (git / "refs" / "tags").mkdir(exist_ok=True)
    (git / "refs" / "tags" / "agent").write_text(clean)
    (ws / "app.py").write_text("def total_value(): ...\n")  # the cheat, back on disk
    commit = snapshots.snapshot("phase/main")
    assert commit != clean.strip()
    _snapshot_is_disk(snapshots, commit, {"app.py": b"def total_value(): ...\n"})


def test_a_nested_repository_is_content_not_a_gitlink_that_hides_its_files(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    (ws / "sub").mkdir()
    (ws / "sub" / "code.py").write_text("hidden = True\n")
    subprocess.run(["git", "init", "-q", str(ws / "sub")], env=_clean_env(), check=True)
    (ws / "top").write_text("gitdir: /nonexistent\n")
    (ws / "other").mkdir()
    (ws / "other" / ".git").write_text("gitdir: ../sub/.git\n")
    (ws / "other" / "x.py").write_text("x\n")
    commit = snapshots.snapshot("phase/main")
    files = _files(snapshots, commit)
    assert {p: mode for p, (mode, _) in files.items()} == {
        "app.py": "100644", "other/x.py": "100644", "sub/code.py": "100644", "top": "100644",
    }  # fmt: skip


def test_the_graders_own_git_configuration_and_environment_are_ignored(tmp_path, monkeypatch):
    marker = tmp_path / "MARKER"
    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text(f'[core]\n\tfsmonitor = "touch {marker}"\n')
    (home / ".config" / "git" / "attributes").write_text("* filter=x\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'filter.x.clean'='touch {marker}'")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", f"touch {marker}")
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    _, snapshots = _workspace(tmp_path)
    commit = snapshots.snapshot("phase/main")
    assert not marker.exists()
    assert not (tmp_path / "elsewhere").exists()
    _snapshot_is_disk(snapshots, commit, {"app.py": b"print('real')\n"})


def test_symlinks_are_recorded_as_links_never_followed_out_of_the_workspace(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key").write_text("s3cret\n")
    (ws / "leak").symlink_to(secret / "key")
    (ws / "dir").symlink_to(secret)
    files = _files(snapshots, snapshots.snapshot("phase/main"))
    assert files["leak"] == ("120000", str(secret / "key").encode())
    assert files["dir"] == ("120000", str(secret).encode())
    assert not any(b"s3cret" in blob for _, blob in files.values())


def test_a_fifo_or_device_in_the_workspace_never_blocks_a_snapshot(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    os.mkfifo(ws / "pipe")
    if os.geteuid() == 0:
        os.mknod(ws / "zero", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    done: list[str] = []
    worker = threading.Thread(target=lambda: done.append(snapshots.snapshot("phase/main")))
    worker.start()
    worker.join(timeout=20)
    assert done, "the snapshot blocked on a FIFO or device"
    assert set(_files(snapshots, done[0])) == {"app.py"}


def test_odd_names_and_the_executable_bit_survive_a_snapshot(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    odd = ['we"ird\nname', "tab\there", "é/ü.py", os.fsdecode(b"raw\xff")]
    for name in odd:
        (ws / name).parent.mkdir(exist_ok=True)
        (ws / name).write_bytes(os.fsencode(name))
    (ws / "run.sh").write_text("#!/bin/sh\n")
    (ws / "run.sh").chmod(0o755)
    files = _files(snapshots, snapshots.snapshot("phase/main"))
    assert {name: files[name][1] for name in odd} == {n: os.fsencode(n) for n in odd}
    assert files["run.sh"][0] == "100755"
    assert files["app.py"][0] == "100644"


def test_the_snapshot_repository_lives_outside_the_workspace(tmp_path):
    ws, snapshots = _workspace(tmp_path)
    assert snapshots.git_dir == ws.parent / "snapshots.git"
    assert not (ws / ".git").exists()
    assert stat.S_IMODE(snapshots.git_dir.stat().st_mode) == 0o700


CHEAT = (
    "git init -q . && git add -A && git -c user.name=a -c user.email=a@b commit -qm start"
    " && sed -i s/total_value/stock_value/g inventory/store.py inventory/report.py"
    " tests/test_store.py"
    " && git add -A && git -c user.name=a -c user.email=a@b commit -qm clean"
    " && git rev-parse HEAD > .git/refs/tags/agent && git rev-parse HEAD > .git/agent"
    " && printf '\\n    total_value = stock_value\\n' >> inventory/store.py"
    " && echo '* binary -diff export-ignore' > .gitattributes"
)


@pytest.mark.slow
def test_a_spoofed_agent_tag_and_gitattributes_cannot_hide_an_alias_left_behind():
    """The issue's spoofed-snapshot attack on refactor-01: the alias is still on disk."""
    suite = load_suite(REPO / "suites" / "turnbench")
    task = suite.task("refactor-01")
    agent = CommandAgent("cheat", f"sh -c {CHEAT!r}")
    result = run_trial(task, suite.tiers[task.id], agent, 1, TrialOptions())
    statuses = {c.check_id: (c.status.value, c.detail) for c in result.checks}
    assert result.verdict == "failed", (result.error, result.log[-2000:])
    assert statuses["old-name-gone"] == (
        "FAIL",
        "inventory/store.py:50 matches /total_value =/: 'total_value ='",
    )
    assert statuses["oracle"][0] == "PASS"  # the rename itself was real
