"""JUnit XML for a suite run: one test case per trial, named ``task #iteration``.

Errored trials are JUnit errors, failed ones failures, latency trials plain
passes carrying their tier in the class name, so CI shows the same split. A failure's
body is each failing check as readable text, its evidence JSON a property.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

from benchwright.execution.records import TrialResult
from benchwright.execution.store import atomic_write
from benchwright.reports.junit import evidence_properties, failure_text


def write_suite_junit(
    suite: str, results: Mapping[tuple[str, int], TrialResult], path: Path
) -> None:
    ordered = [results[key] for key in sorted(results)]
    root = ET.Element(
        "testsuite",
        name=suite,
        tests=str(len(ordered)),
        failures=str(sum(r.verdict == "failed" for r in ordered)),
        errors=str(sum(r.verdict == "errored" for r in ordered)),
    )
    for r in ordered:
        case = ET.SubElement(
            root,
            "testcase",
            classname=f"{suite}.{r.tier}.{r.task_class}",
            name=f"{r.task_id} #{r.iteration}",
            time=f"{r.agent_s:.3f}",
        )
        if r.verdict == "errored":
            ET.SubElement(case, "error", message=r.error or "errored")
        elif r.verdict == "failed":
            failed = [c for c in r.checks if not c.passed]
            message = f"{failed[0].check_id}: {failed[0].detail}" if failed else "failed"
            evidence_properties(case, failed)
            node = ET.SubElement(case, "failure", message=message)
            node.text = "\n".join(failure_text(c) for c in failed) or None
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, ET.tostring(root, encoding="unicode") + "\n")
