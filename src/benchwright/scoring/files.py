"""Reading scorer configs, thresholds, ladders and rows files: the only I/O of scoring.

Every problem is a `SpecError` naming the file and the field path
(``scorers/x.yaml: tiers.A.weight: must be a number``); a calibrated thresholds
file that breaks its pin is a `RefusedError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.errors import SpecError
from benchwright.model import CheckResult, Status, StrictInput
from benchwright.scoring.config import ScorerConfig
from benchwright.scoring.criticals import leg_evidence
from benchwright.scoring.invariants import config_problems, wanted_checks
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.task_ladder import LadderFile, ladder_problems, rung_checks
from benchwright.scoring.thresholds import (
    PinnedThresholds,
    ThresholdsFile,
    ThresholdsPin,
    pin_thresholds,
)


def _validated(model: type[BaseModel], raw: Any, source: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = [(where.replace(".[key]", ""), why) for where, why in problems_from(exc)]
        raise SpecError(source, problems) from None


def _thresholds(
    cfg: ScorerConfig, base: Path, override: ThresholdsPin | None
) -> PinnedThresholds | None:
    if override is not None:
        path, pin = override.path, override.sha256
    elif cfg.thresholds is not None:
        path, pin = base / cfg.thresholds.file, cfg.thresholds.sha256
    else:
        return None
    source = display_path(path)
    values = _validated(ThresholdsFile, read_document(path), source)
    binding = override is not None
    return pin_thresholds(values, path.read_bytes(), pin, source, binding=binding)


def _rung(cfg: ScorerConfig, base: Path, rung: str | None, source: str) -> tuple[str, ...] | None:
    if cfg.ladder is None:
        if rung is not None:
            raise SpecError.single(source, f"has no ladder, so rung '{rung}' means nothing")
        return None
    ladder = load_ladder(base / cfg.ladder, cfg)
    if rung is None:
        known = ", ".join(r.name for r in ladder.rungs)
        raise SpecError.single(source, f"scores one rung of a ladder; name it (known: {known})")
    try:
        return rung_checks(ladder, rung, wanted_checks(cfg))
    except KeyError as exc:
        raise SpecError.single(display_path(base / cfg.ladder), exc.args[0], "rung") from None


def load_config(path: Path) -> ScorerConfig:
    """A validated `ScorerConfig`, or a `SpecError` listing every problem with its field."""
    source = display_path(path)
    raw = read_document(path)
    if not isinstance(raw, dict):
        raise SpecError.single(source, "must be a mapping of scorer settings")
    cfg = _validated(ScorerConfig, raw, source)
    problems = config_problems(cfg)
    if problems:
        raise SpecError(source, problems)
    return cfg


def load_scorer(
    path: Path, rung: str | None = None, thresholds: ThresholdsPin | None = None
) -> Scorer:
    """Config + pinned thresholds (+ one ladder rung) as a ready `Scorer`.

    Args:
        thresholds: a file and its pin that replace the config's ``thresholds`` block
            for this load (a calibration pinned per invocation); its pin always binds.

    Raises:
        SpecError: the config, thresholds or ladder is invalid, or the rung unknown.
        RefusedError: a thresholds file does not match its pin (a calibrated one, or
            any file given in ``thresholds``).
    """
    cfg = load_config(path)
    source = display_path(path)
    checks = _rung(cfg, path.parent, rung, source)
    return Scorer(cfg, source, _thresholds(cfg, path.parent, thresholds), rung, checks)


def load_ladder(path: Path, cfg: ScorerConfig) -> LadderFile:
    """A ladder whose every denominator equals the weight sum of its rung's checks."""
    source = display_path(path)
    ladder = _validated(LadderFile, read_document(path), source)
    weights = {c: (cfg.checks[c].weight if c in cfg.checks else 1.0) for c in wanted_checks(cfg)}
    problems = ladder_problems(ladder, weights)
    if problems:
        raise SpecError(source, problems)
    return ladder


class _Judged(StrictInput):
    """What a row says of its check, whichever shape names the check."""

    status: Status
    score: float = Field(ge=0, le=1)
    detail: str = ""
    evidence: dict[str, Any] = Field(default_factory=dict)
    duration_s: float = Field(0.0, ge=0)


class _Row(_Judged):
    id: str = Field(min_length=1)
    missing: ClassVar[bool] = False


