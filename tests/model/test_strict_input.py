"""`StrictInput`: booleans, numbers and strings read from files mean what they say."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field, ValidationError

from benchwright.model import StrictInput


class _Params(StrictInput):
    flag: bool = False
    maybe: bool | None = None
    count: int = 0
    weight: float = 1.0
    gamma: Literal["core", "hard"] | float = "core"
    path: str = ""
    globs: tuple[str, ...] = ()
    files: dict[str, str] = Field(default_factory=dict)


def _error(**raw: object) -> tuple[str, str]:
    with pytest.raises(ValidationError) as caught:
        _Params.model_validate(raw)
    [error] = caught.value.errors(include_url=False)
    return str(error["loc"][0]), error["msg"].removeprefix("Value error, ")


@pytest.mark.parametrize("spelling", ["false", "False", "no", "off", "0", "true", ""])
def test_a_string_is_not_a_boolean(spelling):
    assert _error(flag=spelling) == ("flag", "must be true or false, got str")
    assert _error(maybe=spelling) == ("maybe", "must be true or false, got str")


def test_real_booleans_and_none_pass():
    params = _Params.model_validate({"flag": True, "maybe": None})
    assert params.flag is True and params.maybe is None
    assert _Params.model_validate({"flag": False}).flag is False


@pytest.mark.parametrize(("field", "value"), [("count", "3"), ("weight", "1"), ("weight", "1e400")])
def test_a_string_is_not_a_number(field, value):
    assert _error(**{field: value}) == (field, "must be a number, got str")


@pytest.mark.parametrize(("field", "value"), [("count", True), ("weight", False)])
def test_a_boolean_is_not_a_number(field, value):
    assert _error(**{field: value}) == (field, "must be a number, got bool")


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_floats_are_refused(value):
    field, message = _error(weight=value)
    assert (field, message) == ("weight", "Input should be a finite number")


def test_numbers_pass_and_a_union_with_a_literal_keeps_its_names():
    params = _Params.model_validate({"count": 3, "weight": 2, "gamma": "hard"})
    assert (params.count, params.weight, params.gamma) == (3, 2.0, "hard")
    assert _Params.model_validate({"gamma": 1.5}).gamma == 1.5


@pytest.mark.parametrize(
    ("field", "value"), [("path", "a.py\0../../etc"), ("globs", ["ok/**", "tests/\0*"])]
)
def test_a_nul_byte_in_a_string_or_list_item_is_refused(field, value):
    assert _error(**{field: value}) == (field, "must not contain a NUL byte")


def test_map_values_are_contents_and_may_hold_nul():
    assert _Params.model_validate({"files": {"bin.dat": "\0\1"}}).files == {"bin.dat": "\0\1"}


def test_unknown_keys_are_errors():
    assert _error(flagg=True)[0] == "flagg"
