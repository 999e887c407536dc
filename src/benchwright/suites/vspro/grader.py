"""Grade one vspro tree: phases in order against a fresh copy, then every check.

Hermetic: a fresh copy of the tree, a fresh database, a leased port and a fresh
Meridian mock per grading, which the app reaches at the base URL rendered into its
prompt (``vendor_url``; see `serve_vendor`); the app is stopped (its whole process group) however
the grading ends. A phase that raises is a harness fault (INFRA rows); an app
that never becomes healthy skips the app phases (FAIL rows naming the boot).

The app runs sandboxed unless the caller's `Confinement` says otherwise: it can
write only its tree copy (``<work>/tree``) and its database directory
(``<work>/db``); the log, the vendor trace and the screenshots beside them in
the work directory, and the graded tree itself, are invisible to it.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.model import CheckResult
from benchwright.sandbox import CONFINED, Confinement
from benchwright.services.app import boot_headline
from benchwright.services.meridian import MeridianMock, Timing
from benchwright.services.ports import lease_port
from benchwright.suites.vspro.checks import BROWSER_CHECKS, CheckSettings, browser_rows, build_table
from benchwright.suites.vspro.checks._timing import judge_timing
from benchwright.suites.vspro.context import VENDOR_URL, GradeContext, GradeSettings, vendor_port
from benchwright.suites.vspro.observations import Observations
from benchwright.suites.vspro.phases import select_phases
from benchwright.suites.vspro.screenshots import CardShot, keep_screenshots
from benchwright.suites.vspro.tree import fresh_copy, locate_root, tree_sha256

DB_NAME = "graded-sb6.db"
DB_DIR = "db"
"""The app's database directory under the work directory: the only one it may write there."""


@dataclass(frozen=True)
class PhaseRecord:
    name: str
    seconds: float
    outcome: str
    """``ok``; ``failed: <why>`` (it raised: harness); the boot's headline (``app exited 1
    at boot: …``: boot ran, the app never became healthy); ``harness fault`` (not run
    because boot/restart raised); ``app down`` (not run: the app never became healthy)."""
    parts: Mapping[str, float] = field(default_factory=dict)
    """Seconds of the phase's own parts, when its observation times them (the browser's
    scenarios, which run in concurrent lanes: they add up to more than the phase)."""


PhaseListener = Callable[[str, PhaseRecord | None], None]
"""Told ``(name, None)`` when a phase starts and ``(name, record)`` when it is over (a phase
skipped because the app is down is only ever over), so a caller can show progress."""


@dataclass(frozen=True)
class Grading:
    """Rows for the scorer plus everything the scorecard's provenance needs."""

    rows: tuple[CheckResult, ...]
    observations: Observations
    phases: tuple[PhaseRecord, ...]
    root: Path
    tree_sha256: str
    seed: int
    evidence: dict[str, str] = field(default_factory=dict)
    """Evidence file kind -> path (app log, vendor trace), when kept."""
    staged: tuple[str, ...] = BROWSER_CHECKS
    isolation: str = "bwrap"
    """How the app was confined (``none``: the user passed ``--no-sandbox``)."""
    boot_failure: BootFailure | None = None
    """Why the app never became healthy at boot; None when it did (or never booted)."""
    screenshots: tuple[CardShot, ...] = ()
    """The kept screenshots, each with the rows that rely on it; the published ones are
    also ``evidence["screenshot_<name>"]`` (what ``publish`` posts)."""


@dataclass(frozen=True)
class BootFailure:
    """An app that never became healthy: said once, at the top of the scorecard; the rows
    it failed refer to it (``blocked_by: server_runs``) instead of repeating its output."""

    headline: str
    """``app exited 1 at boot: <last line of its output>``."""
    output: str
    """The tail of the app's output (its traceback), printed once."""


def boot_failure(obs: Observations) -> BootFailure | None:
    """The boot's failure, when the boot phase ran and the app never became healthy."""
    boot = obs["boot"].boot if obs.has("boot") else None
    headline = boot_headline(boot) if boot is not None else None
    if boot is None or headline is None:
        return None
    return BootFailure(headline, boot.output_tail.decode("utf-8", errors="replace").strip())


