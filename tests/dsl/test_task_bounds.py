"""Task fields that would break a trial half-way are refused at load, naming the field.

Task ids name run directories, fixtures are read from disk (links, devices, FIFOs),
paths must not clash as file and directory, check paths stay in the workspace,
and a check's phase must be one the task has.
"""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest
from builders import make_task

from benchwright.dsl import load_task
from benchwright.errors import SpecError


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages show paths relative to the current directory


def _task_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "task.yaml"
    path.write_text("id: t\nprompt: p\n" + textwrap.dedent(body))
    return path


def _problems(path: Path, registry) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    return caught.value.problems


def _fixture(tmp_path: Path, name: str = "fx") -> Path:
    root = tmp_path / name
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("a = 1\n")
    return root


# -- task ids -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("task_id", "problem"),
    [
        ("a" * 201, "must be at most 200 characters, got 201"),
        (".", "must not be '.'"),
        ("..", "must not be '..'"),
        ("../../etc", "must not contain '/' or '\\'"),
        ("a/b", "must not contain '/' or '\\'"),
        ("a\\b", "must not contain '/' or '\\'"),
        ("-rf", "must not start with '-'"),
        ("tab\there", "must not contain control characters"),
        ("bell\x07", "must not contain control characters"),
        ("nul\0", "must not contain a NUL byte"),
    ],
)
def test_a_task_id_that_cannot_name_a_directory_is_refused(registry, task_id, problem):
    with pytest.raises(SpecError) as caught:
        make_task([{"type": "file_exists", "path": "README.md"}], id=task_id, registry=registry)
    [(field, message)] = caught.value.problems
    assert field == "id"
    assert message.startswith(problem)


@pytest.mark.parametrize("task_id", ["a" * 200, "fix-01", "déjà.vu_2", "x..y"])
def test_ids_that_name_a_directory_load(registry, task_id):
    task = make_task([{"type": "file_exists", "path": "README.md"}], id=task_id, registry=registry)
    assert task.id == task_id


# -- fixtures: links, devices, FIFOs --------------------------------------------------------


def test_a_fixture_link_to_a_device_is_refused_without_reading_it(tmp_path, registry):
    (_fixture(tmp_path) / "zero").symlink_to("/dev/zero")
    started = time.perf_counter()
    problems = _problems(
        _task_file(tmp_path, "fixture: fx\nchecks: [{type: no_network}]\n"), registry
    )
    assert time.perf_counter() - started < 5
    assert problems == [
        ("fixture", "cannot read fx/zero: symbolic link leads outside to /dev/zero")
    ]


def test_a_fixture_link_to_a_file_outside_is_refused(tmp_path, registry):
    (tmp_path / "secret.txt").write_text("hunter2\n")
    (_fixture(tmp_path) / "src" / "leak.txt").symlink_to(tmp_path / "secret.txt")
    [(field, message)] = _problems(
        _task_file(tmp_path, "fixture: fx\nchecks: [{type: no_network}]\n"), registry
    )
    assert field == "fixture"
    assert message.startswith("cannot read fx/src/leak.txt: symbolic link leads outside")


def test_a_fifo_in_a_fixture_is_refused_instead_of_blocking(tmp_path, registry):
    os.mkfifo(_fixture(tmp_path) / "pipe")
    problems = _problems(
        _task_file(tmp_path, "fixture: fx\nchecks: [{type: no_network}]\n"), registry
    )
    assert problems == [
        ("fixture", "cannot read fx/pipe: not a regular file (a device, FIFO or socket)")
    ]


def test_a_link_inside_the_fixture_to_a_regular_file_there_reads_as_that_file(tmp_path, registry):
    root = _fixture(tmp_path)
    (root / "alias.py").symlink_to("src/app.py")
    (root / "srcdir").symlink_to("src", target_is_directory=True)
    task = load_task(_task_file(tmp_path, "fixture: fx\nchecks: [{type: no_network}]\n"), registry)
    assert dict(task.files) == {"alias.py": b"a = 1\n", "src/app.py": b"a = 1\n"}


