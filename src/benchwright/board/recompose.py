"""The server composes the posted rows itself and refuses figures they do not give.

§07 says the board "cannot verify that a payload came from a genuine run", and that stays
true: rows can be invented. But a hand-edited total can be caught: the post names its
scorer version, the board holds that pinned scorer (``scorers/*.yaml``), composes the
posted per-check rows with it, and compares every published figure (overall score, tier
means, composition, the excellent flag, each row's tier and weight) with what the rows
give. A number may differ by half a unit of the scorer's last published digit
(``publish_digits``: 4 -> 0.00005), the most an honest rounding can move it.

422 codes: ``unknown_scorer_version`` (naming it and the known ones), ``check_rows``
(duplicate or unknown check ids, a score that contradicts its status), and
``score_mismatch`` / ``tier_mismatch`` / ``composition_mismatch`` /
``check_row_mismatch`` naming the field and both values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchwright.board.errors import Rejected
from benchwright.board.payload import Payload, scorecard_fields
from benchwright.errors import SpecError
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import Scorer, compose, load_config, load_scorer, rows_from
from benchwright.scoring.criticals import leg_evidence

ROW_KEYS = ("id", "status", "score", "detail")
"""What composition reads of a posted row, besides its leg (`LEG_KEY`)."""
LEG_KEY = "severity_leg"
"""A row's critical leg: composition reads it as the evidence the check reported it in."""


def load_scorers(folder: Path) -> dict[str, Scorer]:
    """Every scorer under ``folder`` by version (``sb-6.0-rc``...), laddered ones excepted
    (a ladder scorer grades one rung of a task ladder, not a board run)."""
    found: dict[str, Scorer] = {}
    for path in sorted(folder.glob("*.yaml")):
        if load_config(path).ladder is None:
            scorer = load_scorer(path)
            found[scorer.version] = scorer
    return found


def recompose(p: Payload, scorers: Mapping[str, Scorer]) -> None:
    """Raise `Rejected` (422) unless ``p``'s figures are what its rows compose to."""
    scorer = scorers.get(p.scorer_version)
    if scorer is None:
        known = ", ".join(sorted(scorers)) or "none"
        raise Rejected(
            422,
            "unknown_scorer_version",
            f"scorerVersion '{p.scorer_version}' is not a scorer this board holds (known: {known})",
        )
    try:
        derived = scorecard_fields(composed([c.model_dump(mode="json") for c in p.checks], scorer))
    except SpecError as exc:
        raise Rejected(422, "check_rows", "; ".join(exc.lines())) from None
    _compare(p, derived, _tolerance(scorer), scorer.version)


def composed(rows: Sequence[Mapping[str, Any]], scorer: Scorer) -> dict[str, Any]:
    """The scorecard JSON ``scorer`` composes from posted rows: their ``id``, ``status``,
    ``score``, ``detail`` and ``severity_leg`` are read (tier and weight are the scorer's
    own); a leg goes back as the evidence its check reported it in, as `load_rows` gives a
    card row's back.

    Raises:
        SpecError: a duplicate or unknown check id, or a score its status contradicts.
    """
    read = [
        {**{key: row[key] for key in ROW_KEYS}, "evidence": leg_evidence(row.get(LEG_KEY))}
        for row in rows
    ]
    return scorecard_dict(compose(rows_from(read, "checks", scorer), scorer))


def stored_composition(
    rows: Sequence[Mapping[str, Any]], score: float, scorer: Scorer
) -> dict[str, Any] | None:
    """The scorecard JSON of a stored entry's rows (what a card's page charts: tier
    weights, excellence conditions), or None when they do not compose to the stored
    ``score``: the board only shows figures its stored numbers agree with (an entry
    inserted without `recompose`, such as a seed, may hold rows that say otherwise)."""
    try:
        doc = composed(rows, scorer)
    except SpecError:
        return None
    return doc if abs(doc["score"] - score) <= _tolerance(scorer) else None


def _tolerance(scorer: Scorer) -> float:
    """Half a unit of the scorer's last published digit, the most rounding can move it."""
    return 0.5 * 10.0**-scorer.config.publish_digits + 1e-12


def _compare(p: Payload, derived: Mapping[str, Any], tolerance: float, version: str) -> None:
    def close(posted: Any, own: Any) -> bool:
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (posted, own))
        return abs(posted - own) <= tolerance if numbers else bool(posted == own)

    def require(code: str, field: str, posted: Any, own: Any) -> None:
        if not close(posted, own):
            raise Rejected(
                422,
                code,
                f"{field}: posted {_show(posted)}, but its own rows compose to {_show(own)} "
                f"under {version}",
            )

    require("score_mismatch", "score", p.score, derived["score"])
    for tier in sorted(set(p.tiers) | set(derived["tiers"])):
        require("tier_mismatch", f"tiers.{tier}", p.tiers.get(tier), derived["tiers"].get(tier))
    posted = p.composition.model_dump(by_alias=True)
    own = derived["composition"]
    for name in sorted(set(posted["components"]) | set(own["components"])):
        require(
            "composition_mismatch",
            f"composition.components.{name}",
            posted["components"].get(name),
            own["components"].get(name),
        )
    for key in own:
        if key != "components":
            require("composition_mismatch", f"composition.{key}", posted[key], own[key])
    owned = {c["id"]: c for c in derived["checks"]}
    for i, row in enumerate(p.checks):
        for key in ("tier", "weight"):
            require(
                "check_row_mismatch", f"checks[{i}].{key} ({row.id})",
                getattr(row, key), owned[row.id][key],
            )  # fmt: skip


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    return f"{value:g}" if isinstance(value, float) else str(value)
