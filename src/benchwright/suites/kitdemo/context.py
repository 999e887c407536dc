"""What kitdemo's phases get: the running app and the knobs of one grading (no vendor)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.probes.http import read_json
from benchwright.sandbox import Confinement
from benchwright.services.app import AppUnderTest, BootPolicy
from benchwright.suites.kitdemo.observations import Answer

COMMAND = "{python} -m kitdemo --db {db} --port {port}"
"""spec.md's boot line; ``{python}`` is the grader's interpreter (a stdlib-only app)."""


@dataclass(frozen=True)
class GradeSettings:
    request_timeout_s: float = 5.0
    boot_budget_s: float = 10.0
    """For the boot and the restart; healthy within 5 s earns the top rung either way."""


@dataclass
class GradeContext:
    """Live handles for one grading's phases (mutable: the kit starts the app into ``app``)."""

    tree: Path
    """The fresh copy the app runs from (holds ``kitdemo/``)."""
    settings: GradeSettings
    app: AppUnderTest = field(init=False)
    """Set by the kit (`kit.run_phases`) before the first app phase."""
    mock: None = None
    """kitdemo talks to no vendor: the kit serves nothing."""
    vendor_url: str = ""
    """Where a vendor would be; read only with a mock."""

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Confinement
    ) -> AppUnderTest:
        """The boot line as an app on ``port`` (the kit calls this once per grading)."""
        policy = BootPolicy(budget_s=budget_s)
        return AppUnderTest(COMMAND, tree=self.tree, db=db, port=port, log_path=log_path,
                            policy=policy, confinement=confinement)  # fmt: skip

    def call(self, path: str, *, method: str = "GET", json: Any = None) -> Answer:
        """One request to the app; a refused request is an answer too (status None)."""
        read = read_json(self.app.base_url, path, method=method, json_body=json,
                         timeout_s=self.settings.request_timeout_s)  # fmt: skip
        return Answer(read.status, read.json.value if read.parseable else None)
