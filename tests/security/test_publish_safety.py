"""Red team, issue #24 items 12 and 13: what ``benchwright publish`` sends, and what it prints.

The board here is a recording one (a raw ASGI app on 127.0.0.1) that keeps every request
it gets and answers what the test tells it to, so a test can say "nothing was sent" and
play a hostile board. ``publish`` runs as the real console script with a private
``XDG_CONFIG_HOME`` and ``HOME``.

- 12: a card is data from anyone. Only PNG files inside the card's own evidence folder
  (``<card stem>.browser/``) go out, checked by magic bytes and size before sending; a
  symlink out, a ``../`` path, an absolute path, a non-PNG or an oversized PNG is refused
  (exit 2) naming the file, and nothing is sent. Plain ``http://`` to a host that is not
  loopback needs ``--insecure``.
- 13: a board's answer is data from anyone. No control character reaches the terminal, and
  a run URL that is not http(s) on the board's own origin is not printed (exit 1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from board._pages_seed import png
from board._posts import sb6

from benchwright.board._png import MAX_EACH
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows
from benchwright.services._server import BackgroundServer

SHOTS = ("load", "error")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than tab and newline."""


@dataclass
class Recorder:
    """A board that records what it receives and answers ``status``/``headers``/``body``."""

    status: int = 201
    headers: list[tuple[bytes, bytes]] = field(default_factory=lambda: [(b"location", b"/runs/1")])
    body: bytes = b'{"id": "1"}'
    received: list[bytes] = field(default_factory=list)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.received.append(body)
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


@pytest.fixture
def recorder() -> Iterator[tuple[Recorder, str]]:
    board = Recorder()
    with BackgroundServer(board, proxy_headers=False) as server:
        yield board, server.base_url


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}


@pytest.fixture
def card(tmp_path: Path) -> Path:
    """A genuine card as ``grade --json reports/vspro.json`` writes it, with its evidence."""
    reports = tmp_path / "reports"
    evidence = {}
    for n, name in enumerate(SHOTS):
        shot = reports / "vspro.browser" / name / f"{name}.png"
        shot.parent.mkdir(parents=True)
        shot.write_bytes(png(80 + n, 50))
        evidence[f"screenshot_{name}"] = f"reports/vspro.browser/{name}/{name}.png"
    doc = scorecard_dict(compose(defect_rows(sb6(), {"server_runs": 0.5}), sb6()))
    doc["provenance"] = {"suite": "vspro", "model": "m"}
    doc["grading"] = {"phases": [{"name": "boot", "seconds": 1.0}], "evidence": evidence}
    path = reports / "vspro.json"
    path.write_text(json.dumps(doc))
    return path


def name_screenshot(card: Path, recorded: str) -> None:
    """Point the card's first screenshot at ``recorded`` (what a hostile card does)."""
    doc = json.loads(card.read_text())
    doc["grading"]["evidence"]["screenshot_load"] = recorded
    card.write_text(json.dumps(doc))


def refused(cli, card: Path, url: str, env: dict[str, str], board: Recorder, *why: str) -> str:
    done = cli("publish", str(card), "--to", url, env=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"error: {card}: grading.evidence.screenshot_"), done.stderr
    for words in why:
        assert words in done.stderr, done.stderr
    assert board.received == [], "publish sent a request"
    return done.stderr


