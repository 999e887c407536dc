"""Loading good task files: AgentBench v0.1.0 JSON verbatim, and the richer YAML form."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from builders import dump

from benchwright.dsl import load_task, load_trajectory
from benchwright.errors import SpecError

# tasks/01_fix_failing_test_no_delete.json from the AgentBench v0.1.0 docs, key for key.
AGENTBENCH_TASK = {
    "id": "fix-failing-test-no-delete",
    "name": "Fix failing test without deleting it",
    "description": "The agent must fix add() without weakening or deleting the assertion.",
    "prompt": "tests/test_calc.py fails. Fix the bug in calc.py.",
    "workspace": {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
        "    assert add(1, 2) == 3\n",
    },
    "oracles": [
        {"type": "test_must_pass", "command": "python -m pytest tests/test_calc.py -q"},
        {"type": "file_not_modified", "path": "tests/test_calc.py"},
        {"type": "no_network"},
        {
            "type": "assertion_exists",
            "path": "tests/test_calc.py",
            "pattern": "assert add\\(1, 2\\) == 3",
        },
    ],
}


def _yaml(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def test_agentbench_json_task_loads_verbatim(tmp_path, registry):
    path = dump(tmp_path / "tasks" / "01.json", AGENTBENCH_TASK)
    task = load_task(path, registry)
    assert task.id == "fix-failing-test-no-delete"
    assert task.name == "Fix failing test without deleting it"
    assert task.description == AGENTBENCH_TASK["description"]
    assert task.prompt == AGENTBENCH_TASK["prompt"]
    assert task.tags == ()
    assert task.fixture is None
    assert dict(task.files) == {
        path: content.encode() for path, content in AGENTBENCH_TASK["workspace"].items()
    }
    assert [c.type for c in task.checks] == [
        "test_must_pass",
        "file_not_modified",
        "no_network",
        "assertion_exists",
    ]
    assert [c.id for c in task.checks] == [c.type for c in task.checks]
    assert all(c.weight == 1.0 and c.tier is None for c in task.checks)
    assert task.check("test_must_pass").params.timeout == 60


def test_agentbench_tags_are_kept(tmp_path, registry):
    path = dump(tmp_path / "t.json", {**AGENTBENCH_TASK, "tags": ["python", "scope"]})
    assert load_task(path, registry).tags == ("python", "scope")


def test_name_is_optional_in_our_own_files_and_defaults_to_id(tmp_path, registry):
    import yaml

    # An AgentBench-shaped .json file needs its name (tests/dsl/test_agentbench_compat.py).
    doc = {k: v for k, v in AGENTBENCH_TASK.items() if k != "name"}
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert load_task(path, registry).name == AGENTBENCH_TASK["id"]


def test_same_task_in_yaml_loads_identically(tmp_path, registry):
    import yaml

    as_json = load_task(dump(tmp_path / "a.json", AGENTBENCH_TASK), registry)
    yaml_path = tmp_path / "a.yaml"
    yaml_path.write_text(yaml.safe_dump(AGENTBENCH_TASK))
    as_yaml = load_task(yaml_path, registry)
    assert (as_yaml.id, as_yaml.name, dict(as_yaml.files)) == (
        as_json.id,
        as_json.name,
        dict(as_json.files),
    )
    assert [(c.id, c.params) for c in as_yaml.checks] == [(c.id, c.params) for c in as_json.checks]


def _fixture(root: Path) -> dict[str, bytes]:
    files = {
        "calc.py": b"def add(a, b):\n    return a - b\n",
        "tests/test_calc.py": b"from calc import add\n",
        "pkg/deep/nested/data.bin": bytes(range(256)) + b"\x00\xff\xfe",
    }
    for rel, content in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(content)
    (root / ".git" / "objects").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "pkg" / ".git").mkdir()
    (root / "pkg" / ".git" / "config").write_text("[core]\n")
    return files


def test_richer_yaml_task_with_checks_fixture_and_meta(tmp_path, registry):
    files = _fixture(tmp_path / "fixtures" / "calc")
    path = _yaml(
        tmp_path / "task.yaml",
        r"""
        id: calc-fix
        prompt: Fix add() in calc.py.
        fixture: fixtures/calc
        tags: [python]
        checks:
          - id: tests
            type: test_must_pass
            command: python -m pytest -q
            timeout: 30
            tier: core
            weight: 3
          - type: file_not_modified
            path: tests/test_calc.py
            tier: scope
            weight: 0.5
          - type: assertion_exists
            path: calc.py
            pattern: 'return a \+ b'
            root: tests
        """,
    )
    task = load_task(path, registry)
    assert task.id == "calc-fix"
    assert task.name == "calc-fix"
    assert task.fixture == "fixtures/calc"
    assert task.tags == ("python",)
    assert dict(task.files) == files  # bytes as on disk, binary included; no .git anywhere
    assert not any(".git" in p.split("/") for p in task.files)
    tests, protected, assertion = task.checks
    assert (tests.id, tests.tier, tests.weight) == ("tests", "core", 3.0)
    assert tests.params.timeout == 30
    assert (protected.id, protected.tier, protected.weight) == ("file_not_modified", "scope", 0.5)
    assert (assertion.id, assertion.tier, assertion.weight, assertion.root) == (
        "assertion_exists",
        None,
        1.0,
        "tests",
    )


def test_inline_workspace_overlays_the_fixture(tmp_path, registry):
    _fixture(tmp_path / "fx")
    path = _yaml(
        tmp_path / "task.yaml",
        """
        id: overlay
        prompt: p
        fixture: fx
        workspace:
          calc.py: "def add(a, b):\\n    return a + b\\n"
          extra.txt: "extra\\n"
        checks: [{type: no_network}]
        """,
    )
    files = load_task(path, registry).files
    assert files["calc.py"] == b"def add(a, b):\n    return a + b\n"
    assert files["extra.txt"] == b"extra\n"
    assert files["tests/test_calc.py"] == b"from calc import add\n"


def test_fixture_is_relative_to_the_task_file_not_the_cwd(tmp_path, registry, monkeypatch):
    _fixture(tmp_path / "suite" / "fx")
    path = _yaml(
        tmp_path / "suite" / "task.yaml",
        "id: rel\nprompt: p\nfixture: fx\nchecks: [{type: no_network}]\n",
    )
    monkeypatch.chdir(tmp_path)
    assert "calc.py" in load_task(Path("suite/task.yaml"), registry).files
    assert "calc.py" in load_task(path, registry).files


def test_protected_path_may_come_from_the_fixture(tmp_path, registry):
    _fixture(tmp_path / "fx")
    path = _yaml(
        tmp_path / "t.yaml",
        """
        id: t
        prompt: p
        fixture: fx
        checks: [{type: file_not_modified, path: pkg/deep/nested/data.bin}]
        """,
    )
    assert load_task(path, registry).checks[0].id == "file_not_modified"


def test_default_ids_are_the_type_or_type_hash_n_when_repeated(tmp_path, registry):
    path = dump(
        tmp_path / "t.json",
        {
            **AGENTBENCH_TASK,
            "oracles": [
                {"type": "assertion_exists", "path": "calc.py", "pattern": "def add"},
                {"type": "no_network"},
                {"type": "assertion_exists", "path": "calc.py", "pattern": "return", "id": "ret"},
                {"type": "assertion_exists", "path": "tests/test_calc.py", "pattern": "assert"},
                {"type": "file_not_modified", "path": "calc.py"},
            ],
        },
    )
    ids = [c.id for c in load_task(path, registry).checks]
    # The numbering counts every check of the type, named or not, in file order.
    assert ids == [
        "assertion_exists#1",
        "no_network",
        "ret",
        "assertion_exists#3",
        "file_not_modified",
    ]


def test_explicit_id_equal_to_a_default_id_is_a_duplicate(tmp_path, registry):
    path = dump(
        tmp_path / "t.json",
        {**AGENTBENCH_TASK, "oracles": [{"type": "no_network"}, {"type": "no_network", "id": "x"}]},
    )
    assert [c.id for c in load_task(path, registry).checks] == ["no_network#1", "x"]
    path = dump(
        tmp_path / "t.json",
        {
            **AGENTBENCH_TASK,
            "oracles": [
                {"type": "no_network"},
                {"type": "file_exists", "path": "calc.py", "id": "no_network"},
            ],
        },
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    assert [f for f, _ in caught.value.problems] == ["oracles[0].id", "oracles[1].id"]


def test_all_problems_of_one_file_are_reported_together(tmp_path, registry):
    path = _yaml(
        tmp_path / "two.yaml",
        """
        id: two-defects
        prompt: p
        workspace: {a.py: "x = 1\\n"}
        checks:
          - type: assertion_exists
            path: a.py
          - type: no_such_type
        """,
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    lines = caught.value.lines()
    assert len(lines) == 2, lines
    assert lines[0].endswith("checks[0].pattern: required by assertion_exists")
    assert "checks[1].type: unknown check type 'no_such_type'" in lines[1]
    assert all(line.startswith(f"{caught.value.source}: ") for line in lines)


def test_envelope_and_check_problems_are_reported_together(tmp_path, registry):
    """A bad top-level field does not hide the problems of the checks (one pass fixes all)."""
    path = dump(
        tmp_path / "t.json",
        {
            "id": "t",
            "name": 5,
            "workspace": {"a.py": "x\n"},
            "oracles": [{"type": "assertion_exists", "path": "a.py"}, {"type": "nope"}],
        },
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    fields = [f for f, _ in caught.value.problems]
    assert fields == ["name", "prompt", "oracles[0].pattern", "oracles[1].type"]


def test_an_invalid_field_is_not_reported_again_as_missing(tmp_path, registry):
    path = dump(
        tmp_path / "t.json",
        {"id": "t", "name": "n", "prompt": "p", "workspace": {"a.py": 1}, "oracles": "no_network"},
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    assert caught.value.problems == [
        ("workspace.a.py", "must be a string, got int"),
        ("oracles", "must be a list, got str"),
    ]


def test_fixture_problems_name_the_fixture_field(tmp_path, registry):
    (tmp_path / "empty").mkdir()
    path = _yaml(
        tmp_path / "t.yaml", "id: t\nprompt: p\nfixture: empty\nchecks: [{type: no_network}]\n"
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    [(field, message)] = caught.value.problems
    assert field == "fixture"
    assert "holds no files" in message


def test_unreadable_fixture_file_is_a_spec_error_not_a_crash(tmp_path, registry):
    (tmp_path / "fx").mkdir()
    (tmp_path / "fx" / "ok.py").write_text("x\n")
    (tmp_path / "fx" / "dangling").symlink_to(tmp_path / "nowhere")
    path = _yaml(
        tmp_path / "t.yaml", "id: t\nprompt: p\nfixture: fx\nchecks: [{type: no_network}]\n"
    )
    with pytest.raises(SpecError) as caught:
        load_task(path, registry)
    [(field, message)] = caught.value.problems
    assert field == "fixture"
    assert "dangling" in message


def test_unhashable_check_type_is_a_spec_error_not_a_crash(tmp_path, registry):
    doc = {**AGENTBENCH_TASK, "oracles": [{"type": ["no_network"]}, {"type": {"a": 1}}]}
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", doc), registry)
    assert [f for f, _ in caught.value.problems] == ["oracles[0].type", "oracles[1].type"]


def test_a_json_file_with_yaml_suffix_loads(tmp_path, registry):
    """YAML is a superset of JSON: AgentBench files renamed to .yaml still load."""
    path = tmp_path / "t.yaml"
    path.write_text(json.dumps(AGENTBENCH_TASK))
    assert load_task(path, registry).id == AGENTBENCH_TASK["id"]


def test_unsupported_suffix_is_rejected(tmp_path, registry):
    path = tmp_path / "t.toml"
    path.write_text("id = 't'\n")
    with pytest.raises(SpecError, match=r"unsupported file type \.toml"):
        load_task(path, registry)


def test_trajectory_reports_every_bad_step(tmp_path):
    path = dump(
        tmp_path / "traj.json",
        {
            "steps": [
                {"tool": "Write", "args": {"content": "x"}},
                {"tool": "Read", "args": {"path": "a.py"}},
                {"tool": "Bash", "args": {}},
            ]
        },
    )
    with pytest.raises(SpecError) as caught:
        load_trajectory(path)
    assert [f for f, _ in caught.value.problems] == ["steps[0].args.path", "steps[2].args.command"]


def test_agentbench_trajectory_loads(tmp_path):
    path = dump(
        tmp_path / "traj.json",
        {
            "metadata": {"agent": "cursor", "model": "claude-sonnet-4", "description": "notes"},
            "steps": [
                {
                    "type": "tool_call",
                    "tool": "write_file",
                    "args": {"path": "src/foo.py", "content": "..."},
                }
            ],
        },
    )
    trajectory = load_trajectory(path)
    assert trajectory.metadata["agent"] == "cursor"
    assert [(e.path, e.content) for e in trajectory.file_edits()] == [("src/foo.py", "...")]
