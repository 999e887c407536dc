"""JUnit XML: a testsuite per task, a testcase per check, so any CI shows results.

FAIL and NOT_ATTEMPTED become ``<failure>``, INFRA ``<error>``, SKIPPED and
UNAVAILABLE ``<skipped>``. A failure's body is text for a person (the check's line, its
evidence with a test's output as lines); the evidence as JSON is the testcase's
``evidence`` property. A trajectory that did not replay faithfully adds a
failing ``replay`` testcase, so the task cannot look green.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from benchwright.model import CheckResult, GateResult, RunResult, Status
from benchwright.reports.evidence_text import evidence_text

_FAILURE = {Status.FAIL: "failure", Status.NOT_ATTEMPTED: "failure", Status.INFRA: "error"}
_SKIPPED = frozenset({Status.SKIPPED, Status.UNAVAILABLE})


def _suite(run: RunResult) -> ET.Element:
    suite = ET.Element("testsuite", name=run.task_id, time=f"{run.duration_s:.3f}")
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for result in run.results:
        case = ET.SubElement(
            suite, "testcase", classname=run.task_id, name=result.check_id,
            time=f"{result.duration_s:.3f}",
        )  # fmt: skip
        counts["tests"] += 1
        if result.status in _FAILURE:
            tag = _FAILURE[result.status]
            counts["failures" if tag == "failure" else "errors"] += 1
            evidence_properties(case, [result])
            node = ET.SubElement(case, tag, message=result.detail, type=result.status.value)
            node.text = failure_text(result)
        elif result.status in _SKIPPED:
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", message=f"{result.status.value}: {result.detail}")
    if run.replay_errors:
        case = ET.SubElement(suite, "testcase", classname=run.task_id, name="replay")
        counts["tests"] += 1
        counts["failures"] += 1
        node = ET.SubElement(case, "failure", message=str(run.replay_errors[0]), type="REPLAY")
        node.text = "\n".join(str(e) for e in run.replay_errors)
    for key, value in counts.items():
        suite.set(key, str(value))
    return suite


def failure_text(result: CheckResult) -> str:
    """What a CI log shows for a failing check: its verdict line, then its evidence as
    readable text (a test's output as its lines, not a JSON string of ``\\n``)."""
    head = f"{result.check_id} {result.status.value}: {result.detail}"
    return f"{head}\n\n{evidence_text(result.evidence)}\n" if result.evidence else head + "\n"


def evidence_properties(case: ET.Element, results: Sequence[CheckResult]) -> None:
    """The checks' evidence as exact JSON, for machines: a ``properties`` element of
    ``case`` with one ``evidence`` property per check that has any (``evidence.<check>``
    when a testcase holds several checks)."""
    shown = [r for r in results if r.evidence]
    if not shown:
        return
    props = ET.SubElement(case, "properties")
    for r in shown:
        name = "evidence" if len(results) == 1 else f"evidence.{r.check_id}"
        ET.SubElement(props, "property", name=name, value=json.dumps(r.evidence, default=str))


def junit_tree(gate: GateResult) -> ET.ElementTree:
    root = ET.Element("testsuites", name="benchwright", time=f"{gate.duration_s:.3f}")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for run in gate.runs:
        suite = _suite(run)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    if gate.error:
        totals["errors"] += 1
        suite = ET.SubElement(root, "testsuite", name="benchwright", tests="1", errors="1")
        case = ET.SubElement(suite, "testcase", classname="benchwright", name="gate")
        ET.SubElement(case, "error", message=gate.error, type="INCOMPLETE")
    for key, value in totals.items():
        root.set(key, str(value))
    return ET.ElementTree(root)


def write_junit(gate: GateResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tree = junit_tree(gate)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
