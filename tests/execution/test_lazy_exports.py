"""`benchwright.execution` loads its submodules on first use: every exported name resolves,
and a gate's import of it does not drag in suite runs, agents or the ACE summary."""

from __future__ import annotations

import subprocess
import sys

import benchwright.execution as execution


def test_every_exported_name_resolves_from_its_home() -> None:
    assert sorted(execution.__all__) == sorted([*execution._HOMES, "evaluate"])
    for name in execution.__all__:
        assert getattr(execution, name) is not None


def test_a_submodule_import_never_shadows_the_function_of_its_name() -> None:
    import benchwright.execution.evaluate  # noqa: F401 - binds the submodule on the package
    from benchwright.execution import evaluate

    assert callable(evaluate) and evaluate.__name__ == "evaluate"


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        execution.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_replay_and_evaluate_do_not_load_suite_runs() -> None:
    probe = (
        "import sys; from benchwright.execution import run_task; "
        "print(sorted(m for m in ('benchwright.execution.suite_run', "
        "'benchwright.execution.summary', 'benchwright.agents') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
