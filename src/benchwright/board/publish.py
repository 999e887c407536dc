"""``benchwright publish``: a graded scorecard, posted to a board as one run.

The payload is built from the scorecard JSON of ``benchwright grade --json`` (its
scorecard part by `payload.scorecard_fields`, the same function the server re-derives
it with), the poster's identity (`identity.load_or_create`), run metadata read from
the card, and at most `MAX_SCREENSHOTS` of the screenshots the grader marked for
publishing (read only from the card's evidence folder, `_evidence`). It is validated
with the board's own `Payload` model before it is sent, so a card that could never be
accepted fails here, naming the file, not on the server.

The post is signed with the identity's key over its exact bytes (`signing.sign`). The
board is someone else's server: everything it answers is printed through `printable`,
and the run URL it gives is printed only when it is http(s) on the board's own origin.
Plain ``http://`` is refused for a board that is not on this machine's loopback unless
the user passes ``--insecure``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import httpx
from pydantic import ValidationError

from benchwright.board._evidence import evidence_folder, read_screenshots
from benchwright.board._terminal import printable
from benchwright.board.from_run import TrialCard, is_run_path, trial_card
from benchwright.board.identity import Identity, load_or_create
from benchwright.board.payload import Payload, scorecard_fields
from benchwright.board.signing import sign
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


def publish(
    source: Path,
    to: str,
    *,
    insecure: bool = False,
    model: str | None = None,
    nodes: int | None = None,
    screenshots_dir: Path | None = None,
    say: Callable[[str], None] = lambda _line: None,
) -> str:
    """Post ``source`` to the board at ``to`` as this install; returns the run's URL.

    Args:
        source: a scorecard JSON, or a run or trial directory (`from_run.trial_card`:
            its scorecard with the run metadata its trial measured).
        model: a card's model (default the card's own); for a trial, only when its
            record names none (a different one than recorded is refused).
        nodes: a card's node count (default 0); refused for a trial (measured).
        insecure: allow plain ``http://`` to a board that is not on loopback.
        say: told one line when the identity gains a key (`identity.load_or_create`).

    Raises:
        SpecError: a bad ``--to``, card, trial, screenshot or identity file (nothing is
            sent).
        PublishError: the board refused the post, could not be reached, or answered a
            run URL off its origin.
    """
    board = board_url(to, insecure)
    measured = None
    if is_run_path(source):
        if screenshots_dir is not None:
            raise SpecError.single("--screenshots-dir", f"{source} is a trial: its screenshots "
                                   "are the sealed ones in its evidence")  # fmt: skip
        measured = trial_card(source)
        model, nodes = _measured_model(source, measured, model, nodes)
        source = measured.card
    poster = load_or_create(say=say)
    payload = build_payload(source, poster, model=model, nodes=nodes or 0,
                            screenshots_dir=screenshots_dir,
                            run=measured.run if measured else None)  # fmt: skip
    return post(payload, board, poster)


def _measured_model(
    source: Path, measured: TrialCard, model: str | None, nodes: int | None
) -> tuple[str | None, int]:
    """A trial's model and nodes: what its record says; ``--model`` only names a model the
    record does not (a command agent whose transcript named none), ``--nodes`` never."""
    if nodes is not None:
        raise SpecError.single("--nodes", f"{source} is a trial: its nodes are the ones "
                               f"measured ({measured.nodes}), not typed by hand")  # fmt: skip
    if model and measured.model and model != measured.model:
        raise SpecError.single("--model", f"{printable(model)}: the trial's record names "
                               f"{printable(measured.model)}; a measured model is not "
                               "overridden")  # fmt: skip
    if not (measured.model or model):
        raise SpecError.single(str(source), "the trial's record names no model: pass --model",
                               "model")  # fmt: skip
    return measured.model or model, measured.nodes


def board_url(to: str, insecure: bool) -> httpx.URL:
    """``to`` as a URL, or `SpecError` (``--to``): not http(s), or plain http off loopback
    without ``insecure`` (the signed post and the screenshots would cross the network in
    clear, for anyone on the way to read or hold back)."""
    try:
        url = httpx.URL(to)
    except httpx.InvalidURL as exc:
        raise SpecError.single("--to", f"{printable(to)}: not a URL ({exc})") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise SpecError.single("--to", f"{printable(to)}: not an http(s) URL")
    if url.scheme == "http" and not insecure and not _loopback(url.host):
        raise SpecError.single(
            "--to", f"{printable(to)}: plain http to a host that is not loopback sends the post "
            "in clear; use https, or pass --insecure",
        )  # fmt: skip
    return url


def build_payload(
    card: Path,
    poster: Identity,
    *,
    model: str | None = None,
    nodes: int = 0,
    screenshots_dir: Path | None = None,
    run: dict[str, Any] | None = None,
) -> Payload:
    """The validated payload for ``card``.

    Args:
        card: a scorecard JSON file.
        poster: whose post it is.
        model: the model the agent ran; default the card's ``provenance.model``.
        nodes: 0 for a single agent, the node count of a swarm.
        screenshots_dir: the folder the marked screenshots are read from, instead of
            the card's evidence folder ``<card stem>.browser/``.
        run: the run metadata a trial measured (`from_run.TrialCard.run`), instead of
            what the card tells of its grading; the tree hash is still the card's.

    Raises:
        SpecError: the card is unreadable, not a scorecard, has no model, names a
            screenshot that is not a PNG inside its evidence folder within the limits,
            or builds a payload the board's model rejects.
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
            "run": _run_meta(card, doc) if run is None else {**run, "treeSha256": _tree(doc)},
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


