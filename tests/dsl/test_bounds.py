"""Document bounds: what a file may hold before any model sees it (dsl/_bounds.py).

Every limit is pinned from both sides: the file just past it is refused naming the
field, the file at it still loads.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from benchwright.dsl._bounds import MAX_ALIAS_NODES, MAX_DEPTH, MAX_DOCUMENT_BYTES
from benchwright.dsl._documents import read_document
from benchwright.errors import SpecError


def _problems(path) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as caught:
        read_document(path)
    return caught.value.problems


def _laughs(levels: int, fan: int) -> str:
    lines = ["l0: &a0 [" + ", ".join(["lol"] * fan) + "]"]
    lines += [f"l{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * fan) + "]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_in_milliseconds(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_laughs(levels=12, fan=10))  # 10**12 strings once expanded
    started = time.perf_counter()
    [(field, message)] = _problems(path)
    assert time.perf_counter() - started < 1.0
    assert field == ""
    assert message.startswith(f"aliases expand to more than {MAX_ALIAS_NODES} extra nodes")


def test_aliases_within_the_budget_still_load(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text(_laughs(levels=3, fan=20))  # 20 + 400 + 8000 expanded strings
    doc = read_document(path)
    assert len(doc["l2"]) == 20 and doc["l2"][0][0] == ["lol"] * 20


def test_merge_keys_are_aliases_too_and_still_work(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("base: &base {weight: 2, tier: core}\ncheck:\n  <<: *base\n  weight: 3\n")
    assert read_document(path)["check"] == {"weight": 3, "tier": "core"}


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_depth_at_the_limit_loads_and_one_past_it_is_refused(tmp_path, suffix):
    def nested(depth: int) -> str:  # the top object is level 1
        return '{"v": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    ok = tmp_path / f"ok{suffix}"
    ok.write_text(nested(MAX_DEPTH))
    read_document(ok)
    deep = tmp_path / f"deep{suffix}"
    deep.write_text(nested(MAX_DEPTH + 1))
    [(_, message)] = _problems(deep)
    assert message.startswith(f"nesting deeper than {MAX_DEPTH} levels")


def test_json_nesting_past_the_parsers_recursion_guard_is_a_spec_error(tmp_path):
    path = tmp_path / "abyss.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert _problems(path) == [("", f"nesting deeper than {MAX_DEPTH} levels")]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (str(2**63), "integer beyond 64 bits"),
        (str(-(2**63) - 1), "integer beyond 64 bits"),
        ("9" * 5000, "integer beyond 64 bits"),  # past int()'s own 4300-digit limit
        ("1e400", "must be a finite number, got inf"),
        ("Infinity", "must be a finite number, got inf"),
        ("-Infinity", "must be a finite number, got -inf"),
    ],
)
def test_json_numbers_out_of_bounds_name_their_field(tmp_path, value, problem):
    path = tmp_path / "n.json"
    path.write_text('{"checks": [{"weight": ' + value + "}]}")
    [(field, message)] = _problems(path)
    assert (field, message.split(" (")[0]) == ("checks[0].weight", problem)


@pytest.mark.parametrize(
    ("spelling", "problem"),
    [
        ("9223372036854775808", "integer beyond 64 bits"),
        ("0x" + "f" * 17, "integer beyond 64 bits"),
        ("1" + "0" * 4400, "integer beyond 64 bits"),
        (".inf", "must be a finite number, got inf"),
        ("-.Inf", "must be a finite number, got -inf"),
        (".nan", "must be a finite number, got nan"),
    ],
)
def test_yaml_numbers_out_of_bounds_name_their_field(tmp_path, spelling, problem):
    path = tmp_path / "n.yaml"
    path.write_text(f"budget:\n  seconds: {spelling}\n")
    [(field, message)] = _problems(path)
    assert (field, message.split(" (")[0]) == ("budget.seconds", problem)


def test_the_64_bit_extremes_themselves_load(tmp_path):
    path = tmp_path / "edge.json"
    path.write_text(json.dumps({"lo": -(2**63), "hi": 2**63 - 1, "f": 1.7976931348623157e308}))
    assert read_document(path)["hi"] == 2**63 - 1


def test_a_nul_byte_in_a_key_is_refused(tmp_path):
    path = tmp_path / "nul.json"
    path.write_text(json.dumps({"workspace": {"a.py\u0000x": "", "b.py": ""}}))
    assert _problems(path) == [("workspace.a.py\\0x", "key holds a NUL byte")]


def test_a_file_past_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)  # sparse: costs no disk
    assert _problems(path) == [("", f"larger than {MAX_DOCUMENT_BYTES // 2**20} MiB")]


def test_a_fifo_is_refused_instead_of_blocking(tmp_path):
    path = tmp_path / "task.yaml"
    os.mkfifo(path)
    assert _problems(path) == [("", "not a regular file")]
