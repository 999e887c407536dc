"""The golden's build phase: a scripted builder that reads the vendor's docs, as its
authors did.

A suite may grade evidence of the *build*, not of the app: sb-5.2's ``vendor_read_docs``
asks whether the builder fetched the docs from the vendor it built against. In a run that
evidence is the trace the harness recorded of the build vendor while the agent worked
(`CheckContext.build_trace`). The golden reference and its controls were not built in a
run, so the freeze gate (``grade --reference``), ``audit`` and ``calibrate`` grade them
through a scripted build phase instead: a fresh mock of the suite's build vendor, one GET
of its docs page, its trace kept as a file and handed to the grader. Nothing is read from
the graded tree, and a plain ``grade --tree T`` has no build phase at all (the grader
scores such a row 0, PROBE UNAVAILABLE).

A grader takes a build trace when its ``grade`` has a ``build_trace`` parameter
(`takes_build_trace`); vspro's has none and is never given one.
"""

from __future__ import annotations

import contextlib
import inspect
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import benchwright
from benchwright.errors import SpecError
from benchwright.services.vendors import VendorProfile

BUILD_TRACE = "build_trace"
"""The keyword a grader's ``grade`` takes the build vendor's trace (a JSONL file) by."""
TRACE_FILE = "build.vendor-trace.jsonl"
DOCS_TIMEOUT_S = 30.0


def takes_build_trace(grade: Callable[..., Any]) -> bool:
    """Whether ``grade`` (a grader module's) reads a build trace: it names `BUILD_TRACE`."""
    return BUILD_TRACE in inspect.signature(grade).parameters


def suite_vendor(suite: str) -> VendorProfile:
    """The build vendor of ``suite`` (a folder, or a name found as ``suites/<name>`` in the
    working directory or this checkout): the one ``vendor:`` its tasks name.

    Raises:
        SpecError: no such folder, or its tasks name no vendor or several.
    """
    from benchwright.dsl import load_suite
    from benchwright.services.vendors import vendor_profile

    name = Path(suite).name
    roots = (Path.cwd(), Path(benchwright.__file__).parents[2])
    folders = [Path(suite), *(root / "suites" / name for root in roots)]
    folder = next((f for f in folders if (f / "suite.yaml").is_file()), None)
    if folder is None:
        raise SpecError.single(suite, "the golden's build phase needs the suite's folder (its "
                               "build task names the vendor): pass its directory, e.g. "
                               f"suites/{name}")  # fmt: skip
    vendors = sorted({t.vendor for t in load_suite(folder).tasks if t.vendor})
    if len(vendors) != 1:
        found = ", ".join(vendors) or "none"
        raise SpecError.single(str(folder), "the golden's build phase needs exactly one "
                               f"build vendor among the suite's tasks, found {found}")  # fmt: skip
    return vendor_profile(vendors[0])


@contextlib.contextmanager
def scripted_build(profile: VendorProfile, seed: int = 0) -> Iterator[Path]:
    """A build phase whose builder reads the docs and nothing else: a fresh mock of
    ``profile`` on a free port, one GET of its docs page, the mock stopped; yield its trace
    as a file (deleted after the block).

    Raises:
        HarnessError: the mock cannot start.
        OSError: the docs could not be fetched (the harness's own mock: a harness fault).
    """
    from benchwright.services.meridian.trace import write_lines

    mock = profile.mock(seed)
    base = mock.start()
    try:
        with urllib.request.urlopen(base + profile.docs_path, timeout=DOCS_TIMEOUT_S) as answer:
            answer.read()
        lines = mock.trace.lines()
    finally:
        mock.stop()
    with tempfile.TemporaryDirectory(prefix="benchwright-build-") as tmp:
        path = Path(tmp) / TRACE_FILE
        write_lines(lines, path)
        yield path


@contextlib.contextmanager
def golden_build(suite: str, grade: Callable[..., Any], seed: int = 0) -> Iterator[dict[str, Path]]:
    """What grades the golden (or a control) of ``suite`` with ``grade`` as if it had been
    built in a run: ``{"build_trace": path}`` from a `scripted_build` of the suite's vendor
    when ``grade`` takes one, else nothing (``{}``).

    Raises:
        SpecError: ``grade`` takes a build trace and the suite's vendor is not found.
    """
    if not takes_build_trace(grade):
        yield {}
        return
    with scripted_build(suite_vendor(suite), seed) as trace:
        yield {BUILD_TRACE: trace}
