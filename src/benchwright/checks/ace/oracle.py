"""The RunOracle: every wanted ACE id gets exactly one record, and silence is FAIL.

ACE's ``RunOracle.score()`` builds its result as wanted check -> record; a wanted
id with no record is FAIL, so a checker that crashes, is missing or says nothing
can never raise a score by going quiet. The families run in a fixed order
(offline text checks first, the black-box scenarios last), each asked only for
the wanted ids it owns; the oracle trusts a family for nothing else: a record for
an id it was not asked about is dropped, and a record's score follows its status
(PASS 1.0, anything else 0.0).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import replace
from types import ModuleType

from benchwright.checks.ace._env import AceEnv
from benchwright.model import CheckResult, Status

FAMILIES: tuple[str, ...] = (
    "structure",
    "planning",
    "money",
    "build",
    "compose",
    "health",
    "functional",
)
"""The family modules under ``benchwright.checks.ace``, in the order they run."""

_PREFIX_OWNER = {"S": "structure", "P": "planning", "M": "money", "B": "build", "F": "functional"}
_EXACT_OWNER = {"C1": "compose", "C2": "health"}
ACE_IDS: tuple[str, ...] = (
    *(f"S{n}" for n in range(1, 10)),
    *(f"P{n}" for n in range(1, 4)),
    *(f"M{n}" for n in range(1, 5)),
    *(f"B{n}" for n in range(1, 4)),
    "C1",
    "C2",
    *(f"F{n}" for n in range(1, 10)),
)
"""The 30 ids of ``scorers/ace.yaml``, in registry order."""

NO_RECORD = "no record: the checker crashed or stayed silent"
UNAVAILABLE = "checker {family} unavailable: {why}"
CRASHED = "checker {family} crashed: {why}"
_HARNESS_DETAILS = ("no record", "checker ")
"""How the oracle's own FAIL details begin: a FAIL that does not is a checker's finding."""


def owner(ace_id: str) -> str:
    """The family that scores ``ace_id``.

    Raises:
        KeyError: not one of the 30 ACE ids; the message lists them.
    """
    if ace_id not in ACE_IDS:
        raise KeyError(f"unknown ACE id {ace_id!r} (known: {', '.join(ACE_IDS)})")
    return _EXACT_OWNER.get(ace_id) or _PREFIX_OWNER[ace_id[0]]


def failed_by_detection(result: CheckResult) -> bool:
    """A FAIL a checker decided, not one the oracle filled in for a missing/crashed checker."""
    return result.status is Status.FAIL and not result.detail.startswith(_HARNESS_DETAILS)


def score(
    env: AceEnv, wanted_ids: Iterable[str], package: str = "benchwright.checks.ace"
) -> list[CheckResult]:
    """One record per wanted id, in the order wanted.

    Args:
        env: the workspace and capabilities every family is given.
        wanted_ids: ACE ids (duplicates are scored once); an unknown id is a KeyError.
        package: where the family modules live (tests point it at fakes).
    """
    wanted = list(dict.fromkeys(wanted_ids))
    by_family: dict[str, list[str]] = {}
    for ace_id in wanted:
        by_family.setdefault(owner(ace_id), []).append(ace_id)
    records: dict[str, CheckResult] = {}
    offline = FAMILIES[: FAMILIES.index("health")]
    for family in offline:
        if ids := by_family.get(family):
            records |= _run_family(f"{package}.{family}", family, env, ids)
    live = [(f, by_family[f]) for f in FAMILIES[len(offline) :] if f in by_family]
    if live:
        records |= _run_live(env, live, package)
    return [records.get(i) or CheckResult.failing(i, NO_RECORD) for i in wanted]


def _run_live(
    env: AceEnv, families: list[tuple[str, list[str]]], package: str
) -> dict[str, CheckResult]:
    """C2 and F1-F9 against the user's stack, or the workspace's own brought up by the
    compose family (``compose.stack``) when an engine exists; down again afterwards."""
    if env.base_url is not None or not env.engine.available:
        return _run_all(env, families, package)
    try:
        stack = importlib.import_module(f"{package}.compose").stack
        with stack(env) as up:
            return _run_all(replace(env, base_url=up and up.base_url), families, package)
    except Exception as exc:  # the stack's failure: never a traceback, never a higher score
        detail = CRASHED.format(family="compose", why=_one_line(exc))
        return {i: CheckResult.failing(i, detail) for _, ids in families for i in ids}


def _run_all(
    env: AceEnv, families: list[tuple[str, list[str]]], package: str
) -> dict[str, CheckResult]:
    records: dict[str, CheckResult] = {}
    for family, ids in families:
        records |= _run_family(f"{package}.{family}", family, env, ids)
    return records


def _run_family(
    module_name: str, family: str, env: AceEnv, ids: list[str]
) -> dict[str, CheckResult]:
    try:
        module: ModuleType = importlib.import_module(module_name)
    except ImportError as exc:
        detail = UNAVAILABLE.format(family=family, why=_one_line(exc))
        return {i: CheckResult.failing(i, detail, module=module_name) for i in ids}
    try:
        found = module.run(env, tuple(ids))
    except Exception as exc:  # any crash is the checker's, and it must never raise a score
        detail = CRASHED.format(family=family, why=_one_line(exc))
        return {i: CheckResult.failing(i, detail, module=module_name) for i in ids}
    if not isinstance(found, dict):
        return {}
    return {i: _trusted(i, found[i]) for i in ids if _is_record(i, found.get(i))}


def _is_record(ace_id: str, record: object) -> bool:
    return isinstance(record, CheckResult) and record.check_id == ace_id


def _trusted(ace_id: str, record: CheckResult) -> CheckResult:
    """The record with the score its status earns (ACE rows are all-or-nothing)."""
    earned = 1.0 if record.status is Status.PASS else 0.0
    return record if record.score == earned else replace(record, score=earned)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    return f"{type(exc).__name__}: {text}"[:300]
