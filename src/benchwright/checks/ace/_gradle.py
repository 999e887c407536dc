"""How B1-B3 run ``gradle <task>`` in one Gradle root of a scratch copy.

Two ways, neither of them the agent's own wrapper (a ``gradlew`` is the agent's
code and could print anything):

- ``docker`` (ACE's way): the pinned ``gradle:8.14-jdk21`` image, beside a fresh
  PostgreSQL sidecar on a private ``--internal`` Docker network, so the build sees
  its database and nothing else. With no route out, dependencies come from a
  read-only Gradle cache (``GRADLE_RO_DEP_CACHE``) mounted from the host when one
  exists, and the build runs ``--offline``. `docker_plan` is the exact commands.
- ``local`` (opt-in, beyond ACE): the machine's own ``gradle`` inside the project's
  bubblewrap sandbox with no network, a fresh writable Gradle home, and the user's
  Gradle cache (when present) as the read-only dependency cache. No database runs
  beside it: tests that need PostgreSQL fail here, which is the user's trade.
"""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.probes import CommandObservation, run_command
from benchwright.sandbox import Confinement, Limits, Network

IMAGE = "gradle:8.14-jdk21"
POSTGRES_IMAGE = "postgres:16-alpine"
TIMEOUT_S = {"assemble": 900.0, "test": 1200.0}
DB_READY_S = 60.0
DB = "app"
"""Database, user and password of the sidecar (a throwaway database on a private network)."""
CONTAINER_HOME = "/tmp/gradle-home"
RO_CACHE = "/gradle-ro-cache"
LOCAL_NOT_FOUND = "gradle not found on PATH (--gradle local)"
LOCAL_CONFINEMENT = Confinement(limits=Limits(memory_mb=None))
"""The sandbox's usual limits but for address space: a JVM reserves far more address
space than it uses (heap, code cache, class space), and an RLIMIT_AS ceiling stops it
starting; its heap is bounded by ``-Xmx`` instead (`GRADLE_OPTS`)."""
GRADLE_OPTS = "-Xmx1g"

Runner = Callable[[Path, str, str], CommandObservation]
"""``(scratch copy, root relative to it, task) -> what the build did``."""


def host_cache() -> Path | None:
    """The user's Gradle dependency cache, when there is one to lend read-only."""
    home = Path(os.environ.get("GRADLE_USER_HOME", Path.home() / ".gradle"))
    return home / "caches" if (home / "caches" / "modules-2").is_dir() else None


@dataclass(frozen=True, slots=True)
class DockerPlan:
    """The ``docker`` commands of one ``gradle <task>`` run, in the order they run."""

    setup: tuple[tuple[str, ...], ...]
    ready: tuple[str, ...]
    """Polled until it exits 0: the sidecar accepts connections."""
    build: tuple[str, ...]
    teardown: tuple[tuple[str, ...], ...]
    """Run whatever happened before."""


def docker_plan(
    name: str, scratch: Path, root: str, task: str, cache: Path | None, uid: int, gid: int
) -> DockerPlan:
    """The commands that run ``gradle <task>`` in ``root`` of ``scratch`` beside a fresh database.

    Args:
        name: a name unique to this run (network and container names derive from it).
        cache: a host Gradle cache mounted read-only as the dependency cache, if any.
        uid, gid: who the build runs as, so the copy stays removable by the grader.
    """
    db = f"{name}-db"
    auth = ("-e", f"POSTGRES_DB={DB}", "-e", f"POSTGRES_USER={DB}", "-e", f"POSTGRES_PASSWORD={DB}")
    spring = (
        *("-e", f"SPRING_DATASOURCE_URL=jdbc:postgresql://db:5432/{DB}"),
        *("-e", f"SPRING_DATASOURCE_USERNAME={DB}", "-e", f"SPRING_DATASOURCE_PASSWORD={DB}"),
    )
    lend = ("-v", f"{cache}:{RO_CACHE}:ro", "-e", f"GRADLE_RO_DEP_CACHE={RO_CACHE}")
    workdir = "/work" if root == "." else f"/work/{root}"
    build = (
        *("docker", "run", "--rm", "--name", f"{name}-gradle", "--network", name),
        *("--user", f"{uid}:{gid}", "-v", f"{scratch}:/work", "-w", workdir),
        *("-e", f"GRADLE_USER_HOME={CONTAINER_HOME}", "-e", f"GRADLE_OPTS={GRADLE_OPTS}"),
        *spring,
        *(lend if cache is not None else ()),
        *(IMAGE, "gradle", "--no-daemon", "--console=plain", "--offline", task),
    )
    return DockerPlan(
        setup=(
            ("docker", "network", "create", "--internal", name),
            (
                *("docker", "run", "-d", "--name", db, "--network", name),
                *("--network-alias", "db", "--tmpfs", "/var/lib/postgresql/data"),
                *auth,
                POSTGRES_IMAGE,
            ),
        ),
        ready=("docker", "exec", db, "pg_isready", "-h", "127.0.0.1", "-U", DB, "-d", DB),
        build=build,
        teardown=(("docker", "rm", "-f", db), ("docker", "network", "rm", name)),
    )


