"""``benchwright view``: the local results viewer as a FastAPI app over `Sources`.

Pages: ``/`` (runs and scorecards, filter and sort, a compare form), ``/runs/{run}``,
``/runs/{run}/tasks/{task}`` (a task's trials side by side),
``/runs/{run}/trials/{task}/{n}``, ``/cards/{card}``, ``/cards/{card}/evidence/{key}``
(a screenshot, the app log or the vendor trace the card names) and ``/compare?a=&b=``
(``run:ID`` or ``card:ID``). Every id is looked up among what `Sources.scan` listed (again
when the paths changed: `LiveSources`); nothing in a URL is ever joined
onto a path. What runs and apps wrote is shown as text (autoescape, and a policy that
runs no script but the viewer's own).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from benchwright.viewer import views
from benchwright.viewer.live import LiveSources
from benchwright.viewer.sources import Card, Sources
from benchwright.web import LOOPBACK_NAMES, HostGuard, environment, static_router

STATIC = Path(__file__).with_name("static")
HEADERS = {"X-Content-Type-Options": "nosniff"}
PAGE_HEADERS = {
    **HEADERS,
    # behind autoescaping: only the viewer's own script runs, nothing loads from elsewhere
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; object-src 'none'",
}
_env = environment(Path(__file__).with_name("templates"))
EVIDENCE_TYPES = {
    ".png": "image/png",
    ".log": "text/plain; charset=utf-8",
    ".jsonl": "text/plain; charset=utf-8",
}
"""The evidence files a card's page links to, by suffix, and the type each is served as."""


class PageLinks:
    """Links between the served pages (ids URL-quoted, never paths)."""

    def run(self, run_id: str) -> str:
        return f"/runs/{_q(run_id)}"

    def task(self, run_id: str, task_id: str) -> str:
        return f"/runs/{_q(run_id)}/tasks/{_q(task_id)}"

    def trial(self, run_id: str, task_id: str, iteration: int) -> str:
        return f"/runs/{_q(run_id)}/trials/{_q(task_id)}/{iteration}"

    def card(self, card_id: str) -> str:
        return f"/cards/{_q(card_id)}"

    def evidence(self, card: Card, key: str, path: Path) -> str:
        return f"/cards/{_q(card.id)}/evidence/{_q(key)}"


LINKS = PageLinks()


def create_app(sources: LiveSources, allowed_hosts: Collection[str] = LOOPBACK_NAMES) -> FastAPI:
    """The viewer over ``sources`` (listed again when they change), answering only requests whose
    ``Host`` is one of ``allowed_hosts`` (`benchwright.web.hosts`: a page elsewhere that
    rebinds its name to 127.0.0.1 must not read the runs)."""
    app = FastAPI(title="benchwright view", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(HostGuard, allowed=allowed_hosts)
    app.state.sources = sources
    app.include_router(static_router)

    @app.get("/static/viewer.js", include_in_schema=False)
    def script() -> Response:
        body = (STATIC / "viewer.js").read_bytes()
        return Response(body, media_type="text/javascript", headers=HEADERS)

    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> Response:
        found = _sources(request)
        choices = [(f"run:{r}", f"run {r}") for r in found.runs]
        choices += [(f"card:{c}", f"scorecard {c}") for c in found.cards]
        return _render(
            "index.html",
            runs=[views.run_row(r, LINKS) for r in found.runs.values()],
            cards=[views.card_row(c, LINKS) for c in found.cards.values()],
            choices=choices,
        )

    @app.get("/runs/{run_id}", response_class=HTMLResponse)
    def run(request: Request, run_id: str) -> Response:
        found = _sources(request).runs.get(run_id)
        if found is None:
            return _problem(404, f"no run '{run_id}' among the directories given")
        return _render("run.html", run=views.run_view(found, LINKS))

    @app.get("/runs/{run_id}/tasks/{task_id}", response_class=HTMLResponse)
    def task(request: Request, run_id: str, task_id: str) -> Response:
        found = _sources(request).runs.get(run_id)
        trials = found.task_trials(task_id) if found else []
        if found is None or not trials:
            return _problem(404, f"no task '{task_id}' in run '{run_id}'")
        seals = found.verify()
        shown = [views.trial_view(found, t, LINKS, seals) | {"url": LINKS.trial(
            run_id, task_id, t.iteration)} for t in trials]  # fmt: skip
        return _render("task.html", task=task_id, run_id=run_id, run_url=LINKS.run(run_id),
                       trials=shown)  # fmt: skip

    @app.get("/runs/{run_id}/trials/{task_id}/{n}", response_class=HTMLResponse)
    def trial(request: Request, run_id: str, task_id: str, n: int) -> Response:
        found = _sources(request).runs.get(run_id)
        one = found.trial(task_id, n) if found else None
        if found is None or one is None:
            return _problem(404, f"no trial '{task_id}' #{n} in run '{run_id}'")
        return _render("trial.html", t=views.trial_view(found, one, LINKS))

    @app.get("/cards/{card_id}", response_class=HTMLResponse)
    def card(request: Request, card_id: str) -> Response:
        found = _sources(request).cards.get(card_id)
        if found is None:
            return _problem(404, f"no scorecard '{card_id}' among the files given")
        return _render("card.html", card=views.card_view(found, LINKS))

    @app.get("/cards/{card_id}/evidence/{key}")
    def evidence(request: Request, card_id: str, key: str) -> Response:
        found = _sources(request).cards.get(card_id)
        path = found.evidence().get(key) if found else None
        if path is None or path.suffix not in EVIDENCE_TYPES:
            return Response(status_code=404, headers=HEADERS)
        # an app wrote these: plain text (nosniff) or an image, never a page of its own
        return FileResponse(path, media_type=EVIDENCE_TYPES[path.suffix], headers=HEADERS)

    @app.get("/compare", response_class=HTMLResponse)
    def compare(request: Request, a: str = "", b: str = "") -> Response:
        found = _sources(request)
        kind_a, _, id_a = a.partition(":")
        kind_b, _, id_b = b.partition(":")
        if kind_a != kind_b or kind_a not in ("run", "card"):
            return _problem(400, "compare two runs (run:ID) or two scorecards (card:ID)")
        if kind_a == "run":
            ra, rb = found.runs.get(id_a), found.runs.get(id_b)
            if ra is None or rb is None:
                return _problem(404, f"no run '{id_a if ra is None else id_b}'")
            return _render("compare.html", cmp=views.compare_runs(ra, rb, LINKS))
        ca, cb = found.cards.get(id_a), found.cards.get(id_b)
        if ca is None or cb is None:
            return _problem(404, f"no scorecard '{id_a if ca is None else id_b}'")
        return _render("compare.html", cmp=views.compare_cards(ca, cb, LINKS))

    return app


def _sources(request: Request) -> Sources:
    """The listing as the paths are now (a run started after ``view`` is on it)."""
    live: LiveSources = request.app.state.sources
    return live.current()


def _q(part: str) -> str:
    return quote(part, safe="")


def _render(template: str, code: int = 200, **values: Any) -> HTMLResponse:
    html = _env.get_template(template).render(**values)
    return HTMLResponse(html, status_code=code, headers=PAGE_HEADERS)


def _problem(status: int, message: str) -> HTMLResponse:
    return _render("problem.html", status, status=status, message=message)
