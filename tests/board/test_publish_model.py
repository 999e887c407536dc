"""``publish`` takes the model from the card when the card names one (issue #26: the
README's ``publish`` line failed for want of ``--model``); a card naming none is the
one-line error of ``test_publish``."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from board.test_publish import card, config  # noqa: F401  (fixtures)


def test_a_card_naming_its_model_publishes_without_model(cli, board, card, config) -> None:  # noqa: F811
    doc = json.loads(card.read_text())
    doc["provenance"]["model"] = "model-from-card"
    card.write_text(json.dumps(doc))
    done = cli("publish", str(card), "--to", board[0], env=config)
    assert done.returncode == 0, done.stderr
    assert "model-from-card" in httpx.get(done.stdout.strip()).text


def test_the_readme_publish_line_is_complete() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    [line] = [x for x in readme.splitlines() if " publish " in x and "--to" in x]
    assert "--to http://127.0.0.1:8000" in line and "--model " in line