def test_the_genuine_card_is_sent(cli, card, recorder, env) -> None:
    board, url = recorder
    done = cli("publish", str(card), "--to", url, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{url}/runs/1"
    assert len(json.loads(board.received[0])["screenshots"]) == 2


# --- 12: only PNGs inside the card's evidence folder are read and sent ----------------------


def test_a_symlink_named_png_to_a_file_outside_is_refused(cli, card, recorder, env) -> None:
    board, url = recorder
    private = Path(env["HOME"]) / "Pictures" / "passport.png"
    private.parent.mkdir()
    private.write_bytes(png(40, 30))  # a real PNG: only where it lives makes it off-limits
    shot = card.parent / "vspro.browser" / "load" / "load.png"
    shot.unlink()
    shot.symlink_to(private)
    refused(cli, card, url, env, board, "outside the evidence folder")
    shot.unlink()
    shot.symlink_to(Path(env["HOME"]) / ".ssh" / "id_ed25519")
    refused(cli, card, url, env, board, "outside the evidence folder")


def test_a_path_leaving_the_folder_with_dotdot_is_refused(cli, card, recorder, env) -> None:
    board, url = recorder
    (card.parent / "outside.png").write_bytes(png(40, 30))
    name_screenshot(card, "reports/vspro.browser/load/../../outside.png")
    refused(cli, card, url, env, board, "leaves the evidence folder", "outside.png")


def test_an_absolute_path_to_a_private_key_is_never_read(cli, card, recorder, env) -> None:
    board, url = recorder
    key = Path(env["HOME"]) / ".ssh" / "id_ed25519"
    name_screenshot(card, str(key))
    refused(cli, card, url, env, board, str(key))
    name_screenshot(card, str(key.with_suffix(".png")))  # named like a PNG, not there
    refused(cli, card, url, env, board, "not found")


def test_a_file_named_png_that_is_not_one_is_refused(cli, card, recorder, env) -> None:
    board, url = recorder
    (card.parent / "vspro.browser" / "load" / "load.png").write_text("#!/bin/sh\necho hi\n")
    refused(cli, card, url, env, board, "load.png", "not a PNG")


def test_an_oversized_png_is_refused_before_sending(cli, card, recorder, env) -> None:
    board, url = recorder
    shot = card.parent / "vspro.browser" / "load" / "load.png"
    shot.write_bytes(png(10, 10) + b"\0" * (MAX_EACH + 1 - len(png(10, 10))))
    refused(cli, card, url, env, board, "load.png", f"{MAX_EACH + 1} bytes", "1,500,000")
    each = shot.read_bytes()[:MAX_EACH]  # each one fits; three do not fit together
    third = card.parent / "vspro.browser" / "third" / "third.png"
    third.parent.mkdir()
    for path in (shot, card.parent / "vspro.browser" / "error" / "error.png", third):
        path.write_bytes(each)
    doc = json.loads(card.read_text())
    doc["grading"]["evidence"]["screenshot_third"] = str(third)
    card.write_text(json.dumps(doc))
    refused(cli, card, url, env, board, "third.png", "3,500,000")


def test_plain_http_to_a_remote_board_needs_insecure(cli, card, recorder, env) -> None:
    """The recorder is the HTTP proxy: whatever ``publish`` sends to the remote name
    arrives there, and nothing may arrive without ``--insecure``."""
    board, url = recorder
    remote = "http://board.example:8000"
    proxied = {**env, "HTTP_PROXY": url, "http_proxy": url, "NO_PROXY": "", "no_proxy": ""}
    done = cli("publish", str(card), "--to", remote, env=proxied)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"error: --to: {remote}: plain http to a host that is not loopback sends the post "
        "in clear; use https, or pass --insecure"
    )
    assert board.received == []
    sent = cli("publish", str(card), "--to", remote, "--insecure", env=proxied)
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.strip() == f"{remote}/runs/1" and len(board.received) == 1


def test_a_scheme_other_than_http_is_refused(cli, card, env) -> None:
    done = cli("publish", str(card), "--to", "file:///etc/passwd", env=env)
    assert done.returncode == 2 and "not an http(s) URL" in done.stderr, done.stderr


# --- 13: what a hostile board says is shown, never obeyed ------------------------------------

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\x9b1m\u202e"


def _no_control(*outputs: str) -> None:
    for text in outputs:
        assert not CONTROL.search(text) and "\u202e" not in text, repr(text)


def test_escape_sequences_in_a_refusal_are_printed_escaped(cli, card, recorder, env) -> None:
    board, url = recorder
    board.status, board.headers = 422, [(b"content-type", b"application/json")]
    board.body = json.dumps({"error": {"code": f"x{ESCAPES}", "message": ESCAPES}}).encode()
    done = cli("publish", str(card), "--to", url, env=env)
    assert done.returncode == 1
    _no_control(done.stdout, done.stderr)
    assert "\\x1b]0;owned\\x07" in done.stderr and "\\u202e" in done.stderr
    board.headers, board.body = [], ("plain " + ESCAPES).encode()
    done = cli("publish", str(card), "--to", url, env=env)
    assert done.returncode == 1 and "422" in done.stderr
    _no_control(done.stdout, done.stderr)


@pytest.mark.parametrize(
    ("location", "json_url"),
    [("javascript:alert(1)", None), ("http://evil.example/runs/1", None),
     ("https://127.0.0.1:1/runs/1", None), (None, "data:text/html,<script>x</script>"),
     (None, f"/runs/{ESCAPES}"), ("//evil.example/runs/1", None)],
)  # fmt: skip
def test_a_run_url_off_the_boards_origin_is_not_printed(
    cli, card, recorder, env, location, json_url
) -> None:
    board, url = recorder
    board.headers = [(b"location", location.encode())] if location else []
    board.body = json.dumps({"id": "1", "url": json_url}).encode()
    done = cli("publish", str(card), "--to", url, env=env)
    assert done.returncode == 1, done.stdout
    assert done.stdout == ""
    assert "the board accepted the post but its run URL" in done.stderr
    _no_control(done.stderr)
