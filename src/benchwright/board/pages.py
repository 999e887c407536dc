"""The board's HTML pages: the leaderboard of one scorer version and each run's card.

Server-rendered with the shared web layer (`benchwright.web`: autoescaped Jinja2, the
scorecard, check-row and screenshot components), no script and no build step. Every
read goes through the app's `BoardStore` (``request.app.state.store``), as the JSON API
does, so a page and the API never disagree. Scorer versions are never mixed: ``/``
shows one version's board, the newest with entries unless ``?version=`` picks an older,
frozen one.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from benchwright.board.params import PageNumber, RunId, ScreenshotNumber, Version
from benchwright.board.recompose import stored_composition
from benchwright.board.store import UNMEASURED, BoardStore, RunCard, ScorePoint
from benchwright.scoring import Scorer
from benchwright.web import environment, fmt_secs, fmt_when, static_router
from benchwright.web.charts import Entry

PER_PAGE = 50
SORTS = {
    "score": "score",
    "date": "postedAt",
    "wall": "wallSecs",
    "model": "model",
    "handle": "handle",
    "nodes": "nodes",
}
"""URL name -> store sort key."""
FIRST_DIRECTION = {"score": "desc", "date": "desc", "wall": "asc", "model": "asc"}
"""The direction a column header sorts by first (best or newest on top)."""
HEADERS = {"X-Content-Type-Options": "nosniff"}
PAGE_HEADERS = {
    **HEADERS,
    # defense in depth behind autoescaping: no page runs a script or loads anything foreign
    "Content-Security-Policy": "default-src 'self'; script-src 'none'; object-src 'none'",
}

router = APIRouter()
router.include_router(static_router)
_env = environment(Path(__file__).with_name("templates"))


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def board(
    request: Request,
    version: Version = None,
    sort: str = "score",
    dir: str | None = None,
    page: PageNumber = 1,
) -> Response:
    """One scorer version's leaderboard, sorted and paginated on the server."""
    store = _store(request)
    versions = store.versions()
    if sort not in SORTS or dir not in (None, "asc", "desc"):
        return _problem(400, f"sort by one of {', '.join(SORTS)}, dir asc or desc")
    if version is not None and version not in versions:
        return _problem(404, f"no board for scorer version '{version}'")
    current = version or (versions[0] if versions else None)
    direction = dir or FIRST_DIRECTION.get(sort, "asc")
    found = (
        store.leaderboard(current, SORTS[sort], direction == "desc", page, PER_PAGE)
        if current
        else None
    )
    if found and page > found.pages:
        return _problem(404, f"page {page} is past the last page ({found.pages})")
    tiers = list(dict.fromkeys(t for row in (found.rows if found else []) for t in row.tiers))
    points = store.scores(current) if current else []
    return _render(
        "board.html",
        entries=[_entry(p, p.handle) for p in points if not p.baseline],
        baselines=[_entry(p, p.model) for p in points if p.baseline],
        versions=versions,
        current=current,
        page=found,
        tiers=tiers,
        sort=sort,
        direction=direction,
        link=lambda **change: _board_link(current, sort, direction, page, change),
        header_link=lambda key: _header_link(current, sort, direction, key),
    )


@router.get("/runs/{run_id}", response_class=HTMLResponse, include_in_schema=False)
def run_card(request: Request, run_id: RunId) -> Response:
    """A run's card: its scorecard, every check row, its screenshots and run metadata."""
    card = _store(request).run(run_id)
    if card is None:
        return _problem(404, f"no run '{run_id}' on this board")
    base = f"/runs/{quote(card.id, safe='')}/screenshots"
    shots = [{"name": s.name, "url": f"{base}/{s.n}.png"} for s in card.screenshots]
    return _render(
        "run.html",
        card=card.json_dict(),
        chart=_card_chart(card, request.app.state.scorers),
        meta=_meta(card),
        shots=shots,
        unmeasured=UNMEASURED,
    )


