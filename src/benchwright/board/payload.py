"""The body of ``POST /api/benchmark-runs``: one graded run, its evidence and its poster.

JSON, camelCase keys, unknown keys rejected at every level (the server answers 400 naming
the key path, e.g. ``checks[3].foo``). This module is the contract between the poster
(``benchwright publish``) and the board: the poster validates its payload with `Payload`
before sending, the server with the same model after reading the body.

Shape only lives here (types, required keys, no unknown keys, a cap on every string,
list and integer: the ``*_MAX`` constants below, and the handle and model-name rules of
`benchwright.board.names`); the consistency limits
(values in [0, 1], finish after start, swarm minimums, non-blank model) are
`benchwright.board.validation`, the screenshot limits `benchwright.board._png`, and the
agreement between the posted figures and their own rows `benchwright.board.recompose`.

A publisher builds the scorecard part with `scorecard_fields(report)` from the scorecard
JSON of ``benchwright grade --json`` (`benchwright.reports.scorecard.scorecard_dict`);
the server re-derives the same fields from the posted rows with the same function, so
the two can only disagree when someone edited the numbers.

Example (abridged)::

    {"scorerVersion": "sb-6.0-rc", "score": 0.9029, "tiers": {"A": 1.0, "B": 0.9},
     "composition": {"components": {"inner": 0.98}, "excellenceGate": 0.9286,
                     "excellenceMean": 1.0, "excellence": 0.1114, "preSeverityScore": 0.9738,
                     "multiplier": 1.0, "excellent": true, "partial": false},
     "checks": [{"id": "server_runs", "tier": "A", "status": "PASS", "score": 1.0,
                 "detail": "1.0: healthy in 0.4 s", "weight": 1.0}],
     "model": "qwen3-coder-30b", "nodes": 0,
     "run": {"startedAt": "2026-12-01T10:00:00Z", "finishedAt": "2026-12-01T11:02:00Z",
             "engineEvents": 412, "repairRounds": 2, "wallSecs": 3720.0,
             "agent": "goose", "suite": "vspro", "treeSha256": "148232e1...",
             "inputTokens": 181220, "outputTokens": 40213, "costUsd": 0.8544},
     "poster": {"handle": "crimson-heron-7f3a", "installId": "3f2a...(uuid4 hex)"},
     "screenshots": [{"name": "load.png", "png": "<base64 of the PNG file>"}]}
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from math import prod
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from benchwright.board import names
from benchwright.model import Status, StrictInput

# Caps on every string, list and integer a poster sends: each is far above what a genuine
# run needs and within the database column that stores it, so an oversized field is a 422
# naming it, never a 500 from the database (or a 5 MB model name on every board page).
ID_MAX = 128
"""Characters of a check id, a screenshot name, an install id, a tree hash, a suite."""
TIER_MAX = 32
"""Characters of a tier name (a tier key or a row's ``tier``)."""
VERSION_MAX = 64
"""Characters of a scorer version; also of a composition component's name."""
AGENT_MAX = 200
"""Characters of ``run.agent``."""
DETAIL_MAX = 8000
"""Characters of a check row's detail (the grader's own are one line, a few hundred)."""
ROWS_MAX = 1000
"""Check rows in one post (the shipped scorers want fewer than 100)."""
KEYS_MAX = 32
"""Entries of ``tiers`` and of ``composition.components``."""
COUNT_MAX = 2**31 - 1
"""The largest ``nodes``, ``run.engineEvents``, ``run.repairRounds``, ``run.inputTokens``,
``run.outputTokens``: the database's integer column (32-bit on PostgreSQL)."""
COST_MAX = 1e9
"""The largest ``run.costUsd`` (USD): above any real bill, and a finite float."""
USAGE_KEYS = ("inputTokens", "outputTokens", "costUsd")
"""``run``'s optional keys, left out of a post that has no value for them (a board from
before they existed refuses an unknown key, even one that is null)."""

TierName = Annotated[str, StringConstraints(max_length=TIER_MAX)]
ComponentName = Annotated[str, StringConstraints(max_length=VERSION_MAX)]
Handle = Annotated[
    str, Field(min_length=1, max_length=names.HANDLE_MAX), AfterValidator(names.handle)
]
"""NFKC, ASCII letters and digits with ``._-`` between (`benchwright.board.names`)."""


def _utc_representable(moment: datetime) -> datetime:
    """Refuse a time that has no UTC form (``0001-01-01T00:00+01:00``): it is stored in UTC."""
    try:
        moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("no such time in UTC (the year leaves 1-9999)") from None
    return moment


RunTime = Annotated[AwareDatetime, AfterValidator(_utc_representable)]
"""ISO 8601 with a zone (``Z`` or an offset) whose UTC form exists."""
ModelName = Annotated[str, Field(max_length=names.MODEL_MAX), AfterValidator(names.model_name)]
"""NFKC, no control or format characters, one script (`benchwright.board.names`)."""


class _Camel(StrictInput):
    """Strict scalars, no unknown keys, camelCase on the wire and snake_case in Python."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, alias_generator=to_camel)


class Composition(_Camel):
    """How the overall score was put together (the run card prints it)."""

    components: dict[ComponentName, float] = Field(max_length=KEYS_MAX)
    """Each component's value before its weight (sb-6: ``inner``; sb-5.2: core, journey...)."""
    excellence_gate: float | None = None
    """Share of the excellence conditions met; None for a scorer without excellence."""
    excellence_mean: float | None = None
    """Mean of the excellence tier."""
    excellence: float | None = None
    """The excellence slice added to the weighted components."""
    pre_severity_score: float
    """The score before critical multipliers (the scorecard's ``composed``)."""
    multiplier: float
    """Product of the critical multipliers that fired (1.0 when none did)."""
    excellent: bool
    """The excellent flag (score at or above the scorer's bar, no unmeasured row)."""
    partial: bool
    """Some wanted row could not be measured: the number covers less than asked."""


class CheckRow(_Camel):
    """One per-check row, exactly as the scorecard recorded it."""

    id: str = Field(min_length=1, max_length=ID_MAX)
    tier: TierName | None = None
    """Owning tier; None for diagnostics and evidence rows."""
    status: Status
    score: float
    detail: str = Field("", max_length=DETAIL_MAX)
    weight: float = 1.0
    severity_leg: float | None = Field(None, ge=0, le=1)
    """The fraction a critical's check measured for its consequence (the scorecard row's
    ``severity_leg``: sb-7's DST cells, rows kept after a kill); composition reads it
    instead of the score, so a card without it would not re-compose. None: no leg."""


class RunMeta(_Camel):
    """Run metadata the poster's harness measured."""

    started_at: RunTime
    """ISO 8601 with a zone (``Z`` or an offset)."""
    finished_at: RunTime
    engine_events: int = Field(ge=0, le=COUNT_MAX)
    repair_rounds: int = Field(ge=0, le=COUNT_MAX)
    wall_secs: float = Field(ge=0)
    agent: str = Field(max_length=AGENT_MAX)
    suite: str = Field(max_length=ID_MAX)
    tree_sha256: str = Field(max_length=ID_MAX)
    input_tokens: int | None = Field(None, ge=0, le=COUNT_MAX)
    """Tokens the model read over the run, as its server counted them; None: not measured."""
    output_tokens: int | None = Field(None, ge=0, le=COUNT_MAX)
    cost_usd: float | None = Field(None, ge=0, le=COST_MAX)
    """What those tokens cost at the poster's price table; None: no price known."""


class Poster(_Camel):
    """Who posted: the handle is shown, the install id only groups and rate-limits posts."""

    handle: Handle
    install_id: str = Field(min_length=1, max_length=ID_MAX)


class Screenshot(_Camel):
    """A PNG of the built application, base64 encoded (standard alphabet, padded)."""

    name: str = Field(min_length=1, max_length=ID_MAX)
    png: str


class Payload(_Camel):
    """The whole post. Limits beyond shape: see the module docstring."""

    scorer_version: str = Field(min_length=1, max_length=VERSION_MAX)
    score: float
    tiers: dict[TierName, float] = Field(max_length=KEYS_MAX)
    """Per-tier means; a tier that measured nothing is left out."""
    composition: Composition
    checks: list[CheckRow] = Field(min_length=1, max_length=ROWS_MAX)
    model: ModelName
    """The model the agent ran; required and not blank (a 422 rule)."""
    nodes: int = Field(ge=0, le=COUNT_MAX)
    """0 = a single agent; 1 or more = a swarm entrant."""
    run: RunMeta
    poster: Poster
    screenshots: list[Screenshot] = Field(default_factory=list)

    def wire(self) -> dict[str, Any]:
        """The JSON-ready camelCase dict to send (``run``'s unmeasured `USAGE_KEYS` and a
        row's absent ``severityLeg`` left out)."""
        body = self.model_dump(by_alias=True, mode="json")
        body["run"] = {k: v for k, v in body["run"].items() if k not in USAGE_KEYS or v is not None}
        for row in body["checks"]:
            if row["severityLeg"] is None:
                del row["severityLeg"]
        return body


def scorecard_fields(report: Mapping[str, Any]) -> dict[str, Any]:
    """``scorerVersion, score, tiers, composition, checks`` of a scorecard JSON document.

    Args:
        report: the scorecard JSON of ``benchwright grade --json`` (or
            `benchwright.reports.scorecard.scorecard_dict` of a `Scorecard`).
    """
    excellence = report.get("excellence")
    applied = [
        f["factor"] for f in report["factors"] if f["factor"] < 1.0 and f["suppressed_by"] is None
    ]
    composed = report["composed"]
    return {
        "scorerVersion": report["scorer_version"],
        "score": report["score"],
        "tiers": {t["name"]: t["mean"] for t in report["tiers"] if t["mean"] is not None},
        "composition": {
            "components": {c["name"]: c["value"] for c in report["components"]},
            "excellenceGate": excellence["gate_fraction"] if excellence else None,
            "excellenceMean": excellence["e_mean"] if excellence else None,
            "excellence": excellence["slice"] if excellence else None,
            "preSeverityScore": composed,
            "multiplier": float(round(prod(applied), 6)),
            "excellent": report["flags"]["excellent"],
            "partial": report["flags"]["partial"],
        },
        "checks": [
            {
                "id": r["check_id"],
                "tier": r["tier"],
                "status": r["status"],
                "score": r["score"],
                "detail": r["detail"],
                "weight": r["weight"],
                "severityLeg": r.get("severity_leg"),
            }
            for r in report["rows"]
            if not r.get("missing")
        ],
    }
