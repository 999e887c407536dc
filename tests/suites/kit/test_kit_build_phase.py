"""The golden's build phase (`kit.build_phase`): a scripted builder reads the vendor's docs
from a fresh mock; the freeze gate, ``audit`` and ``calibrate`` hand its trace to a grader
that takes one, a plain ``grade`` and a run hand none but their own, and vspro never
gets one.

The graders here are stand-ins that stop at ``grade`` with what they were given: the
real vendorsync grader's use of the trace is tested with it (tests/suites/vendorsync).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from execution.minisuites import make_suite

from benchwright.errors import SpecError
from benchwright.sandbox import UNCONFINED
from benchwright.services.vendors import MERIDIAN, MERIDIAN_V1
from benchwright.suites import vspro
from benchwright.suites.audit.run import Auditor
from benchwright.suites.grade_run import SuiteGrader, run_grade
from benchwright.suites.kit.build_phase import (
    golden_build,
    scripted_build,
    suite_vendor,
    takes_build_trace,
)


class Given(Exception):
    """Raised by a stand-in grader with the options it was called with."""

    def __init__(self, options: dict) -> None:
        super().__init__("graded")
        self.options = options


def _reads(tree, *, build_trace: Path | None = None, **options):
    """A grader that takes a build trace: hands back the docs requests it holds."""
    lines = [] if build_trace is None else build_trace.read_text().splitlines()
    raise Given({"build_trace": [json.loads(line) for line in lines], **options})


def _ignores(tree, **options):
    """A grader without one (vspro's shape): every option it gets, by keyword."""
    raise Given(options)


def _module(grade) -> SimpleNamespace:
    settings = SimpleNamespace(from_scorer=lambda scorer: None)
    return SimpleNamespace(grade=grade, CheckSettings=settings, select_phases=lambda names: ())


def _suite(tmp: Path, vendor: str | None = "meridian-v1") -> Path:
    task = {"id": "build", "class": "c", "workspace": "empty", "prompt": "Read {DOCS_URL}.",
            "checks": [{"type": "answer_matches", "all_of": ["done"]}]}  # fmt: skip
    return make_suite(tmp / "suite", [task | ({"vendor": vendor} if vendor else {})])


def test_the_scripted_builder_reads_the_docs_and_nothing_else():
    with scripted_build(MERIDIAN_V1, seed=0) as trace:
        lines = [json.loads(line) for line in trace.read_text().splitlines()]
        assert [(x["method"], x["path"], x["status"]) for x in lines] == [("GET", "/v1/docs", 200)]
    assert not trace.exists()  # kept for the grading only


def test_a_grader_takes_a_build_trace_only_when_its_grade_names_it():
    assert takes_build_trace(_reads) and not takes_build_trace(_ignores)
    assert not takes_build_trace(vspro.grade)  # vspro judges no build: it is never given one


def test_the_suites_build_vendor_comes_from_its_build_task(tmp_path):
    assert suite_vendor(str(_suite(tmp_path))) == MERIDIAN_V1
    assert suite_vendor("suites/vspro") == MERIDIAN
    assert suite_vendor("vendorsync") == MERIDIAN_V1  # a name: suites/<name> of this checkout


@pytest.mark.parametrize(("where", "why"), [
    ("nowhere/nosuch", "needs the suite's folder .* e.g. suites/nosuch"),
    ("novendor", "exactly one build vendor among the suite's tasks, found none"),
])  # fmt: skip
def test_a_suite_without_one_build_vendor_is_refused_by_name(tmp_path, where, why):
    suite = tmp_path / where
    if where == "novendor":
        suite = _suite(tmp_path, vendor=None)
    with pytest.raises(SpecError, match=why):
        suite_vendor(str(suite))


def test_golden_build_gives_the_trace_to_a_grader_that_takes_one_and_nothing_to_another(tmp_path):
    suite = str(_suite(tmp_path))
    with golden_build(suite, _reads) as options:
        assert set(options) == {"build_trace"} and options["build_trace"].is_file()
    with golden_build("no/such/suite", _ignores) as options:  # nothing is looked up
        assert options == {}


def _grader(grade) -> SuiteGrader:
    return SuiteGrader("stand-in", _module(grade), scorer=None)  # type: ignore[arg-type]


def test_the_suite_grader_passes_a_build_trace_only_to_a_grade_that_takes_one(tmp_path):
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps({"seq": 1, "path": "/v1/docs", "status": 200}) + "\n")
    for grade, expected in ((_reads, [{"seq": 1, "path": "/v1/docs", "status": 200}]),
                            (_ignores, None)):  # fmt: skip
        with pytest.raises(Given) as given:
            _grader(grade).grade(tmp_path, seed=0, phases=None, confinement=UNCONFINED,
                                 build_trace=trace)  # fmt: skip
        assert given.value.options.get("build_trace") == expected


@pytest.mark.parametrize("reference", [True, False])
def test_the_freeze_gate_grades_through_the_build_phase_and_a_plain_grade_does_not(
    tmp_path, monkeypatch, reference
):
    suite = str(_suite(tmp_path))
    monkeypatch.setattr(SuiteGrader, "load", classmethod(lambda cls, s, t=None: _grader(_reads)))
    lines = run_grade(suite, tmp_path, None, None, reference, 0, None, no_sandbox=True)
    with pytest.raises(Given) as given:
        list(lines)
    reads = [line["path"] for line in given.value.options["build_trace"]]
    assert reads == (["/v1/docs"] if reference else [])


def test_audit_grades_the_golden_and_each_control_through_the_build_phase(tmp_path):
    auditor = Auditor("suites/vspro")
    auditor.suite, auditor.grader = str(_suite(tmp_path)), _module(_reads)
    with pytest.raises(Given) as given:
        auditor.card(auditor.golden_dir, None)
    assert [line["path"] for line in given.value.options["build_trace"]] == ["/v1/docs"]
