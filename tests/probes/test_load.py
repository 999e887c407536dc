"""concurrent_reads timestamps every read and measures how many overlapped the operation."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from benchwright.errors import HarnessError
from benchwright.probes.http import Interval, concurrent_reads


@pytest.mark.parametrize(
    ("a", "b", "overlap"),
    [
        (Interval(0, 1), Interval(0.5, 2), True),
        (Interval(0, 1), Interval(1, 2), False),  # touching is not overlapping
        (Interval(3, 4), Interval(0, None), True),  # an unfinished operation runs on
        (Interval(0, 1), Interval(2, None), False),
        (Interval(0.0, 0.0), Interval(0.0, 0.5), False),
    ],
)
def test_interval_overlap(a, b, overlap):
    assert a.overlaps(b) is overlap and b.overlaps(a) is overlap


def test_readers_racing_a_slow_operation_overlap_it(base_url):
    """The operation lasts 4 s, the readers' 48 reads about 0.4 s after their 0.2 s start:
    a host busy with other work (the shared stage's browsers) once took 1.6 s to start
    eight readers, and a 1.5 s operation had ended before their first read."""

    def sync() -> None:  # a server-side operation the readers must overlap
        httpx.post(base_url + "/sync?s=4", timeout=10, trust_env=False).raise_for_status()

    obs = concurrent_reads(base_url, "/slow?s=0.02", sync, start_after_s=0.2)
    assert len(obs.samples) == 48
    assert {(s.reader, s.index) for s in obs.samples} == {
        (r, i) for r in range(8) for i in range(6)
    }
    assert all(s.response.status == 200 for s in obs.samples)
    # the operation began before any read (its thread's own start is the host's: 0.104 s
    # once, on a busy host, against a bound of 0.1 s this line had)
    assert obs.background.start < min(s.when.start for s in obs.samples)
    assert obs.background.end is not None
    assert obs.background.end >= 4 and obs.background_error is None
    assert all(s.when.start >= 0.2 and s.when.end > s.when.start for s in obs.samples)
    assert obs.overlap_fraction == 1.0
    assert obs.p95_ms is not None and obs.p95_ms >= 20


def test_an_operation_that_ended_before_the_reads_has_no_overlap(base_url):
    obs = concurrent_reads(base_url, "/ok", lambda: None, readers=2, per_reader=3)
    assert len(obs.samples) == 6 and obs.overlap_fraction == 0.0


def test_partial_overlap_is_measured_not_assumed(base_url):
    """The operation ends once the app has answered three reads since it started, so at
    least those three of the sixteen overlap it, and the readers' later reads (a second
    and more of each) start after it: measured from the timestamps, whenever the host
    lets the readers start (a fixed 0.3-s operation once ended before a busy host had
    started them)."""

    def answered() -> int:
        return httpx.get(base_url + "/slow/answered", trust_env=False).json()["slow"]

    def three_reads_later() -> None:
        target = answered() + 3
        deadline = time.monotonic() + 30
        while answered() < target and time.monotonic() < deadline:
            time.sleep(0.01)

    obs = concurrent_reads(
        base_url,
        "/slow?s=0.1",
        three_reads_later,
        readers=2,
        per_reader=8,
        start_after_s=0.0,
    )
    overlapping = [s for s in obs.samples if s.when.overlaps(obs.background)]
    assert obs.overlap_fraction == len(overlapping) / 16
    assert 3 / 16 <= obs.overlap_fraction < 1


def test_a_failing_operation_is_reported(base_url):
    def broken() -> None:
        raise RuntimeError("sync refused")

    obs = concurrent_reads(base_url, "/ok", broken, readers=1, per_reader=2, start_after_s=0.05)
    assert obs.background_error == "RuntimeError: sync refused"
    assert obs.background.end is not None


def test_an_operation_outliving_the_wait_counts_as_still_running(base_url):
    release = threading.Event()
    try:
        obs = concurrent_reads(
            base_url,
            "/ok",
            lambda: release.wait(10),
            readers=2,
            per_reader=2,
            start_after_s=0.05,
            background_wait_s=0.5,
        )
    finally:
        release.set()
    assert obs.background.end is None and obs.background_error == "still running"
    assert obs.overlap_fraction == 1.0


def test_failed_reads_are_kept_as_samples_and_left_out_of_p95(base_url):
    obs = concurrent_reads(
        base_url, "/always500", lambda: time.sleep(0.5), readers=2, per_reader=3, start_after_s=0
    )
    assert [s.response.status for s in obs.samples] == [500] * 6
    assert obs.p95_ms is None


def test_no_readers_is_a_harness_error(base_url):
    with pytest.raises(HarnessError, match="at least one reader"):
        concurrent_reads(base_url, "/ok", lambda: None, readers=0)
