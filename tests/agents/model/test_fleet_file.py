"""The fleet file: URLs with optional key variables; credentials never ride in a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.agents.model.fleet_file import FleetEndpoint, base_url_problem, load_fleet
from benchwright.errors import SpecError


def write(tmp_path: Path, text: str, name: str = "fleet.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_urls_and_key_variables_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, "- http://10.0.0.2:1234/v1\n"
                           "- {url: 'http://10.0.0.3:11434/v1', key_env: BOX3_KEY}\n")  # fmt: skip
    endpoints = load_fleet(path, environ={"BOX3_KEY": "k3"})
    assert endpoints == [FleetEndpoint("http://10.0.0.2:1234/v1"),
                         FleetEndpoint("http://10.0.0.3:11434/v1", "BOX3_KEY")]  # fmt: skip
    environ = {"BOX3_KEY": "k3"}
    assert [e.api_key("default", environ) for e in endpoints] == ["default", "k3"]


def test_json_works_too(tmp_path: Path) -> None:
    path = write(tmp_path, '["http://a:1/v1", "http://b:1/v1"]', "fleet.json")
    assert [e.url for e in load_fleet(path, environ={})] == ["http://a:1/v1", "http://b:1/v1"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("- http://user:sk-secret@a:1/v1", "[0].url: credentials in the URL"),
        ("- http://a:1/v1?key=sk-secret", "[0].url: a query string"),
        ("- ftp://a/v1", "[0].url: 'ftp://a/v1' is not an http(s) URL"),
        ("- http://a:1/v1\n- http://a:1/v1/", "[1].url: http://a:1/v1/ is listed twice"),
        ("- {url: 'http://a:1', key_env: UNSET_KEY}", "[0].key_env: $UNSET_KEY is not set"),
        ("- {url: 'http://a:1', key_env: 'a b'}", "[0].key_env: 'a b' is not a variable name"),
        ("- {url: 'http://a:1', key: sk-secret}", "[0].key: unknown field"),
        ("[]", "lists no endpoint"),
    ],
)
def test_a_bad_fleet_file_names_the_item_and_field(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_fleet(write(tmp_path, text), environ={})
    assert f"fleet.yaml: {problem}" in str(caught.value)


def test_a_plain_base_url_has_no_problem() -> None:
    assert base_url_problem("https://api.anthropic.com") is None
    assert base_url_problem("http://127.0.0.1:1234/v1") is None
