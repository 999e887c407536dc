"""The frozen sb-7 prompt (suites/sb7/spec.md): it carries the three vendor tokens, names
the boot commands, the files and the three DECISIONS corners the golden ships, and the
golden's DECISIONS.md answers each corner under its frozen heading."""

from __future__ import annotations

import re
from pathlib import Path

from benchwright.services.vendors import TOKENS, VendorProfile

SUITE = Path(__file__).resolve().parents[3] / "suites" / "sb7"
SPEC = (SUITE / "spec.md").read_text()
REFERENCE = SUITE / "reference"


def test_the_spec_carries_each_vendor_token_and_renders_without_leftovers() -> None:
    for token in TOKENS:
        assert token in SPEC, token
    profile = VendorProfile("meridian-v3", "http://127.0.0.1:9003", "/v3/docs", "sk_test_v3")
    rendered = profile.render(SPEC)
    assert not any(token in rendered for token in TOKENS)
    assert "`http://127.0.0.1:9003/v3/docs`" in rendered and "`sk_test_v3`" in rendered
    assert '{"challenge": "<the same hex>"}' in rendered  # literal: JSON braces survive


def test_the_three_boot_commands_are_the_ones_the_golden_answers_to() -> None:
    commands = re.findall(r"^\| `(python -m app[^`]*)` \|", SPEC, re.MULTILINE)
    assert [command.split(" --")[0] for command in commands] == [
        "python -m app",
        "python -m app.ledgerd",
        "python -m app.notifierd",
    ]
    for module in ("__main__.py", "ledgerd/__main__.py", "notifierd/__main__.py"):
        assert (REFERENCE / "app" / module).is_file()


def test_the_named_files_exist_in_the_golden() -> None:
    for name in ("index.html", "styles.css", "app.js", "viz.js"):
        assert f"`app/web/{name}`" in SPEC
        assert (REFERENCE / "app" / "web" / name).is_file()
    for name in ("DECISIONS.md", "README.md"):
        assert name in SPEC and (REFERENCE / name).is_file()


def test_each_corner_is_asked_in_the_spec_and_answered_in_decisions() -> None:
    decisions = (REFERENCE / "DECISIONS.md").read_text()
    sections = re.split(r"^## (D\d)\s*$", decisions, flags=re.MULTILINE)
    answers = dict(zip(sections[1::2], sections[2::2], strict=True))
    assert list(answers) == ["D1", "D2", "D3"]
    for corner, text in answers.items():
        assert f"`## {corner}`" in SPEC
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
        assert 2 <= len(sentences) <= 3, (corner, sentences)
    assert "terminal" in answers["D2"] and "409" in answers["D2"]
    assert "empty-with-progress" in answers["D3"]
