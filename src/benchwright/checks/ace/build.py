"""B1-B3: the agent's Gradle builds, built and tested from a source-only copy.

- B1: ``gradle assemble`` succeeds in every Gradle root (`_roots`).
- B2: ``gradle test`` in every root, judged by the JUnit XML it leaves (`_junit`):
  executed > 0 and no failure or error across all roots, a zero exit, and no
  neutered test task in any build script (`_neutered`).
- B3: one seeded mutation of the sell-side arithmetic (`_mutation`) makes the
  tests of the root holding it fail, where the unmutated tests passed.
  NOT_ATTEMPTED when ``src/main`` has nothing sell-side to mutate.

Docker-gated like ACE: with ``--gradle docker`` (the default) and no engine, every
row is SKIPPED with the engine's reason; `_gradle` has both ways to run a build.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from pathlib import Path, PurePosixPath

from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._gradle import Runner, docker_runner, local_runner
from benchwright.checks.ace._junit import Tally, tally
from benchwright.checks.ace._mutation import Mutation, apply, choose
from benchwright.checks.ace._neutered import Finding, find_neutered
from benchwright.checks.ace._roots import build_scripts, gradle_roots
from benchwright.checks.ace._scratch import Selection, copy_sources, scratch_area
from benchwright.model import CheckResult, Status
from benchwright.probes import CommandObservation

IDS = frozenset({"B1", "B2", "B3"})
NO_ROOT = "no Gradle root (settings.gradle* or build.gradle*) in the workspace"


def run(env: AceEnv, wanted: Collection[str]) -> dict[str, CheckResult]:
    """One record per wanted B id (see the module docstring for what passes)."""
    ids = sorted(IDS & set(wanted))
    if not ids:
        return {}
    if env.gradle == "docker" and not env.engine.available:
        return {i: CheckResult(i, Status.SKIPPED, 0.0, env.engine.reason) for i in ids}
    with scratch_area(env.scratch) as area:
        runner = (
            docker_runner(f"bw-ace-{uuid.uuid4().hex[:10]}")
            if env.gradle == "docker"
            else local_runner(area / "gradle-home")
        )
        if isinstance(runner, str):
            return {i: CheckResult(i, Status.INFRA, 0.0, runner) for i in ids}
        try:
            builds = _Builds(env.workspace, area, runner)
        except OSError as exc:
            why = f"cannot make the source-only copy: {exc}"
            return {i: CheckResult(i, Status.INFRA, 0.0, why) for i in ids}
        judges = {"B1": builds.b1, "B2": builds.b2, "B3": builds.b3}
        return {i: judges[i]() for i in ids}


class _Builds:
    """The runs B1-B3 share (each ``gradle <task>`` once per root), and their verdicts."""

    def __init__(self, workspace: Path, area: Path, runner: Runner) -> None:
        self.workspace, self.area, self.runner = workspace, area, runner
        self.copy = area / "source"
        self.selection: Selection = copy_sources(workspace, self.copy)
        self.roots = gradle_roots(self.selection.files)
        self.runs: dict[tuple[str, str], CommandObservation] = {}
        self.evidence = {"roots": self.roots, "stripped": self.selection.stripped}

    def gradle(self, root: str, task: str) -> CommandObservation:
        if (root, task) not in self.runs:
            self.runs[root, task] = self.runner(self.copy, root, task)
        return self.runs[root, task]

    def b1(self) -> CheckResult:
        if not self.roots:
            return CheckResult.failing("B1", NO_ROOT, **self.evidence)
        for root in self.roots:
            done = self.gradle(root, "assemble")
            if verdict := _broken_run("B1", root, "assemble", done, self.evidence):
                return verdict
        return CheckResult.passing(
            "B1", f"gradle assemble succeeded in {_roots_text(self.roots)}", **self.evidence
        )

    def b2(self) -> CheckResult:
        if not self.roots:
            return CheckResult.failing("B2", NO_ROOT, **self.evidence)
        neutered = self.neutered()
        evidence = {**self.evidence, "neutered": [str(f) for f in neutered]}
        if neutered:
            return CheckResult.failing("B2", f"neutered test task: {neutered[0]}", **evidence)
        total = Tally()
        for root in self.roots:
            done = self.gradle(root, "test")
            counts = tally(self.copy / root)
            evidence[f"junit:{root}"] = counts.summary()
            if verdict := _broken_run("B2", root, "test", done, evidence, counts):
                return verdict
            total += counts
        if total.executed == 0:
            return CheckResult.failing(
                "B2", f"gradle test ran no test: the JUnit XML shows {total.summary()}", **evidence
            )
        return CheckResult.passing(
            "B2", f"gradle test: {total.summary()} across {_roots_text(self.roots)}", **evidence
        )

    def b3(self) -> CheckResult:
        mutation = choose(self.copy, self.selection.files)
        if mutation is None:
            return CheckResult(
                "B3", Status.NOT_ATTEMPTED, 0.0,
                "no sell-side arithmetic in src/main within 3000 characters of a "
                "SELL/BUY/Side.* token or point-in-time method: nothing to mutate",
                self.evidence,
            )  # fmt: skip
        evidence = {**self.evidence, **mutation.evidence()}
        root = _root_of(mutation.path, self.roots)
        if root is None:
            return CheckResult.failing("B3", f"no Gradle root builds {mutation.path}", **evidence)
        baseline = self.gradle(root, "test")
        counts = tally(self.copy / root)
        if verdict := _broken_run("B3", root, "test", baseline, evidence, counts):
            return _prefixed(verdict, "the unmutated tests do not pass: ")
        if counts.executed == 0:
            detail = f"the unmutated tests ran nothing in {_root_text(root)}"
            return CheckResult.failing("B3", detail, **evidence)
        return self.mutant(mutation, root, evidence)

    def mutant(self, mutation: Mutation, root: str, evidence: dict[str, object]) -> CheckResult:
        copy = self.area / "mutant"
        copy_sources(self.workspace, copy)  # a fresh copy: no report of the first run survives
        apply(mutation, copy)
        done = self.runner(copy, root, "test")
        counts = tally(copy / root)
        evidence = {**evidence, "mutant_junit": counts.summary(), "mutant_exit": done.exit_code}
        where = f"{mutation.kind} at {mutation.path}:{mutation.line}"
        if done.error:
            return CheckResult("B3", Status.INFRA, 0.0, f"mutant run: {done.error}", evidence)
        if counts.broken or done.timed_out:
            outcome = "timed out" if not counts.broken else f"{counts.broken} failed/errored"
            return CheckResult.passing("B3", f"mutant killed ({outcome}): {where}", **evidence)
        if counts.executed == 0:
            return CheckResult(
                "B3", Status.INFRA, 0.0,
                f"the mutant did not build or ran no test (exit {done.exit_code}): {where}",
                evidence,
            )  # fmt: skip
        return CheckResult.failing(
            "B3", f"mutant survived ({counts.executed} tests still pass): {where}", **evidence
        )

    def neutered(self) -> list[Finding]:
        found: list[Finding] = []
        for script in build_scripts(self.selection.files):
            text = (self.copy / script).read_text(encoding="utf-8", errors="replace")
            found += find_neutered(script, text)
        return found


def _broken_run(
    check_id: str,
    root: str,
    task: str,
    done: CommandObservation,
    evidence: dict[str, object],
    counts: Tally | None = None,
) -> CheckResult | None:
    """The row for a run that did not succeed (INFRA when the harness could not run it)."""
    where = f"gradle {task} in {_root_text(root)}"
    evidence = {**evidence, f"{task}:{root}": _tail(done)}
    if done.error:
        return CheckResult(check_id, Status.INFRA, 0.0, f"{where}: {done.error}", evidence)
    if done.timed_out:
        return CheckResult.failing(check_id, f"{where} timed out", **evidence)
    if counts is not None and counts.broken:
        return CheckResult.failing(check_id, f"{where}: {counts.summary()}", **evidence)
    if done.exit_code != 0:
        return CheckResult.failing(check_id, f"{where} exited {done.exit_code}", **evidence)
    return None


def _prefixed(result: CheckResult, prefix: str) -> CheckResult:
    return CheckResult(result.check_id, result.status, 0.0, prefix + result.detail, result.evidence)


def _root_of(path: str, roots: list[str]) -> str | None:
    owners = [r for r in roots if PurePosixPath(path).is_relative_to(PurePosixPath(r))]
    return max(owners, key=len, default=None)


def _root_text(root: str) -> str:
    return "the workspace root" if root == "." else root


def _roots_text(roots: list[str]) -> str:
    return f"{len(roots)} root{'s' * (len(roots) != 1)} ({', '.join(roots)})"


def _tail(done: CommandObservation, lines: int = 40) -> str:
    return "\n".join((done.stdout + done.stderr).splitlines()[-lines:])
