"""A suite's check table: check ids -> pure functions of its observation record.

A check is ``(observations, settings) -> CheckResult`` marked with `app_check`,
naming the phases it reads in ``needs``. The table runs a check only when all
its phases ran; otherwise it answers for it: INFRA when a phase broke (the
harness's fault), FAIL when the app never became healthy (the app's), and
NOT_ATTEMPTED when the phase was not selected. A derived check reads other
checks' rows instead (``derived=True``, called with the rows by id).

When the app never became healthy, every row below 1 that needed it says so in its
evidence (``blocked_by: server_runs``), so the scorer attributes them to the boot
(`scoring.attribution`) instead of to whichever configured root they also depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, TypeVar

from benchwright.model import CheckResult, Status
from benchwright.scoring.attribution import BLOCKED_BY
from benchwright.suites.kit.record import PhaseLog

_MARK = "__app_check__"
BOOT_ROW = "server_runs"
"""The row that judges the boot: the root of every row an app that never booted failed."""
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class AppCheck:
    id: str
    needs: tuple[str, ...]
    run: Callable[..., CheckResult]
    derived: bool = False

    @property
    def summary(self) -> str:
        doc = (self.run.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""


def app_check(check_id: str, *, needs: Iterable[str] = (), derived: bool = False):
    """Mark ``fn`` as the implementation of ``check_id``, reading phases ``needs``."""

    def mark(fn: F) -> F:
        setattr(fn, _MARK, AppCheck(check_id, tuple(needs), fn, derived))
        return fn

    return mark


class CheckTable:
    """Checks by id, built from modules; a second check with the same id is an error."""

    def __init__(self) -> None:
        self._checks: dict[str, AppCheck] = {}

    @classmethod
    def from_modules(cls, modules: Iterable[ModuleType]) -> CheckTable:
        table = cls()
        for module in modules:
            for value in vars(module).values():
                found = getattr(value, _MARK, None)
                if isinstance(found, AppCheck):
                    table.register(found)
        return table

    def register(self, check: AppCheck) -> None:
        if check.id in self._checks:
            raise ValueError(f"check '{check.id}' is registered twice")
        self._checks[check.id] = check

    def get(self, check_id: str) -> AppCheck:
        if check_id not in self._checks:
            raise KeyError(f"no check '{check_id}' (known: {', '.join(self.ids)})")
        return self._checks[check_id]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._checks))

    def evaluate(self, obs: PhaseLog, settings: Any) -> list[CheckResult]:
        """Every check's row: observation checks first, then the derived ones."""
        rows = [self._one(c, obs, settings) for c in self._checks.values() if not c.derived]
        by_id: Mapping[str, CheckResult] = {r.check_id: r for r in rows}
        rows += [self._derived(c, by_id) for c in self._checks.values() if c.derived]
        return rows

    def evaluate_one(self, check_id: str, obs: PhaseLog, settings: Any) -> CheckResult:
        """One (non-derived) check's row, with the same absent-phase rules as `evaluate`."""
        return self._one(self.get(check_id), obs, settings)

    def _one(self, check: AppCheck, obs: PhaseLog, settings: Any) -> CheckResult:
        return _blocked(check, obs, self._run(check, obs, settings))

    def _run(self, check: AppCheck, obs: PhaseLog, settings: Any) -> CheckResult:
        missing = [p for p in check.needs if not obs.has(p)]
        if missing:
            return _absent(check.id, missing, obs)
        try:
            return check.run(obs, settings)
        except Exception as exc:  # a check bug is the harness's fault, never the app's
            return CheckResult(
                check.id, Status.INFRA, 0.0, f"check crashed: {type(exc).__name__}: {exc}"
            )

    def _derived(self, check: AppCheck, rows: Mapping[str, CheckResult]) -> CheckResult:
        try:
            return check.run(rows)
        except Exception as exc:
            return CheckResult(
                check.id, Status.INFRA, 0.0, f"check crashed: {type(exc).__name__}: {exc}"
            )


def _blocked(check: AppCheck, obs: PhaseLog, row: CheckResult) -> CheckResult:
    """``row``, marked ``blocked_by`` the boot when it fell short because the app never
    became healthy (it needed the boot, or a phase skipped for it)."""
    down = set(obs.app_down)
    if not down or check.id == BOOT_ROW or row.status is not Status.FAIL:
        return row
    if not down.intersection(check.needs) and "boot" not in check.needs:
        return row
    return replace(row, evidence={**row.evidence, BLOCKED_BY: BOOT_ROW})


def _absent(check_id: str, missing: list[str], obs: PhaseLog) -> CheckResult:
    broken = [p for p in missing if p in obs.failed]
    if broken:
        why = "; ".join(f"{p}: {obs.failed[p]}" for p in broken)
        return CheckResult(check_id, Status.INFRA, 0.0, f"harness fault in phase {why}")
    down = [p for p in missing if p in obs.app_down]
    if down:
        return CheckResult(check_id, Status.FAIL, 0.0, f"0: {obs.app_down[down[0]]}")
    return CheckResult(
        check_id,
        Status.NOT_ATTEMPTED,
        0.0,
        f"phase {', '.join(missing)} did not run (not selected with --phases)",
    )
