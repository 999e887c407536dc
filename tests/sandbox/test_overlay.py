"""The overlay a sandbox mounts for itself: where the command runs, and when it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.probes import run_command
from benchwright.sandbox import CONFINED, MOUNT_FAILED, Overlay, overlay_supported

pytestmark = pytest.mark.skipif(not overlay_supported(), reason="no overlay mounts here")


def _overlay(root: Path) -> Overlay:
    overlay = Overlay(root / "lower", root / "layers", root / "target")
    for path in overlay.paths:
        path.mkdir(parents=True)
    (overlay.lower / "seen.txt").write_text("from the base\n")
    return overlay


def test_the_command_runs_in_the_mounted_view_and_writes_only_its_upper_layer(
    tmp_path: Path,
) -> None:
    overlay = _overlay(tmp_path)
    line = "cat seen.txt && echo mine > new.txt && rm seen.txt"
    obs = run_command(
        line, overlay.target, timeout_s=30, sandbox=CONFINED.sandbox([], overlay=overlay)
    )
    assert (obs.exit_code, obs.stdout) == (0, "from the base\n"), obs.stderr
    assert (overlay.lower / "seen.txt").read_text() == "from the base\n"
    assert not (overlay.lower / "new.txt").exists()
    assert (overlay.upper / "new.txt").read_text() == "mine\n"
    assert list(overlay.target.iterdir()) == []  # the host's mount point stays empty


def test_a_mount_that_fails_is_the_sandboxs_error_not_the_commands_exit(tmp_path: Path) -> None:
    overlay = _overlay(tmp_path)
    overlay.work.rmdir()  # overlayfs refuses a missing work directory
    obs = run_command(
        "true", overlay.target, timeout_s=30, sandbox=CONFINED.sandbox([], overlay=overlay)
    )
    assert obs.exit_code == 125
    assert obs.error is not None and obs.error.startswith(f"sandbox: {MOUNT_FAILED}")


def test_a_path_the_mount_options_cannot_carry_is_not_mountable(tmp_path: Path) -> None:
    assert Overlay(tmp_path / "a", tmp_path / "b", tmp_path / "c").mountable
    assert not Overlay(tmp_path / "a,upperdir=/etc", tmp_path / "b", tmp_path / "c").mountable
    assert not Overlay(tmp_path / "a:b", tmp_path / "b", tmp_path / "c").mountable
