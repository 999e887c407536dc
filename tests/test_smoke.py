from builders import make_task, make_trajectory

from benchwright.execution import run_task


def test_a_fix_passes_and_a_wrong_edit_fails(registry):
    task = make_task(
        [{"type": "assertion_exists", "path": "calc.py", "pattern": r"return a \+ b"}],
        {"calc.py": "def add(a, b):\n    return a - b\n"},
        registry=registry,
    )
    fix = make_trajectory(
        {
            "tool": "Edit",
            "args": {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
        }
    )
    wrong = make_trajectory(
        {
            "tool": "Edit",
            "args": {"file_path": "calc.py", "old_string": "a - b", "new_string": "b - a"},
        }
    )
    assert run_task(task, fix, registry=registry).passed
    assert not run_task(task, wrong, registry=registry).passed
