"""The vspro controls: each seeded defect lowers its own target checks, and only those
are asserted here, through only the phases that reach them (``Control.phases``).

The golden app is graded end to end once, in ``test_grader_e2e.py``; here it is graded
through each control's phase set (cached per set) so that every drop is measured
against the golden under the same conditions. ``benchwright audit suites/vspro``
runs the full gradings.
"""

import json
import shutil

import pytest
from control_cases import (
    GOLDEN,
    REPO,
    SUITE,
    SessionGoldenAuditor,
    assert_control_costs,
    needs_golden,
)
from test_browser_controls import CONTROLS as BROWSER_CONTROLS

from benchwright.errors import SpecError
from benchwright.probes.browser import browser_available
from benchwright.suites.audit import Auditor, control_tree, load_control, load_controls

CONTROLS = ("blind-write", "crash-without-db", "cross-currency-total", "duplicating-upsert",
            "empty", "float-amounts", "ignores-retry-after", "insert-only-sync",
            "no-webhook-verify", "utc-buckets", "no-event-dedup",
            "reserialised-signature", "long-note-accepted", "unknown-id-null",
            "innerhtml-names", "stripped-batch-key", "register-once",
            "unavailable-as-502", "public-instrument-only")  # fmt: skip
"""The backend controls; the browser ones are tested in ``test_browser_controls.py``."""

# What each defect costs, as (check, score, a phrase of its detail naming the evidence).
EXPECTED = {
    "utc-buckets": [("b_buckets_dst", 0.4375, "19/56 cells exact")],
    "float-amounts": [("row_integrity", 0.75, "int amounts 0")],
    "cross-currency-total": [("b_summary_currency", 0.0, "cliff: total_minor")],
    "insert-only-sync": [("update_propagation", 0.0, "0/12 mutated statuses"),
                         ("h_sync_discipline", 0.0, "propagates 0 [0/12]")],
    "ignores-retry-after": [("vendor_traps", 0.6667, "retry_after 0, cursor_expiry 1, stall 1"),
                            ("request_efficiency", 0.5, "traps not all passed (cap 0.5)")],
    "blind-write": [("h_conflict_dance", 0.0, "2 without If-Match")],
    "duplicating-upsert": [("resync_idempotent", 0.0, "inserted 1553, total 3106"),
                           ("total_field", 0.0, "total 3106"),
                           ("b_summary_currency", 0.0, "0/4 currencies exact")],
    "no-webhook-verify": [("h_webhook_ledger", 0.0, "forged -> 200")],
    "no-event-dedup": [("h_webhook_ledger", 0.0, "pay_0040 holds v3 'wh-d-x', want v2 "
                        "'wh-d-1'; duties: §8.4 duplicate: an event id seen before is ignored "
                        "even when it carries a newer data.version")],
    "reserialised-signature": [("h_webhook_ledger", 0.0, "evt_0009 (apply-raw) answered 401; "
                                "evt_0010 (apply-raw) answered 401")],
    "long-note-accepted": [("x_status_duties", 0.6667, "note>280 -> 400 (§6.7 a note is 1 to "
                            "280 characters), note>280 not stored (§6.7)"),
                           ("x_error_envelopes", 0.8, "short: note>280")],
    "unknown-id-null": [("x_status_duties", 0.8333, "unknown id -> 404 (§6.4 an unknown payment "
                         "is 404 not_found)")],
    "unavailable-as-502": [("x_status_duties", 0.8333, "wrong: sync with the vendor unreachable "
                            "-> 503 vendor_unavailable (§7 a vendor with no answer after your "
                            "retries is 503 vendor_unavailable)")],
    "public-instrument-only": [
        ("x_asset_paths", 0.0, "styles.css (/web/styles.css answered 404"),
        ("x_status_duties", 0.5, "wrong: limit=0 -> 400 (§6.3 a limit below 1 is invalid), sync "
         "on a failing vendor -> 502 vendor_error"),
        ("x_error_envelopes", 0.68, "short: PUT /api/summary (501), limit=0"),
        ("x_json_errors", 0.9, "short: PUT /api/summary 501 (0)"),
    ],
    "innerhtml-names": [("x_name_injection", 0.0, "ran as markup in the page (its onerror "
                         "handler set window.__bwx): data rendered with innerHTML")],
    "register-once": [("x_register_retry", 0.0, "it never registered again in the "),
                      ("x_register_retry", 0.0, "spec §3.4")],
    "stripped-batch-key": [("c_batch_partial", 0.5, "§6.8 each batch item goes to the vendor "
                            "with its own idempotency key (a resent item must not create a "
                            "second payment) - sb6-b1, sb6-b2, sb6-b3 never reached the "
                            "vendor, which saw '")],
    "crash-without-db": [("server_runs", 0.0, "no database at")],
    "empty": [("modules_present", 0.0, "0/8 spec files"), ("server_runs", 0.0, "crashed")],
}  # fmt: skip

