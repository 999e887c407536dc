"""x_name_injection: a markup counterparty name, delivered signed, must not run in the page.

Weight zero (the spec is silent on markup in data): the row reports, the score ignores it.
"""

from browser_canned import load_view, views, with_browser
from control_cases import REPO
from vspro_canned import grade_one, jr, swap

from benchwright.model import Status
from benchwright.scoring import compose, load_scorer
from benchwright.services.meridian.script import HOSTILE_EVENT, HOSTILE_NAME, HOSTILE_PAYMENT
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import HostileObs

SENT = {"event_id": HOSTILE_EVENT, "payment_id": HOSTILE_PAYMENT, "status": 200}


def _obs(name=HOSTILE_NAME, sent=SENT, hostile=(False, True)):
    row = jr({"id": HOSTILE_PAYMENT, "counterparty_name": name})
    obs = with_browser(views(load=load_view(hostile=hostile)))
    return obs.with_phase("hostile", HostileObs(sent, None if sent else "no webhook", row))


def test_a_name_shown_as_text_passes_and_one_that_runs_fails():
    safe = grade_one(_obs(), "x_name_injection")
    assert (safe.status, safe.score) == (Status.PASS, 1.0)
    assert safe.detail.endswith("did not run (shown as text)")
    ran = grade_one(_obs(hostile=(True, False)), "x_name_injection")
    assert (ran.status, ran.score) == (Status.FAIL, 0.0)
    assert "ran as markup in the page" in ran.detail and "innerHTML" in ran.detail


def test_nothing_to_render_is_unavailable_never_a_verdict():
    unsent = grade_one(_obs(sent=None), "x_name_injection")
    assert unsent.status == Status.UNAVAILABLE and "not delivered: no webhook" in unsent.detail
    unapplied = grade_one(_obs(name="Aurora Freight"), "x_name_injection")
    assert unapplied.status == Status.UNAVAILABLE
    assert f"did not apply the signed update {HOSTILE_EVENT}" in unapplied.detail
    no_load = swap(_obs(), "browser", scenarios={})
    assert grade_one(no_load, "x_name_injection").status == Status.UNAVAILABLE


def test_the_row_is_a_diagnostic_and_never_moves_the_score():
    scorer = load_scorer(REPO / "scorers" / "sb6.yaml")

    def score(obs):
        return compose(build_table().evaluate(obs, CheckSettings()), scorer).score

    assert score(_obs(hostile=(True, False))) == score(_obs())
    rows = {r.check_id: r for r in compose(build_table().evaluate(_obs(), CheckSettings()),
                                           scorer).rows}  # fmt: skip
    assert rows["x_name_injection"].role == "diagnostic"
