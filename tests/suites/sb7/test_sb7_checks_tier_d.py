"""Tier D of sb-7 (§12): content types, the matrices, client timeouts, peer absence and
the DECISIONS.md corners, each at 1.0 on a correct app and down its rung for one defect."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_browser_canned import empty_view, with_browser
from sb7_observations import DECISIONS, answer, error, http, perfect, row, swap
from sb7_viz_canned import scenario

from benchwright.model import Status
from benchwright.suites.sb7.observations import B4Window
from benchwright.suites.sb7.viz.view import StreamRun, VizView


def test_content_types_mean_of_the_api_and_stream_cells() -> None:
    sample = perfect()["reads"].sample
    html = answer({"ok": True}, ctype="text/html")
    assert row(swap(perfect(), "reads", sample=(*sample[:-1], html)),
               "d_content_types").score == pytest.approx(0.9)  # fmt: skip
    plain = http(200, b"", "text/plain")
    assert row(swap(perfect(), "reads", stream_head=plain), "d_content_types").score == 0.5
    unread = row(swap(perfect(), "reads", stream_head=None), "d_content_types")
    assert unread.score == 1.0 and "API cell only" in unread.detail


def test_validation_names_the_wrong_cell() -> None:
    cases = perfect()["matrix"].validation
    wrong = (replace(cases[0], response=answer([], status=200)), *cases[1:])
    found = row(swap(perfect(), "matrix", validation=wrong), "d_validation")
    assert found.score == pytest.approx(8 / 9) and "limit=abc" in found.detail
    assert row(swap(perfect(), "matrix", validation=(), auth=()), "d_validation").score == 0.0


def test_client_timeouts_behaviour_outranks_the_grep() -> None:
    unproven = swap(perfect(), "boot", b4=B4Window(True, 5.0, 0.6, False, False, True))
    assert row(unproven, "d_client_timeouts").score == 0.4
    no_grep = swap(unproven, "tree", backend={"app/ledgerd.py": "urlopen(req)"})
    assert row(no_grep, "d_client_timeouts").score == 0.0


def test_peer_absence_quarters() -> None:
    wrong = swap(perfect(), "partition", proxy=answer(error("internal"), status=500))
    assert row(wrong, "d_peer_absence").score == 0.5
    died = swap(perfect(), "partition", ledgerd_alive=False)
    assert row(died, "d_peer_absence").score == 0.75
    unarmed = swap(perfect(), "partition", armed=False)
    assert row(unarmed, "d_peer_absence").status is Status.UNAVAILABLE


def _decisions(text: str | None, **seen) -> object:
    return swap(swap(perfect(), "tree", decisions=text), "workflow", **seen)


def test_an_undocumented_corner_scores_zero() -> None:
    no_d2 = DECISIONS.replace("## D2", "## Rejections")
    found = row(_decisions(no_d2), "d_decisions_doc")
    assert found.evidence["corners"] == {"D2": 0.0, "D3": 1.0} and found.score == 0.5
    assert "D2 undocumented" in found.detail


def test_a_document_contradicting_the_run_scores_zero() -> None:
    found = row(_decisions(DECISIONS, resubmit_status=200), "d_decisions_doc")
    assert found.evidence["corners"] == {"D2": 0.0, "D3": 1.0}


def test_a_stance_that_cannot_be_inferred_scores_half() -> None:
    vague = DECISIONS.replace(
        "A rejected draft is terminal: it cannot be resubmitted; the maker starts a new draft.",
        "We thought about this corner carefully and chose what felt right to us.",
    )
    assert row(_decisions(vague), "d_decisions_doc").evidence["corners"]["D2"] == 0.5


def _brushed(kept: bool) -> object:
    """A run whose viz scenario saw its brushed record stay brushed (or drop out) across the
    stream batch that changed it."""
    stream = StreamRun((30.0, 40.0, 35.0), (), "pay_00001", kept)
    return with_browser(_decisions(DECISIONS), viz=VizView(scenario(), None, stream=stream))


def test_browser_measured_corners_join_the_mean() -> None:
    """D1 is the viz scenario's brushed record across its streamed change; D3 what the
    ``empty`` scenario's page showed before the first sync: the golden's empty table with
    progress agrees with a D3 saying so, a blocking loading state does not."""
    kept = row(_brushed(True), "d_decisions_doc")
    assert kept.score == 1.0 and kept.evidence["corners"] == {"D1": 1.0, "D2": 1.0, "D3": 1.0}
    contradicted = row(_brushed(False), "d_decisions_doc")
    assert contradicted.score == pytest.approx(2 / 3)
    blocking = with_browser(_decisions(DECISIONS), empty=empty_view(table_visible=False))
    assert row(blocking, "d_decisions_doc").evidence["corners"]["D3"] == 0.0


def test_corners_documented_but_never_measured_are_unavailable() -> None:
    unmeasured = _decisions(DECISIONS, resubmit_status=None)
    no_browser = replace(unmeasured, phases={k: v for k, v in unmeasured.phases.items()
                                             if k != "browser"})  # fmt: skip
    found = row(no_browser, "d_decisions_doc")
    assert found.status is Status.UNAVAILABLE and "issue 29" in found.detail


def test_no_decisions_file_scores_zero() -> None:
    assert row(_decisions(None), "d_decisions_doc").score == 0.0
