"""Red team, issue #24 item 16: handles and model names that lie on screen.

Posted over real HTTP at a real board: a right-to-left override, a zero-width space,
a Cyrillic homoglyph, a mixed-script model name are each refused 400 ``bad_name``
naming the field, and nothing is stored; fullwidth and other compatibility forms are
stored NFKC-normalised; every name a page shows sits inside ``<bdi>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from board._pages_seed import fresh_store
from board._posts import board_client, post
from sqlalchemy import text

from benchwright.board.store import BoardStore

API = "/api/benchmark-runs"


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, BoardStore]]:
    yield from board_client(fresh_store(Path(tmp_path_factory.mktemp("board"))))


_address = iter(range(1, 10**6))


def send(client: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    n = next(_address)
    return client.post(API, json=body, headers={"X-Forwarded-For": f"10.9.{n >> 8}.{n & 255}"})


def stored_names(store: BoardStore) -> list[tuple[str, str]]:
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT handle, model FROM runs WHERE baseline = 0"))
        return [(h, m) for h, m in rows]


def bad_name(board: tuple[httpx.Client, BoardStore], body: dict[str, Any]) -> str:
    before = stored_names(board[1])
    answer = send(board[0], body)
    assert answer.status_code == 400, answer.text[:300]
    assert answer.json()["error"]["code"] == "bad_name", answer.text[:300]
    assert stored_names(board[1]) == before
    return str(answer.json()["error"]["message"])


def handle(name: str) -> dict[str, Any]:
    return post(handle=name, install_id=f"id-{abs(hash(name))}")


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("gpt-5\u202eevil", "U+202E (RIGHT-TO-LEFT OVERRIDE) is a format character"),
        ("gpt-5\u2067x\u2069", "U+2067 (RIGHT-TO-LEFT ISOLATE) is a format character"),
        ("qwen3\u200bcoder", "U+200B (ZERO WIDTH SPACE) is a format character"),
        ("qwen3\ufeffcoder", "U+FEFF (ZERO WIDTH NO-BREAK SPACE) is a format character"),
        ("qwen3\u2028coder", "U+2028 (LINE SEPARATOR) is a line separator"),
        ("qwen3\x1b[31m", "U+001B (unnamed) is a control character"),
        ("qwen3\ue000", "U+E000 (unnamed) is a private-use character"),
    ],
)
def test_control_and_format_characters_in_a_model_name_are_refused(board, name, char) -> None:
    assert bad_name(board, post(model=name)).startswith(f"model: {char}")


def test_stacked_combining_marks_are_refused(board) -> None:
    said = bad_name(board, post(model="qwen3" + "\u0301" * 30))
    assert said == "model: more than 2 combining marks on one character"


@pytest.mark.parametrize(
    "name",
    [
        "gpt-5-\u0430udit",  # Cyrillic a in a Latin name
        "cl\u0430ude-opus",
        "\u0399\u03bdstruct-7b",  # Greek capital iota and nu before Latin
    ],
)
def test_a_model_name_mixing_scripts_is_refused(board, name: str) -> None:
    assert "mixes scripts" in bad_name(board, post(model=name))


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("crimson-heron\u200b-7f3a", "U+200B (ZERO WIDTH SPACE)"),
        ("crimson-h\u0435ron-7f3a", "U+0435 (CYRILLIC SMALL LETTER IE)"),  # homoglyph
        ("\u202ea3f7-noreh-nosmirc", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("crimson heron", "U+0020 (SPACE)"),
        ("<img src=x>", "U+003C (LESS-THAN SIGN)"),
    ],
)
def test_a_handle_outside_the_ascii_charset_is_refused(board, name: str, char: str) -> None:
    said = bad_name(board, handle(name))
    assert said == f"poster.handle: {char} is not allowed: a handle is ASCII letters and " + (
        "digits, with . _ - between them"
    )


def test_compatibility_forms_are_stored_nfkc_normalised(board) -> None:
    fullwidth = "\uff47\uff50\uff54-\uff15"  # "gpt-5" in fullwidth letters
    ligature = "\ufb01sh-\U0001d5ba"  # fi ligature, mathematical sans-serif small a
    for i, (model, name) in enumerate(((fullwidth, "gpt-5"), (ligature, "fish-a"))):
        answer = send(board[0], post(model=model, handle=f"\uff43alm-otter-{i}"))
        assert answer.status_code == 201, answer.text
        card = board[0].get(f"{API}/{answer.json()['id']}").json()
        assert (card["model"], card["handle"]) == (name, f"calm-otter-{i}")


@pytest.mark.parametrize("model", ["\u901a\u4e49\u5343\u95ee-Max", "Llama-3.1-70B", "GPT-4o mini"])
def test_one_script_or_latin_with_cjk_is_accepted(board, model: str) -> None:
    answer = send(board[0], post(model=model, install_id=f"cjk-{abs(hash(model))}"))
    assert answer.status_code == 201, answer.text


def test_every_name_on_the_board_and_card_pages_is_isolated_in_bdi(board) -> None:
    client = board[0]
    answer = send(client, post(model="Mistral-Large", install_id="bdi-check"))
    run_id = answer.json()["id"]
    rows = client.get("/?version=sb-6.0").text
    row = re.search(rf'<tr class="entry" data-run="{run_id}">.*?</tr>', rows, re.S)
    assert row, rows[:500]
    assert re.search(r'<td class="handle"><a [^>]*><bdi>crimson-heron-7f3a</bdi></a>', row[0])
    assert '<td class="model"><bdi>Mistral-Large</bdi></td>' in row[0]
    card = client.get(f"/runs/{run_id}").text
    assert '<span class="handle"><bdi>crimson-heron-7f3a</bdi></span>' in card
    assert "<dd><bdi>Mistral-Large</bdi></dd>" in card and "<dd><bdi>goose</bdi></dd>" in card
    assert '<td class="detail"><bdi>' in card and '<td class="id"><bdi>' in card
