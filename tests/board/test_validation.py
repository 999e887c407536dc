"""The posting rules of §06 (plus re-composition), each with its status and rule code,
against the board app served over real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from board._posts import INSTALL_ID, b64, png_of_size, post

API = "/api/benchmark-runs"


def rejected(client: httpx.Client, body: Any, status: int, code: str) -> str:
    answer = client.post(API, json=body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


def test_a_genuine_post_is_201_with_its_url_and_its_card_never_shows_the_install_id(
    client: httpx.Client,
) -> None:
    answer = client.post(API, json=post())
    assert answer.status_code == 201, answer.text
    run_id, url = answer.json()["id"], answer.json()["url"]
    assert url.endswith(f"/runs/{run_id}") and answer.headers["location"] == url
    card = client.get(f"{API}/{run_id}")
    assert card.status_code == 200
    assert card.json()["score"] == post()["score"] and len(card.json()["checks"]) == len(
        post()["checks"]
    )
    assert INSTALL_ID not in card.text and "installId" not in card.text
    assert card.json()["screenshots"] == [{"n": 0, "name": "load.png"}]
    shot = client.get(f"{API}/{run_id}/screenshots/0")
    assert shot.headers["content-type"] == "image/png" and shot.content == png_of_size(2048)
    assert shot.headers["x-content-type-options"] == "nosniff"
    assert run_id in str(client.get("/api/leaderboard?version=sb-6.0").json())
    assert client.get("/api/scorers").json()["versions"] == ["sb-6.0", "sb-5.2"]


def test_a_missing_run_is_a_json_404(client: httpx.Client) -> None:
    answer = client.get(f"{API}/nope")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def _with_key(path: str) -> dict[str, Any]:
    body = post()
    target: Any = body
    *parents, last = path.replace("[", ".").replace("]", "").split(".")
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[last] = 1
    return body


@pytest.mark.parametrize(
    "path", ["foo", "checks[3].foo", "run.gpu", "poster.email", "composition.bonus",
             "screenshots[0].alt"],
)  # fmt: skip
def test_an_unknown_key_anywhere_is_400_naming_its_path(client: httpx.Client, path: str) -> None:
    assert rejected(client, _with_key(path), 400, "unknown_key") == f"unknown key: {path}"


def test_a_body_that_is_not_json_is_400(client: httpx.Client) -> None:
    answer = client.post(API, content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed_json"


def test_snake_case_keys_are_unknown_not_accepted_as_aliases(client: httpx.Client) -> None:
    body = post()
    body["scorer_version"] = body.pop("scorerVersion")
    assert "unknown key: scorer_version" in rejected(client, body, 400, "unknown_key")


@pytest.mark.parametrize(
    ("changes", "code", "names"),
    [
        ({"score": 1.2}, "score_range", "score is 1.2, outside [0, 1]"),
        ({"score": -0.01}, "score_range", "score is -0.01"),
        ({"tiers": {"A": 1.5}}, "tier_range", "tiers.A is 1.5"),
        ({"model": "   "}, "model_required", "model identifier is required"),
    ],
)
def test_consistency_limits_are_422_naming_the_rule(
    client: httpx.Client, changes: dict[str, Any], code: str, names: str
) -> None:
    message = rejected(client, post(**changes), 422, code)
    assert message.startswith(f"rule {code}: ") and names in message


def test_a_check_score_outside_0_1_is_422_naming_the_row(client: httpx.Client) -> None:
    body = post()
    body["checks"][4]["score"] = 2.0
    message = rejected(client, body, 422, "check_score_range")
    assert f"checks[4].score ({body['checks'][4]['id']}) is 2" in message


def test_a_missing_model_is_model_required(client: httpx.Client) -> None:
    body = post()
    del body["model"]
    assert "model identifier is required" in rejected(client, body, 422, "model_required")


@pytest.mark.parametrize("seconds", [0, -60])
def test_finish_must_come_after_start(client: httpx.Client, seconds: int) -> None:
    body = post()
    body["run"]["finishedAt"] = body["run"]["startedAt"].replace("10:00:00", "10:00:00")
    if seconds:
        body["run"]["finishedAt"] = body["run"]["startedAt"].replace("10:00:00", "09:59:00")
    message = rejected(client, body, 422, "finish_after_start")
    assert "is not after run.startedAt" in message


@pytest.mark.parametrize(
    ("events", "wall", "ok"),
    [(100, 600.0, True), (99, 600.0, False), (100, 599.9, False), (5, 30.0, False)],
)
def test_a_swarm_entrant_needs_100_events_and_600_seconds(
    client: httpx.Client, events: int, wall: float, ok: bool
) -> None:
    body = post(nodes=3)
    body["run"]["engineEvents"], body["run"]["wallSecs"] = events, wall
    if ok:
        assert client.post(API, json=body).status_code == 201
    else:
        message = rejected(client, body, 422, "swarm_minimums")
        assert f"got {events} and {wall:g}" in message


def test_a_single_agent_needs_no_swarm_minimums(client: httpx.Client) -> None:
    body = post(nodes=0)
    body["run"]["engineEvents"], body["run"]["wallSecs"] = 3, 20.0
    assert client.post(API, json=body).status_code == 201


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda b: b["run"].update(startedAt="2026-11-30T10:00:00"), "run.startedAt"),
        (lambda b: b.update(score="0.79"), "score"),
        (lambda b: b.update(nodes=-1), "nodes"),
        (lambda b: b["poster"].pop("installId"), "poster.installId"),
    ],
)
def test_a_missing_or_mistyped_field_is_422_naming_it(
    client: httpx.Client, mutate: Any, where: str
) -> None:
    body = post()
    mutate(body)
    assert rejected(client, body, 422, "invalid_payload").startswith(f"{where}: ")


# --- screenshots: a megabyte is 1,000,000 bytes (decimal), sizes are decoded bytes


def shots(*sizes: int) -> list[dict[str, str]]:
    return [{"name": f"s{i}.png", "png": b64(png_of_size(n))} for i, n in enumerate(sizes)]


def test_a_screenshot_of_exactly_1_5_mb_is_accepted(client: httpx.Client) -> None:
    assert client.post(API, json=post(screenshots=shots(1_500_000))).status_code == 201


def test_a_screenshot_one_byte_over_1_5_mb_is_422(client: httpx.Client) -> None:
    message = rejected(client, post(screenshots=shots(1_500_001)), 422, "screenshot_too_large")
    assert message == "screenshots[0].png: 1500001 bytes decoded, at most 1500000 (1.5 MB)"


def test_exactly_3_5_mb_in_total_is_accepted(client: httpx.Client) -> None:
    body = post(screenshots=shots(1_500_000, 1_500_000, 500_000))
    assert client.post(API, json=body).status_code == 201


def test_one_byte_over_3_5_mb_in_total_is_422(client: httpx.Client) -> None:
    body = post(screenshots=shots(1_500_000, 1_500_000, 500_001))
    message = rejected(client, body, 422, "screenshots_total")
    assert "3500001 bytes decoded in total, at most 3500000" in message


def test_five_screenshots_pass_and_six_are_422(client: httpx.Client) -> None:
    assert client.post(API, json=post(screenshots=shots(*[1000] * 5))).status_code == 201
    message = rejected(client, post(screenshots=shots(*[1000] * 6)), 422, "screenshot_count")
    assert message == "screenshots: 6 sent, at most 5"


def test_a_jpeg_is_not_a_png(client: httpx.Client) -> None:
    jpeg = [{"name": "x.png", "png": b64(b"\xff\xd8\xff\xe0" + b"\0" * 100)}]
    message = rejected(client, post(screenshots=jpeg), 422, "screenshot_not_png")
    assert message == "screenshots[0].png: not a PNG (magic bytes)"


def test_screenshot_text_that_is_not_base64_is_422(client: httpx.Client) -> None:
    bad = [{"name": "x.png", "png": "not base64!"}]
    assert "not valid base64" in rejected(client, post(screenshots=bad), 422, "screenshot_base64")


# --- re-composition with the pinned scorer


def test_a_hand_edited_total_is_422_naming_both_values(client: httpx.Client) -> None:
    message = rejected(client, post(score=0.95), 422, "score_mismatch")
    assert message == "score: posted 0.95, but its own rows compose to 0.7914 under sb-6.0"


def test_a_total_within_half_a_published_unit_is_accepted(client: httpx.Client) -> None:
    assert client.post(API, json=post(score=0.79144)).status_code == 201
    rejected(client, post(score=0.79146), 422, "score_mismatch")


def test_an_edited_tier_mean_is_422(client: httpx.Client) -> None:
    body = post()
    body["tiers"]["A"] = 1.0
    message = rejected(client, body, 422, "tier_mismatch")
    assert message.startswith("tiers.A: posted 1, but its own rows compose to 0.928571")


def test_a_flipped_excellent_flag_is_422(client: httpx.Client) -> None:
    body = post()
    body["composition"]["excellent"] = True
    message = rejected(client, body, 422, "composition_mismatch")
    assert message.startswith("composition.excellent: posted True")


def test_an_edited_row_weight_is_422(client: httpx.Client) -> None:
    body = post()
    body["checks"][0]["weight"] = 5.0
    assert "checks[0].weight" in rejected(client, body, 422, "check_row_mismatch")


def test_rows_raised_together_with_the_total_still_compose_honestly(client: httpx.Client) -> None:
    """Raising a row and the total together is caught: the rows decide the total."""
    body = post(score=0.9)
    row = next(r for r in body["checks"] if r["id"] == "server_runs")
    row.update(status="PASS", score=1.0)
    assert "score: posted 0.9" in rejected(client, body, 422, "score_mismatch")


def test_an_unknown_scorer_version_is_422_naming_it(client: httpx.Client) -> None:
    message = rejected(client, post(scorerVersion="sb-9.9"), 422, "unknown_scorer_version")
    assert message.startswith("scorerVersion 'sb-9.9' is not a scorer this board holds (known: ")
    assert "sb-6.0" in message


def test_an_unknown_check_id_is_422(client: httpx.Client) -> None:
    body = post()
    body["checks"][0]["id"] = "made_up"
    assert "'made_up' is not a check of sb-6" in rejected(client, body, 422, "check_rows")


def test_the_payload_dict_round_trips_as_json(client: httpx.Client) -> None:
    """The fixture is what a client would send: plain JSON."""
    raw = json.dumps(post()).encode()
    headers = {"content-type": "application/json"}
    assert client.post(API, content=raw, headers=headers).status_code == 201
