"""A uid of its own per sandbox (as root): leased, never shared, and left with nothing of it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from processes import of_uid

from benchwright.probes import CommandObservation, run_command
from benchwright.sandbox import UID_RANGE, Confinement, leased, unavailable_reason
from benchwright.sandbox._uids import lease_uid

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or unavailable_reason() is not None, reason="uids are leased as root only"
)


@pytest.fixture
def leftovers():
    """Start processes of a uid outside any sandbox, as a leftover would be; each has
    switched to the uid when the call returns, and is reaped as soon as it dies (a
    sandbox's are, by its namespace's init). Killed at the end whatever happened."""
    started: list[subprocess.Popen[bytes]] = []

    def start(uid: int) -> subprocess.Popen[bytes]:
        argv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        proc = subprocess.Popen(
            [*argv, "sh", "-c", "echo ready && exec sleep 300"], stdout=subprocess.PIPE
        )
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        threading.Thread(target=proc.wait, daemon=True).start()
        return proc

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def test_leases_held_at_once_are_distinct_across_processes():
    holder = textwrap.dedent(
        """
        import sys
        from benchwright.sandbox._uids import lease_uid
        lease = lease_uid()
        print(lease.uid, flush=True)
        sys.stdin.read()
        lease.release()
        """
    )
    other = subprocess.Popen(
        [sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        theirs = int(other.stdout.readline())
        ours = [lease_uid() for _ in range(4)]
        try:
            uids = {lease.uid for lease in ours}
            assert len(uids) == 4 and theirs not in uids
            assert uids <= set(UID_RANGE) and theirs in UID_RANGE
        finally:
            for lease in ours:
                lease.release()
    finally:
        other.communicate(b"")


def test_a_uid_with_a_live_process_is_not_leased_and_its_release_ends_them(leftovers):
    first = lease_uid()
    leftover = leftovers(first.uid)
    first.release()  # ends the process it finds of its uid
    assert leftover.wait(timeout=10) == -9 and of_uid(first.uid) == []
    held = lease_uid()
    leftovers(held.uid)
    os.close(held.fd)  # as if its holder died: the lock is gone, the process is not
    third = lease_uid()
    third.release()
    assert third.uid != held.uid


def test_leased_gives_a_sandbox_a_uid_no_other_lease_gets():
    sandbox = Confinement().sandbox([])
    assert sandbox is not None and sandbox.uid is None
    with leased(sandbox) as held:
        assert held.uid in UID_RANGE
        again = lease_uid()
        again.release()
        assert again.uid != held.uid
    assert of_uid(held.uid) == []


def test_the_sandbox_knows_its_user_by_name_and_owns_what_it_writes(tmp_path: Path):
    code = "import getpass, os; open('mine', 'w'); print(os.getuid(), getpass.getuser())"
    sandbox = Confinement().sandbox([tmp_path])
    done = run_command([sys.executable, "-c", code], tmp_path, timeout_s=30, sandbox=sandbox)
    uid, name = done.stdout.split()
    assert name == "benchwright" and int(uid) in UID_RANGE, done.stderr
    assert (tmp_path / "mine").stat().st_uid == int(uid)
    (tmp_path / "mine").unlink()  # the harness (root) still removes what the sandbox left


def test_sandboxes_writing_the_same_paths_at_once_share_a_uid(tmp_path: Path):
    """Two apps on one tree (the vspro grader's second instance): the second must not
    take the tree from the first, which keeps writing there."""
    shared = tmp_path / "tree"
    shared.mkdir()
    first = (
        "import os, time\n"
        "print(os.getuid(), flush=True)\n"
        "open('first', 'w').write('started')\n"
        "while not os.path.exists('go'):\n"
        "    time.sleep(0.02)\n"
        "open('first-after', 'w').write('still writable')\n"
    )
    second = "import os; print(os.getuid()); open('go', 'w').write('')"
    sandbox = Confinement().sandbox([shared])
    done: dict[str, CommandObservation] = {}
    argv = [sys.executable, "-c", first]
    thread = threading.Thread(
        target=lambda: done.setdefault(
            "first", run_command(argv, shared, timeout_s=60, sandbox=sandbox)
        )
    )
    thread.start()
    while not (shared / "first").exists():
        assert thread.is_alive()
        time.sleep(0.02)
    later = run_command([sys.executable, "-c", second], shared, timeout_s=30, sandbox=sandbox)
    thread.join()
    earlier = done["first"]
    assert earlier.exit_code == 0, earlier.stderr
    assert (shared / "first-after").read_text() == "still writable"
    assert earlier.stdout.split()[0] == later.stdout.split()[0]
    assert of_uid(int(later.stdout.split()[0])) == []


def test_a_preferred_uid_is_leased_when_free_and_passed_over_when_held():
    """The checks of a trial prefer the uid that owns their shared base (`leased`), so it
    is not re-owned per check; a preference never takes a uid another sandbox holds."""
    held = lease_uid()
    try:
        spare = lease_uid()
        spare.release()  # free again, and clean
        preferred = lease_uid(prefer=spare.uid)
        try:
            assert preferred.uid == spare.uid
        finally:
            preferred.release()
        other = lease_uid(prefer=held.uid)
        other.release()
        assert other.uid != held.uid
        outside = lease_uid(prefer=0)  # root owns an unhanded base: no preference at all
        outside.release()
        assert outside.uid in UID_RANGE
    finally:
        held.release()
