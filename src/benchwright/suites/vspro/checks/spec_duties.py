"""Spec duties the public sb-6 instrument does not probe: weight-zero ``x_`` rows (issue #24).

sb-6.0 scores what the public scorer scores. Where our probes meet a duty of the spec that
the methodology's instrument text for a row does not name (§09), the duty is graded here, in
a row of its own that keeps its evidence and its control but never enters a tier mean (as
``x_register_retry`` does), so an app the public scorer grades 1.0 is not marked down:

- ``x_asset_paths``: each asset at ``/<file>`` *and* ``/web/<file>``, the same bytes (§6.9);
  ``serves_page``'s instrument tries both paths and passes either.
- ``x_status_duties``: ``limit=0`` 400 (§6.3), a note over 280 characters 400 and not
  stored (§6.7), an unknown id 404 (§6.4), a sync on a failing vendor 502 and on a silent
  one 503 (§7); ``c_api_depth``'s and ``input_validation``'s matrix has seven cells, none
  of these.
- ``x_error_envelopes``: the envelope on every error answer outside that matrix (§7), with
  field errors for ``limit=0`` and the long note; ``b_error_envelope`` reads the matrix.
- ``x_json_errors``: JSON with a json type on every error answer outside the six responses
  ``json_everywhere`` samples.
- ``x_order_everywhere``: instant order in every other read that orders by created_at (the
  walk across page breaks, ``sort=-created_at`` descending, ...); ``chronological_order``
  reads the default page.
"""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.probes.http import JsonRead
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vspro.checks._errors import error_code, error_responses, split_errors
from benchwright.suites.vspro.checks.tier_a import ASSET_TYPES, asset_answers, typed
from benchwright.suites.vspro.checks.tier_b import order_row
from benchwright.suites.vspro.checks.tier_b_wire import body_of, envelope_row, json_halves
from benchwright.suites.vspro.observations import Observations, PageObs, body, rows_of
from benchwright.suites.vspro.phases.reads import LONG_NOTE

ASSET_DUTY = "§6.9 the files are served at /<file> and the same files under /web/<file>"
STATUS_CELLS = {"limit=0": (400, "§6.3 a limit below 1 is invalid"),
                "note>280": (400, "§6.7 a note is 1 to 280 characters"),
                "unknown id": (404, "§6.4 an unknown payment is 404 not_found")}  # fmt: skip
"""Matrix cells the validation phase sends beyond the public instrument's, with their duty."""
FIELD_ERROR_CELLS = ("limit=0", "note>280")
"""Of those, the 400s that §7 asks to carry field errors (``limit``, ``note``)."""
VENDOR_ERROR_DUTY = "§7 a vendor error you could not recover from is 502 vendor_error"
VENDOR_UNAVAILABLE_DUTY = "§7 a vendor with no answer after your retries is 503 vendor_unavailable"
OUTAGE_NOT_PROBED = "vendor outage not probed: the app is not sandboxed"
"""Unconfined, the mock itself owns the port the app dials: nothing can stop it answering,
so the 503 cell is left out (never failed) and the detail says so."""


@app_check("x_asset_paths", needs=("page",))
def x_asset_paths(obs: Observations, _s) -> CheckResult:
    """Weight zero (§6.9; the public instrument passes an asset served at either path): each
    of the 3 assets is served with its type family at ``/<file>`` and at ``/web/<file>``,
    the same bytes at both; k/3."""
    page = obs["page"]
    faults = {name: _both_paths_fault(name, kind, page) for name, kind in ASSET_TYPES.items()}
    bad = [f"{name} ({why})" for name, why in faults.items() if why]
    score = frac(3 - len(bad), 3)
    tail = f"; {', '.join(bad)}; {ASSET_DUTY}" if bad else ""
    return result("x_asset_paths", score, f"{g(score)}: {3 - len(bad)}/3 assets served typed "
                  f"at /<file> and /web/<file>, the same bytes{tail}")  # fmt: skip


def _both_paths_fault(name: str, kind: str, page: PageObs) -> str:
    """Why one asset misses §6.9 (empty when it does not): a path that does not serve it
    with its type family, or ``/web/`` serving other bytes."""
    for path, answer in asset_answers(name, page).items():
        if not typed(answer, kind):
            return f"{path} answered {answer.status} {answer.content_type or 'no content type'}"
    if page.assets[name].body != page.web_assets[name].body:
        return f"/web/{name} serves other bytes than /{name}"
    return ""