class _CardRow(_Judged):
    """A row as benchwright writes one: a scorecard's (``compose --json``, ``grade
    --json``) or a trial's ``result.json`` check. ``check_id`` names it; what composition
    derived from it (``counted``, ``tier``, ``role``, ``weight``) is derived again, so
    read and dropped, and a ``missing`` row (none arrived) is left out as it was."""

    check_id: str = Field(min_length=1)
    severity_leg: float | None = Field(None, ge=0, le=1)
    """The leg a critical read (given back to composition as the evidence it came from)."""
    counted: float | None = None
    tier: str | None = None
    role: str | None = None
    weight: float | None = None
    missing: bool = False

    @property
    def id(self) -> str:
        return self.check_id


_ROWS = TypeAdapter(list[_Row])
_CARD_ROWS = TypeAdapter(list[_CardRow])


def _rows_of(raw: Any, source: str, scorer: Scorer | None) -> tuple[Any, str]:
    """The rows of a rows file, and the field path they sit at: a whole scorecard's are
    under ``rows`` (``compose`` reads back the card it wrote), refused when another
    scorer composed it (its rows are that scorer's checks, and a page of unknown ids
    would say so less plainly)."""
    if not (isinstance(raw, dict) and "scorer_version" in raw and "rows" in raw):
        return raw, ""
    version = raw["scorer_version"]
    if scorer is not None and version != scorer.version:
        why = f"a scorecard of {version}, not of {scorer.version} (the scorer given)"
        raise SpecError.single(source, f"{why}: compose it with its own", "scorer_version")
    return raw["rows"], "rows"


def _card_shaped(rows: Any) -> bool:
    """A list whose first row names itself ``check_id``: rows as benchwright writes them."""
    first = rows[0] if isinstance(rows, list) and rows else None
    return isinstance(first, dict) and "check_id" in first and "id" not in first


def _contradiction(status: Status, score: float) -> str | None:
    """Why a row's score contradicts its status, if it does.

    The rule every check already follows (`CheckResult.passing`, vspro's ``result``,
    the selftest): PASS is full marks, FAIL keeps any partial credit below 1, and a
    row that judged nothing (NOT_ATTEMPTED, SKIPPED, INFRA, UNAVAILABLE) scores 0,
    which the policy then counts as 0 or leaves out (docs/scoring.md).
    """
    if status is Status.PASS and score != 1.0:
        return f"a PASS scores 1 (partial credit is a FAIL with its score), got {score:g}"
    if status is Status.FAIL and score >= 1.0:
        return f"a FAIL scores below 1, got {score:g}"
    if status not in (Status.PASS, Status.FAIL) and score != 0.0:
        return f"a {status.value} row judged nothing and scores 0, got {score:g}"
    return None


def load_rows(path: Path, scorer: Scorer | None = None) -> list[CheckResult]:
    """Check results from a JSON list of ``{id, status, score, detail}``, or of the rows
    benchwright writes (``{check_id, ...}``: a scorecard's, a ``result.json``'s checks),
    or a whole scorecard JSON (its ``rows``).

    Duplicate ids are errors; with ``scorer``, so are ids it does not know (a typo
    would otherwise leave the real check missing, hence FAIL, without a word). A
    score must be a JSON number (not ``"1"`` or ``true``) that agrees with its status.
    """
    return rows_from(read_document(path), display_path(path), scorer)


def rows_from(raw: Any, source: str, scorer: Scorer | None = None) -> list[CheckResult]:
    """`load_rows` of already-read data (a board's posted rows); ``source`` names it."""
    raw, at = _rows_of(raw, source, scorer)
    adapter: TypeAdapter[Any] = _CARD_ROWS if _card_shaped(raw) else _ROWS
    try:
        parsed: list[_Row | _CardRow] = adapter.validate_python(raw)
    except ValidationError as exc:
        raise SpecError(source, [(at + where, why) for where, why in problems_from(exc)]) from None
    problems = []
    seen: set[str] = set()
    known = set(wanted_checks(scorer.config)) if scorer else None
    cfg_name = scorer.name if scorer else ""
    for i, row in enumerate(parsed):
        name = f"{at}[{i}].{'check_id' if isinstance(row, _CardRow) else 'id'}"
        if row.id in seen:
            problems.append((name, f"duplicate row '{row.id}'"))
        seen.add(row.id)
        if known is not None and row.id not in known:
            problems.append((name, f"'{row.id}' is not a check of {cfg_name}"))
        if contradiction := _contradiction(row.status, row.score):
            problems.append(
                (f"{at}[{i}].score", f"contradicts status {row.status.value}: {contradiction}")
            )
    if problems:
        raise SpecError(source, problems)
    return [
        CheckResult(r.id, r.status, r.score, r.detail, {**r.evidence, **_leg(r)}, r.duration_s)
        for r in parsed
        if not r.missing
    ]


def _leg(row: _Row | _CardRow) -> dict[str, float]:
    return leg_evidence(row.severity_leg) if isinstance(row, _CardRow) else {}
