"""What ``benchwright calibrate`` does, outside the CLI: grade the reference N times on
this host, fit the calibration-owned thresholds, write them, prove the pin.

Every run must pass the freeze gate (the first pass writes its marker, as ``grade
--reference`` does) and measure every calibration-owned figure: a run with an
UNAVAILABLE row (a contended host, unproven load) refuses the whole fit, since an
unproven measurement licenses nothing. The fit itself is `scoring.calibration.fit`.
"""

from __future__ import annotations

import os
import platform
import subprocess
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchwright.errors import HarnessError, RefusedError, SpecError
from benchwright.scoring import load_scorer, sha256_hex
from benchwright.scoring.calibration import FitContext, Measurement, fit, run_figures
from benchwright.scoring.calibration import thresholds_bytes as encode
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.thresholds import HostDescription, ThresholdsFile, ThresholdsPin
from benchwright.suites import grader_for
from benchwright.suites.grade_run import scorer_path
from benchwright.suites.report import reference_gate

CHROMIUM_VERSION_TIMEOUT_S = 20.0


def default_out(config: Path) -> Path:
    """``scorers/<scorer>-thresholds.calibrated.json`` beside the scorer config."""
    return config.with_name(f"{config.stem}-thresholds.calibrated.json")


def describe_host() -> HostDescription:
    """CPU model and count, kernel, Python and (when it answers) Chromium of this machine."""
    from benchwright.probes.browser import default_executable

    cpu = next(
        (line.split(":", 1)[1].strip() for line in _cpuinfo() if line.startswith("model name")),
        platform.processor() or platform.machine() or "unknown",
    )
    try:
        done = subprocess.run(
            [default_executable(), "--version"],
            capture_output=True,
            text=True,
            timeout=CHROMIUM_VERSION_TIMEOUT_S,
            check=True,
        )
        chromium = done.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        chromium = None
    return HostDescription(
        cpu_model=cpu,
        cpu_count=os.cpu_count() or 1,
        kernel=f"{platform.system()} {platform.release()}",
        python=platform.python_version(),
        chromium=chromium,
    )


def _cpuinfo() -> list[str]:
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _base(scorer: Scorer, measurements: Sequence[Measurement]) -> ThresholdsFile:
    """The scorer's current thresholds, once its owned checks are the ones the grader measures."""
    owned, measured = set(scorer.config.calibration_owned), {m.check for m in measurements}
    if owned != measured:
        raise SpecError.single(
            scorer.source,
            f"the suite's grader measures {sorted(measured)} for calibration, but the config "
            f"owns {sorted(owned)}",
            "calibration_owned",
        )
    if scorer.thresholds is None:
        raise SpecError.single(scorer.source, "has no thresholds file to calibrate", "thresholds")
    return scorer.thresholds.values


def proven_figures(
    grading: Any, scorer: Scorer, measurements: Sequence[Measurement], run: str
) -> dict[str, float]:
    """The run's figures, after its freeze gate passed; else the refusal saying why."""
    figures, unproven = run_figures(grading.rows, measurements)
    if unproven:
        raise RefusedError(
            f"{run}: {len(unproven)} calibration-owned measurement(s) unproven; refusing to "
            "fit (never on an unproven measurement)",
            unproven,
        )
    decision, marker = reference_gate(grading, scorer)
    if marker is None:
        raise RefusedError(
            f"{run}: the reference failed the freeze gate; refusing to calibrate on it",
            decision.problems,
        )
    return figures


def refuse_workers(workers: int | None) -> None:
    """Calibration grades one reference at a time, whatever ``--workers`` says.

    Its figures are latencies measured on an idle host, and the fit is what every later
    grading on this host is judged against: N gradings at once would contend each other
    by design, every window would read the siblings as foreign load, and the rows would
    come back UNAVAILABLE (refusing the fit) or, worse, slow but proven. A pool cannot
    help a measurement that needs the machine to itself, so the runs stay sequential and
    a request for more is refused rather than silently ignored.

    Raises:
        SpecError: ``workers`` above 1 (exit 2).
    """
    if workers is not None and workers > 1:
        raise SpecError.single(f"--workers {workers}", "calibrate grades the reference one "
                               "run at a time: it measures latency on an idle host, and "
                               "parallel runs would contend each other; omit --workers or "
                               "pass 1")  # fmt: skip


