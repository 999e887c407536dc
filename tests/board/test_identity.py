"""The poster identity file: created once (0600, XDG) with its signing key, reused, a key
added to an older file that had none, and a broken one named."""

from __future__ import annotations

import base64
import json
import re
import stat
from pathlib import Path

import pytest

from benchwright.board.identity import identity_path, load_or_create
from benchwright.errors import SpecError

HANDLE = re.compile(r"^[a-z]+-[a-z]+-[0-9a-f]{4}$")


@pytest.fixture
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def test_first_use_creates_a_private_file_under_xdg_config_home(config_home: Path) -> None:
    me = load_or_create()
    path = config_home / "benchwright" / "identity.json"
    assert identity_path() == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert HANDLE.match(me.handle), me.handle
    assert re.fullmatch(r"[0-9a-f]{32}", me.install_id)
    assert json.loads(path.read_text()) == {
        "handle": me.handle,
        "installId": me.install_id,
        "privateKey": base64.b64encode(me.private_key).decode(),
    }
    assert len(me.private_key) == 32 and "private_key" not in repr(me)


def test_an_identity_without_a_key_gets_one_on_next_use_and_says_so(config_home: Path) -> None:
    path = config_home / "benchwright" / "identity.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"handle": "calm-otter-1a2b", "installId": "ab12"}')
    path.chmod(0o600)
    said: list[str] = []
    me = load_or_create(say=said.append)
    assert (me.handle, me.install_id, len(me.private_key)) == ("calm-otter-1a2b", "ab12", 32)
    assert said == [
        f"{path}: added a signing key; a board binds handle 'calm-otter-1a2b' to the key of "
        "the first signed post under it"
    ]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create(say=said.append) == me and len(said) == 1
    assert [p.name for p in path.parent.iterdir()] == ["identity.json"]


def test_later_uses_reuse_the_same_identity(config_home: Path) -> None:
    assert load_or_create() == load_or_create()


def test_without_xdg_config_home_it_lives_in_dot_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert identity_path() == tmp_path / ".config" / "benchwright" / "identity.json"


def test_two_installs_get_different_identities(tmp_path: Path) -> None:
    one, two = load_or_create(tmp_path / "a.json"), load_or_create(tmp_path / "b.json")
    assert one.install_id != two.install_id


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not a readable identity file"),
        ("[1, 2]", "expected a JSON object"),
        ('{"handle": "calm-otter-1a2b"}', "installId: missing or empty"),
        ('{"handle": " ", "installId": "x"}', "handle: missing or empty"),
        ('{"handle": "a", "installId": "x", "privateKey": "c2hvcnQ="}', "privateKey: not 32 bytes"),
        ('{"handle": "a", "installId": "x", "privateKey": 7}', "privateKey: not 32 bytes"),
    ],
)
def test_a_corrupt_file_is_one_line_naming_it_and_is_left_alone(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "identity.json"
    path.write_text(text)
    with pytest.raises(SpecError) as caught:
        load_or_create(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and expected in message and "\n" not in message
    assert path.read_text() == text
