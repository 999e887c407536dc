"""The workspace: in-memory state, globbing, and the directory materialized on demand."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.workspace import Workspace, match_glob, read_tree

FILES = {
    "README.md": b"# hi\n",
    "src/app.py": b"print('app')\n",
    "src/pkg/util.py": b"X = 1\n",
    "tests/test_app.py": b"def test(): pass\n",
    "tests/unit/test_util.py": b"def test(): pass\n",
}


@pytest.fixture
def ws():
    workspace = Workspace(FILES)
    yield workspace
    workspace.cleanup()


# -- reading the agent's state ----------------------------------------------------------


def test_reads_return_bytes_text_or_none(ws):
    assert ws.read_bytes("README.md") == b"# hi\n"
    assert ws.read_text("src/app.py") == "print('app')\n"
    assert ws.read_bytes("missing") is None and ws.read_text("missing") is None
    assert ws.exists("src/app.py") and not ws.exists("src")  # directories are not files


def test_read_text_replaces_undecodable_bytes():
    assert Workspace({"b.bin": b"ok \xff"}).read_text("b.bin") == "ok \ufffd"


def test_changed_covers_edit_add_and_delete(ws):
    ws.files["src/app.py"] = b"changed"
    ws.files["new.py"] = b""
    del ws.files["README.md"]
    assert ws.changed("src/app.py") and ws.changed("new.py") and ws.changed("README.md")
    assert not ws.changed("src/pkg/util.py")
    assert not ws.changed("never-existed")


def test_restoring_identical_content_is_not_a_change(ws):
    ws.files["src/app.py"] = b"other"
    ws.files["src/app.py"] = FILES["src/app.py"]
    assert not ws.changed("src/app.py")


# -- globbing ---------------------------------------------------------------------------


def test_double_star_spans_directories_and_single_star_does_not(ws):
    assert ws.glob("tests/**") == ["tests/test_app.py", "tests/unit/test_util.py"]
    assert ws.glob("tests/*") == ["tests/test_app.py"]
    assert ws.glob("**/test_*.py") == ["tests/test_app.py", "tests/unit/test_util.py"]
    assert ws.glob("src/**/*.py") == ["src/app.py", "src/pkg/util.py"]  # ** may be empty
    assert ws.glob("*.md") == ["README.md"]
    assert ws.glob("**") == sorted(FILES)


def test_glob_initial_sees_files_the_agent_deleted(ws):
    del ws.files["tests/test_app.py"]
    assert ws.glob("tests/*") == []
    assert ws.glob("tests/*", initial=True) == ["tests/test_app.py"]


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("a/b/c.py", "a/**/c.py", True),
        ("a/c.py", "a/**/c.py", True),
        ("a/b/c.py", "a/*/c.py", True),
        ("a/b/d/c.py", "a/*/c.py", False),
        ("a/b.py", "*.py", False),
        ("a/b.py", "?/b.py", True),
        ("ab/b.py", "?/b.py", False),
        ("a/b.py", "a/[ab].py", True),
        ("A/b.py", "a/b.py", False),  # case-sensitive on every platform
        ("tests_extra/x.py", "tests/**", False),
        ("tests", "tests/**", True),
    ],
)
def test_match_glob(path, pattern, expected):
    assert match_glob(path, pattern) is expected


segment = st.text(alphabet="ab.-_", min_size=1, max_size=4)
paths = st.lists(segment, min_size=1, max_size=4).map("/".join)


@given(paths, paths)
def test_a_pattern_without_wildcards_is_plain_equality(path, pattern):
    assert match_glob(path, pattern) is (path == pattern)
    assert match_glob(path, path)


@given(paths)
def test_double_star_matches_every_path(path):
    assert match_glob(path, "**")
    assert match_glob(path, "**/" + path.rsplit("/", 1)[-1])


# -- the directory ----------------------------------------------------------------------


def test_nothing_touches_the_disk_until_asked(ws):
    assert not ws.materialized
    ws.read_text("README.md")
    ws.glob("**")
    assert not ws.materialized


def test_directory_is_one_level_below_a_private_parent(ws):
    root = ws.directory()
    assert root.name == "workspace"
    assert stat.S_IMODE(root.parent.stat().st_mode) == 0o700
    assert dict(read_tree(root)) == FILES
    assert not (root.parent / "initial").exists()
    assert ws.directory() == root  # materialized once


def test_the_directory_holds_the_agent_state_not_the_initial_one():
    ws = Workspace(FILES)
    ws.files["src/app.py"] = b"agent"
    del ws.files["README.md"]
    try:
        tree = dict(read_tree(ws.directory()))
    finally:
        ws.cleanup()
    assert tree["src/app.py"] == b"agent" and "README.md" not in tree


def test_cleanup_removes_the_parent(ws):
    parent = ws.directory().parent
    ws.cleanup()
    assert not parent.exists() and not ws.materialized


def test_context_manager_cleans_up():
    with Workspace(FILES) as ws:
        parent = ws.directory().parent
    assert not parent.exists()


def test_keep_keeps_the_directory_and_writes_the_initial_files_beside_it():
    ws = Workspace(FILES, keep=True)
    ws.files["src/app.py"] = b"agent"
    root = ws.directory()
    try:
        ws.cleanup()
        assert root.is_dir()
        assert dict(read_tree(root))["src/app.py"] == b"agent"
        assert dict(read_tree(root.parent / "initial")) == FILES
    finally:
        shutil.rmtree(root.parent)


def test_reads_keep_returning_the_agent_state_after_the_disk_changes(ws):
    # The module docstring's promise: a test command that writes caches or rewrites
    # files on disk cannot change what a later static check sees.
    root = ws.directory()
    (root / "README.md").write_text("rewritten by a command")
    (root / "src" / "app.py").unlink()
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert ws.read_text("README.md") == "# hi\n"
    assert ws.exists("src/app.py")
    assert ws.glob("**/*.pyc") == []
    assert not ws.changed("README.md")


def test_read_tree_skips_git_metadata(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.txt").write_bytes(b"b")
    (tmp_path / ".gitignore").write_text("x")
    assert dict(read_tree(tmp_path)) == {".gitignore": b"x", "a/b.txt": b"b"}


def test_read_tree_leaves_out_vcs_metadata_and_caches(tmp_path):
    for rel in (
        "src/a.py",
        ".git/HEAD",
        "src/__pycache__/a.pyc",
        ".pytest_cache/v",
        "b/.mypy_cache/x",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert [path for path, _ in read_tree(tmp_path)] == ["src/a.py"]


def test_refresh_passes_over_what_an_agent_left_that_is_not_a_regular_file(tmp_path):
    """An agent's link to /dev/zero or to a host file, or a FIFO, holds no work to judge:
    reading it would fill memory, leak the host, or block forever."""
    with Workspace(FILES) as ws:
        root = ws.directory()
        (root / "zero").symlink_to("/dev/zero")
        (root / "hostname").symlink_to("/etc/hostname")
        (root / "dangling").symlink_to(root / "nowhere")
        (root / "srcdir").symlink_to(root / "src", target_is_directory=True)
        (root / "alias.py").symlink_to("src/app.py")
        os.mkfifo(root / "pipe")
        ws.refresh()
        assert ws.files == {**FILES, "alias.py": FILES["src/app.py"]}


def test_read_tree_refuses_what_is_not_a_regular_file_inside_the_tree(tmp_path):
    (tmp_path / "ok.txt").write_text("ok")
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(OSError) as caught:
        dict(read_tree(tmp_path))
    assert caught.value.filename == str(tmp_path / "zero")
    assert caught.value.strerror == "symbolic link leads outside to /dev/zero"


def test_a_refresh_after_stamping_keeps_the_agents_view_of_stamped_paths(tmp_path):
    ws = Workspace({"a.py": b"1", "tests/t.py": b"agent's"})
    root = ws.directory()
    try:
        (root / "late.py").write_bytes(b"written after the first look")
        (root / "tests" / "t.py").write_bytes(b"stamped oracle")
        (root / "tests" / "oracle.py").write_bytes(b"stamped, new")
        ws.refresh(preserve=("tests/t.py", "tests/oracle.py"))
        assert ws.files["late.py"] == b"written after the first look"
        assert ws.files["tests/t.py"] == b"agent's"
        assert "tests/oracle.py" not in ws.files
    finally:
        ws.cleanup()
