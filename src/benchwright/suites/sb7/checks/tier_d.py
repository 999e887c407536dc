"""Tier D (validation & docs, §12): content types, the validation and auth matrices, client
timeouts proven by the vendor-down boot, peer absence, and the DECISIONS.md corners."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.browser import BROWSER, EMPTY
from benchwright.suites.sb7.checks._browser import presync
from benchwright.suites.sb7.checks._common import PART_TWO, PROBE, parts_row, phase
from benchwright.suites.sb7.checks._read import ledger_kills
from benchwright.suites.sb7.observations import (
    BOOT,
    MATRIX,
    PARTITION,
    READS,
    TREE,
    WORKFLOW,
    Observations,
)
from benchwright.suites.sb7.viz.view import SCENARIO as VIZ

TIMEOUT_FILES = ("ledgerd.py", "meridian.py", "vendor.py", "sync.py")
"""The backend files §12's residual grep reads."""
TIMEOUT = re.compile(r"\btimeout\s*=")
DOCUMENTED_MIN = 15
"""A corner's section must say at least this many characters to count as documented."""
HEADING = re.compile(r"^##\s+(D[123])\b[^\n]*$", re.MULTILINE)


@app_check("d_content_types", needs=(READS,))
def d_content_types(obs: Observations, _s) -> CheckResult:
    """The mean of two cells: the fraction of sampled API answers typed JSON, and
    /api/stream typed text/event-stream (when its head was read)."""
    reads = obs[READS]
    sample = [r for r in reads.sample if r.status is not None]
    if not sample:
        return result("d_content_types", 0.0, "0: no responses sampled")
    typed = sum("json" in (r.content_type or "").lower() for r in sample)
    api = frac(typed, len(sample))
    head = reads.stream_head
    if head is None:
        return result("d_content_types", api, f"{g(api)}: {typed}/{len(sample)} API answers "
                      "typed JSON; the stream head was never read (API cell only)")  # fmt: skip
    kind = (head.content_type or "").lower()
    sse = float(head.status == 200 and kind.startswith("text/event-stream"))
    score = (api + sse) / 2
    return result("d_content_types", score, f"{g(score)}: {typed}/{len(sample)} API answers "
                  f"typed JSON; /api/stream {head.status} {head.content_type!r}")  # fmt: skip


@app_check("d_validation", needs=(MATRIX,))
def d_validation(obs: Observations, _s) -> CheckResult:
    """The fraction of validation and auth cells answered with exactly the documented
    status; a matrix never exercised 0."""
    cases = [*obs[MATRIX].validation, *obs[MATRIX].auth]
    if not cases:
        return result("d_validation", 0.0, "0: the matrices were never exercised")
    wrong = [c for c in cases if c.response.status != c.expected_status]
    score = frac(len(cases) - len(wrong), len(cases))
    named = [f"{c.name} ({c.response.status}, want {c.expected_status})" for c in wrong][:6]
    tail = f"; wrong: {', '.join(named)}" if named else ""
    return result("d_validation", score, f"{g(score)}: {len(cases) - len(wrong)}/{len(cases)} "
                  f"cells exact{tail}")  # fmt: skip


@app_check("d_client_timeouts", needs=(BOOT,))
def d_client_timeouts(obs: Observations, _s) -> CheckResult:
    """1.0 when ledgerd bound and served local data while the vendor refused connections;
    else 0.4 when ``timeout=`` appears in the backend's sync files; else 0."""
    b4 = obs[BOOT].b4
    if b4.armed and b4.bound_after_s is not None and b4.served_while_down:
        return result("d_client_timeouts", 1.0, "1: ledgerd bound and served local data while "
                      f"the vendor was down for {b4.down_s:g} s")  # fmt: skip
    tree = phase(obs, TREE)
    hits = [p for p, text in (tree.backend.items() if tree is not None else ())
            if PurePosixPath(p).name in TIMEOUT_FILES and TIMEOUT.search(text)]  # fmt: skip
    why = "the vendor-down boot never proved it" if b4.armed else "no vendor-down boot"
    if hits:
        return result("d_client_timeouts", 0.4, f"0.4: {why}; residual: timeout= in "
                      f"{', '.join(sorted(hits))}")  # fmt: skip
    return result("d_client_timeouts", 0.0, f"0: {why}, and no timeout= in the sync sources")


@app_check("d_peer_absence", needs=(PARTITION,))
def d_peer_absence(obs: Observations, _s) -> CheckResult:
    """Quarters: the notifications proxy answered 502 during the partition, with envelope
    code ``notifier_unreachable``, ledgerd lived through it, notifierd lived through the
    ledger kills."""
    part = obs[PARTITION]
    if not part.armed:
        return unavailable("d_peer_absence", f"{PROBE}the partition was never orchestrated")
    error = (body(part.proxy) or {}).get("error")
    watched = [k.peer_alive for k in ledger_kills(obs) if k.peer_alive is not None]
    parts = {
        "proxy 502": part.proxy is not None and part.proxy.status == 502,
        "notifier_unreachable": isinstance(error, dict)
        and error.get("code") == "notifier_unreachable",
        "ledgerd alive": part.ledgerd_alive is True,
        "notifierd alive": bool(watched) and all(watched),
    }
    status = part.proxy.status if part.proxy is not None else None
    return parts_row("d_peer_absence", parts, f"proxy answered {status} during the partition")