def grade(
    tree: Path,
    *,
    seed: int = 0,
    phases: Iterable[str] | None = None,
    timing: Timing | None = None,
    settings: GradeSettings | None = None,
    check_settings: CheckSettings | None = None,
    evidence_dir: Path | None = None,
    evidence_prefix: str = "",
    confinement: Confinement | None = None,
    vendor_url: str = VENDOR_URL,
    on_phase: PhaseListener | None = None,
) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` and evaluate every check.

    Args:
        tree: the built tree; ``vspro/`` in it or one directory down.
        seed: the Meridian fixture seed (0 is the published fixture).
        phases: names to run (``boot`` and ``trace`` join any app phase); None for all.
        timing: the mock's delays; the contract's by default (tests shrink them).
        settings: request, sync and restart timeouts; the seed's by default.
        check_settings: latency ladders and ``k_P``; the methodology's by default.
        evidence_dir: where the app log and vendor trace are copied (as
            ``<prefix>app.log`` and ``<prefix>vendor-trace.jsonl``) before the work
            directory is deleted; None keeps nothing.
        confinement: how the app is confined; sandboxed (a network namespace of its own)
            by default.
        vendor_url: the vendor's base URL rendered into the entrant's prompt; the app is
            told it (``MERIDIAN_BASE_URL``) and reaches the mock there (`serve_vendor`).
        on_phase: told when each phase starts and ends (`PhaseListener`); None tells no one.

    Returns:
        `Grading`: one row per sb-6 check (browser checks UNAVAILABLE), the
        observations, per-phase records, the tree's sha256 and the seed.

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, or ``vendor_url``
            is not a loopback base URL.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    confinement = confinement or CONFINED
    vendor_port(vendor_url)  # refuse a bad URL before anything runs
    root = locate_root(tree)
    selected = select_phases(phases)
    digest = tree_sha256(root)
    with tempfile.TemporaryDirectory(prefix="benchwright-vspro-") as tmp:
        work = Path(tmp)
        copy = fresh_copy(root, work)
        mock = MeridianMock(seed, timing=timing, trace_path=work / "vendor-trace.jsonl")
        fixture = mock.fixture
        obs = Observations(seed, fixture.expect, frozenset(r["id"] for r in fixture.rows))
        settings = settings or GradeSettings()
        ctx = GradeContext(copy, work, None, mock, settings, vendor_url)  # type: ignore[arg-type]
        obs, records = _run(selected, ctx, obs, confinement, on_phase or _nobody)
        rows = build_table().evaluate(obs, check_settings or CheckSettings())
        rows = judge_timing(rows, obs) + browser_rows()
        evidence = _keep_evidence(work, evidence_dir, evidence_prefix)
        shots, moved = _keep_screenshots(work, obs, rows, evidence_dir, evidence_prefix)
    evidence |= {f"screenshot_{s.name}": s.path for s in shots if s.published}
    rows = [_relocated(r, moved) for r in rows]
    return Grading(
        tuple(rows),
        obs,
        tuple(records),
        root,
        digest,
        seed,
        evidence,
        isolation=confinement.isolation,
        boot_failure=boot_failure(obs),
        screenshots=shots,
    )


def serve_vendor(mock: MeridianMock, vendor_url: str, confinement: Confinement) -> None:
    """Start the mock where the app will find it at ``vendor_url``.

    Sandboxed, the app has a loopback of its own on which a relay answers at
    ``vendor_url``, so the mock takes any free port and gradings never contend for the
    rendered one. Unconfined, the app dials the host's loopback: the mock must hold the
    rendered port itself.

    Raises:
        HarnessError: unconfined, and the rendered port is taken.
    """
    if confinement.enabled:
        mock.start()
        return
    try:
        mock.start(vendor_port(vendor_url))
    except HarnessError as exc:
        raise HarnessError(
            f"--no-sandbox: cannot serve the vendor at {vendor_url}, where the app was told it "
            f"is ({exc}); run sandboxed, where every grading has that address to itself"
        ) from exc


def _nobody(name: str, record: PhaseRecord | None) -> None:
    return None


def _run(selected, ctx, obs, confinement, notify):
    records: list[PhaseRecord] = []
    mock, settings, work = ctx.mock, ctx.settings, ctx.work
    for phase in (p for p in selected if not p.needs_app):
        obs = _one(phase, ctx, obs, records, None, notify)
    app_phases = [p for p in selected if p.needs_app]
    if not app_phases:
        return obs, records
    serve_vendor(mock, ctx.vendor_url, confinement)
    try:
        with lease_port() as lease:
            db, log = work / DB_DIR / DB_NAME, work / "app.log"
            ctx.app = ctx.new_app(db, lease.port, log, settings.boot_budget_s, confinement)
            try:
                blocked = None
                for phase in app_phases:
                    obs = _one(phase, ctx, obs, records, blocked, notify)
                    if phase.name in ("boot", "restart"):
                        blocked = blocked or _blocked(phase.name, obs)
            finally:
                ctx.app.stop()
    finally:
        mock.stop()
    return obs, records


def _one(phase, ctx, obs, records, blocked, notify):
    """Run one phase; when the app is down (or could not be started) record why instead."""
    started = time.monotonic()
    if blocked is not None and phase.name != "trace":
        harness, why = blocked
        records.append(PhaseRecord(phase.name, 0.0, "harness fault" if harness else "app down"))
        notify(phase.name, records[-1])
        return obs.with_failure(phase.name, why) if harness else obs.with_app_down(phase.name, why)
    notify(phase.name, None)
    parts: Mapping[str, float] = {}
    try:
        observed = phase.run(ctx, obs)
        obs = obs.with_phase(phase.name, observed)
        failure = boot_failure(obs) if phase.name == "boot" else None
        outcome = failure.headline if failure else "ok"
        parts = getattr(observed, "scenario_seconds", None) or {}
    except Exception as exc:  # a phase that raises is the harness's fault, never the app's
        why = f"{type(exc).__name__}: {exc}"
        obs, outcome = obs.with_failure(phase.name, why), f"failed: {why}"
    seconds = round(time.monotonic() - started, 3)
    records.append(PhaseRecord(phase.name, seconds, outcome, dict(parts)))
    notify(phase.name, records[-1])
    return obs


def _blocked(name: str, obs: Observations) -> tuple[bool, str] | None:
    """(harness?, why) when later app phases cannot run: the harness could not start the
    app (INFRA), or the app never became healthy at boot (the app's FAIL)."""
    if name in obs.failed:
        return True, f"the harness could not run phase {name}: {obs.failed[name]}"
    if name == "boot" and obs["boot"].boot.healthy_after_s is None:
        return False, "the app never became healthy at boot (see the boot failure above)"
    return None


def _keep_evidence(work: Path, into: Path | None, prefix: str) -> dict[str, str]:
    if into is None:
        return {}
    into.mkdir(parents=True, exist_ok=True)
    kept = {}
    for kind, name in (("app_log", "app.log"), ("vendor_trace", "vendor-trace.jsonl")):
        if (work / name).is_file() and (work / name).stat().st_size:
            shutil.copyfile(work / name, into / f"{prefix}{name}")
            kept[kind] = str(into / f"{prefix}{name}")
    return kept


def _keep_screenshots(
    work: Path, obs: Observations, rows: list[CheckResult], into: Path | None, prefix: str
) -> tuple[tuple[CardShot, ...], dict[str, str]]:
    """The browser phase's screenshots that rows rely on, copied to
    ``<into>/<prefix>browser/<scenario>/`` (`screenshots.keep_screenshots`), and old path
    -> kept path; nothing when nothing is kept."""
    seen = obs.phases.get("browser")
    if into is None or seen is None or not seen.screenshots:
        return (), {}
    return keep_screenshots(seen.screenshots, rows, work / "browser", into / f"{prefix}browser")


def _relocated(row: CheckResult, moved: dict[str, str]) -> CheckResult:
    """A row whose evidence names screenshots, pointed at the kept copies (dropped if none)."""
    if "screenshots" not in row.evidence:
        return row
    kept = [moved[p] for p in row.evidence["screenshots"] if p in moved]
    evidence = {k: v for k, v in row.evidence.items() if k != "screenshots"}
    return replace(row, evidence=evidence | ({"screenshots": kept} if kept else {}))