@router.get("/runs/{run_id}/screenshots/{n}.png", include_in_schema=False)
def screenshot(request: Request, run_id: RunId, n: ScreenshotNumber) -> Response:
    """A posted screenshot, as stored (its PNG magic bytes were checked on posting)."""
    png = _store(request).screenshot(run_id, n)
    if png is None:
        return Response(status_code=404, headers=HEADERS)
    return Response(png, media_type="image/png", headers=HEADERS)


def _store(request: Request) -> BoardStore:
    store: BoardStore = request.app.state.store
    return store


def _render(template: str, code: int = 200, **values: Any) -> HTMLResponse:
    html = _env.get_template(template).render(**values)
    return HTMLResponse(html, status_code=code, headers=PAGE_HEADERS)


def _problem(status: int, message: str) -> HTMLResponse:
    return _render("problem.html", status, status=status, message=message)


def _board_link(
    version: str | None, sort: str, direction: str, page: int, change: dict[str, Any]
) -> str:
    query = {"version": version, "sort": sort, "dir": direction, "page": page} | change
    return "/?" + urlencode({k: v for k, v in query.items() if v is not None})


def _header_link(version: str | None, sort: str, direction: str, key: str) -> str:
    """A column header's link: the column's first direction, or the other one if it is the
    current sort; always back to page 1."""
    if key == sort:
        flipped = "asc" if direction == "desc" else "desc"
        return _board_link(version, key, flipped, 1, {})
    return _board_link(version, key, FIRST_DIRECTION.get(key, "asc"), 1, {})


def _entry(point: ScorePoint, label: str) -> Entry:
    return Entry(point.model, point.score, label, point.partial)


def _card_chart(card: RunCard, scorers: Mapping[str, Scorer]) -> dict[str, Any]:
    """The card's tiers with their weights and its excellence conditions, as the pinned
    scorer composes its stored rows (the figures `recompose` checked when it was posted).
    An entry the board holds no such scorer or composition for (a seeded baseline has no
    rows) charts its stored tier means alone, without weights."""
    scorer = scorers.get(card.scorer_version)
    rows = [c.model_dump(mode="json") for c in card.checks]
    doc = stored_composition(rows, card.score, scorer) if scorer and rows else None
    if doc is not None:
        return {"tiers": doc["tiers"], "excellence": doc.get("excellence")}
    means = [{"name": name, "mean": mean, "weight": None} for name, mean in card.tiers.items()]
    return {"tiers": means, "excellence": None}


def _meta(card: RunCard) -> dict[str, str]:
    run = card.run
    return {
        "handle": card.handle,
        "model": card.model,
        "nodes": str(card.nodes) if card.nodes else "0 (single agent)",
        "agent": _text(run.get("agent")),
        "suite": _text(run.get("suite")),
        "started": fmt_when(run.get("startedAt")),
        "finished": fmt_when(run.get("finishedAt")),
        "wall time": fmt_secs(run.get("wallSecs")),
        "engine events": _text(run.get("engineEvents")),
        "repair rounds": _text(run.get("repairRounds")),
        "tokens": _tokens(run),
        "cost": _cost(run),
        "tree sha256": _text(run.get("treeSha256")),
        "posted": fmt_when(card.posted_at),
    }


def _tokens(run: dict[str, object]) -> str:
    """``181,220 in / 40,213 out``; ``-`` for a run that measured none."""
    read, wrote = run.get("inputTokens"), run.get("outputTokens")
    if read is None and wrote is None:
        return "-"
    return " / ".join(f"{n:,} {way}" if isinstance(n, int) else f"- {way}"
                      for n, way in ((read, "in"), (wrote, "out")))  # fmt: skip


def _cost(run: dict[str, object]) -> str:
    """``$0.8544``; ``tokens only`` when tokens were measured but no price was known."""
    cost = run.get("costUsd")
    if isinstance(cost, int | float):
        return f"${cost:.4f}"
    return "tokens only" if _tokens(run) != "-" else "-"


def _text(value: object) -> str:
    """A metadata value, ``-`` when it was not recorded (the seeded baselines)."""
    return "-" if value is None or value == "" else str(value)