def test_stamp_and_solution_directories_are_read_the_same_way(tmp_path, registry):
    _fixture(tmp_path)
    (tmp_path / "stamps").mkdir()
    (tmp_path / "stamps" / "oracle.py").symlink_to("/etc/hostname")
    (tmp_path / "sol").mkdir()
    os.mkfifo(tmp_path / "sol" / "app.py")
    body = "fixture: fx\nstamp: stamps\nsolution: {files: sol}\nchecks: [{type: no_network}]\n"
    problems = _problems(_task_file(tmp_path, body), registry)
    assert problems == [
        ("stamp", "cannot read stamps/oracle.py: symbolic link leads outside to /etc/hostname"),
        ("solution.files", "cannot read sol/app.py: not a regular file (a device, FIFO or socket)"),
    ]


# -- a file and a directory at one path -----------------------------------------------------


def test_inline_workspace_paths_that_clash_are_refused(registry):
    with pytest.raises(SpecError) as caught:
        make_task([{"type": "no_network"}], {"a": "x", "a/b.py": "y"}, registry=registry)
    assert caught.value.problems == [
        ('workspace["a/b.py"]', "conflicts with 'a' (one path, a file and a directory)")
    ]


def test_an_inline_file_where_the_fixture_has_a_directory_is_refused(tmp_path, registry):
    _fixture(tmp_path)
    body = "fixture: fx\nworkspace: {src: oops}\nchecks: [{type: no_network}]\n"
    assert _problems(_task_file(tmp_path, body), registry) == [
        ("fixture", "src/app.py: conflicts with 'src' (one path, a file and a directory)")
    ]


@pytest.mark.parametrize(
    ("stamp", "where", "clash"),
    [({"src/app.py/x": "y"}, "src/app.py/x", "src/app.py"), ({"src": "y"}, "src", "src/app.py")],
)
def test_a_stamp_that_clashes_with_the_workspace_is_refused(
    tmp_path, registry, stamp, where, clash
):
    with pytest.raises(SpecError) as caught:
        make_task(
            [{"type": "no_network"}, {"type": "file_exists", "path": "src/app.py"}],
            {"src/app.py": "a = 1\n"},
            stamp=stamp,
            registry=registry,
        )
    assert caught.value.problems == [
        (f'stamp["{where}"]', f"conflicts with {clash!r} (one path, a file and a directory)")
    ]


def test_a_solution_directory_that_clashes_with_the_workspace_is_refused(tmp_path, registry):
    _fixture(tmp_path)
    (tmp_path / "sol" / "src" / "app.py").mkdir(parents=True)
    (tmp_path / "sol" / "src" / "app.py" / "x.py").write_text("")
    body = "fixture: fx\nsolution: sol\nchecks: [{type: no_network}]\n"
    assert _problems(_task_file(tmp_path, body), registry) == [
        (
            "solution.files",
            "src/app.py/x.py: conflicts with 'src/app.py' (one path, a file and a directory)",
        )
    ]


# -- check paths and phases --------------------------------------------------------------------


@pytest.mark.parametrize("check_type", ["assertion_exists", "file_exists"])
@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.py", "a/../../outside.py", "."])
def test_check_paths_outside_the_workspace_are_refused(registry, check_type, path):
    entry = {
        "type": check_type,
        "path": path,
        **({"pattern": "x"} if check_type == "assertion_exists" else {}),
    }
    with pytest.raises(SpecError) as caught:
        make_task([entry], registry=registry)
    assert caught.value.problems == [
        ("oracles[0].path", f"must be a relative path inside the workspace, got {path!r}")
    ]


def test_check_paths_with_harmless_detours_are_normalized(registry):
    task = make_task(
        [{"type": "assertion_exists", "path": "./a/../README.md", "pattern": "h"}],
        registry=registry,
    )
    assert task.checks[0].params.path == "README.md"


def test_a_nul_byte_in_a_solution_path_is_refused(tmp_path, registry):
    _fixture(tmp_path)
    body = 'fixture: fx\nsolution: {script: "fix.sh\\0x"}\nchecks: [{type: no_network}]\n'
    assert _problems(_task_file(tmp_path, body), registry) == [
        ("solution.script", "must be a path string without NUL bytes")
    ]


def test_a_phase_budget_of_true_is_not_one_second(registry):
    with pytest.raises(SpecError) as caught:
        make_task(
            [{"type": "file_exists", "path": "README.md"}],
            phases=[{"name": "p1", "prompt": "Do it.", "budget": True}],
            registry=registry,
        )
    assert caught.value.problems == [("phases[0].budget", "must be a number > 0, got True")]
