"""Phase ``page``: fetch the page and its assets (the boot is the kit's `kinds.boot`)."""

from __future__ import annotations

from benchwright.probes.http import client, fetch
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import Observations, PageObs

ASSETS = ("styles.css", "app.js", "viz.js")


def page(ctx: GradeContext, obs: Observations) -> PageObs:
    """GET / and each asset at its bare path and under ``/web/`` (spec §6.9 names both)."""
    web = ctx.tree / "vspro" / "web"
    with client(ctx.base_url, ctx.settings.request_timeout_s) as http:
        index = fetch(http, "/")
        assets = {name: fetch(http, f"/{name}") for name in ASSETS}
        web_assets = {name: fetch(http, f"/web/{name}") for name in ASSETS}
    return PageObs(
        index=index,
        index_on_disk=(web / "index.html").is_file(),
        assets=assets,
        on_disk={n: (web / n).stat().st_size if (web / n).is_file() else 0 for n in ASSETS},
        web_assets=web_assets,
    )
