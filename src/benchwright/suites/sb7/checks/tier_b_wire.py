"""Tier B (wire behaviour, §12), the contract rows: the append-only event log, the error
envelope and JSON on every API answer."""

from __future__ import annotations

import re
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.checks._common import EVENT_SOURCES, EVENT_TYPES
from benchwright.suites.sb7.observations import FINAL, MATRIX, READS, Case, Observations

EVENT_KEYS = ("seq", "type", "at")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
PATH = re.compile(r"^[A-Za-z_]\w*(?:\[\d+\])*(?:\.[A-Za-z_]\w*(?:\[\d+\])*)*$")
"""A field-error path: dot-separated names, each with optional ``[index]`` parts."""
FIELD_CODES = ("required", "not_an_integer", "not_positive", "unsupported", "too_long",
               "bad_format")  # fmt: skip


@app_check("b_events_log", needs=(FINAL,))
def b_events_log(obs: Observations, _s) -> CheckResult:
    """0.4 seqs contiguous from 1 + 0.2 type vocabulary + 0.2 source vocabulary + 0.2
    seq/type/at present, over the whole log read at quiescence. A 404 with no events is a
    required surface absent (0); any other empty answer 0."""
    read = obs[FINAL].events
    events = [e for e in read.events if isinstance(e, dict)]
    if not events:
        if read.status == 404:
            return result("b_events_log", 0.0, "0: GET /api/events is 404: the event ledger, a "
                          "required surface, is absent", absent_surface=True)  # fmt: skip
        return result("b_events_log", 0.0, f"0: no events served (status {read.status}, "
                      f"{read.error or 'empty log'})")  # fmt: skip
    seqs = [e.get("seq") for e in events]
    contiguous = seqs == list(range(1, len(events) + 1))
    types = frac(sum(e.get("type") in EVENT_TYPES for e in events), len(events))
    sources = frac(sum(e.get("source") in EVENT_SOURCES for e in events), len(events))
    keyed = frac(sum(all(k in e for k in EVENT_KEYS) for e in events), len(events))
    score = 0.4 * contiguous + 0.2 * types + 0.2 * sources + 0.2 * keyed
    gap = "" if contiguous else f"; seqs not contiguous from 1 ({_first_gap(seqs)})"
    return result("b_events_log", score, f"{g(score)}: {len(events)} events{gap}; types "
                  f"{g(types)}, sources {g(sources)}, keys {g(keyed)}",
                  events=len(events), contiguous=contiguous)  # fmt: skip


def _first_gap(seqs: list[Any]) -> str:
    for want, got in enumerate(seqs, start=1):
        if got != want:
            return f"seq {want} expected at position {want}, found {got!r}"
    return "trailing"


@app_check("b_error_envelope", needs=(MATRIX,))
def b_error_envelope(obs: Observations, _s) -> CheckResult:
    """0.6 x error answers with a well-formed envelope (``error.code`` snake_case,
    ``error.message`` a string) + 0.4 x field-error cases whose ``field_errors`` name the
    expected paths with well-formed paths and frozen codes; no error answers 0."""
    matrix = obs[MATRIX]
    cases = [c for c in (*matrix.validation, *matrix.auth) if (c.response.status or 0) >= 400]
    if not cases:
        return result("b_error_envelope", 0.0, "0: no error responses observed")
    shaped = [c for c in cases if _envelope(c) is not None]
    fielded = [c for c in cases if c.field_paths]
    good = [c for c in fielded if _field_errors_ok(c)]
    env = frac(len(shaped), len(cases))
    fields = frac(len(good), len(fielded)) if fielded else None
    score = env if fields is None else 0.6 * env + 0.4 * fields
    bad = [c.name for c in cases if c not in shaped][:4]
    bad += [f"{c.name} (field_errors)" for c in fielded if c not in good][:4]
    tail = f"; wrong: {', '.join(bad)}" if bad else ""
    said = "" if fields is None else f", {len(good)}/{len(fielded)} field-error cases"
    return result("b_error_envelope", score, f"{g(score)}: {len(shaped)}/{len(cases)} "
                  f"envelopes{said}{tail}")  # fmt: skip


def _envelope(case: Case) -> dict | None:
    """The ``error`` object when it carries a snake_case code and a string message."""
    error = (body(case.response) or {}).get("error")
    if not isinstance(error, dict):
        return None
    code, message = error.get("code"), error.get("message")
    ok = isinstance(code, str) and SNAKE.match(code) and isinstance(message, str)
    return error if ok else None


def _field_errors_ok(case: Case) -> bool:
    """Every entry has a well-formed path and a frozen code, and each expected path is
    named."""
    entries = (_envelope(case) or {}).get("field_errors")
    if not isinstance(entries, list) or not entries:
        return False
    well = all(
        isinstance(e, dict)
        and isinstance(e.get("path"), str)
        and PATH.match(e["path"])
        and e.get("code") in FIELD_CODES
        for e in entries
    )
    named = {e.get("path") for e in entries if isinstance(e, dict)}
    return well and all(p in named for p in case.field_paths)


@app_check("b_json_shapes", needs=(READS,))
def b_json_shapes(obs: Observations, _s) -> CheckResult:
    """The fraction of sampled API answers (success and error paths) that parse as JSON;
    none sampled 0."""
    sample = [r for r in obs[READS].sample if r.status is not None]
    if not sample:
        return result("b_json_shapes", 0.0, "0: no API responses sampled")
    parsed = [r for r in sample if r.parseable]
    score = frac(len(parsed), len(sample))
    bad = [f"{r.response.path} ({r.status})" for r in sample if not r.parseable][:4]
    tail = f"; not JSON: {', '.join(bad)}" if bad else ""
    return result("b_json_shapes", score, f"{g(score)}: {len(parsed)}/{len(sample)} answers "
                  f"parse as JSON{tail}")  # fmt: skip
