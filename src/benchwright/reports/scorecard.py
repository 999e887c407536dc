"""A scorecard for people (the verdict) and for machines (versioned JSON).

The verdict prints the arithmetic in the order it was done, with the same
rounded figures the composer used, so a reader can redo it by hand: tier means,
the composition line, each multiplier with the check that caused it,
attribution lines, unmeasured rows, flags and the UNCALIBRATED banner. A card
whose provenance says ``isolation: none`` says so on its second line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from benchwright.model import ConditionResult, Scorecard
from benchwright.scoring import ace_fields


def _composition(card: Scorecard) -> str:
    terms = [f"{c.weight:g} x {c.value:.4f}" for c in card.components]
    if card.excellence:
        e = card.excellence
        terms.append(f"{e.weight:g} x {e.gate_fraction:.4f} x {e.e_mean:.4f}")
    return f"composed = {' + '.join(terms)} = {card.composed:.4f}"


def _excellence(card: Scorecard, every_row: bool) -> list[str]:
    """The gate's arithmetic, then every named condition shown met or not: by default the
    met ones on one line and each locked or excluded one with its reason; with
    ``every_row`` one line per condition in the scorer's order (a run page's list)."""
    e = card.excellence
    if e is None:
        return []
    met = [c for c in e.conditions if c.met]
    judged = [c for c in e.conditions if not c.excluded]
    left_out = len(e.conditions) - len(judged)
    lines = [
        f"excellence gate ({e.gate_mode}): {len(met)}/{len(judged)} met"
        + (f" ({left_out} excluded: host contended)" if left_out else "")
        + f", fraction {e.gate_fraction:.4f}; e_mean {e.e_mean:.4f}"
    ]
    if every_row:
        return lines + [f"  {_state(c)}: {c.name} (share {c.share:.4f}; {c.detail})"
                        for c in e.conditions]  # fmt: skip
    if met:
        lines.append(f"  met ({len(met)}): {', '.join(c.name for c in met)}")
    lines += [f"  locked: {c.name} (share {c.share:.4f}; {c.detail})" for c in judged if not c.met]
    lines += [f"  excluded: {c.name} ({c.detail})" for c in e.conditions if c.excluded]
    return lines


def _state(condition: ConditionResult) -> str:
    return "excluded" if condition.excluded else "met" if condition.met else "locked"


def _criticals(card: Scorecard) -> list[str]:
    lines = []
    applied = [f for f in card.factors if f.applied]
    for f in applied:
        lines.append(
            f"critical x{f.factor:.4f}: {f.check_id} ({f.defect_class}, score {f.score:.4f}, "
            f"severity {f.severity:.4f})"
        )
    for f in card.factors:
        if f.suppressed_by:
            lines.append(
                f"critical {f.check_id} not applied: one defect, priced by {f.suppressed_by}"
            )
    factors = " x ".join(f"{f.factor:.4f}" for f in applied)
    lines.append(
        f"score = {card.composed:.4f}{' x ' + factors if factors else ''} = {card.score:.4f}"
    )
    return lines


UNCONFINED_WARNING = (
    "WARNING: isolation: none — the agent's code (the app under test) ran unsandboxed "
    "(--no-sandbox): it could reach the host, so this score is not evidence of its work alone"
)


def verdict_lines(card: Scorecard, *, every_row: bool = False) -> list[str]:
    """The verdict as plain lines (what `print_verdict` prints): the weighted rows below
    1.0, or with ``every_row`` every weighted row (a golden's card proves its 1.0s too)."""
    lines = [f"{card.scorer} {card.scorer_version} ({card.policy}): score {card.score:.4f}"]
    if card.provenance.get("isolation") == "none":
        lines.append(UNCONFINED_WARNING)
    if card.banner:
        lines.append(card.banner)
    slice_tier = card.excellence.tier if card.excellence else None
    tiers = [t for t in card.tiers if t.name != slice_tier]
    lines.append("tiers: " + "  ".join(
        f"{t.name} {'-' if t.mean is None else f'{t.mean:.4f}'}" for t in tiers))  # fmt: skip
    lines.append(_composition(card))
    lines += _excellence(card, every_row)
    lines += _criticals(card)
    lines += [a.line() for a in card.attribution]
    if card.unavailable:
        lines.append(
            f"UNMEASURED (left their means, excellent cleared): {', '.join(card.unavailable)}"
        )
    missing = [r.check_id for r in card.rows if r.missing]
    if missing:
        lines.append(f"no row (counted FAIL): {', '.join(missing)}")
    for row in card.rows:
        if row.role == "diagnostic":
            lines.append(f"  · {row.check_id} {row.score:.4f} (diagnostic, weight 0)")
    weighted = [r for r in card.rows if r.role == "weighted"]
    shown = weighted if every_row else [r for r in weighted if (r.counted or 0.0) < 1.0]
    if shown:
        lines.append(f"rows ({len(shown)}):" if every_row else f"below 1.0 ({len(shown)}):")
    tier = (lambda r: f"{r.tier or '-'} ") if every_row else (lambda r: "")
    lines += [f"  {tier(r)}{r.check_id} {r.status.value} {r.score:.4f}: {r.detail}" for r in shown]
    flags = card.flags
    lines.append(
        f"flags: excellent={flags.excellent} partial={flags.partial} "
        f"uncalibrated={flags.uncalibrated}"
    )
    return lines


def print_verdict(card: Scorecard, console: Console) -> None:
    for line in verdict_lines(card):
        console.print(Text(line), soft_wrap=True)  # plain text: details are not markup


def _plain(value: Any) -> Any:
    """JSON-ready data: dataclasses to objects, tuples to lists, enums to their value."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def scorecard_dict(card: Scorecard) -> dict[str, Any]:
    """The scorecard JSON: every field of `Scorecard`, statuses as strings, plus ACE fields."""
    doc: dict[str, Any] = _plain(card)
    ace = ace_fields(card)
    if ace is not None:
        doc["ace"] = ace
    order = ["schema_version", "scorer", "scorer_version", "policy", "score", "composed", "flags"]
    return {**{k: doc[k] for k in order}, **doc}


def write_scorecard(card: Scorecard, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(scorecard_dict(card), indent=2) + "\n", encoding="utf-8")


def write_marker(marker: dict[str, Any], path: Path) -> None:
    """Write a freeze marker (see `benchwright.scoring.freeze_marker`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
