"""The sb-5.2 era on the board: a vendorsync card (the 60 sb-5.2 rows, composed by the
shipped ``scorers/sb52.yaml``) is published as ``benchwright publish`` sends it to a real
board, which re-composes it, refuses it with a figure its rows do not give, and ranks it
among the three published baselines on the sb-5.2 board, while the sb-6 board never
shows them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchwright.board.identity import Identity
from benchwright.board.publish import PublishError, build_payload, post
from benchwright.model import CheckResult, Status
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import Scorer, compose, defect_rows, load_scorer
from board._posts import INSTALL_ID, ROOT, sb6

POSTER = Identity("crimson-heron-7f3a", INSTALL_ID, bytes(range(32)))
BASELINES = {"baseline-claude-opus-5": 0.9755, "baseline-claude-sonnet-5": 0.9692,
             "baseline-claude-haiku-4-5": 0.7861}  # fmt: skip
NO_BROWSER = "PROBE UNAVAILABLE: no browser could run"


def sb52() -> Scorer:
    return load_scorer(ROOT / "scorers" / "sb52.yaml")


def _rows(scorer: Scorer) -> list[CheckResult]:
    """A vendorsync build graded where no browser ran: the J and V rows UNAVAILABLE (0, as
    the methodology says), the docs never read, the list half as fast as the budget."""
    rows = defect_rows(scorer, {"vendor_read_docs": 0.0, "p_list_latency": 0.5})
    probes = set(scorer.config.tiers["J"].checks) | set(scorer.config.tiers["V"].checks)
    return [CheckResult(r.check_id, Status.UNAVAILABLE, 0.0, NO_BROWSER) if r.check_id in probes
            else r for r in rows]  # fmt: skip


def _card(folder: Path, scorer: Scorer, suite: str, rows: list[CheckResult]) -> Path:
    """A scorecard file as ``grade --json`` writes one."""
    doc = scorecard_dict(compose(rows, scorer))
    doc["provenance"] = {"suite": suite, "tree_sha256": "ef" * 32, "agent": "goose"}
    doc["grading"] = {"phases": [{"name": "sync1", "seconds": 5.2}], "evidence": {}}
    path = folder / f"{suite}.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture
def vendorsync_card(tmp_path: Path) -> Path:
    scorer = sb52()
    rows = _rows(scorer)
    assert len(rows) == 60 and {r.check_id for r in rows} == set(scorer.wanted)
    return _card(tmp_path, scorer, "vendorsync", rows)


def _leaderboard(url: str, version: str) -> dict[str, dict[str, Any]]:
    answer = httpx.get(f"{url}/api/leaderboard", params={"version": version}, timeout=10)
    assert answer.status_code == 200, answer.text
    return {row["runId"]: row for row in answer.json()["rows"]}


def test_a_vendorsync_card_is_recomposed_and_ranked_among_the_published_baselines(
    board, vendorsync_card
) -> None:
    url, _ = board
    assert "sb-5.2" in httpx.get(f"{url}/api/scorers", timeout=10).json()["accepted"]
    sent = build_payload(vendorsync_card, POSTER, model="qwen3-coder-30b")
    assert sent.scorer_version == "sb-5.2" and len(sent.checks) == 60
    run_id = post(sent, httpx.URL(url), POSTER).rsplit("/", 1)[1]
    card = httpx.get(f"{url}/api/benchmark-runs/{run_id}", timeout=10).json()
    expected = json.loads(vendorsync_card.read_text())
    assert (card["score"], len(card["checks"])) == (expected["score"], 60)
    shown = _leaderboard(url, "sb-5.2")
    assert {i: r["score"] for i, r in shown.items() if r["baseline"]} == BASELINES
    assert shown[run_id]["score"] == expected["score"] and not shown[run_id]["baseline"]
    page = httpx.get(f"{url}/?version=sb-5.2", timeout=10).text
    assert page.count("published baseline</span>") == 3 and f'data-run="{run_id}"' in page
    runs_page = httpx.get(f"{url}/runs/{run_id}", timeout=10)
    assert runs_page.status_code == 200 and "vendor_read_docs" in runs_page.text
    assert NO_BROWSER in runs_page.text  # each row with its detail


def test_a_figure_its_rows_do_not_give_is_refused(board, vendorsync_card) -> None:
    doc = json.loads(vendorsync_card.read_text())
    doc["score"] = round(doc["score"] + 0.01, 4)
    vendorsync_card.write_text(json.dumps(doc))
    with pytest.raises(PublishError, match="score_mismatch"):
        post(build_payload(vendorsync_card, POSTER, model="m"), httpx.URL(board[0]), POSTER)


def test_the_baselines_never_reach_another_scorers_board(board, tmp_path) -> None:
    url, _ = board
    vspro = _card(tmp_path, sb6(), "vspro", defect_rows(sb6(), {"server_runs": 0.5}))
    run_id = post(build_payload(vspro, POSTER, model="m"), httpx.URL(url), POSTER).rsplit("/")[-1]
    shown = _leaderboard(url, "sb-6.0")
    assert list(shown) == [run_id] and not any(r["baseline"] for r in shown.values())
    page = httpx.get(f"{url}/?version=sb-6.0", timeout=10).text
    assert "published baseline</span>" not in page and "baseline-" not in page
    assert set(_leaderboard(url, "sb-5.2")) == set(BASELINES)  # nor sb-6 runs on theirs
