"""Wire JSON: floats are a property of the bytes, caught before Python's numbers hide them."""

from __future__ import annotations

import pytest

from benchwright.probes.http import WireFloat, parse_wire_json, read_json, sample_json


def test_a_float_on_the_wire_is_detected(base_url):
    read = read_json(base_url, "/float")
    assert read.status == 200 and read.parseable
    assert read.json.floats == (("$.amount", "1.5"),)
    assert isinstance(read.json.value["amount"], WireFloat)


def test_an_integer_amount_is_not_a_float(base_url):
    read = read_json(base_url, "/int")
    assert read.json.floats == () and read.json.value == {"amount": 150}
    assert type(read.json.value["amount"]) is int


def test_a_float_equal_to_an_integer_is_still_a_float(base_url):
    # 1500.0 == 1500 after decoding; only the bytes tell them apart.
    read = read_json(base_url, "/rows")
    assert read.json.floats == (("$.rows[1].amount_minor", "1500.0"),)
    assert read.json.value["rows"][1]["amount_minor"] == 1500


@pytest.mark.parametrize(
    ("body", "floats"),
    [
        (b"[1e3, 2E-2, 7]", (("$[0]", "1e3"), ("$[1]", "2E-2"))),
        (b'{"a": {"b": [0, -0.0]}}', (("$.a.b[1]", "-0.0"),)),
        (b'{"n": 12345678901234567890}', ()),
        ('{"\u00e9": 2.50}'.encode("utf-16"), (("$.\u00e9", "2.50"),)),
    ],
)
def test_floats_are_found_with_their_paths_and_literals(body, floats):
    parsed = parse_wire_json(body)
    assert parsed.parseable and parsed.floats == floats


def test_wire_floats_keep_their_literal_and_their_value():
    number = parse_wire_json(b"[0.10]").value[0]
    assert number.literal == "0.10" and number == 0.1 and number * 10 == 1.0


def test_non_json_constants_are_listed():
    parsed = parse_wire_json(b'{"a": NaN, "b": [Infinity, -Infinity]}')
    assert parsed.parseable and parsed.constants == ("NaN", "Infinity", "-Infinity")


@pytest.mark.parametrize(
    "body", [b"", b"{'single': quotes}", b'{"a": 1', b"\xff\xfe\x00", b"[" * 100_000]
)
def test_an_unparseable_body_is_an_observation_not_an_exception(body):
    parsed = parse_wire_json(body)
    assert not parsed.parseable and parsed.value is None and parsed.error


def test_json_everywhere_records_parseability_and_content_type_per_response(base_url):
    reads = sample_json(base_url, ["/ok", "/html", "/notjson", "/always500", "/nope"])
    seen = [(r.response.path, r.status, r.content_type, r.parseable) for r in reads]
    assert seen == [
        ("/ok", 200, "application/json", True),
        ("/html", 200, "text/html; charset=utf-8", False),
        ("/notjson", 200, "application/json", False),
        ("/always500", 500, "application/json", True),
        ("/nope", 404, "text/plain; charset=utf-8", False),
    ]
