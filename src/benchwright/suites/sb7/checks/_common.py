"""Shared by the sb-7 checks: the frozen vocabularies, the rows a check answers with when
it cannot grade (PROBE UNAVAILABLE, vacuous because the sync was dead), and the count the
sync evidenced, which decides whether the sync was dead."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

from benchwright.model import CheckResult, Status
from benchwright.scoring.attribution import BLOCKED_BY
from benchwright.suites.kit.checks import BOOT_ROW, frac, g, is_int, result, unavailable
from benchwright.suites.kit.checks.settings import LadderSettings
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.checks import _rungs, _truth
from benchwright.suites.sb7.observations import FINAL, READS, VENDOR, Commit, Json, Observations

N_FIXTURE = 12_288
"""Payments at fixture load (frozen); the truth's own count is used when there is one."""
SYNC_ROOT = "sync_completeness"
"""The root a dead sync's vacuous rows are attributed to (§11)."""
DEAD_BELOW = 0.5
"""A sync that evidenced less than this share of the collection is dead: the rows that
need a loaded collection are vacuous (b_total_field's 'never produced at least half')."""
PROBE = "PROBE UNAVAILABLE: "
PART_TWO = PROBE + "its instrument is the browser, built in issue 29 (sb-7 part two)"
ROW_KEYS = ("id", "amount_minor", "currency", "created_at", "settled_at", "status",
            "version", "note", "counterparty_name", "country")  # fmt: skip
"""The ten keys of a payment row on the wire (spec §3)."""
STATUSES = ("settled", "pending", "refunded", "failed")
EVENT_TYPES = ("payment.created", "payment.updated", "reversal.created", "draft.created",
               "draft.submitted", "draft.approved", "draft.rejected", "payment.sent")  # fmt: skip
EVENT_SOURCES = ("sync", "webhook", "local", "approval")
PAYMENT_EVENTS = ("payment.created", "payment.updated")
"""The event types that apply a vendor payment version (x_l1, x_l2, x_ooo_dup_forged)."""
CROSSING = ("draft.submitted", "draft.approved", "draft.rejected", "reversal.created",
            "payment.sent")  # fmt: skip
"""The event types the outbox carries to the notifier."""
NOTIFYING = ("draft.submitted", "draft.approved", "draft.rejected", "reversal.created")
"""The event types that materialize exactly one notification each."""

BROWSER_CHECKS = (
    "b_money_rendered",
    "j_loads_data", "j_console_clean", "j_first_use", "j_sync_journey", "j_workflow_journey",
    "j_workflow_reject", "j_notifications_feed", "j_error_state", "j_empty_state",
    "v_dates_readable", "v_money_presentation", "v_status_badges", "v_responsive_375",
    "v_styling",
    "p_drag_frames", "p_idle_flatness", "p_stream_apply", "p_under_stream", "p_api_latency",
    "p_sync_wall",
    "t_context_real", "t_layout_basis", "t_scene_binding", "t_height_pixels", "t_draw_budget",
    "t_pick_buffer", "t_pick_real_pass", "t_click_semantics", "t_camera_math",
    "t_coast_identity", "t_coast_reality", "t_labels_culling", "t_brush_link", "t_stream_diff",
    "t_vs7dbg_truth",
    "e_frames_under_drag", "e_stream_apply_latency", "e_under_load_latency",
    "e_optimistic_paint", "e_mastery",
    "console_clean",
)  # fmt: skip
"""The sb-7 rows part one stages (tiers J, V, P, T, E, the diagnostics, B's rendered
money, and the console_clean condition's row): issue 29 gives them their browser
instrument."""


@dataclass(frozen=True)
class CheckSettings(LadderSettings):
    """The calibration-owned numbers (`_rungs`; A, B, C, D, X and R own none): latency
    ladders with ``k_P``, and frame floors, each from the scorer's thresholds file where it
    names one."""

    DEFAULTS = _rungs.LADDERS
    floors: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: dict(_rungs.FLOORS))
    host_bound: Mapping[str, float] = field(default_factory=dict)
    """Row -> the reference's worst figure on the calibration host, where that host could
    not reach the row's top rung (`ThresholdsFile.host_bound`)."""

    @classmethod
    def from_scorer(cls, scorer: Any) -> Self:
        floors = dict(_rungs.FLOORS)
        for name in floors:
            with contextlib.suppress(KeyError):
                floors[name] = scorer.floors(name)
        return replace(super().from_scorer(scorer), floors=floors, host_bound=scorer.host_bound)


def phase(obs: Observations, name: str) -> Any | None:
    """What phase ``name`` observed, or None when it did not run."""
    return obs.phases.get(name)


def never_ran(obs: Observations, check_id: str, name: str, what: str) -> CheckResult | None:
    """The row of a check whose instrument is phase ``name`` when that phase did not run
    (None when it ran): PROBE UNAVAILABLE (§12: the instrument never ran), unless the app
    never became healthy for it (its fault: 0, blocked by the boot) or the harness broke."""
    if obs.has(name):
        return None
    if name in obs.app_down:
        return result(check_id, 0.0, f"0: {obs.app_down[name]}", **{BLOCKED_BY: BOOT_ROW})
    if name in obs.failed:
        return CheckResult(check_id, Status.INFRA, 0.0, f"harness fault in phase {name}: "
                           f"{obs.failed[name]}")  # fmt: skip
    return unavailable(check_id, f"{PROBE}{what} never ran")


