"""S1-S9 over real files: the right workspace passes, each near miss fails, saying why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.checks.ace import structure
from benchwright.checks.ace._env import AceEnv
from benchwright.model import Status

from ._offline_builders import NO_ENGINE, score, write

BOOT_GRADLE = """plugins {
    id 'java'
    id 'org.springframework.boot' version '3.3.0'
}
"""
APP_JAVA = "package app;\n\npublic class App {\n    public static void main(String[] a) {}\n}\n"
GRADLEW = "#!/bin/sh\n" + "# launches the Gradle wrapper jar\n" * 40
PROPS = "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.14-bin.zip\n"
OPENAPI = "openapi: 3.1.0\ninfo:\n  title: trading\n  version: '1'\npaths:\n  /health: {}\n"
MIGRATION = "CREATE TABLE account (id UUID PRIMARY KEY, balance NUMERIC(19,4));\n"


def service(name: str, build: str = BOOT_GRADLE) -> dict[str, str]:
    return {
        f"{name}/build.gradle": build,
        f"{name}/src/main/java/app/App.java": APP_JAVA,
    }


def good() -> dict[str, str]:
    doc = "# Heading\n\n" + "Words that say something real about the work. " * 6
    return {
        "docs/TASK_DEFINITION.md": doc,
        "docs/IMPLEMENTATION_PLAN.md": doc,
        "docs/PROGRESS.md": doc,
        "docker-compose.yml": "services: {}\n",
        **service("account-service"),
        **service("order-service"),
        **service("market-service"),
        "gradlew": GRADLEW,
        "gradle/wrapper/gradle-wrapper.properties": PROPS,
        "openapi.yaml": OPENAPI,
        "frontend/package.json": json.dumps({"dependencies": {"react": "^18.3.0"}}),
        "account-service/src/main/resources/db/migration/V1__accounts.sql": MIGRATION,
    }


def test_every_id_passes_the_right_workspace(tmp_path: Path) -> None:
    write(tmp_path, good())
    env = AceEnv(workspace=tmp_path, engine=NO_ENGINE)
    results = structure.run(env, sorted(structure.IDS))
    assert sorted(results) == [f"S{i}" for i in range(1, 10)]
    assert {r.status for r in results.values()} == {Status.PASS}, results
    assert results["S5"].detail.startswith("3 Spring Boot services: account-service")


def test_run_answers_only_the_wanted_ids_it_owns(tmp_path: Path) -> None:
    env = AceEnv(workspace=write(tmp_path, good()), engine=NO_ENGINE)
    assert set(structure.run(env, ["S2", "M1", "F6"])) == {"S2"}


@pytest.mark.parametrize("check_id", ["S1", "S2", "S3"])
def test_a_doc_of_200_bytes_or_fewer_fails(tmp_path: Path, check_id: str) -> None:
    rel = structure.DOCS[check_id]
    write(tmp_path, {rel: "x" * 200})
    assert score(structure, tmp_path, check_id).detail == f"{rel} is 200 bytes (needs over 200)"
    write(tmp_path, {rel: "x" * 201})
    assert score(structure, tmp_path, check_id).status is Status.PASS


def test_a_missing_doc_or_a_directory_named_like_it_fails(tmp_path: Path) -> None:
    assert "docs/PROGRESS.md is missing" in score(structure, tmp_path, "S3").detail
    (tmp_path / "docs/PROGRESS.md").mkdir(parents=True)
    assert score(structure, tmp_path, "S3").status is Status.FAIL


def test_s4_records_the_root_most_compose_file(tmp_path: Path) -> None:
    write(tmp_path, {"a/b/compose.yaml": "x", "ops/docker-compose.yml": "x"})
    result = score(structure, tmp_path, "S4")
    assert result.detail == "compose file ops/docker-compose.yml (root-most of 2)"
    write(tmp_path, {"docker-compose.yaml": "services: {}"})
    assert score(structure, tmp_path, "S4").evidence["file"] == "docker-compose.yaml"


def test_s4_fails_without_a_compose_file(tmp_path: Path) -> None:
    write(tmp_path, {"docker-compose.yml.bak": "x", "node_modules/x/compose.yml": "x"})
    result = score(structure, tmp_path, "S4")
    assert result.status is Status.FAIL
    assert result.detail == "no docker-compose.y*ml or compose.y*ml file"


def test_s5_counts_only_boot_builds_with_real_source(tmp_path: Path) -> None:
    write(tmp_path, {**service("a"), **service("b"), "c/build.gradle": BOOT_GRADLE})
    (tmp_path / "c/src/main/java/Broken.java").mkdir(parents=True)
    write(tmp_path, {"d/build.gradle.kts": "plugins { java }\n// org.springframework.boot\n"})
    write(tmp_path, {"d/src/main/java/D.java": APP_JAVA})
    result = score(structure, tmp_path, "S5")
    assert result.status is Status.FAIL
    assert result.detail.startswith("2 real Spring Boot service(s) (needs 3): a, b")
    assert "c/build.gradle has no non-empty .java/.kt file under src/main" in result.detail
    assert "d/build.gradle.kts does not apply the Spring Boot plugin" in result.detail


def test_s5_accepts_kotlin_dsl_and_a_spring_boot_dependency(tmp_path: Path) -> None:
    kts = 'plugins { kotlin("jvm") }\ndependencies { implementation("x:spring-boot-starter") }\n'
    write(tmp_path, {**service("a"), **service("b"), **service("c", build=kts)})
    write(tmp_path, {"c/src/main/kotlin/App.kt": "fun main() {}\n"})
    assert score(structure, tmp_path, "S5").status is Status.PASS


def test_s5_ignores_build_outputs(tmp_path: Path) -> None:
    write(tmp_path, {**service("a"), **service("b"), **service("build/c")})
    assert score(structure, tmp_path, "S5").detail.startswith("2 real Spring Boot service(s)")


def test_s6_needs_a_large_script_and_the_properties_beside_it(tmp_path: Path) -> None:
    write(tmp_path, {"gradlew": '#!/bin/sh\nexec gradle "$@"\n'})
    write(tmp_path, {"svc/gradlew": GRADLEW})
    result = score(structure, tmp_path, "S6")
    assert result.status is Status.FAIL
    assert "gradlew 27 bytes, no gradle/wrapper/gradle-wrapper.properties" in result.detail
    assert "svc/gradlew 1370 bytes, no gradle/wrapper" in result.detail
    write(tmp_path, {"gradle/wrapper/gradle-wrapper.properties": PROPS})
    assert score(structure, tmp_path, "S6").status is Status.FAIL  # the root's script is a stub
    write(tmp_path, {"svc/gradle/wrapper/gradle-wrapper.properties": PROPS})
    assert score(structure, tmp_path, "S6").detail.startswith("Gradle wrapper in svc: gradlew")


def test_s6_fails_without_any_script(tmp_path: Path) -> None:
    write(tmp_path, {"gradle/wrapper/gradle-wrapper.properties": PROPS})
    assert score(structure, tmp_path, "S6").detail == "no gradlew script"


def test_s7_needs_both_top_level_keys(tmp_path: Path) -> None:
    nested = "info:\n  openapi: 3.1.0\npaths: {}\n"
    write(tmp_path, {"api/openapi.yml": nested, "api-notes.json": '{"openapi": "3.1.0"}'})
    result = score(structure, tmp_path, "S7")
    assert result.status is Status.FAIL
    assert "api-notes.json lacks top-level paths" in result.detail
    assert "api/openapi.yml lacks top-level openapi" in result.detail
    write(tmp_path, {"spec/API.JSON": json.dumps({"openapi": "3.1.0", "paths": {}})})
    assert (
        score(structure, tmp_path, "S7").detail == "spec/API.JSON has top-level openapi: and paths:"
    )


def test_s7_ignores_files_not_named_like_a_spec(tmp_path: Path) -> None:
    write(tmp_path, {"contract.yaml": OPENAPI})
    assert score(structure, tmp_path, "S7").detail == "no openapi*/api* .yml/.yaml/.json file"


def test_s8_wants_react_in_dependencies_not_dev_dependencies(tmp_path: Path) -> None:
    dev = {"description": "a react app", "devDependencies": {"react": "18"}}
    write(tmp_path, {"web/package.json": json.dumps(dev)})
    write(
        tmp_path, {"web/node_modules/x/package.json": json.dumps({"dependencies": {"react": "1"}})}
    )
    result = score(structure, tmp_path, "S8")
    assert result.status is Status.FAIL
    assert result.detail == "react is in no dependencies block of web/package.json"
    write(tmp_path, {"web/package.json": json.dumps({"dependencies": {"react": "18"}})})
    assert score(structure, tmp_path, "S8").detail == "web/package.json lists react in dependencies"


def test_s9_needs_a_migration_over_20_bytes(tmp_path: Path) -> None:
    write(tmp_path, {"src/main/resources/db/migration/V1__a.sql": "-- todo\n"})
    write(tmp_path, {"sql/V2__b.sql": MIGRATION})
    result = score(structure, tmp_path, "S9")
    assert result.detail == (
        "no migration over 20 bytes: src/main/resources/db/migration/V1__a.sql (8 bytes)"
    )
    write(tmp_path, {"db/db.changelog-master.yaml": "databaseChangeLog:\n  - include: x\n"})
    assert score(structure, tmp_path, "S9").detail == "migration db/db.changelog-master.yaml"


def test_s9_fails_with_no_migration_at_all(tmp_path: Path) -> None:
    assert score(structure, tmp_path, "S9").detail == "no db/migration/*.sql or *changelog* file"
