"""The source-only scratch copy: each kind of build output stripped, sources kept."""

from __future__ import annotations

import os
from pathlib import Path

from benchwright.checks.ace._roots import gradle_roots
from benchwright.checks.ace._scratch import copy_sources, scratch_area, select

from ._build_builders import write

SOURCES = {
    "settings.gradle": "rootProject.name = 'x'\n",
    "gradlew": "#!/bin/sh\n",
    "gradle/wrapper/gradle-wrapper.jar": b"PK\x03\x04wrapper",
    "src/main/java/com/acme/build/Builder.java": "package com.acme.build;\n",
    "src/main/java/com/acme/out/Out.java": "package com.acme.out;\n",
    "web/package.json": "{}\n",
}
OUTPUTS = {
    "build/libs/app.jar": b"PK",
    "svc/build/classes/A.class": b"\xca\xfe",
    "svc/target/app.war": b"PK",
    "out/production/A.class": b"\xca\xfe",
    "web/dist/index.js": "bundle\n",
    "web/node_modules/react/index.js": "vendored\n",
    ".gradle/8.14/fileHashes.bin": b"\0",
    ".git/HEAD": "ref: refs/heads/main\n",
    "libs/prebuilt.jar": b"PK",
    "svc/Fat.class": b"\xca\xfe",
}


def test_keeps_sources_and_the_wrapper_jar(tmp_path: Path) -> None:
    write(tmp_path / "ws", {**SOURCES, **OUTPUTS})
    copied = copy_sources(tmp_path / "ws", tmp_path / "copy")
    assert set(copied.files) == set(SOURCES)
    for rel in SOURCES:
        assert (tmp_path / "copy" / rel).read_bytes() == (tmp_path / "ws" / rel).read_bytes()
    assert not (tmp_path / "copy" / "build").exists()


def test_each_kind_of_output_is_stripped_and_recorded(tmp_path: Path) -> None:
    write(tmp_path, {**SOURCES, **OUTPUTS})
    stripped = select(tmp_path).stripped
    assert stripped["directory"] == [
        ".git", ".gradle", "build", "out", "svc/build", "svc/target", "web/dist",
        "web/node_modules",
    ]  # fmt: skip
    assert stripped["artefact"] == ["libs/prebuilt.jar", "svc/Fat.class"]


def test_a_package_named_build_under_src_is_source(tmp_path: Path) -> None:
    write(tmp_path, {"src/main/java/com/acme/build/Builder.java": "package com.acme.build;\n"})
    assert select(tmp_path).files == ("src/main/java/com/acme/build/Builder.java",)


def test_symlinks_are_left_out(tmp_path: Path) -> None:
    write(tmp_path / "ws", {"src/A.java": "class A {}\n"})
    os.symlink("/etc/passwd", tmp_path / "ws" / "src" / "passwd.java")
    os.symlink("/etc", tmp_path / "ws" / "etc")
    chosen = copy_sources(tmp_path / "ws", tmp_path / "copy")
    assert chosen.files == ("src/A.java",)
    assert chosen.stripped == {"symlink": ["etc", "src/passwd.java"]}
    assert not (tmp_path / "copy" / "etc").exists()


def test_scratch_area_is_removed_afterwards(tmp_path: Path) -> None:
    with scratch_area(tmp_path / "parent") as area:
        (area / "f").write_text("x")
        assert area.parent == tmp_path / "parent"
    assert not area.exists()


def test_gradle_roots_are_the_outermost_script_holders() -> None:
    files = [
        "account-service/build.gradle",
        "order-service/settings.gradle.kts",
        "order-service/build.gradle.kts",
        "order-service/api/build.gradle.kts",
        "order-service/buildSrc/settings.gradle.kts",
        "docs/build.md",
    ]
    assert gradle_roots(files) == ["account-service", "order-service"]
    assert gradle_roots(["settings.gradle", "svc/build.gradle"]) == ["."]
    assert gradle_roots(["README.md"]) == []
