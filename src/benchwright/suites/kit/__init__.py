"""The executed-app kit: what every executed-app suite's grader does, whatever the suite.

A suite hands the kit its ordered phases (`Phase`), a way to set up one grading (its
vendor mock, its empty observation record (a `PhaseLog`) and the context its phases get: `AppSuite`)
and its check table (``judge``); the kit runs the grading hermetically (`execute`): a
fresh copy of the tree in a work directory of its own, the static phases, the vendor
served where the app was told it is, a leased port, the app started (or, for an app that
is several services, each of them: `ServiceGroup`), the app phases in order (nothing after
a boot or restart that failed, but the phases that read what the vendor saw), app and
vendor stopped however it ends, then the evidence and the screenshots the rows rely on
kept beside the card.

The kit never imports a suite: what is about one suite stays in its package
(``suites/<name>/``), which reads as a driver of the kit.
"""

from benchwright.suites.kit.grading import AppSuite, Executed, Grading, execute, grade_tree
from benchwright.suites.kit.interface import SuiteGrader
from benchwright.suites.kit.phases import Phase, PhaseListener, PhaseRecord, select_phases
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kit.runner import BootFailure, boot_failure, run_phases
from benchwright.suites.kit.screenshots import (
    CardShot,
    PreferredShots,
    ShotOrder,
    keep_screenshots,
    relied_on,
)
from benchwright.suites.kit.services import Service, ServiceGroup
from benchwright.suites.kit.tree import fresh_copy, locate_root, tree_sha256
from benchwright.suites.kit.vendor import serve_vendor, vendor_port

__all__ = [
    "AppSuite",
    "BootFailure",
    "CardShot",
    "Executed",
    "Grading",
    "Phase",
    "PhaseListener",
    "PhaseLog",
    "PhaseRecord",
    "PreferredShots",
    "Service",
    "ServiceGroup",
    "ShotOrder",
    "SuiteGrader",
    "boot_failure",
    "execute",
    "fresh_copy",
    "grade_tree",
    "keep_screenshots",
    "locate_root",
    "relied_on",
    "run_phases",
    "select_phases",
    "serve_vendor",
    "tree_sha256",
    "vendor_port",
]
