"""The frozen vendorsync task: it carries the three vendor tokens the build renders, and
the deliverables it names are exactly what the golden reference ships."""

from __future__ import annotations

import re
from pathlib import Path

from benchwright.services.vendors import TOKENS, VendorProfile

SUITE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync"
SPEC = (SUITE / "spec.md").read_text()


def test_the_spec_carries_each_vendor_token_and_renders_without_leftovers():
    for token in TOKENS:
        assert token in SPEC, token
    profile = VendorProfile("meridian-v1", "http://127.0.0.1:8787", "/v1/docs", "sk_test_v1")
    rendered = profile.render(SPEC)
    assert not any(token in rendered for token in TOKENS)
    assert "`http://127.0.0.1:8787/v1/docs`" in rendered and "`sk_test_v1`" in rendered
    assert '{"error": "not_found"}' in rendered  # literal replacement: JSON braces survive


def test_the_deliverables_table_names_what_the_reference_ships():
    named = set(re.findall(r"^\| `(vendorsync/[^`]+|README\.md)` \|", SPEC, re.MULTILINE))
    tree = SUITE / "reference"
    shipped = {
        str(p.relative_to(tree))
        for p in tree.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".db")
    }
    assert len(named) == 9 and named <= shipped
    assert {p for p in shipped if p.startswith("vendorsync/web/")} == {
        "vendorsync/web/index.html",
        "vendorsync/web/styles.css",
        "vendorsync/web/app.js",
    }
