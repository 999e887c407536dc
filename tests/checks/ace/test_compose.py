"""C1: the anti-gaming guards (offline, by detection), the Docker gate, and the stack reading.

No container engine exists on this machine: the bring-up is tested as the exact
``docker compose`` commands it runs and as the reading of ``docker compose ps``
output in its documented JSON shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.checks.ace import compose
from benchwright.checks.ace._compose_up import (
    Published,
    ServiceState,
    down_argv,
    entry_point,
    is_database,
    parse_ps,
    port_argv,
    ps_argv,
    published,
    read,
    up_argv,
)
from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.checks.ace._guards import dockerfile_violations
from benchwright.model import Status

from ._build_builders import write

NO_ENGINE = Engine(False, "no Docker or Podman engine reachable (the client alone is not enough)")
COMPOSE = """services:
  db:
    image: postgres:16
    volumes:
      - pgdata:/var/lib/postgresql/data
      - ./db/init.sql:/docker-entrypoint-initdb.d/init.sql:ro
  account-service:
    build: ./account-service
    ports: ["8080:8080"]
  order-service:
    build:
      context: order-service
      dockerfile: Dockerfile
volumes:
  pgdata: {}
"""
MULTI_STAGE = """FROM gradle:8.14-jdk21 AS build
WORKDIR /src
COPY . .
COPY gradle/wrapper/gradle-wrapper.jar gradle/wrapper/
RUN gradle --no-daemon bootJar
FROM eclipse-temurin:21-jre
COPY --from=build /src/build/libs/*.jar /app/app.jar
ENTRYPOINT ["java", "-jar", "/app/app.jar"]
"""


def _c1(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[Status, str]:
    result = compose.run(AceEnv(write(tmp_path, files), NO_ENGINE), ["C1", "B1"])
    assert list(result) == ["C1"]
    return result["C1"].status, result["C1"].detail


def test_clean_stack_is_skipped_offline_with_the_engine_reason(tmp_path: Path) -> None:
    files = {"docker-compose.yml": COMPOSE, "account-service/Dockerfile": MULTI_STAGE}
    assert _c1(tmp_path, files) == (Status.SKIPPED, NO_ENGINE.reason)


def test_a_committed_jar_copied_into_an_image_fails_by_detection(tmp_path: Path) -> None:
    dockerfile = (
        "FROM eclipse-temurin:21-jre\n# the jar is built on the host\n"
        "COPY build/libs/app.jar /app.jar\n"
    )
    files = {
        "docker-compose.yml": COMPOSE,
        "account-service/Dockerfile": dockerfile,
        "account-service/build/libs/app.jar": b"PK",
    }
    assert _c1(tmp_path, files) == (
        Status.FAIL,
        "account-service/Dockerfile:3: host-built artefact: "
        "COPY build/libs/app.jar without --from=",
    )


@pytest.mark.parametrize(
    ("dockerfile", "line", "source"),
    [
        ("FROM x\nCOPY --chown=app:app \\\n  target/app.jar \\\n  /app.jar\n", 2, "target/app.jar"),
        ('FROM nginx\nCOPY ["dist/", "/usr/share/nginx/html/"]\n', 2, "dist/"),
        ("FROM x\nadd ./out/classes/Main.class /app/\n", 2, "./out/classes/Main.class"),
        ("FROM x\nCOPY libs/*.war /opt/app/\n", 2, "libs/*.war"),
    ],
)  # fmt: skip
def test_artefact_shapes_are_caught(dockerfile: str, line: int, source: str) -> None:
    found = dockerfile_violations("Dockerfile", dockerfile)
    assert [(v.where, source in v.what) for v in found] == [(f":{line}", True)]
    assert "without --from=" in found[0].what


def test_innocent_copies_pass_the_guard() -> None:
    innocent = (
        "FROM node:20 AS web\n# COPY dist/ /srv/\nCOPY package.json package-lock.json ./\n"
        "COPY src ./src\nADD https://example.org/tool.jar /opt/tool.jar\n"
        "COPY --from=web /app/dist /srv\n"
    )
    assert dockerfile_violations("Dockerfile", MULTI_STAGE + innocent) == []


@pytest.mark.parametrize(
    ("service", "named"),
    [
        ("    volumes: ['/var/run/docker.sock:/var/run/docker.sock']\n",
         "bind mount '/var/run/docker.sock' is an absolute host path"),
        ("    build: /home/agent/prebuilt\n",
         "build context '/home/agent/prebuilt' is an absolute host path"),
        ("    volumes:\n      - type: bind\n        source: /srv/jars\n        target: /app\n",
         "bind mount '/srv/jars' is an absolute host path"),
        ("    volumes: ['${HOME}/.m2:/root/.m2']\n",
         "bind mount '${HOME}/.m2' is a host path taken from the environment"),
        ("    build:\n      context: ../../outside\n",
         "build context '../../outside' climbs out of the workspace"),
        ("    build:\n      context: .\n      dockerfile: /tmp/Dockerfile\n",
         "dockerfile '/tmp/Dockerfile' is an absolute host path"),
    ],
)  # fmt: skip
def test_absolute_host_paths_in_compose_fail_naming_them(
    tmp_path: Path, service: str, named: str
) -> None:
    text = f"services:\n  api:\n    image: x\n{service}"
    assert _c1(tmp_path, {"compose.yaml": text}) == (
        Status.FAIL,
        f"compose.yaml service api: {named}",
    )


def test_a_bind_device_volume_is_a_host_path(tmp_path: Path) -> None:
    text = (
        "services:\n  api:\n    image: x\n    volumes: ['jars:/app']\nvolumes:\n  jars:\n"
        "    driver_opts: {type: none, o: bind, device: /opt/jars}\n"
    )
    status, detail = _c1(tmp_path, {"compose.yaml": text})
    assert status is Status.FAIL
    assert detail == "compose.yaml volume jars: bind device '/opt/jars' is an absolute host path"


def test_the_root_most_compose_file_counts(tmp_path: Path) -> None:
    nested = "services:\n  api:\n    build: /abs\n"
    files = {"docker-compose.yml": COMPOSE, "account-service/docker-compose.yml": nested}
    assert _c1(tmp_path, files) == (Status.SKIPPED, NO_ENGINE.reason)
    assert compose.compose_file(["a/compose.yaml", "docker-compose.yml", "b/c/compose.yml"]) == (
        "docker-compose.yml"
    )


def test_a_dockerfile_in_a_stripped_directory_is_not_read(tmp_path: Path) -> None:
    files = {
        "docker-compose.yml": COMPOSE,
        "web/node_modules/pkg/Dockerfile": "FROM x\nCOPY dist/ /srv\n",
    }
    assert _c1(tmp_path, files) == (Status.SKIPPED, NO_ENGINE.reason)


def test_no_compose_file_or_an_unparseable_one_fails(tmp_path: Path) -> None:
    status, detail = _c1(tmp_path / "a", {"README.md": "x\n"})
    assert (status, detail.startswith("no compose file")) == (Status.FAIL, True)
    status, detail = _c1(tmp_path / "b", {"compose.yml": "services: [unclosed\n"})
    assert status is Status.FAIL and detail.startswith("compose.yml does not parse: ")


def test_not_wanted_gives_no_record(tmp_path: Path) -> None:
    assert compose.run(AceEnv(tmp_path, NO_ENGINE), ["C2", "B1"]) == {}


def test_database_hints() -> None:
    for name in (
        "postgres",
        "order-db",
        "accountdb",
        "db1",
        "redis",
        "kafka",
        "zookeeper",
        "rabbitmq",
        "mongodb",
        "flyway",
        "liquibase",
        "db-migrations",
        "migrator",
    ):
        assert is_database(name), name  # fmt: skip
    for name in ("account-service", "gateway", "sandbox", "feedback", "market"):
        assert not is_database(name), name


def test_reading_the_stack() -> None:
    ndjson = "\n".join(
        json.dumps(row)
        for row in (
            {"Service": "gateway", "State": "running", "Health": "healthy", "ExitCode": 0},
            {"Service": "account", "State": "running", "Health": "healthy", "ExitCode": 0},
            {"Service": "market", "State": "running", "Health": "healthy", "ExitCode": 0},
            {"Service": "migrate", "State": "exited", "Health": "", "ExitCode": 1},
            {"Service": "seed", "State": "exited", "Health": "", "ExitCode": 0},
            {"Service": "postgres", "State": "running", "Health": "starting", "ExitCode": 0},
        )
    )
    reading = read(parse_ps(ndjson))
    assert reading.healthy == ("account", "gateway", "market")
    assert reading.bad == () and reading.settling == ()
    assert reading.databases == ("migrate", "postgres")
    assert reading.passes


@pytest.mark.parametrize(
    ("state", "health", "code"),
    [("restarting", "", 0), ("dead", "", 0), ("running", "unhealthy", 0), ("exited", "", 137)],
)
def test_a_bad_service_fails_the_stack(state: str, health: str, code: int) -> None:
    healthy = [ServiceState(n, "running", "healthy", 0) for n in ("a", "b", "c")]
    reading = read([*healthy, ServiceState("orders", state, health, code)])
    assert reading.bad == ("orders",) and not reading.passes


def test_two_healthy_services_are_not_enough() -> None:
    rows = [{"Service": n, "State": "running", "Health": "healthy"} for n in ("a", "b")]
    reading = read(parse_ps(json.dumps(rows)))
    assert reading.healthy == ("a", "b") and not reading.passes


def test_compose_commands() -> None:
    base = ["docker", "compose", "-p", "bw-ace-1", "-f", "docker-compose.yml"]
    assert up_argv("bw-ace-1", "docker-compose.yml") == [*base, "up", "-d", "--build"]
    assert ps_argv("bw-ace-1", "docker-compose.yml") == [*base, "ps", "--all", "--format", "json"]
    assert port_argv("bw-ace-1", "docker-compose.yml", "api", 8080) == [
        *base,
        "port",
        "api",
        "8080",
    ]
    assert down_argv("bw-ace-1", "docker-compose.yml") == [
        *base, "down", "-v", "--remove-orphans",
    ]  # fmt: skip


def test_base_url_discovery_prefers_host_port_8080() -> None:
    document = {
        "services": {
            "db": {"ports": ["5432:5432"]},
            "web": {"ports": ["127.0.0.1:3000:80"]},
            "gateway": {"ports": [{"target": 8080, "published": "8080"}]},
        }
    }
    ports = published(document)
    assert ports == [
        Published("db", 5432, 5432),
        Published("web", 80, 3000),
        Published("gateway", 8080, 8080),
    ]
    assert entry_point(ports) == Published("gateway", 8080, 8080)
    assert entry_point([Published("db", 5432, 5432), Published("api", 8080, None)]) == (
        Published("api", 8080, None)
    )
    assert entry_point(published({"services": {"db": {"ports": ["5432:5432"]}}})) is None


def test_stack_is_none_without_an_engine_or_a_compose_file(tmp_path: Path) -> None:
    with compose.stack(AceEnv(write(tmp_path / "a", {"compose.yml": COMPOSE}), NO_ENGINE)) as up:
        assert up is None
    engine = Engine(True, "docker engine 27")  # never used: no compose file to bring up
    with compose.stack(AceEnv(write(tmp_path / "b", {"README.md": "x\n"}), engine)) as up:
        assert up is None
