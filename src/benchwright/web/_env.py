"""The Jinja2 environment every benchwright page renders with.

Autoescape is on for every template, whatever its name: handles, model names and check
details come from posters and graded apps (both adversaries, DESIGN.md principle 8), so
nothing they wrote may ever reach a page as markup. Pages of a feature (the board, the
local viewer) live in that feature's own template folder, searched before this one, and
import the shared components from ``components.html`` and the charts from ``charts.html``
(which call `benchwright.web.charts`, the global ``svg``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

from benchwright.web import charts

TEMPLATES = Path(__file__).with_name("templates")


def environment(*page_dirs: Path) -> Environment:
    """An environment over ``page_dirs`` (searched first) and the shared templates.

    Undefined names raise, so a template that asks for a field the page did not pass
    fails its test instead of rendering an empty cell.
    """
    loaders = [FileSystemLoader(str(d)) for d in (*page_dirs, TEMPLATES)]
    env = Environment(loader=ChoiceLoader(loaders), autoescape=True, undefined=StrictUndefined)
    env.filters.update(score=fmt_score, secs=fmt_secs, when=fmt_when, day=fmt_day, share=fmt_share)
    env.globals["svg"] = charts
    return env


def fmt_score(value: float | None, digits: int = 4) -> str:
    """A score or mean as the scorecard prints it (``-`` when it was not measured)."""
    return "-" if value is None else f"{value:.{digits}f}"


def fmt_share(value: float) -> str:
    """A share in [0, 1] as whole percent, never rounded to a misleading ``0 %`` or
    ``100 %``: ``0 %``, ``<1 %``, ``21 %``, ``>99 %``, ``100 %``."""
    if 0.0 < value < 0.01:
        return "<1 %"
    if 0.99 < value < 1.0:
        return ">99 %"
    return f"{value * 100:.0f} %"


def fmt_secs(value: float | None) -> str:
    """Wall time as people read it: ``1 h 02 min``, ``17 min 05 s``, ``42 s``."""
    if value is None:
        return "-"
    total = round(value)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


def fmt_when(value: datetime | str | None) -> str:
    """A timestamp in UTC to the minute; ISO strings (scorecard JSON) are parsed first and a
    naive time is taken as UTC (databases hand back UTC without a zone)."""
    if value is None:
        return "-"
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d %H:%M UTC")


def fmt_day(value: datetime | str | None) -> str:
    """The UTC date alone (``2026-12-04``): where a table has no room for the minute (the
    board's ranking at 1280 px), the cell's ``title`` carries `fmt_when`."""
    return fmt_when(value)[:10]
