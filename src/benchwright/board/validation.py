"""Reading a post: JSON, then shape (`Payload`), then the consistency rules of §06.

Order and statuses: a body that is not JSON is 400 ``malformed_json``; one past the
bounds of `benchwright.board.limits` is 400 ``too_deep`` or ``bad_value``; an unknown key
anywhere is 400 ``unknown_key`` naming its path (``checks[3].foo``); a handle or model
name that `benchwright.board.names` refuses is 400 ``bad_name``; a missing, mistyped or
oversized field (the caps of `benchwright.board.payload`) is 422 ``invalid_payload``
naming its path; then each consistency rule is a 422 whose code names it:

- ``score_range``: the overall score is in [0, 1];
- ``tier_range``: every tier mean is in [0, 1];
- ``check_score_range``: every check row's score is in [0, 1];
- ``finish_after_start``: ``run.finishedAt`` is after ``run.startedAt``;
- ``swarm_minimums``: a swarm entrant (``nodes`` >= 1) has ``engineEvents`` >= 100 and
  ``wallSecs`` >= 600;
- ``model_required``: ``model`` is present and not blank.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from benchwright.board import limits, names
from benchwright.board.errors import Rejected
from benchwright.board.payload import Payload

SWARM_MIN_EVENTS = 100
SWARM_MIN_WALL_SECS = 600


def parse(body: bytes) -> Payload:
    """The payload in ``body``, or `Rejected` (400 or 422) naming what is wrong."""
    raw = limits.loads(body)
    try:
        return Payload.model_validate(raw)
    except ValidationError as exc:
        raise _shape_error(exc) from None


def check_rules(p: Payload) -> None:
    """Raise `Rejected` (422) for the first consistency rule ``p`` breaks."""
    _in_unit("score_range", "score", p.score)
    for tier, mean in p.tiers.items():
        _in_unit("tier_range", f"tiers.{tier}", mean)
    for i, row in enumerate(p.checks):
        _in_unit("check_score_range", f"checks[{i}].score ({row.id})", row.score)
    if p.run.finished_at <= p.run.started_at:
        _broken(
            "finish_after_start",
            f"run.finishedAt {p.run.finished_at.isoformat()} is not after "
            f"run.startedAt {p.run.started_at.isoformat()}",
        )
    if p.nodes >= 1 and (
        p.run.engine_events < SWARM_MIN_EVENTS or p.run.wall_secs < SWARM_MIN_WALL_SECS
    ):
        _broken(
            "swarm_minimums",
            f"a swarm entrant (nodes {p.nodes}) needs run.engineEvents >= {SWARM_MIN_EVENTS} "
            f"and run.wallSecs >= {SWARM_MIN_WALL_SECS}; got {p.run.engine_events} and "
            f"{p.run.wall_secs:g}",
        )
    if not p.model.strip():
        _broken("model_required", "model: the model identifier is required (blank given)")


def key_path(loc: Sequence[int | str]) -> str:
    """``('checks', 3, 'foo')`` -> ``checks[3].foo``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(body)"


def _shape_error(exc: ValidationError) -> Rejected:
    errors = exc.errors()
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    if unknown:
        paths = ", ".join(key_path(e["loc"]) for e in unknown)
        return Rejected(400, "unknown_key", f"unknown key: {paths}")
    for e in errors:
        if e["type"] == names.ERROR_TYPE:
            return Rejected(400, "bad_name", f"{key_path(e['loc'])}: {e['msg']}")
    if any(e["loc"] == ("model",) and e["type"] == "missing" for e in errors):
        return Rejected(422, "model_required", "model: the model identifier is required")
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return Rejected(422, "invalid_payload", f"{key_path(first['loc'])}: {first['msg']}{more}")


def _in_unit(rule: str, where: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        _broken(rule, f"{where} is {value:g}, outside [0, 1]")


def _broken(rule: str, message: str) -> None:
    raise Rejected(422, rule, f"rule {rule}: {message}")