def post(payload: Payload, board: httpx.URL, poster: Identity) -> str:
    """POST ``payload``, signed by ``poster``, to ``board``; returns the run's page URL.

    Raises:
        PublishError: the board answered anything but 201 (its message is kept, made
            printable), could not be reached, or answered a run URL off its origin.
    """
    url = board.copy_with(path=board.path.rstrip("/") + ENDPOINT)
    shown = printable(str(url))
    body = json.dumps(payload.wire(), separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        **sign(body, poster.private_key, datetime.now(UTC)),
    }
    try:
        answer = httpx.post(url, content=body, headers=headers, timeout=TIMEOUT)
    except httpx.HTTPError as exc:
        raise PublishError(f"{shown}: cannot post ({printable(str(exc))})") from None
    if answer.status_code != 201:
        raise PublishError(f"{shown}: {answer.status_code} {printable(_message(answer))}")
    return _run_url(board, answer, shown)


def _run_url(board: httpx.URL, answer: httpx.Response, shown: str) -> str:
    """The run's URL from the 201, printed only when it is http(s) on the board's origin
    (a hostile board could answer ``javascript:`` or a look-alike site for the user to
    open)."""
    where = answer.headers.get("location") or _json(answer).get("url")
    if not isinstance(where, str) or not where:
        raise PublishError(f"{shown}: 201 without the run's URL")
    try:
        run = board.join(where)
    except httpx.InvalidURL:
        run = None
    if run is None or run.scheme not in ("http", "https") or _origin(run) != _origin(board):
        raise PublishError(
            f"{shown}: the board accepted the post but its run URL ({printable(where, 200)}) "
            f"is not on {_origin_text(board)}; not shown"
        )
    return printable(str(run))


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    default = {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host, url.port or default


def _origin_text(url: httpx.URL) -> str:
    scheme, host, port = _origin(url)
    return f"{scheme}://{host}:{port}"


def _loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


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
        "treeSha256": _tree(doc),
    }


def _tree(doc: dict[str, Any]) -> str:
    return str((doc.get("provenance") or {}).get("tree_sha256", ""))


def _screenshots(card: Path, doc: dict[str, Any], folder: Path | None) -> list[dict[str, str]]:
    evidence = (doc.get("grading") or {}).get("evidence") or {}
    marked = [(k, v) for k, v in evidence.items() if k.startswith(SCREENSHOT_PREFIX)]
    marked = marked[:MAX_SCREENSHOTS]
    pngs = read_screenshots(card, evidence_folder(card, folder), marked)
    return [
        {"name": key[len(SCREENSHOT_PREFIX) :] + ".png", "png": base64.b64encode(png).decode()}
        for (key, _), png in zip(marked, pngs, strict=True)
    ]


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
