"""Red team, issue #24 item 15: unbounded and malformed input to a real board.

Every attack is posted over real HTTP at the board app on 127.0.0.1 over a migrated
SQLite file, and must be a 4xx naming the field, store nothing, and leave the board
serving. The hypothesis tests throw malformed bodies and query strings at the same
board and assert that nothing is ever answered 5xx.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from board._pages_seed import fresh_store
from board._pg import PG_URL, pg_schema
from board._posts import board_client, post
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from benchwright.board.migrate import upgrade
from benchwright.board.store import BoardStore

API = "/api/benchmark-runs"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def board(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[httpx.Client, BoardStore]]:
    """One board per database for the module (PostgreSQL refuses what SQLite stores: a NUL,
    an integer past 32 bits, a string past its column); every post comes from its own
    forwarded address."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            store = fresh_store(Path(tmp_path_factory.mktemp("board")))
        else:
            if not PG_URL:
                pytest.skip("BENCHWRIGHT_TEST_PG is not set (.ci/run sets it)")
            store = BoardStore(stack.enter_context(pg_schema(PG_URL)))
            upgrade(store.engine)
        yield from board_client(store)


_address = iter(range(1, 10**6))


def send(client: httpx.Client, body: bytes | dict[str, Any]) -> httpx.Response:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    n = next(_address)
    forwarded = {"X-Forwarded-For": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}
    return client.post(API, content=raw, headers=forwarded | {"Content-Type": "application/json"})


def refused(board: tuple[httpx.Client, BoardStore], body: bytes | dict[str, Any]) -> str:
    """Post ``body``; assert a 4xx that stored nothing; return ``code: message``."""
    client, store = board
    before = entries(store)
    answer = send(client, body)
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    error = answer.json()["error"]
    assert entries(store) == before, "a refused post was stored"
    return f"{error['code']}: {error['message']}"


def entries(store: BoardStore) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM runs")).scalar_one())


def with_run(**changes: Any) -> dict[str, Any]:
    body = post()
    body["run"] |= changes
    return body


def test_a_genuine_post_is_still_accepted(board) -> None:
    answer = send(board[0], post())
    assert answer.status_code == 201, answer.text


def test_a_five_megabyte_model_name_is_refused_naming_model(board) -> None:
    said = refused(board, post(model="m" * 5_500_000))
    assert said.startswith("invalid_payload: model: String should have at most 200 characters")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("detail", "d" * 100_000, "checks[0].detail: String should have at most 8000"),
        ("id", "x" * 10_000, "checks[0].id: String should have at most 128"),
    ],
)
def test_oversized_row_strings_are_refused_naming_the_row(board, field, value, expected) -> None:
    body = post()
    body["checks"][0][field] = value
    assert expected in refused(board, body)


def test_oversized_run_labels_and_versions_are_refused(board) -> None:
    assert "run.agent: String should have at most 200" in refused(board, with_run(agent="a" * 9999))
    assert "run.suite: String should have at most 128" in refused(board, with_run(suite="s" * 999))
    said = refused(board, post(scorerVersion="v" * 1000))
    assert "scorerVersion: String should have at most 64" in said


def test_an_integer_past_64_bits_is_400_naming_the_field(board) -> None:
    raw = json.dumps(post()).replace('"nodes": 0', '"nodes": ' + "9" * 30).encode()
    assert refused(board, raw) == (
        "bad_value: nodes: integer beyond 64 bits (allowed: -2**63 to 2**63-1)"
    )
    raw = json.dumps(post()).replace('"engineEvents": 412', '"engineEvents": ' + "7" * 5000)
    assert refused(board, raw.encode()).startswith("bad_value: run.engineEvents: integer beyond")


def test_an_integer_past_the_database_column_is_422_naming_it(board) -> None:
    said = refused(board, with_run(repairRounds=2**40))
    assert said == (
        "invalid_payload: run.repairRounds: Input should be less than or equal to 2147483647"
    )


@pytest.mark.parametrize("depth", [17, 5_000])
def test_deep_nesting_is_400_before_the_parser_recurses(board, depth: int) -> None:
    deep = "[" * depth + "]" * depth
    raw = json.dumps(post()).replace('"tiers": {', '"tiers": {"deep": ' + deep + ", ", 1)
    assert refused(board, raw.encode()) == "too_deep: tiers: nesting deeper than 16 levels"


@pytest.mark.parametrize(
    ("body", "values"),
    [
        (b"[" * 1_000_000, 1_000_000),  # deep enough to exhaust any recursion
        (b"[" + b"[]," * 1_900_000 + b"[]]", 3_800_002),  # 5.7 MB of empty lists
        (b"[" + b"0," * 2_900_000 + b"0]", 2_900_001),
    ],
)
def test_millions_of_values_are_400_before_parsing(board, body: bytes, values: int) -> None:
    said = refused(board, body)
    assert said == f"too_many_values: (body): {values} values or more, at most 20000"


def test_brackets_inside_strings_do_not_count_as_nesting(board) -> None:
    body = post()
    body["checks"][0]["detail"] = "[" * 500
    answer = send(board[0], body)
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    ("raw_value", "problem"),
    [
        ('"\\ud800 lone"', "holds a lone surrogate"),
        ('"nul\\u0000byte"', "holds a NUL byte"),
    ],
)
def test_strings_no_database_can_store_are_400_naming_the_field(board, raw_value, problem) -> None:
    raw = json.dumps(post()).replace('"agent": "goose"', f'"agent": {raw_value}').encode()
    assert refused(board, raw) == f"bad_value: run.agent: {problem}" + (
        " (an unpaired \\ud800-\\udfff escape)" if "surrogate" in problem else ""
    )


