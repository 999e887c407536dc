"""B1-B3 through ``build.run``: the Docker gate, the local path, the JUnit XML, the mutant.

No Gradle exists on this machine (and no Maven repository is reachable to give one
a Spring Boot build), so the local-path tests put a stand-in ``gradle`` on PATH: it
runs the root's ``fake-<task>.sh``, which each test writes as its "build". It runs
inside the real sandbox, on the real scratch copy, and the verdicts come from the
real JUnit XML files the fake test task leaves.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from benchwright.checks.ace import build
from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.checks.ace._gradle import IMAGE, LOCAL_NOT_FOUND, docker_plan
from benchwright.checks.ace._junit import tally
from benchwright.model import Status

from ._build_builders import SERVICE, write

NO_ENGINE = Engine(False, "no Docker or Podman engine reachable (the client alone is not enough)")
ROOT = "account-service"
LEDGER = f"{ROOT}/src/main/java/com/acme/ledger/Ledger.java"
FAKE_GRADLE = """#!/bin/sh
# Stand-in for Gradle (absent here): run the root's fake-<task>.sh, the test's "build".
for task; do :; done
if [ -f "./fake-$task.sh" ]; then exec sh "./fake-$task.sh"; fi
exit 0
"""
CATCHING_TESTS = """mkdir -p build/test-results/test
if grep -q 'cash.subtract(notional)' src/main/java/com/acme/ledger/Ledger.java; then R=''
else R='<failure message="buy debited nothing"/>'; fi
cat > build/test-results/test/TEST-LedgerTest.xml <<XML
<testsuite name="LedgerTest"><testcase classname="LedgerTest" name="buy">$R</testcase>
<testcase classname="LedgerTest" name="sell"/></testsuite>
XML
[ -z "$R" ]
"""
"""A test task whose tests pass on the ledger and fail once its buy side is mutated."""
BLIND_TESTS = """mkdir -p build/test-results/test
printf '<testsuite><testcase classname="T" name="t"/></testsuite>' \\
  > build/test-results/test/TEST-T.xml