UNMOVED = {
    "public-instrument-only": ("serves_page", "c_api_depth", "input_validation",
                               "b_error_envelope", "json_everywhere"),
}  # fmt: skip
"""Rows a control's defect must leave at the golden's score. ``public-instrument-only`` keeps
every duty the public sb-6 instrument's texts name (methodology §09) and none of the others,
so the rows that once graded those others must not see it (issue #24: sb-6.0 is never
stricter than the public instrument)."""


@pytest.fixture(scope="module")
def auditor():
    return Auditor(str(SUITE))


WORKERS = 3
"""Controls graded three at a time (`prefetch`): a vspro grading of the backend spends
most of its time in the vendor's scripted waits (outages, Retry-After, the stall); 1.0
core busy on a 2-core host (the prefetch ~50 s, ~75 s two at a time)."""


@pytest.fixture(scope="module")
def judged_by_the_session_golden(golden_twice):
    auditor = SessionGoldenAuditor(golden_twice[1][0][1])
    auditor.prefetch(CONTROLS, WORKERS)
    return auditor


def test_the_suite_ships_every_control_and_each_names_its_expectations():
    controls = {c.name: c for c in load_controls(SUITE)}
    assert set(controls) == set(CONTROLS) | set(BROWSER_CONTROLS)
    controls = {name: controls[name] for name in CONTROLS}
    assert set(EXPECTED) == set(CONTROLS)
    for name, control in controls.items():
        assert control.targets and control.phases and control.description, name
        assert {check for check, _, _ in EXPECTED[name]} <= set(control.targets), name
    critical = {name for name, c in controls.items() if c.critical}
    assert critical == {"crash-without-db", "cross-currency-total", "duplicating-upsert",
                        "empty", "utc-buckets"}  # fmt: skip
    assert controls["empty"].trajectory is None and controls["empty"].score_at_most == 0.05


@needs_golden
def test_every_control_edit_still_applies_and_changes_the_golden(auditor):
    for control in load_controls(SUITE):
        auditor.validate(control)  # known phases and target checks; every edit applies
        if control.trajectory is None:
            continue
        with control_tree(control, GOLDEN) as tree:
            changed = {
                p.relative_to(tree).as_posix() for p in tree.rglob("*")
                if p.is_file() and p.read_bytes() != (GOLDEN / p.relative_to(tree)).read_bytes()
            }  # fmt: skip
            assert changed == {e.path for e in control.trajectory.file_edits()}, control.name


def test_an_edit_that_no_longer_applies_is_a_loud_replay_error(tmp_path):
    golden = tmp_path / "golden"
    (golden / "vspro").mkdir(parents=True)
    (golden / "vspro" / "store.py").write_text("UPSERT = 'ON CONFLICT(id) DO UPDATE'\n")
    path = tmp_path / "stale.json"
    step = {
        "type": "tool_call",
        "tool": "Edit",
        "args": {"file_path": "vspro/store.py", "old_string": "DO NOTHING", "new_string": ""},
    }
    doc = {"description": "d", "targets": ["resync_idempotent"], "phases": ["sync2"],
           "critical": False, "severity": "major", "edits": [step]}  # fmt: skip
    path.write_text(json.dumps(doc))
    control = load_control(path)
    with pytest.raises(SpecError) as caught, control_tree(control, golden):
        pass
    assert caught.value.lines() == [
        f"{path}: edits[0]: vspro/store.py: old_string not found in current content"
    ]


def test_a_malformed_control_names_every_bad_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"description": "d", "targets": [], "phases": ["boot"],
                                "critical": "yes", "tree": "none", "edits": [],
                                "target_at_most": {"server_runs": 0}, "colour": 1,
                                "score_at_most": 2}))  # fmt: skip
    with pytest.raises(SpecError) as caught:
        load_control(path)
    fields = [field for field, _ in caught.value.problems]
    assert fields == ["colour", "targets", "critical", "severity", "edits", "target_at_most",
                      "score_at_most"]  # fmt: skip