def test_non_finite_numbers_and_unrepresentable_times_are_refused(board) -> None:
    raw = json.dumps(post()).replace('"wallSecs": 3720.0', '"wallSecs": 1e999').encode()
    assert refused(board, raw) == "bad_value: run.wallSecs: must be a finite number, got inf"
    said = refused(board, with_run(startedAt="0001-01-01T00:00:00+05:00"))
    assert said.startswith("invalid_payload: run.startedAt: Value error, no such time in UTC")


def test_too_many_rows_or_tier_keys_are_refused(board) -> None:
    body = post()
    body["checks"] = body["checks"] * 15
    assert "checks: List should have at most 1000 items" in refused(board, body)
    body = post()
    body["tiers"] = {f"t{i}": 0.5 for i in range(100)}
    assert "tiers: Dictionary should have at most 32 items" in refused(board, body)


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/api/leaderboard?page=" + "9" * 40, "query.page"),
        ("/api/leaderboard?page=99999999999999999999", "query.page"),
        ("/api/leaderboard?perPage=10000000000000000000000", "query.perPage"),
        ("/api/leaderboard?page=0", "query.page"),
        ("/?page=" + "9" * 25, "query.page"),
        ("/?version=" + "v" * 500, "query.version"),
        ("/?version=sb%00", "query.version"),
        ("/api/benchmark-runs/x/screenshots/" + "9" * 30, "path.n"),
        ("/runs/x/screenshots/" + "9" * 30 + ".png", "path.n"),
        ("/api/benchmark-runs/ab%00cd", "path.run_id"),
        ("/runs/" + "r" * 5000, "path.run_id"),
    ],
)
def test_unbounded_url_values_are_4xx_naming_the_parameter(board, path, parameter) -> None:
    answer = board[0].get(path)
    assert answer.status_code == 422, (answer.status_code, answer.text[:200])
    assert answer.json()["error"]["message"].startswith(f"{parameter}: "), answer.text[:200]


# Bodies: JSON documents of any shape, genuine posts with one field replaced by anything,
# and raw bytes; query strings: any text for each parameter.
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.integers(min_value=2**31 - 2, max_value=2**64 + 1)  # around the columns' edges
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_FIELDS = [
    "scorerVersion",
    "score",
    "tiers",
    "composition",
    "checks",
    "model",
    "nodes",
    "run",
    "poster",
]


@st.composite
def _mangled_post(draw: st.DrawFn) -> bytes:
    body = post(install_id=f"fuzz-{next(_address)}")  # past the rate limit, to the database
    field = draw(st.sampled_from(_FIELDS))
    where: dict[str, Any] = body
    if field in ("run", "poster", "composition") and draw(st.booleans()):
        where = body[field]
        field = draw(st.sampled_from(sorted(where)))
    elif field == "checks" and draw(st.booleans()):
        where = body["checks"][0]
        field = draw(st.sampled_from(sorted(where)))
    where[field] = draw(_json)
    return json.dumps(body).encode()


_bodies = (
    _mangled_post()
    | _json.map(lambda doc: json.dumps(doc).encode())
    | st.binary(max_size=200)
    | st.integers(1, 200_000).map(lambda n: b'{"tiers": ' + b"[" * n + b"]" * n + b"}")
    | st.text(alphabet='[]{}",:0123456789.eE-+ \\u', max_size=300).map(str.encode)
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=_bodies)
def test_no_malformed_body_is_ever_answered_5xx(board, body: bytes) -> None:
    answer = send(board[0], body)
    assert answer.status_code < 500, (body[:300], answer.status_code, answer.text[:300])


_big = st.integers(2**31 - 2, 2**80) | st.integers(-(2**80), -(2**31) + 2)
"""Integers near and past the 32- and 64-bit edges (hypothesis seldom draws them from a
wide range on its own)."""
_number = (st.integers(-(2**80), 2**80) | _big).map(str) | st.text(max_size=20)
_query = st.fixed_dictionaries(
    {},
    optional={
        "page": _number,
        "perPage": _number,
        "version": st.sampled_from(["sb-5.2", "sb-6.0"]) | st.text(max_size=30),
        "sort": st.sampled_from(["score", "wall", "date", "model"]) | st.text(max_size=10),
        "dir": st.sampled_from(["asc", "desc"]) | st.text(max_size=5),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(
        [
            "/",
            "/api/leaderboard",
            "/runs/{}",
            "/api/benchmark-runs/{}",
            "/api/benchmark-runs/{}/screenshots/{}",
            "/runs/{}/screenshots/{}.png",
        ]
    ),
    parts=st.lists(st.text(min_size=1, max_size=30) | _big.map(str), min_size=2, max_size=2),
    query=_query,
)
def test_no_url_is_ever_answered_5xx(
    board, path: str, parts: list[str], query: dict[str, str]
) -> None:
    quoted = [quote(p, safe="") for p in parts]
    url = path.format(*quoted)
    answer = board[0].get(url, params=query)
    assert answer.status_code < 500, (url, query, answer.status_code, answer.text[:300])
