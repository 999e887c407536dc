"""The base of every pydantic model validated from a file a user or an agent wrote.

Pydantic's lax mode reads ``"false"`` as False and ``"1e400"`` as infinity, and
a YAML author who quotes a boolean (``critical: "no"``) or a number by mistake
deserves an error, not a guess. So a field declared boolean takes only
``true``/``false``, a numeric field only a number (never a string or a
boolean), no float may be NaN or infinite, strings and list items must not hold
a NUL byte (they become paths, commands and patterns, and an OS call would cut
them short there), and unknown keys are errors.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

_SCALARS = (bool, int, float, str)


class StrictInput(BaseModel):
    """Scalars mean what they say; see the module docstring."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _scalars_as_declared(cls, value: Any, info: ValidationInfo) -> Any:
        if info.field_name is None:
            return value
        accepts = _accepted(cls, info.field_name)
        if isinstance(value, bool):
            if bool not in accepts and accepts & {int, float}:
                raise ValueError("must be a number, got bool")
        elif isinstance(value, str) and str not in accepts and accepts & {bool, int, float}:
            wanted = "true or false" if accepts == {bool} else "a number"
            raise ValueError(f"must be {wanted}, got str")
        if any("\0" in item for item in _strings(value)):
            raise ValueError("must not contain a NUL byte")
        return value


@cache
def _accepted(model: type[BaseModel], field: str) -> frozenset[type]:
    """`_scalar_types` of one field, worked out once per model and field (a gate over a
    thousand tasks validates the same fields ten thousand times)."""
    return frozenset(_scalar_types(model.model_fields[field].annotation))


def _scalar_types(annotation: Any) -> set[type]:
    """The scalar types a field annotation admits (``float | None`` -> {float})."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _scalar_types(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return set().union(*(_scalar_types(arg) for arg in get_args(annotation)))
    if origin is Literal:
        return {type(arg) for arg in get_args(annotation)}
    return {annotation} if annotation in _SCALARS else set()


def _strings(value: Any) -> list[str]:
    """The value itself or its items, when they are strings (map values are contents)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [item for item in value if isinstance(item, str)]
    return []