def status_cells(obs: Observations) -> dict[str, bool]:
    """Six cells, each naming its duty: ``limit=0`` 400, a note over 280 characters 400 and
    not stored, an unknown payment id 404, a sync on a failing vendor 502 ``vendor_error``
    and one with the vendor unreachable 503 ``vendor_unavailable`` (five when the app is not
    sandboxed: `OUTAGE_NOT_PROBED`)."""
    v = obs["validation"]
    got = {c.name: o.status for c, o in v.matrix.results}
    cells = {f"{name} -> {want} ({duty})": got.get(name) == want
             for name, (want, duty) in STATUS_CELLS.items()}  # fmt: skip
    kept = body(v.note_row) or {}
    cells["note>280 not stored (§6.7)"] = (
        v.note_row is not None and v.note_row.status == 200 and kept.get("note") != LONG_NOTE
    )
    cell = f"sync on a failing vendor -> 502 vendor_error ({VENDOR_ERROR_DUTY})"
    cells[cell] = _answered(v.vendor_fault, 502, "vendor_error")
    if v.vendor_outage is not None:
        cell = "sync with the vendor unreachable -> 503 vendor_unavailable"
        cells[f"{cell} ({VENDOR_UNAVAILABLE_DUTY})"] = _answered(
            v.vendor_outage, 503, "vendor_unavailable"
        )
    return cells


def _answered(read: JsonRead | None, status: int, code: str) -> bool:
    return read is not None and read.status == status and error_code(body(read) or {}) == code


@app_check("x_status_duties", needs=("validation",))
def x_status_duties(obs: Observations, _s) -> CheckResult:
    """Weight zero (spec §6.3, §6.4, §6.7, §7; not in the public matrix): the fraction of
    `status_cells` answered with the documented status (and code)."""
    cells = status_cells(obs)
    score = frac(sum(cells.values()), len(cells))
    bad = [k for k, ok in cells.items() if not ok]
    tail = f"; wrong: {', '.join(bad)}" if bad else ""
    if obs["validation"].vendor_outage is None:
        tail += f"; {OUTAGE_NOT_PROBED}"
    return result("x_status_duties", score, f"{g(score)}: {sum(cells.values())}/{len(cells)}{tail}")


@app_check("x_error_envelopes", needs=("validation",))
def x_error_envelopes(obs: Observations, _s) -> CheckResult:
    """Weight zero (§7: every error has the envelope; the public instrument reads its matrix
    only): ``b_error_envelope``'s rungs over every other error answer the probes provoked
    (``limit=0``, the long note, the unknown id, a PUT on a known path, the two vendor
    syncs, the persistent conflict's 409), field errors on ``limit=0`` and the long note."""
    _, beyond = split_errors(obs)
    cells = [(c.name, body_of(o)) for c, o in obs["validation"].matrix.results]
    wanted = [(n, b) for n, b in cells if n in FIELD_ERROR_CELLS]
    return envelope_row("x_error_envelopes", beyond, wanted)


@app_check("x_json_errors", needs=("validation", "json_sample"))
def x_json_errors(obs: Observations, _s) -> CheckResult:
    """Weight zero (§7: errors are JSON too; the public instrument samples six responses):
    ``json_everywhere``'s halves over every error answer outside those six, each request and
    status once; 0 when there was none."""
    sampled = {(r.response.method, r.response.path) for r in obs["json_sample"].reads}
    extra = [(n, a) for n, a in error_responses(obs) if (a.method, a.path) not in sampled]
    if not extra:
        return result("x_json_errors", 0.0, "0: no error answer beyond the six sampled")
    score, short = json_halves(extra)
    return result("x_json_errors", score, f"{g(score)}: {len(extra)} error answers beyond the "
                  f"six sampled{short}")  # fmt: skip


@app_check("x_order_everywhere", needs=("reads",))
def x_order_everywhere(obs: Observations, _s) -> CheckResult:
    """Weight zero (§6.3: created_at sorts by the instant; the public instrument reads the
    default page only): ``limit=5&offset=5``, ``limit=500``, ``status=refunded``, the raw
    200-row walk across its page breaks, and ``sort=-created_at`` descending are in instant
    order; the fraction of ordered adjacent pairs over them all, 0 on an unparseable stamp."""
    r = obs["reads"]
    walk = [x for p in r.raw_pages for x in (rows_of(p) or [])]
    reads = {name: (rows_of(read) or [], True) for name, read in
             (("limit=5&offset=5", r.page5), ("limit=500", r.capped),
              ("status=refunded", r.filtered))}  # fmt: skip
    reads["raw pages"] = (walk, True)
    reads["sort=-created_at"] = (rows_of(r.sorted_desc) or [], False)
    return order_row("x_order_everywhere", reads)