def down_or_broken(obs: Observations, check_id: str, *names: str) -> CheckResult | None:
    """The row when one of phases ``names`` did not run because the app never became
    healthy (0, blocked by the boot) or the harness broke (INFRA); None otherwise (a
    phase merely absent is for the check to price)."""
    for name in names:
        gone = never_ran(obs, check_id, name, name)
        if gone is not None and gone.status is not Status.UNAVAILABLE:
            return gone
    return None


VENDOR_PARTS = {"trace": "no vendor request trace was recorded",
                "deliveries": "no delivery ledger was recorded",
                "creates": "no create records were kept"}  # fmt: skip


def vendor_part(obs: Observations, check_id: str, part: str) -> Any:
    """The vendor's ``trace``, ``deliveries`` or ``creates``, or the row when it is
    missing: the vendor's ledger never read, or read without that part (PROBE
    UNAVAILABLE either way; INFRA when the harness broke)."""
    gone = never_ran(obs, check_id, VENDOR, "the vendor's ledger read")
    if gone is not None:
        return gone
    found = getattr(obs[VENDOR], part)
    return unavailable(check_id, f"{PROBE}{VENDOR_PARTS[part]}") if found is None else found


def vacuous(check_id: str, why: str = "") -> CheckResult:
    """0 because the sync was dead: nothing to grade because nothing loaded. The row names
    ``sync_completeness`` (it explains the shortfall and fires no multiplier of its own)."""
    tail = f" ({why})" if why else ""
    return result(check_id, 0.0, f"0: vacuous, the sync was dead{tail}; attributed to "
                  f"{SYNC_ROOT}", **{BLOCKED_BY: SYNC_ROOT})  # fmt: skip


def expected_total(obs: Observations) -> int:
    """The fixture's payment count (the frozen 12,288 when there is no truth)."""
    return obs.truth.total if obs.truth is not None else N_FIXTURE


def counts(obs: Observations) -> dict[str, int]:
    """Every full count the app evidenced, by where: the payments total after sync #1 and
    at quiescence, and the summary's count."""
    found: dict[str, Any] = {}
    reads, final = phase(obs, READS), phase(obs, FINAL)
    if reads is not None:
        found["GET /api/payments total"] = (body(reads.payments) or {}).get("total")
        found["GET /api/summary count"] = (body(reads.summary) or {}).get("count")
    if final is not None:
        found["final GET /api/payments total"] = (body(final.payments) or {}).get("total")
    return {where: n for where, n in found.items() if is_int(n)}


def best_count(obs: Observations) -> tuple[str, int] | None:
    """The best-evidenced count, capped at the fixture total (run-created payments never
    mask missing base rows), and where it came from; None when nothing was evidenced."""
    cap = expected_total(obs)
    found = counts(obs)
    if not found:
        return None
    where = max(found, key=lambda k: min(found[k], cap))
    return where, max(0, min(found[where], cap))


def sync_dead(obs: Observations) -> bool:
    """The sync evidenced less than half the collection (or nothing at all)."""
    best = best_count(obs)
    return best is None or best[1] < DEAD_BELOW * expected_total(obs)


def ordered(keys: list[Any]) -> int:
    """How many adjacent pairs of ``keys`` are non-decreasing."""
    return sum(a <= b for a, b in itertools.pairwise(keys))


def missing_fixture(check_id: str) -> CheckResult:
    return unavailable(check_id, f"{PROBE}the seeded fixture's truth is missing")


def ledger_gate(obs: Observations, check_id: str) -> CheckResult | None:
    """The row of a check that compares the app with the vendor's ledger when it cannot:
    no fixture truth or no vendor ledger (PROBE UNAVAILABLE), a dead sync (vacuous);
    None when it can grade."""
    if obs.truth is None:
        return missing_fixture(check_id)
    gone = never_ran(obs, check_id, VENDOR, "the vendor's ledger read")
    if gone is not None:
        return gone
    return vacuous(check_id) if sync_dead(obs) else None


def commits(obs: Observations) -> tuple[Commit, ...]:
    """The vendor's post-load commits (none when its ledger was not read)."""
    vendor = phase(obs, VENDOR)
    return vendor.commits if vendor is not None else ()


def vendor_state(obs: Observations, upto: int | None = None) -> dict[str, _truth.State]:
    """Every payment as the vendor held it (at quiescence, or after commit ``upto``)."""
    return _truth.state(obs.truth, commits(obs), upto)  # type: ignore[arg-type]


def events_of(obs: Observations, types: tuple[str, ...]) -> list[Json]:
    """The app's ledger events (read at quiescence) of the given types, in log order."""
    final = phase(obs, FINAL)
    events = final.events.events if final is not None else ()
    return [e for e in events if isinstance(e, dict) and e.get("type") in types]


def payment_events(obs: Observations) -> list[tuple[str, str, Any]]:
    """(type, payment_id, version) of every payment-applying event in log order."""
    return [(e["type"], str(e.get("payment_id")), e.get("version"))
            for e in events_of(obs, PAYMENT_EVENTS)]  # fmt: skip


def listed(label: str, items: list[str], most: int = 4) -> str:
    """A detail's tail naming the first ``most`` items (empty when there are none)."""
    return f"; {label}{', '.join(items[:most])}" if items else ""


def parts_row(check_id: str, parts: dict[str, bool], what: str) -> CheckResult:
    """A row scored as the passing fraction of equal ``parts``, naming the failing ones."""
    failed = [name for name, ok in parts.items() if not ok]
    score = frac(len(parts) - len(failed), len(parts))
    tail = listed("failing: ", failed, most=len(failed))
    return result(check_id, score, f"{g(score)}: {what}: {len(parts) - len(failed)}/"
                  f"{len(parts)} parts{tail}", **parts)  # fmt: skip
