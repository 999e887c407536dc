"""``benchwright report --html OUT``: the viewer's pages as one self-contained file.

The stylesheet and the script are inlined and screenshots embedded as ``data:`` URIs,
so the file opens offline (a CI artifact, an attachment) and loads nothing from
anywhere. Links between parts are anchors in the same file; the whole app log and vendor
trace are ``file:`` links to where they lie (the page shows them folded, and cut).
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from pathlib import Path

from benchwright.viewer import views
from benchwright.viewer.sources import Card, Sources
from benchwright.web import environment
from benchwright.web.static import STATIC as WEB_STATIC

STATIC = Path(__file__).with_name("static")
_env = environment(Path(__file__).with_name("templates"))


class AnchorLinks:
    """Links as anchors inside the report; evidence inlined as ``data:`` URIs."""

    def run(self, run_id: str) -> str:
        return f"#run-{run_id}"

    def task(self, run_id: str, task_id: str) -> str:
        return f"#trial-{run_id}-{task_id}-1"

    def trial(self, run_id: str, task_id: str, iteration: int) -> str:
        return f"#trial-{run_id}-{task_id}-{iteration}"

    def card(self, card_id: str) -> str:
        return f"#card-{card_id}"

    def evidence(self, card: Card, key: str, path: Path) -> str:
        """A screenshot inlined; a text file (app log, vendor trace) linked where it lies,
        since inlining a trace whole is what made a card page 130,000 px tall."""
        if path.suffix != ".png":
            return path.as_uri()
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def render_report(sources: Sources) -> str:
    """The whole report: runs and scorecards lists, every scorecard, every run's trials."""
    links = AnchorLinks()
    run_views = [
        {"view": views.run_view(run, links),
         "trials": [views.trial_view(run, t, links, seals) for t in run.trials]}
        for run, seals in ((r, r.verify()) for r in sources.runs.values())
    ]  # fmt: skip
    return _env.get_template("report.html").render(
        inline_css=(WEB_STATIC / "web.css").read_text(encoding="utf-8"),
        script=(STATIC / "viewer.js").read_text(encoding="utf-8"),
        written=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        runs=[views.run_row(r, links) for r in sources.runs.values()],
        cards=[views.card_row(c, links) for c in sources.cards.values()],
        card_views=[views.card_view(c, links) for c in sources.cards.values()],
        run_views=run_views,
    )


def write_report(sources: Sources, out: Path) -> int:
    """Write the report to ``out``; returns its size in bytes."""
    html = render_report(sources)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return len(html.encode("utf-8"))
