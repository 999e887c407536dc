"""The page's source readings (ui_states, ui_currency, ui_offline, ui_polish,
ui_error_actionable) on canned files: the reference's, and near misses of it."""

import pytest
from vendorsync_canned import grade_one, perfect, with_web

from benchwright.model import Status

UI = ("ui_states", "ui_currency", "ui_offline", "ui_polish", "ui_error_actionable")
HTML = """<!doctype html><html><head><link rel="stylesheet" href="/styles.css"></head><body>
<section id="loading">Loading payments…</section>
<section id="empty">No payments yet</section>
<section id="error">Something went wrong <button id="retry">Try again</button></section>
<p>Last sync: <span id="last-sync"></span></p><button id="sync-now">Sync</button>
<table><tr><th>Date</th></tr></table><span id="page-info"></span></body></html>"""
JS = "button.disabled = true; const money = new Intl.NumberFormat('en', {style: 'currency'});"


@pytest.mark.parametrize("check", UI)
def test_the_reference_page_earns_every_ui_row(check):
    row = grade_one(perfect(), check)
    assert (row.status, row.score) == (Status.PASS, 1.0), row


@pytest.mark.parametrize("check", UI)
def test_a_minimal_page_with_the_contract_earns_every_ui_row(check):
    obs = with_web(perfect(), index_html=HTML, app_js=JS, styles_css="body {}")
    assert grade_one(obs, check).score == 1.0


@pytest.mark.parametrize("check", UI)
def test_no_page_scores_0(check):
    obs = with_web(perfect(), index_html=None, app_js=None, styles_css=None)
    assert grade_one(obs, check).score == 0.0


def test_ui_states_wants_the_contractual_id_of_each_state():
    no_empty = HTML.replace('id="empty"', 'class="empty"')
    row = grade_one(with_web(perfect(), index_html=no_empty, app_js=JS), "ui_states")
    assert row.score == pytest.approx(2 / 3) and "#empty" in row.detail
    no_ids = HTML.replace('id="empty"', "").replace('id="error"', "").replace('id="loading"', "")
    assert grade_one(with_web(perfect(), index_html=no_ids, app_js=JS), "ui_states").score == 0


def test_ui_currency_half_for_hand_formatting_zero_for_none():
    hand = "cell.textContent = '€' + (amount / 100).toFixed(2);"
    assert grade_one(with_web(perfect(), app_js=hand), "ui_currency").score == 0.5
    raw = "cell.textContent = amount;"
    assert grade_one(with_web(perfect(), app_js=raw), "ui_currency").score == 0.0


@pytest.mark.parametrize(
    "where, text",
    [
        ("index_html", HTML.replace("</head>", '<script src="https://cdn.example/x.js"></script></head>')),
        ("index_html", HTML.replace("/styles.css", "//cdn.example/bootstrap.css")),
        ("styles_css", "@import url('https://fonts.example/css?family=Inter');"),
        ("app_js", "import { h } from 'https://esm.example/preact';"),
    ],
)  # fmt: skip
def test_ui_offline_fails_any_remote_asset(where, text):
    row = grade_one(with_web(perfect(), **{where: text}), "ui_offline")
    assert row.score == 0.0 and "remote asset" in row.detail


def test_ui_offline_lets_a_plain_link_to_another_site_pass():
    linked = HTML.replace("</body>", '<a href="https://meridian.example/docs">docs</a></body>')
    assert grade_one(with_web(perfect(), index_html=linked, app_js=JS), "ui_offline").score == 1


def test_ui_polish_costs_a_fifth_per_missing_affordance():
    never_disabled = with_web(perfect(), index_html=HTML, app_js="new Intl.NumberFormat()")
    row = grade_one(never_disabled, "ui_polish")
    assert row.score == pytest.approx(0.8) and "disabled" in row.detail
    bare = HTML.replace('id="retry"', "").replace("<th>", "<td>").replace('id="page-info"', "")
    assert grade_one(with_web(perfect(), index_html=bare, app_js=JS), "ui_polish").score == 0.4


def test_ui_error_actionable_generic_words_earn_0_4():
    generic = "<html><body><div id='error'>Error: failed to load</div></body></html>"
    row = grade_one(with_web(perfect(), index_html=generic, app_js="", styles_css=""),
                    "ui_error_actionable")  # fmt: skip
    assert row.score == 0.4
    silent = "<html><body><table></table></body></html>"
    row = grade_one(with_web(perfect(), index_html=silent, app_js="", styles_css=""),
                    "ui_error_actionable")  # fmt: skip
    assert row.score == 0.0
