"""Whether a suite's gradings may run at once on this machine.

Sandboxed, every grading has its own network namespace: its vendor mock answers on the
address the entrant was told (``127.0.0.1:9003`` for vspro) inside that namespace, so
any number of them coexist. Unconfined (``--no-sandbox``) that address is the host's
own, and two gradings would fight over it: the second would fail as a harness fault
halfway through a run. So parallel gradings need the sandbox, and that is said before
anything starts.
"""

from __future__ import annotations

from benchwright.errors import SpecError
from benchwright.execution.executor import Executor
from benchwright.sandbox import Confinement


def require_hermetic(confinement: Confinement | None, executor: Executor) -> None:
    """Refuse unconfined gradings on more than one worker.

    Raises:
        SpecError: ``--no-sandbox`` with ``--workers`` above 1 (exit 2).
    """
    if executor.workers > 1 and confinement is not None and not confinement.enabled:
        raise SpecError.single(
            "--no-sandbox",
            f"cannot grade on {executor.workers} workers at once: unconfined gradings share "
            "the host's vendor address (127.0.0.1:9003); keep the sandbox or pass --workers 1",
        )