def run_calibrate(
    suite: str, tree: Path | None, runs: int, out: Path | None, no_sandbox: bool = False
) -> Iterator[str]:
    """Yield progress lines, then write the fitted thresholds and say how to pin them.
    The runs are graded one after another in this process (see `refuse_workers`).

    Raises:
        SpecError: unknown suite, a bad tree, or ``runs`` below 1 (exit 2).
        RefusedError: a run failed its freeze gate or left a calibration-owned figure
            unproven, or this host is too slow to calibrate on (exit 3).
        HarnessError: a phase raised, or no sandbox here without ``no_sandbox`` (exit 3).
    """
    from benchwright.sandbox import require
    from benchwright.suites.kit.build_phase import golden_build

    if runs < 1:
        raise SpecError.single("--runs", f"must be at least 1, got {runs}")
    grader = grader_for(suite)
    config = scorer_path(suite, grader.SCORER)
    scorer = load_scorer(config)
    base = _base(scorer, grader.CALIBRATION)
    target = out or default_out(config)
    if scorer.thresholds and target.resolve() == Path(scorer.thresholds.source).resolve():
        raise SpecError.single(f"--out {target}", "is the file the scorer config pins; write "
                               "the calibration beside it and pin that instead")  # fmt: skip
    confinement = require(no_sandbox)
    tree = tree or Path(suite) / "reference"
    settings = grader.CheckSettings.from_scorer(scorer)
    figures: list[dict[str, float]] = []
    trees: set[str] = set()
    for i in range(1, runs + 1):
        run = f"run {i}/{runs}"
        yield f"{run}: grading {tree} ..."
        start = time.monotonic()
        with golden_build(suite, grader.grade, 0) as build:  # the reference, as built
            grading = grader.grade(tree, check_settings=settings, confinement=confinement, **build)
        broken = [f"{p.name} ({p.outcome})" for p in grading.phases
                  if p.outcome.startswith("failed")]  # fmt: skip
        if broken:  # with why: a bare phase name gives a user nothing to act on
            raise HarnessError(f"{run}: the harness failed during phase(s) {'; '.join(broken)}")
        figures.append(proven_figures(grading, scorer, grader.CALIBRATION, run))
        trees.add(grading.tree_sha256)
        if len(trees) > 1:
            raise RefusedError(f"{run}: the reference tree changed between runs "
                               f"(sha256 {', '.join(sorted(trees))}); refusing to fit")  # fmt: skip
        shown = ", ".join(f"{k} {v:g}" for k, v in figures[-1].items())
        yield f"{run}: {time.monotonic() - start:.0f} s, freeze gate passed; {shown}"
    context = FitContext(describe_host(), datetime.now(UTC).date().isoformat(),
                         grading.tree_sha256)  # fmt: skip
    values = fit(figures, grader.CALIBRATION, base, settings.ladders, context)
    data = encode(values)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    sha = sha256_hex(data)
    pinned = load_scorer(config, thresholds=ThresholdsPin(target, sha))
    yield from (f"note: {n}" for n in values.evidence.notes) if values.evidence else ()
    yield f"fitted k_P {values.k_P:g}; floors {values.floors}"
    yield f"wrote {target} sha256 {sha} (scorer {pinned.version}, calibrated)"
    yield "pin it for one grading:"
    yield f"  benchwright grade {suite} --tree TREE --thresholds {target} --thresholds-sha256 {sha}"
    yield f"or for every grading, in {config}:"
    yield f"  thresholds: {{file: {os.path.relpath(target, config.parent)}, sha256: {sha}}}"
