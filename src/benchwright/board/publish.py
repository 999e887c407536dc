"""``benchwright publish``: a graded scorecard, posted to a board as one run.

The payload is built from the scorecard JSON of ``benchwright grade --json`` (its
scorecard part by `payload.scorecard_fields`, the same function the server re-derives
it with), the poster's identity (`identity.load_or_create`), run metadata read from
the card, and at most `MAX_SCREENSHOTS` of the screenshots the grader marked for
publishing. It is validated with the board's own `Payload` model before it is sent,
so a card that could never be accepted fails here, naming the file, not on the server.
"""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from pydantic import ValidationError

from benchwright.board.identity import Identity
from benchwright.board.payload import Payload, scorecard_fields
from benchwright.errors import EXIT_FAILED, BenchwrightError, SpecError

MAX_SCREENSHOTS = 5
SCREENSHOT_PREFIX = "screenshot_"
"""The vspro grader records each publishable screenshot as ``grading.evidence.screenshot_<name>``
(chosen by ``vspro.browser.publishable``); other evidence files are not images to post."""
ENDPOINT = "/api/benchmark-runs"
TIMEOUT = httpx.Timeout(60.0, connect=10.0)
"""A post carries up to 3.5 MB of screenshots; connecting should take no time at all."""


class PublishError(BenchwrightError):
    """The board refused the post or could not be reached (exit 1: nothing was published)."""

    exit_code = EXIT_FAILED


def build_payload(
    card: Path,
    poster: Identity,
    *,
    model: str | None = None,
    nodes: int = 0,
    screenshots_dir: Path | None = None,
) -> Payload:
    """The validated payload for ``card``.

    Args:
        card: a scorecard JSON file.
        poster: whose post it is.
        model: the model the agent ran; default the card's ``provenance.model``.
        nodes: 0 for a single agent, the node count of a swarm.
        screenshots_dir: where the marked screenshots are, when they were moved away
            from the paths the card recorded.

    Raises:
        SpecError: the card is unreadable, not a scorecard, has no model, names a
            screenshot that is not there, or builds a payload the board's model rejects.
    """
    doc = _read(card)
    provenance = doc.get("provenance") or {}
    model = model or provenance.get("model")
    if not model:
        raise SpecError.single(str(card), "the card names no model: pass --model", "model")
    try:
        body = {
            **scorecard_fields(doc),
            "model": model,
            "nodes": nodes,
            "run": _run_meta(card, doc),
            "poster": {"handle": poster.handle, "installId": poster.install_id},
            "screenshots": _screenshots(card, doc, screenshots_dir),
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise SpecError.single(str(card), f"not a scorecard JSON: no field {exc}") from None
    try:
        return Payload.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SpecError.single(str(card), first["msg"], where) from None


def post(payload: Payload, board_url: str) -> str:
    """POST ``payload`` to the board at ``board_url``; returns the run's page URL.

    Raises:
        PublishError: the board answered anything but 201 (its message is kept), or
            could not be reached.
    """
    url = board_url.rstrip("/") + ENDPOINT
    try:
        answer = httpx.post(url, json=payload.wire(), timeout=TIMEOUT)
    except httpx.HTTPError as exc:
        raise PublishError(f"{url}: cannot post ({exc})") from None
    if answer.status_code != 201:
        raise PublishError(f"{url}: {answer.status_code} {_message(answer)}")
    where = answer.headers.get("location") or _json(answer).get("url")
    if not where:
        raise PublishError(f"{url}: 201 without the run's URL")
    return str(httpx.URL(board_url).join(where))


def _read(card: Path) -> dict[str, Any]:
    try:
        doc = json.loads(card.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SpecError.single(str(card), f"not a readable scorecard JSON ({exc})") from None
    if not isinstance(doc, dict) or "scorer_version" not in doc:
        raise SpecError.single(str(card), "not a scorecard JSON (no scorer_version)")
    return doc


def _run_meta(card: Path, doc: dict[str, Any]) -> dict[str, Any]:
    """What the card tells about the run: the grading's wall time, ending when the card was
    written (a card from ``grade`` has no agent run; ``run`` cards name their agent)."""
    grading = doc.get("grading") or {}
    provenance = doc.get("provenance") or {}
    wall = sum(float(p["seconds"]) for p in grading.get("phases", []))
    finished = datetime.fromtimestamp(card.stat().st_mtime, UTC)
    return {
        "startedAt": (finished - timedelta(seconds=wall)).isoformat(),
        "finishedAt": finished.isoformat(),
        "engineEvents": int(provenance.get("engine_events", 0)),
        "repairRounds": int(provenance.get("repair_rounds", 0)),
        "wallSecs": round(wall, 3),
        "agent": str(provenance.get("agent", "unknown")),
        "suite": str(provenance.get("suite", "unknown")),
        "treeSha256": str(provenance.get("tree_sha256", "")),
    }


def _screenshots(card: Path, doc: dict[str, Any], folder: Path | None) -> list[dict[str, str]]:
    evidence = (doc.get("grading") or {}).get("evidence") or {}
    marked = [(k, v) for k, v in evidence.items() if k.startswith(SCREENSHOT_PREFIX)]
    shots = []
    for key, recorded in marked[:MAX_SCREENSHOTS]:
        found = _locate(Path(recorded), card.parent, folder)
        if found is None:
            raise SpecError.single(
                str(card),
                f"screenshot {recorded} not found (pass --screenshots-dir)",
                f"grading.evidence.{key}",
            )
        name = key[len(SCREENSHOT_PREFIX) :] + ".png"
        shots.append({"name": name, "png": base64.b64encode(found.read_bytes()).decode()})
    return shots


def _locate(recorded: Path, card_dir: Path, folder: Path | None) -> Path | None:
    """The recorded path as given, else its longest tail under ``folder`` (or, without
    one, under the card's folder): a card and its evidence moved together still resolve."""
    if folder is None and recorded.is_file():
        return recorded
    base = folder or card_dir
    parts = recorded.parts[1:] if recorded.is_absolute() else recorded.parts
    for start in range(len(parts)):
        candidate = base.joinpath(*parts[start:])
        if candidate.is_file():
            return candidate
    return None


def _message(answer: httpx.Response) -> str:
    """The board's ``{"error": {"code", "message"}}`` as ``code: message``, else the text."""
    error = _json(answer).get("error")
    if isinstance(error, dict) and "message" in error:
        return f"{error.get('code', 'error')}: {error['message']}"
    return answer.text.strip()[:500] or answer.reason_phrase


def _json(answer: httpx.Response) -> dict[str, Any]:
    try:
        body = answer.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