def test_unknown_controls_are_refused_listing_the_known_ones():
    known = "known: blank-on-api-error, blind-write, "
    with pytest.raises(SpecError, match=f"unknown control\\(s\\) nope \\({known}"):
        load_controls(SUITE, ["nope"])


@pytest.mark.slow
@needs_golden
@pytest.mark.parametrize("name", CONTROLS)
def test_control_lowers_its_targets_and_ranks_below_the_golden(judged_by_the_session_golden, name):
    (control,) = load_controls(SUITE, [name])
    if "browser" in control.phases and (reason := browser_available()):
        pytest.skip(f"no headless Chromium: {reason}")
    assert_control_costs(judged_by_the_session_golden, name, EXPECTED[name],
                         UNMOVED.get(name, ()))  # fmt: skip


@needs_golden
def test_audit_command_quick_subset(cli):
    done = cli("audit", str(SUITE), "--quick", "--only", "crash-without-db,empty")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"audit {SUITE} (quick:")
    crash = next(line for line in lines if line.startswith("crash-without-db"))
    _name, severity, isolated, score, _golden, *rest = crash.split()
    assert severity == "inert" and rest == ["PASS", "server_runs", "0.0000", "/", "1.0000"]
    assert isolated == score  # nothing runs: every row is the defect's
    assert "critical: server_runs x0.6000" in done.stdout
    assert lines[-1] == (
        "audit PASSED: 2/2 controls met their expectations; severity order not judged (a quick "
        "audit's phase sets are not comparable)"
    )


def test_audit_command_refuses_an_unknown_control(cli):
    done = cli("audit", str(SUITE), "--only", "nope")
    assert done.returncode == 2 and "unknown control(s) nope" in done.stderr


@needs_golden
def test_a_control_that_misses_its_expectation_fails_the_audit(cli, tmp_path):
    """A control whose defect does not reach its target is caught: exit 1, problem named."""
    suite = tmp_path / "vspro"
    shutil.copytree(GOLDEN, suite / "reference", ignore=shutil.ignore_patterns("__pycache__"))
    (suite / "controls").mkdir()
    shutil.copy(SUITE / "controls" / "crash-without-db.json", suite / "controls")
    doc = json.loads((SUITE / "controls" / "crash-without-db.json").read_text())
    doc |= {"targets": ["modules_present"], "target_at_most": {}, "phases": ["static", "boot"]}
    (suite / "controls" / "wrong-target.json").write_text(json.dumps(doc))  # all files present
    (tmp_path / "scorers").mkdir()
    shutil.copy(REPO / "scorers" / "sb6.yaml", tmp_path / "scorers")
    shutil.copy(REPO / "scorers" / "sb6-thresholds.json", tmp_path / "scorers")
    done = cli("audit", str(suite), "--quick")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED: modules_present did not drop (1.0000, golden 1.0000)" in done.stdout
    assert "FAILED: critical, but no critical factor < 1" in done.stdout
    assert done.stdout.splitlines()[-1] == (
        "audit FAILED: 1/2 controls met their expectations (failed: wrong-target); severity "
        "order not judged (a quick audit's phase sets are not comparable)"
    )


@needs_golden
def test_a_control_naming_an_unknown_phase_or_check_is_refused(auditor, tmp_path):
    doc = json.loads((SUITE / "controls" / "blind-write.json").read_text())
    doc |= {"targets": ["h_conflict_dance", "h_conflict_dancing"], "phases": ["conflicts"]}
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SpecError) as caught:
        auditor.validate(load_control(path))
    (phases, why), (targets, unknown) = caught.value.problems
    assert phases == "phases" and why.startswith("unknown phase(s) conflicts (known: static")
    assert targets == "targets" and unknown.startswith("unknown check(s) h_conflict_dancing")


@needs_golden
def test_validate_checks_a_graded_suites_controls(cli, tmp_path):
    done = cli("validate", str(SUITE))
    assert done.returncode == 0, done.stderr
    assert f"valid: 1 task, 1 suite, {len(load_controls(SUITE))} controls" in done.stdout
    suite = tmp_path / "copy" / "vspro"  # the grader is found by the directory's name
    shutil.copytree(SUITE, suite)
    bad = suite / "controls" / "blind-write.json"
    raw = json.loads(bad.read_text())
    bad.write_text(json.dumps({**raw, "targets": ["h_conflict_dance", "no_such_check"]}))
    done = cli("validate", str(suite))
    assert done.returncode == 2
    assert "blind-write.json" in done.stderr and "no_such_check" in done.stderr
