"""Server-rendered SVG charts: pure functions from figures to inline ``<svg>`` markup.

Why SVG made on the server: the board's pages run no script (``script-src 'none'``) and
the one-file report opens offline, so a chart has to be markup, like a table. Both
policies are ``default-src 'self'`` without ``'unsafe-inline'``, which also refuses style
attributes: every colour and size here is an SVG presentation attribute, never ``style``.
Every text (tier, class, model and handle names: partly written by posters and graded
apps, both adversaries) is escaped here, because the result is handed to Jinja as safe
markup. Each chart carries an ``aria-label`` and a ``<title>`` saying what it shows, and
each mark a ``<title>`` with its exact figures, so a reader who cannot see the bars
still gets the numbers. Empty data gives empty markup: the page shows its table alone.

All charts share one geometry: a label column, a value axis from 0 to 1 of `BAR_W`
pixels starting at `BAR_X`, and a text column with the figures after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from markupsafe import Markup, escape

if TYPE_CHECKING:  # a rate only brings its interval: the web layer never imports matrix
    from benchwright.matrix.stats import Rate

WIDTH = 560
BAR_X = 130
"""Where the value axis starts (the label column is to its left)."""
BAR_W = 250
"""Pixels from 0 to 1 on the value axis."""
TEXT_X = BAR_X + BAR_W + 10
ROW_H = 24
BAR_H = 14
AXIS_H = 18
"""Room under the rows for the axis' tick labels."""
LABEL_CHARS = 18
"""Longer labels are cut with an ellipsis (the whole text is in the mark's title)."""
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
MAX_MODELS = 25
"""Rows of the board's chart; further models are counted in a line under it."""

INK, MUTED, LINE, TRACK = "#17202a", "#5d6d7e", "#d5dbe1", "#e8edf2"
RATE = "#8cc49a"
"""Pass-rate bars are light, so the interval drawn over them in ink stands out."""
ACCENT, PASS, FAIL, WARN = "#1f4e8c", "#1e7b34", "#b3261e", "#8a5a00"


class Entry(NamedTuple):
    """One mark of the board's chart: an entry's model (its row), score and label."""

    model: str
    score: float
    label: str
    partial: bool = False


def tier_means(
    tiers: Sequence[Mapping[str, Any]], excellence: Mapping[str, Any] | None = None
) -> Markup:
    """A bar per tier, its length the tier's mean, beside the tier's weight.

    Args:
        tiers: the scorecard JSON's ``tiers`` (``name``, ``weight``, ``mean``: None when
            nothing in the tier was measured; a None weight is left unsaid).
        excellence: the scorecard JSON's ``excellence``: its tier is weighed by the
            excellence slice, not by a component weight, and is labelled so.
    """
    if not tiers:
        return Markup("")
    slice_tier = excellence.get("tier") if excellence else None
    rows = []
    for n, tier in enumerate(tiers):
        name, mean, weight = str(tier["name"]), tier.get("mean"), tier.get("weight")
        if name == slice_tier and excellence is not None:
            weighed = f"slice {excellence['weight']:.2f}"
        else:
            weighed = "" if weight is None else f"weight {weight:.2f}"
        figures = ("not measured" if mean is None else f"mean {mean:.4f}") + (
            f" · {weighed}" if weighed else ""
        )
        rows.append(_bar_row(n, name, mean, ACCENT, figures, f"tier {name}: {figures}"))
    title = "tier means (bar length) with each tier's weight"
    return _svg(title, len(tiers), rows)


