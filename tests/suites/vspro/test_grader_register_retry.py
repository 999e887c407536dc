"""x_register_retry: a registration refused as a failed handshake must be followed by one the
vendor accepts (spec §3.4; issue #13).

Weight zero (the public sb-6 never refuses a registration): the row reports, the score
ignores it. The probe's half (`browser._register`) runs against a real mock over HTTP.
"""

from collections.abc import Iterator

import httpx
import pytest
from browser_canned import with_browser
from control_cases import REPO
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from vspro_canned import grade_one, swap

from benchwright.model import Status
from benchwright.scoring import compose, load_scorer
from benchwright.services._server import BackgroundServer
from benchwright.services.meridian import MeridianMock, url_port
from benchwright.suites.vspro.browser._register import RegisterWatch
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.observations import RegisterAttempt, RegisterRetryObs

REFUSED = RegisterAttempt(0.2, 400, True)
RETRY_REFUSED = RegisterAttempt(0.7, 400, False)
ACCEPTED = RegisterAttempt(1.2, 200, False)


def _obs(*attempts, boot_failure=None, unavailable=None, seen=True):
    found = RegisterRetryObs(40123, boot_failure, attempts, 6.0) if seen else None
    return swap(with_browser(unavailable=unavailable), "browser", register_retry=found)


def test_a_retry_the_vendor_accepts_passes_and_one_never_made_fails_naming_the_duty():
    passed = grade_one(_obs(REFUSED, RETRY_REFUSED, ACCEPTED), "x_register_retry")
    assert (passed.status, passed.score) == (Status.PASS, 1.0)
    assert "attempt 3 was accepted, 1.0 s after the refusal" in passed.detail
    never = grade_one(_obs(REFUSED), "x_register_retry")
    assert (never.status, never.score) == (Status.FAIL, 0.0)
    assert "it never registered again in the 5.8 s that followed" in never.detail
    assert "spec §3.4" in never.detail and "until the vendor accepts" in never.detail
    refused = grade_one(_obs(REFUSED, RETRY_REFUSED), "x_register_retry")
    assert refused.score == 0.0 and "its 1 later attempt(s) were refused" in refused.detail


def test_an_instance_that_never_booted_or_never_registered_is_unavailable_saying_which():
    unbooted = grade_one(_obs(boot_failure="the empty instance never became healthy (crashed)"),
                         "x_register_retry")  # fmt: skip
    assert unbooted.status == Status.UNAVAILABLE and "never became healthy" in unbooted.detail
    silent = grade_one(_obs(), "x_register_retry")
    assert silent.status == Status.UNAVAILABLE
    assert "never registered its webhook in the 6.0 s it was watched" in silent.detail
    unstarted = grade_one(_obs(seen=False, unavailable="chromium died"), "x_register_retry")
    assert (unstarted.status, unstarted.detail) == (
        Status.UNAVAILABLE,
        "browser unavailable: chromium died",
    )
    stopped = grade_one(_obs(seen=False), "x_register_retry")
    assert "the second instance never started" in stopped.detail
    cut = grade_one(_obs(REFUSED, unavailable="chromium died"), "x_register_retry")
    assert cut.status == Status.UNAVAILABLE and "cutting the instance's life short" in cut.detail


def test_the_row_is_a_diagnostic_and_never_moves_the_score():
    scorer = load_scorer(REPO / "scorers" / "sb6.yaml")

    def card(obs):
        return compose(build_table().evaluate(obs, CheckSettings()), scorer)

    good, bad = card(_obs(REFUSED, ACCEPTED)), card(_obs(REFUSED))
    assert good.score == bad.score
    rows = {r.check_id: r for r in bad.rows}
    assert rows["x_register_retry"].role == "diagnostic" and rows["x_register_retry"].score == 0


@pytest.fixture(scope="module")
def mock() -> Iterator[MeridianMock]:
    with MeridianMock(0) as started:
        yield started


@pytest.fixture(scope="module")
def hook() -> Iterator[str]:
    """A webhook endpoint that echoes the handshake, as an app that listens does."""

    async def echo(request: Request) -> JSONResponse:
        return JSONResponse({"challenge": (await request.json())["challenge"]})

    with BackgroundServer(Starlette(routes=[Route("/hook", echo, methods=["POST"])])) as server:
        yield server.base_url + "/hook"


def _register(mock: MeridianMock, url: str) -> int:
    return httpx.post(mock.base_url + "/v2/webhooks", json={"url": url}, timeout=10).status_code


def test_the_watch_sees_a_refusal_then_an_accepted_retry_on_its_port_only(mock, hook):
    mock.reset()
    port = url_port(hook)
    watch = RegisterWatch.arm(mock, port)
    assert _register(mock, "http://127.0.0.1:9/hook") == 400  # no server there; fault kept
    assert [_register(mock, hook), _register(mock, hook)] == [400, 200]
    watch.boot_failure = None
    watch.settle(grace_s=30.0)  # returns at once: the retry is already accepted
    seen = watch.observation()
    assert [(a.status, a.by_fault) for a in seen.attempts] == [(400, True), (200, False)]
    assert seen.accepted is seen.attempts[1] and seen.port == port
    row = grade_one(swap(with_browser(), "browser", register_retry=seen), "x_register_retry")
    assert (row.status, row.score) == (Status.PASS, 1.0)


def test_a_refusal_never_followed_fails_and_an_untaken_fault_is_disarmed(mock, hook):
    mock.reset()
    port = url_port(hook)
    watch = RegisterWatch.arm(mock, port)
    watch.boot_failure = None
    assert _register(mock, hook) == 400
    watch.settle(grace_s=0.3)
    row = grade_one(swap(with_browser(), "browser", register_retry=watch.observation()),
                    "x_register_retry")  # fmt: skip
    assert (row.status, row.score) == (Status.FAIL, 0.0)
    untaken = RegisterWatch.arm(mock, port)
    assert untaken.observation().boot_failure is not None  # the boot never reported in
    assert _register(mock, hook) == 200  # the fault no one took refuses no one later