"""
"""A test task whose one test passes whatever the code does."""


@pytest.fixture
def gradle_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tool = tmp_path / "tool"
    (tool / "bin").mkdir(parents=True)
    (tool / "bin" / "gradle").write_text(FAKE_GRADLE)
    for path in (tool, tool / "bin", tool / "bin" / "gradle"):
        path.chmod(0o755)  # the sandbox's user must reach the stand-in through pytest's 0700
    monkeypatch.setenv("PATH", f"{tool / 'bin'}:/usr/bin:/bin")
    return tool


def _local(tmp_path: Path, files: dict[str, str | bytes]) -> dict[str, object]:
    workspace = write(tmp_path / "ws", files)
    env = AceEnv(workspace, NO_ENGINE, gradle="local", scratch=tmp_path / "scratch")
    results = build.run(env, ["B1", "B2", "B3"])
    return {i: (r.status, r.detail) for i, r in results.items()}


def test_without_an_engine_every_row_is_skipped_with_its_reason(tmp_path: Path) -> None:
    env = AceEnv(write(tmp_path, SERVICE), NO_ENGINE)
    results = build.run(env, ["B1", "B2", "B3", "S1"])
    assert sorted(results) == ["B1", "B2", "B3"]
    assert {(r.status, r.detail) for r in results.values()} == {(Status.SKIPPED, NO_ENGINE.reason)}


def test_local_without_gradle_on_path_is_infra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = AceEnv(write(tmp_path, SERVICE), NO_ENGINE, gradle="local")
    result = build.run(env, ["B2"])["B2"]
    assert (result.status, result.detail) == (Status.INFRA, LOCAL_NOT_FOUND)


@pytest.mark.usefixtures("gradle_on_path")
def test_local_passes_a_build_whose_tests_pass_and_kill_the_mutant(tmp_path: Path) -> None:
    results = _local(tmp_path, {**SERVICE, f"{ROOT}/fake-test.sh": CATCHING_TESTS})
    assert results["B1"] == (Status.PASS, "gradle assemble succeeded in 1 root (account-service)")
    assert results["B2"] == (
        Status.PASS,
        "gradle test: 2 executed, 0 failed, 0 errors, 0 skipped in 1 reports "
        "across 1 root (account-service)",
    )
    assert results["B3"] == (
        Status.PASS,
        f"mutant killed (1 failed/errored): .subtract( -> .add( at {LEDGER}:10",
    )
    assert "subtract" in (tmp_path / "ws" / LEDGER).read_text()  # the workspace is untouched


@pytest.mark.usefixtures("gradle_on_path")
def test_local_fails_a_mutant_that_survives(tmp_path: Path) -> None:
    results = _local(tmp_path, {**SERVICE, f"{ROOT}/fake-test.sh": BLIND_TESTS})
    assert results["B2"][0] is Status.PASS
    assert results["B3"] == (
        Status.FAIL,
        f"mutant survived (1 tests still pass): .subtract( -> .add( at {LEDGER}:10",
    )


@pytest.mark.usefixtures("gradle_on_path")
def test_failing_tests_fail_b2_and_b3_by_the_xml(tmp_path: Path) -> None:
    broken = CATCHING_TESTS.replace("cash.subtract(notional)", "no such line")
    results = _local(tmp_path, {**SERVICE, f"{ROOT}/fake-test.sh": broken})
    summary = "2 executed, 1 failed, 0 errors, 0 skipped in 1 reports"
    assert results["B2"] == (Status.FAIL, f"gradle test in {ROOT}: {summary}")
    assert results["B3"] == (
        Status.FAIL,
        f"the unmutated tests do not pass: gradle test in {ROOT}: {summary}",
    )


@pytest.mark.usefixtures("gradle_on_path")
def test_committed_test_results_never_count(tmp_path: Path) -> None:
    committed = f"{ROOT}/build/test-results/test/TEST-Old.xml"
    xml = '<testsuite><testcase classname="Old" name="passes"/></testsuite>'
    results = _local(tmp_path, {**SERVICE, committed: xml})
    assert results["B2"] == (
        Status.FAIL,
        "gradle test ran no test: the JUnit XML shows 0 executed, 0 failed, 0 errors, "
        "0 skipped in 0 reports",
    )


@pytest.mark.usefixtures("gradle_on_path")
def test_a_failing_assemble_and_a_neutered_test_task(tmp_path: Path) -> None:
    neutered = SERVICE[f"{ROOT}/build.gradle"].replace(
        "useJUnitPlatform()", "ignoreFailures = true"
    )
    results = _local(
        tmp_path,
        {
            **SERVICE,
            f"{ROOT}/build.gradle": neutered,
            f"{ROOT}/fake-assemble.sh": "echo 'Compilation failed' >&2; exit 1\n",
            f"{ROOT}/fake-test.sh": CATCHING_TESTS,
        },
    )
    assert results["B1"] == (Status.FAIL, f"gradle assemble in {ROOT} exited 1")
    assert results["B2"] == (
        Status.FAIL,
        f"neutered test task: {ROOT}/build.gradle:2: ignoreFailures = true "
        "(test { ignoreFailures = true })",
    )


@pytest.mark.usefixtures("gradle_on_path")
def test_nothing_to_build_or_mutate(tmp_path: Path) -> None:
    results = _local(tmp_path, {"README.md": "no build here\n"})
    assert results["B1"] == (Status.FAIL, build.NO_ROOT)
    assert results["B3"][0] is Status.NOT_ATTEMPTED
    assert "nothing to mutate" in str(results["B3"][1])


@pytest.mark.usefixtures("gradle_on_path")
def test_the_build_cannot_reach_the_network(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        probe = (
            f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\" "
            "2> err.txt\ngrep -q 'Network is unreachable\\|Connection refused' err.txt\n"
        )
        results = _local(tmp_path, {**SERVICE, f"{ROOT}/fake-assemble.sh": probe})
    assert results["B1"][0] is Status.PASS  # the port that listens on the host was not reached


def test_junit_tally_counts_outcomes_across_projects(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "build/test-results/test/TEST-A.xml": (
                '<testsuite><testcase name="a"/><testcase name="b"><failure/></testcase>'
                '<testcase name="c"><skipped/></testcase></testsuite>'
            ),
            "api/build/test-results/test/TEST-B.xml": (
                '<testsuite><testcase name="d"><error message="boom"/></testcase></testsuite>'
            ),
            "api/build/test-results/test/TEST-C.xml": "<testsuite><testcase",
            "api/build/reports/tests/index.xml": '<testsuite><testcase name="x"/></testsuite>',
        },
    )
    counts = tally(tmp_path)
    assert (counts.executed, counts.failed, counts.errors, counts.skipped) == (3, 1, 1, 1)
    assert counts.broken == 2
    assert counts.unreadable == ("api/build/test-results/test/TEST-C.xml",)


def test_docker_plan_runs_the_pinned_image_beside_a_fresh_database(tmp_path: Path) -> None:
    cache = tmp_path / "caches"
    plan = docker_plan("bw-ace-1", tmp_path / "copy", "order-service", "test", cache, 1000, 1000)
    assert plan.setup == (
        ("docker", "network", "create", "--internal", "bw-ace-1"),
        (
            "docker", "run", "-d", "--name", "bw-ace-1-db", "--network", "bw-ace-1",
            "--network-alias", "db", "--tmpfs", "/var/lib/postgresql/data",
            "-e", "POSTGRES_DB=app", "-e", "POSTGRES_USER=app", "-e", "POSTGRES_PASSWORD=app",
            "postgres:16-alpine",
        ),
    )  # fmt: skip
    assert plan.build == (
        "docker", "run", "--rm", "--name", "bw-ace-1-gradle", "--network", "bw-ace-1",
        "--user", "1000:1000", "-v", f"{tmp_path / 'copy'}:/work", "-w", "/work/order-service",
        "-e", "GRADLE_USER_HOME=/tmp/gradle-home", "-e", "GRADLE_OPTS=-Xmx1g",
        "-e", "SPRING_DATASOURCE_URL=jdbc:postgresql://db:5432/app",
        "-e", "SPRING_DATASOURCE_USERNAME=app", "-e", "SPRING_DATASOURCE_PASSWORD=app",
        "-v", f"{cache}:/gradle-ro-cache:ro", "-e", "GRADLE_RO_DEP_CACHE=/gradle-ro-cache",
        IMAGE, "gradle", "--no-daemon", "--console=plain", "--offline", "test",
    )  # fmt: skip
    assert "gradlew" not in " ".join(plan.build)  # never the agent's own wrapper
    assert plan.teardown == (
        ("docker", "rm", "-f", "bw-ace-1-db"),
        ("docker", "network", "rm", "bw-ace-1"),
    )
    at_root = docker_plan("n", tmp_path, ".", "assemble", None, 0, 0).build
    assert at_root[at_root.index("-w") + 1] == "/work" and "GRADLE_RO_DEP_CACHE" not in str(at_root)