def sections(text: str) -> dict[str, str]:
    """``D1``/``D2``/``D3`` -> the text under its ``## Dn`` heading."""
    found: dict[str, str] = {}
    marks = list(HEADING.finditer(text))
    for mark, nxt in zip(marks, [*marks[1:], None], strict=False):
        end = nxt.start() if nxt is not None else len(text)
        rest = text[mark.end() : end]
        cut = re.search(r"^#{1,2}\s", rest, re.MULTILINE)
        found.setdefault(mark.group(1), (rest[: cut.start()] if cut else rest).strip())
    return found


ALTERNATIVE = re.compile(r"\b(rather than|instead of)\b[^.;:]*")
"""The alternative a decision turns down ("... rather than blocking"): not its stance."""


def decided(corner: str, text: str) -> str | None:
    """What the section decides, inferred from its wording (None: not inferable): the
    stance named first, once the alternatives it turns down are set aside."""
    low = ALTERNATIVE.sub(" ", text.lower())
    if corner == "D1":
        keeps = re.search(r"\b(surviv\w*|stays?|remains?|kept|keeps?|retain\w*)\b", low)
        drops = re.search(r"\b(drops?|dropped|removed?|clear(s|ed)?|falls? out|un-?brush\w*)\b",
                          low)  # fmt: skip
        return _first(keeps, drops, "survives", "drops")
    if corner == "D2":
        never = re.search(r"\b(not|never|cannot|can't|no)\b\W+(?:\w+\W+){0,3}re-?submit", low)
        final = never or re.search(r"\b(terminal|final)\b", low)
        again = None if never else re.search(r"re-?submit(table|ted|s)?\b|\bsubmit\w* again", low)
        return _first(again, final, "resubmittable", "terminal")
    blocks = re.search(r"\bblock(s|ed|ing)?\b|\bloading state\b", low)
    empty = re.search(r"\bempty\b|\bprogress\b", low)
    return _first(blocks, empty, "blocks", "empty")


def _first(a: re.Match | None, b: re.Match | None, yes: str, no: str) -> str | None:
    """``yes`` when ``a`` matched first (or alone), ``no`` when ``b`` did, else None."""
    if a is None and b is None:
        return None
    if b is None or (a is not None and a.start() < b.start()):
        return yes
    return no


def _observed(obs: Observations) -> dict[str, str | None]:
    """What the run saw per corner (None: its instrument never ran this run)."""
    flow = phase(obs, WORKFLOW)
    status = getattr(flow, "resubmit_status", None)
    d2 = None
    if status is not None and status < 500:
        d2 = "resubmittable" if status < 300 else "terminal"
    scenarios = getattr(obs.phases.get(BROWSER), "scenarios", {})
    kept = getattr(getattr(scenarios.get(VIZ), "stream", None), "kept", None)
    d1 = None if kept is None else "survives" if kept else "drops"
    empty = scenarios.get(EMPTY)
    return {"D1": d1, "D2": d2, "D3": None if empty is None else presync(empty)}


@app_check("d_decisions_doc", needs=(TREE,))
def d_decisions_doc(obs: Observations, _s) -> CheckResult:
    """Per corner: undocumented (no ``## Dn`` section of >= 15 characters) 0; documented and
    matching what the run observed 1; documented but not inferable 0.5; contradicted 0. The
    mean over the corners whose instrument ran (D3: the ``empty`` scenario's pre-sync page;
    D1: the ``viz`` scenario's brushed record across its streamed change)."""
    text = obs[TREE].decisions or ""
    found, seen = sections(text), _observed(obs)
    scores: dict[str, float] = {}
    notes = []
    for corner in ("D1", "D2", "D3"):
        said = found.get(corner, "")
        if len(said) < DOCUMENTED_MIN:
            scores[corner] = 0.0
            notes.append(f"{corner} undocumented")
            continue
        if seen[corner] is None:
            notes.append(f"{corner} documented, unmeasured this run")
            continue
        stance = decided(corner, said)
        scores[corner] = 0.5 if stance is None else float(stance == seen[corner])
        notes.append(f"{corner} says {stance or 'nothing inferable'}, run saw {seen[corner]}")
    if not scores:
        return unavailable("d_decisions_doc", f"{PART_TWO}; {'; '.join(notes)}")
    score = sum(scores.values()) / len(scores)
    return result("d_decisions_doc", score, f"{g(score)}: {'; '.join(notes)}", corners=scores)