def docker_runner(name: str) -> Runner:
    """Run each build as `docker_plan` says (needs a reachable engine: unverified here)."""
    count = iter(range(1_000_000))

    def run(scratch: Path, root: str, task: str) -> CommandObservation:
        plan = docker_plan(
            f"{name}-{next(count)}", scratch, root, task, host_cache(), os.getuid(), os.getgid()
        )
        try:
            for step in plan.setup:
                done = run_command(list(step), scratch, timeout_s=120.0)
                if done.exit_code != 0:
                    tail = (done.error or done.stderr or done.stdout).strip().splitlines()[-1:]
                    return _not_run(plan, f"cannot start the PostgreSQL sidecar: {tail}")
            if not _poll(plan.ready, scratch):
                return _not_run(plan, f"the PostgreSQL sidecar was not ready in {DB_READY_S:g}s")
            return run_command(list(plan.build), scratch, timeout_s=TIMEOUT_S[task], grace_s=10)
        finally:
            for step in plan.teardown:
                run_command(list(step), scratch, timeout_s=60.0)

    return run


def _poll(argv: Sequence[str], cwd: Path) -> bool:
    deadline = time.monotonic() + DB_READY_S
    while time.monotonic() < deadline:
        if run_command(list(argv), cwd, timeout_s=10.0).exit_code == 0:
            return True
        time.sleep(1.0)  # pg_isready answers at once; this paces the polling only
    return False


def _not_run(plan: DockerPlan, why: str) -> CommandObservation:
    """The build never ran because the harness could not set it up (an INFRA row)."""
    return CommandObservation(shlex.join(plan.build), None, "", "", 0.0, False, error=why)


def local_runner(home: Path) -> Runner | str:
    """Run the machine's ``gradle``, confined with no network; a string says why it cannot.

    Args:
        home: a fresh directory for the Gradle user home (writable by the build).
    """
    gradle = shutil.which("gradle")
    if gradle is None:
        return LOCAL_NOT_FOUND
    install = Path(gradle).resolve().parent.parent
    cache = host_cache()
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "GRADLE_USER_HOME": str(home),
        "GRADLE_OPTS": GRADLE_OPTS,
        **({"GRADLE_RO_DEP_CACHE": str(cache)} if cache else {}),
        **({"JAVA_HOME": os.environ["JAVA_HOME"]} if "JAVA_HOME" in os.environ else {}),
    }
    readable = [install, *([cache] if cache else [])]
    if "JAVA_HOME" in os.environ:
        readable.append(Path(os.environ["JAVA_HOME"]).resolve())

    def run(scratch: Path, root: str, task: str) -> CommandObservation:
        home.mkdir(parents=True, exist_ok=True)  # run_command hands both to the sandbox's uid
        sandbox = LOCAL_CONFINEMENT.sandbox(
            [scratch, home], readable=readable, network=Network.NONE, env=env
        )
        argv = [gradle, "--no-daemon", "--console=plain", "--offline", task]
        return run_command(
            argv, scratch / root, timeout_s=TIMEOUT_S[task], env=env, grace_s=10, sandbox=sandbox
        )

    return run
