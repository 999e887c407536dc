"""The ACE reference trading service, served for real, and its seeded-defect variants.

`serving` boots a tree (``python -m trading``) on a leased loopback port with
`AppUnderTest` and yields its base URL; `materialize` copies the reference package
and applies one variant's literal edits, each of which must match exactly once (a
variant whose edit no longer applies would otherwise silently serve the reference).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.services.app import AppUnderTest
from benchwright.services.ports import lease_port

ACE = Path(__file__).resolve().parents[3] / "suites" / "ace"
REFERENCE = ACE / "reference"
VARIANTS = REFERENCE / "variants"
CONTRACT_SPEC = ACE / "contract" / "openapi.yaml"
COMMAND = "{python} -m trading --port {port}"
NO_ENGINE = Engine(False, "no Docker or Podman engine reachable (test)")
DEAD_URL = "http://127.0.0.1:9"
"""The discard port: nothing listens there, so every connection is refused."""


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    scenario: str
    fails: frozenset[str]
    edits: tuple[dict[str, str], ...]


def variants() -> list[Variant]:
    """Every ``variants/*.json``, by name."""
    found = []
    for path in sorted(VARIANTS.glob("*.json")):
        raw = json.loads(path.read_text())
        found.append(Variant(path.stem, raw["description"], raw["scenario"],
                             frozenset(raw["fails"]), tuple(raw["edits"])))  # fmt: skip
    return found


def materialize(variant: Variant | None, into: Path) -> Path:
    """A tree holding the reference ``trading`` package with ``variant``'s edits applied."""
    shutil.copytree(REFERENCE / "trading", into / "trading")
    for edit in variant.edits if variant else ():
        path = into / "trading" / edit["file"]
        text = path.read_text()
        count = text.count(edit["old"])
        assert count == 1, f"{variant.name}: {edit['file']} holds {edit['old']!r} {count} times"
        path.write_text(text.replace(edit["old"], edit["new"]))
    return into


@contextmanager
def serving(tree: Path, scratch: Path) -> Iterator[str]:
    """``tree``'s trading service on a free loopback port; its base URL while it runs."""
    with (
        lease_port() as lease,
        AppUnderTest(
            COMMAND, tree=tree, db=scratch / "unused.db", port=lease.port, health_path="/health"
        ) as app,
    ):
        observed = app.boot_observation
        assert observed is not None and observed.healthy_after_s is not None, observed
        yield app.base_url


def workspace(root: Path, spec: str | None = None) -> Path:
    """A workspace shipping the contract's OpenAPI file (or ``spec`` text instead)."""
    root.mkdir(parents=True, exist_ok=True)
    text = CONTRACT_SPEC.read_text() if spec is None else spec
    (root / "openapi.yaml").write_text(text)
    return root


def env_for(workspace_dir: Path, base_url: str | None) -> AceEnv:
    return AceEnv(workspace=workspace_dir, engine=NO_ENGINE, base_url=base_url)
