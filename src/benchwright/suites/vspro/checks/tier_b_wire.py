"""Tier B (behaviour), the wire checks: every row well-formed, JSON everywhere, error
envelopes, and a page with no external code."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.probes.http import HttpObservation, parse_wire_json
from benchwright.suites.kit.checks import app_check, frac, g, is_int, result
from benchwright.suites.vspro.checks._common import ROW_KEYS
from benchwright.suites.vspro.checks._errors import (
    INVALID_BATCH,
    Named,
    split_errors,
    statuses,
)
from benchwright.suites.vspro.observations import Observations, body, rows_of

EXTERNAL = re.compile(
    rb"""(?:\b(?:src|href)\s*=\s*["']?\s*https?://|\bimport\s*\(\s*["'`]https?:)""", re.I
)
FIELD_ERROR_CELLS = ("limit=-1", "limit=abc", "offset=-5", "sort=bogus", "status=bogus")
"""The public matrix's bad GETs, each a 400 with field errors (§7), beside the invalid batch."""


@app_check("row_integrity", needs=("reads",))
def row_integrity(obs: Observations, _s) -> CheckResult:
    """Every row over raw 200-row pages: 10 keys (0.35), integer amounts and no float on
    the wire (0.25), created_at >= 19 chars (0.15), ids covering the fixture (0.25)."""
    pages = obs["reads"].raw_pages
    rows = [r for page in pages for r in (rows_of(page) or []) if isinstance(r, dict)]
    if not rows:
        return result("row_integrity", 0.0, "0: no rows on the wire")
    floats = [f"{path}={lit}" for page in pages for path, lit in page.json.floats]
    keyed = frac(sum(all(k in r for k in ROW_KEYS) for r in rows), len(rows))
    ints = 0.0 if floats else frac(sum(is_int(r.get("amount_minor")) for r in rows), len(rows))
    stamps = frac(sum(isinstance(r.get("created_at"), str) and len(r["created_at"]) >= 19
                      for r in rows), len(rows))  # fmt: skip
    ids = {r.get("id") for r in rows if isinstance(r.get("id"), str)} & obs.fixture_ids
    cover = frac(len(ids), len(obs.fixture_ids))
    score = 0.35 * keyed + 0.25 * ints + 0.15 * stamps + 0.25 * cover
    notes = [f"keys {keyed:.4g}", f"int amounts {ints:.4g}", f"timestamps {stamps:.4g}",
             f"ids {len(ids)}/{len(obs.fixture_ids)}"]  # fmt: skip
    if floats:
        notes.append(f"{len(floats)} float(s) on the wire, first {floats[0]}")
    return result("row_integrity", score, f"{g(score)}: {len(rows)} rows; {'; '.join(notes)}")


@app_check("json_everywhere", needs=("json_sample",))
def json_everywhere(obs: Observations, _s) -> CheckResult:
    """The public instrument's six sampled responses (§09: health, payments, summary,
    buckets, /api/nope, limit=-1): each parses as JSON (0.5) with a json type (0.5). Every
    other error answer is ``x_json_errors``'s."""
    reads = [(r.response.path, r.response) for r in obs["json_sample"].reads]
    if not reads:
        return result("json_everywhere", 0.0, "0: nothing sampled")
    score, short = json_halves(reads)
    return result("json_everywhere", score, f"{g(score)}: {len(reads)} sampled responses "
                  f"(error statuses {statuses(reads) or 'none'}){short}")  # fmt: skip


def json_halves(answers: Named) -> tuple[float, str]:
    """The mean over ``answers`` of parses-as-JSON (0.5) + json content type (0.5), and
    ``; short: ...`` naming each answer below 1 (empty when none)."""
    halves = [
        0.5 * parse_wire_json(a.body).parseable + 0.5 * ("json" in (a.content_type or "").lower())
        for _, a in answers
    ]
    short = [f"{a.method} {a.path} {a.status} ({h:g})"
             for (_, a), h in zip(answers, halves, strict=True) if h < 1]  # fmt: skip
    return sum(halves) / len(answers), f"; short: {', '.join(short)}" if short else ""


def envelope_ok(found: dict | None) -> bool:
    error = (found or {}).get("error")
    return isinstance(error, dict) and all(
        isinstance(error.get(k), str) and error.get(k) for k in ("code", "message")
    )


def field_errors_ok(found: dict | None, need_items: bool = False) -> bool:
    error = (found or {}).get("error")
    entries = error.get("field_errors") if isinstance(error, dict) else None
    if not isinstance(entries, list) or not entries:
        return False
    if not all(isinstance(e, dict) and isinstance(e.get("path"), str)
               and isinstance(e.get("code"), str) for e in entries):  # fmt: skip
        return False
    return not need_items or any("items[" in e["path"] for e in entries)


@app_check("b_error_envelope", needs=("validation", "batch"))
def b_error_envelope(obs: Observations, _s) -> CheckResult:
    """The public instrument's matrix (five bad GETs, /api/nope, the invalid batch): every
    error answer has a well-formed envelope (0.6 x fraction); field_errors on the bad GETs
    and the batch, the batch's with an ``items[`` path (0.4 x fraction). Every other error
    answer the probes provoked is ``x_error_envelopes``'s."""
    public, _ = split_errors(obs)
    invalid = obs["batch"].invalid
    cells = [(c.name, body_of(o)) for c, o in obs["validation"].matrix.results]
    wanted = [(n, b) for n, b in cells if n in FIELD_ERROR_CELLS] + [(INVALID_BATCH, body(invalid))]
    return envelope_row("b_error_envelope", public, wanted)


def envelope_row(check: str, errors: Named, wanted: list[tuple[str, dict | None]]) -> CheckResult:
    """0.6 x the fraction of ``errors`` with a well-formed envelope + 0.4 x the fraction of
    ``wanted`` (name, body) carrying field_errors (an ``items[`` path for the invalid batch);
    0 when no error answer was observed at all."""
    if not errors:
        return result(check, 0.0, "0: no error responses observed")
    shaped = [n for n, a in errors if envelope_ok(body_of(a))]
    fields = [n for n, b in wanted if field_errors_ok(b, need_items=n == INVALID_BATCH)]
    score = 0.6 * frac(len(shaped), len(errors)) + 0.4 * frac(len(fields), len(wanted))
    bad = [f"{n} ({a.status})" for n, a in errors if n not in shaped]
    bad += [n for n, _ in wanted if n not in fields]
    tail = f"; short: {', '.join(dict.fromkeys(bad))}" if bad else ""
    return result(check, score, f"{g(score)}: envelope {len(shaped)}/{len(errors)} [statuses "
                  f"{statuses(errors)}] (0.6), field_errors {len(fields)}/{len(wanted)} (0.4)"
                  f"{tail}")  # fmt: skip


def body_of(observation: HttpObservation) -> dict | None:
    parsed = parse_wire_json(observation.body)
    return parsed.value if parsed.parseable and isinstance(parsed.value, dict) else None


@app_check("ui_offline", needs=("page",))
def ui_offline(obs: Observations, _s) -> CheckResult:
    """No src=/href= to http(s) and no import("http...") in the served page and assets."""
    p = obs["page"]
    if p.index.status != 200:
        return result("ui_offline", 0.0, f"0: no page to inspect (GET / {p.index.status})")
    served = [("index.html", p.index.body)]
    served += [(n, a.body) for n, a in p.assets.items() if a.status == 200]
    served += [(f"web/{n}", a.body) for n, a in p.web_assets.items()
               if a.status == 200 and a.body != p.assets[n].body]  # fmt: skip
    hits = [(n, m.group(0).decode(errors="replace")) for n, b in served
            for m in EXTERNAL.finditer(b)]  # fmt: skip
    if hits:
        return result("ui_offline", 0.0, f"0: {len(hits)} external reference(s), first "
                      f"{hits[0][1]!r} in {hits[0][0]}")  # fmt: skip
    return result("ui_offline", 1.0, f"1: no external reference in {len(served)} served files")