def conditions(excellence: Mapping[str, Any] | None) -> Markup:
    """The excellence conditions as ticks: met, not met, or left out of the gate.

    Args:
        excellence: the scorecard JSON's ``excellence`` (its ``conditions``: ``name``,
            ``met``, optional ``excluded``); None or no conditions give no chart.
    """
    found = list(excellence.get("conditions") or []) if excellence else []
    if not found:
        return Markup("")
    half = (len(found) + 1) // 2  # two columns, filled down then across
    marks = []
    for n, cond in enumerate(found):
        state = "excluded" if cond.get("excluded") else "met" if cond.get("met") else "not met"
        x, mid = (n // half) * WIDTH / 2 + 12, (n % half) * ROW_H + ROW_H / 2
        note = " (left out)" if state == "excluded" else ""
        marks.append(
            f'<g class="condition" data-state="{state}"><title>{_esc(cond["name"])}: {state}'
            f"</title>{_mark(state, x, mid)}"
            f'<text x="{_n(x + 16)}" y="{_n(mid + 4)}" font-size="12" fill="{INK}">'
            f"{_esc(_cut(str(cond['name']), 34))}{note}</text></g>"
        )
    met = sum(1 for c in found if c.get("met") and not c.get("excluded"))
    judged = sum(1 for c in found if not c.get("excluded"))
    title = f"excellence conditions: {met} of {judged} met"
    return _frame(title, half * ROW_H, marks)


def pass_rates(rates: Sequence[tuple[str, Rate]], title: str) -> Markup:
    """A bar per group, its length the pass rate, with its Wilson interval as an error bar.

    Args:
        rates: (label, rate) in the order to draw; the interval is the rate's own
            (`Rate.interval`, at the rate's ``z``).
        title: what the chart shows, with the interval's level (read by screen readers).
    """
    if not rates:
        return Markup("")
    rows = []
    for n, (label, rate) in enumerate(rates):
        low, high = rate.interval
        figures = f"{rate.passed}/{rate.total} · {rate.value:.0%} [{low:.0%}, {high:.0%}]"
        mid = n * ROW_H + ROW_H / 2
        x0, x1 = _x(low), _x(high)
        whisker = (
            f'<g class="interval" data-low="{low:.6f}" data-high="{high:.6f}">'
            f'<line x1="{x0}" y1="{_n(mid)}" x2="{x1}" y2="{_n(mid)}" stroke="{INK}" '
            f'stroke-width="1.5"/>'
            + "".join(
                f'<line x1="{x}" y1="{_n(mid - 5)}" x2="{x}" y2="{_n(mid + 5)}" stroke="{INK}" '
                f'stroke-width="1.5"/>'
                for x in (x0, x1)
            )
            + "</g>"
        )
        rows.append(_bar_row(n, label, rate.value, RATE, figures, f"{label}: {figures}", whisker))
    return _svg(title, len(rates), rows)


def entry_scores(entries: Sequence[Entry], baselines: Sequence[Entry]) -> Markup:
    """A row per model with a dot per entry at its score, the baselines as labelled lines.

    Models are ordered by their best entry; past `MAX_MODELS` they are counted, not drawn.
    A partial entry (some row not measured) is a hollow dot: it ranks after complete ones.

    Args:
        entries: the board's entries, baselines left out (they are the lines).
        baselines: the published baselines of the same scorer version.
    """
    if not entries and not baselines:
        return Markup("")
    by_model: dict[str, list[Entry]] = {}
    for entry in sorted(entries, key=lambda e: -e.score):
        by_model.setdefault(entry.model, []).append(entry)
    models = list(by_model)[:MAX_MODELS]
    top = len(baselines) * 14 + (6 if baselines else 0)
    parts = []
    for n, model in enumerate(models):
        y = top + n * ROW_H
        mid = y + ROW_H / 2
        dots = "".join(_dot(e, mid) for e in by_model[model])
        parts.append(
            f'<g class="model" data-model="{_esc(model)}"><title>{_esc(model)}: '
            f"{len(by_model[model])} entries</title>"
            f'<rect x="{BAR_X}" y="{_n(mid - 0.5)}" width="{BAR_W}" height="1" fill="{TRACK}"/>'
            f"{_label(model, mid)}{dots}</g>"
        )
    bottom = top + len(models) * ROW_H
    for n, base in enumerate(baselines):
        x, y = _x(base.score), n * 14 + 11
        left = base.score > 0.5
        text_x = _n(float(x) + (-4 if left else 4))
        parts.append(
            f'<g class="baseline" data-score="{base.score:.6f}"><title>baseline '
            f"{_esc(base.label)}: {base.score:.4f}</title>"
            f'<line x1="{x}" y1="{y - 9}" x2="{x}" y2="{bottom}" stroke="{WARN}" '
            f'stroke-width="1.5" stroke-dasharray="4 3"/>'
            f'<text x="{text_x}" y="{y}" font-size="11" fill="{WARN}" '
            f'text-anchor="{"end" if left else "start"}">'
            f"{_esc(_cut(base.label, 36))} {base.score:.4f}</text></g>"
        )
    more = len(by_model) - len(models)
    if more:
        parts.append(
            f'<text class="more" x="{BAR_X}" y="{bottom + AXIS_H + 14}" font-size="11" '
            f'fill="{MUTED}">{more} more models: see the table</text>'
        )
    shown = sum(len(by_model[m]) for m in models)
    title = f"score of every entry by model ({shown} entries)" + (
        f", {len(baselines)} published baselines as dashed lines" if baselines else ""
    )
    return _frame(title, bottom + AXIS_H + (18 if more else 0), [_axis(top, bottom), *parts])


def _bar_row(
    n: int, label: str, value: float | None, colour: str, figures: str, title: str, extra: str = ""
) -> str:
    """Row ``n``: a label, a track from 0 to 1, a bar of ``value`` (none when None), the
    figures and ``extra`` marks drawn over the bar; ``data-value`` carries the drawn value
    for readers and tests."""
    mid = n * ROW_H + ROW_H / 2
    y = _n(mid - BAR_H / 2)
    bar = (
        ""
        if value is None
        else f'<rect class="bar" x="{BAR_X}" y="{y}" width="{_n(float(_x(value)) - BAR_X)}" '
        f'height="{BAR_H}" fill="{colour}"/>'
    )
    data = "" if value is None else f' data-value="{value:.6f}"'
    return (
        f'<g class="row"{data}><title>{_esc(title)}</title>{_label(label, mid)}'
        f'<rect x="{BAR_X}" y="{y}" width="{BAR_W}" height="{BAR_H}" fill="{TRACK}"/>{bar}{extra}'
        f'<text x="{TEXT_X}" y="{_n(mid + 4)}" font-size="12" fill="{INK}">'
        f"{_esc(figures)}</text></g>"
    )


def _svg(title: str, rows: int, parts: list[str]) -> Markup:
    """Rows of bars over the value axis."""
    height = rows * ROW_H
    return _frame(title, height + AXIS_H, [_axis(0, height), *parts])


def _frame(title: str, height: float, parts: list[str]) -> Markup:
    h = _n(height)
    return Markup(
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {h}" '
        f'width="{WIDTH}" height="{h}" role="img" aria-label="{_esc(title)}">'
        f"<title>{_esc(title)}</title>{''.join(parts)}</svg>"
    )


def _axis(top: float, bottom: float) -> str:
    """Grid lines at `TICKS` from ``top`` to ``bottom``, labelled under ``bottom``."""
    lines = "".join(
        f'<line x1="{_x(t)}" y1="{_n(top)}" x2="{_x(t)}" y2="{_n(bottom)}" stroke="{LINE}"/>'
        f'<text x="{_x(t)}" y="{_n(bottom + 13)}" font-size="10" fill="{MUTED}" '
        f'text-anchor="middle">{t:g}</text>'
        for t in TICKS
    )
    return f'<g class="axis">{lines}</g>'


def _label(text: str, mid: float) -> str:
    return (
        f'<text x="{BAR_X - 8}" y="{_n(mid + 4)}" font-size="12" fill="{INK}" '
        f'text-anchor="end">{_esc(_cut(text, LABEL_CHARS))}</text>'
    )


def _dot(entry: Entry, mid: float) -> str:
    fill = "none" if entry.partial else ACCENT
    flag = " (partial)" if entry.partial else ""
    return (
        f'<circle class="entry" cx="{_x(entry.score)}" cy="{_n(mid)}" r="4.5" fill="{fill}" '
        f'fill-opacity="0.6" stroke="{ACCENT}" stroke-width="1.5" data-score="{entry.score:.6f}">'
        f"<title>{_esc(entry.label)}: {entry.score:.4f}{flag}</title></circle>"
    )


def _mark(state: str, x: float, mid: float) -> str:
    """A tick (met), a cross (not met) or a dash (left out of the gate) centred at x."""
    if state == "met":
        path = f"M{_n(x - 6)} {_n(mid)} l4 4 l8 -9"
        return f'<path class="tick" d="{path}" stroke="{PASS}" stroke-width="2.5" fill="none"/>'
    if state == "not met":
        path = f"M{_n(x - 5)} {_n(mid - 5)} l10 10 M{_n(x + 5)} {_n(mid - 5)} l-10 10"
        return f'<path class="cross" d="{path}" stroke="{FAIL}" stroke-width="2.5" fill="none"/>'
    path = f"M{_n(x - 5)} {_n(mid)} h10"
    return f'<path class="dash" d="{path}" stroke="{MUTED}" stroke-width="2.5" fill="none"/>'


def _x(value: float) -> str:
    """The axis position of ``value``, clamped to [0, 1] (a score is never outside)."""
    return _n(BAR_X + min(max(value, 0.0), 1.0) * BAR_W)


def _n(value: float) -> str:
    """A coordinate with two decimals at most (``160``, ``385.5``)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: object) -> str:
    return str(escape(str(text)))
