"""The neutered-test-task detector: every Groovy and Kotlin shape caught, look-alikes not."""

from __future__ import annotations

import pytest

from benchwright.checks.ace._neutered import find_neutered

GROOVY = [
    ("test {\n    ignoreFailures = true\n}\n", 2, "ignoreFailures = true"),
    ("test {\n  ignoreFailures true\n}\n", 2, "ignoreFailures = true"),
    ("test.ignoreFailures = true\n", 1, "ignoreFailures = true"),
    ("test {\n    enabled = false\n}\n", 2, "enabled = false"),
    ("tasks.test.enabled = false\n", 1, "enabled = false"),
    ("tasks.getByName('test').enabled = false\n", 1, "enabled = false"),
    ("tasks.named('test') {\n    enabled = false\n}\n", 2, "enabled = false"),
    ("tasks.named('test').configure { onlyIf { false } }\n", 1, "onlyIf { false }"),
    ("test {\n    exclude '**/LedgerTest.class'\n}\n", 2, "test class exclusion"),
    (
        "tasks.withType(Test).configureEach {\n    exclude '**/*Money*'\n}\n",
        2,
        "test class exclusion",
    ),
    (
        "test {\n    filter {\n        excludeTestsMatching '*Sell*'\n    }\n}\n",
        3,
        "test class exclusion",
    ),
    ('def skip = ["build", "-x", "test"]\n', 1, "-x test"),
    ("// run with\ndefaultTasks 'build', '-x test'\n", 2, "-x test"),
    ("gradle.startParameter.excludedTaskNames += 'test'\n", 1, "excludedTaskNames"),
]
KOTLIN = [
    ("tasks.test {\n    ignoreFailures = true\n}\n", 2, "ignoreFailures = true"),
    ('tasks.named<Test>("test") {\n    isEnabled = false\n}\n', 2, "enabled = false"),
    ("tasks.test {\n    enabled = false\n}\n", 2, "enabled = false"),
    ('tasks.withType<Test> {\n    exclude("**/*IT*")\n}\n', 2, "test class exclusion"),
    ('tasks.getByName<Test>("test").ignoreFailures = true\n', 1, "ignoreFailures = true"),
    ("tasks.test {\n    ignoreFailures.set(true)\n}\n", 2, "ignoreFailures = true"),
]


@pytest.mark.parametrize(("script", "line", "shape"), GROOVY)
def test_groovy_shapes_are_caught(script: str, line: int, shape: str) -> None:
    found = find_neutered("svc/build.gradle", script)
    assert [(f.line, f.shape) for f in found] == [(line, shape)]
    assert str(found[0]).startswith(f"svc/build.gradle:{line}: {shape} (")


@pytest.mark.parametrize(("script", "line", "shape"), KOTLIN)
def test_kotlin_shapes_are_caught(script: str, line: int, shape: str) -> None:
    found = find_neutered("build.gradle.kts", script)
    assert [(f.line, f.shape) for f in found] == [(line, shape)]


INNOCENT = [
    "// test { ignoreFailures = true }\ntest { useJUnitPlatform() }\n",
    "/* tasks.test.enabled = false */\n",
    "bootJar {\n    enabled = false\n}\njar { enabled = true }\n",
    "tasks.named('jar') { enabled = false }\n",
    "checkstyle {\n    ignoreFailures = true\n}\n",
    "dependencies {\n"
    "    testImplementation('org.springframework.boot:spring-boot-starter-test') {\n"
    "        exclude group: 'org.junit.vintage', module: 'junit-vintage-engine'\n    }\n}\n",
    "test {\n    useJUnitPlatform()\n    testLogging { events 'failed' }\n}\n",
    'tasks.register("ci") {\n    dependsOn "test"\n}\n',
    "tasks.register('slowTest', Test) {\n    enabled = false\n}\n",
    "tasks.jar {\n    enabled = false\n}\n",
]


@pytest.mark.parametrize("script", INNOCENT)
def test_look_alikes_are_innocent(script: str) -> None:
    assert find_neutered("build.gradle", script) == []


def test_a_string_holding_comment_markers_is_still_code() -> None:
    script = 'def url = "http://repo"\ntest {\n    ignoreFailures = true\n}\n'
    assert [f.line for f in find_neutered("build.gradle", script)] == [3]
