"""What a model's tokens cost, for the well-known hosted models and any the user adds.

A cost is only ever computed from a price someone published: an unknown model has no
cost (`cost` is None and the run reports tokens only), never a guess from a similar
name. Prices are USD per million tokens, input and output apart, at the vendor's list
price for uncached, non-batch calls (a cache or batch discount is not applied, so with
cached prompts the figure is an upper bound).

Lookup, by the model id the *server* reported (``Reply.model``), case-insensitive:

1. the id exactly as listed (``gpt-4o-2024-05-13`` has its own, older price);
2. else the id without a snapshot suffix: ``-YYYY-MM-DD``, ``-YYYYMMDD``, ``@YYYYMMDD``
   or ``-latest`` (``claude-sonnet-4-5-20250929`` → ``claude-sonnet-4-5``,
   ``gpt-4o-mini-2024-07-18`` → ``gpt-4o-mini``). No other prefix or alias matching:
   ``gpt-4o-realtime-preview`` is not ``gpt-4o``, and a router's ``openai/gpt-4o`` is
   only priced if the user lists it.

The user extends or overrides the table with a YAML/JSON file (``--model-prices FILE``,
or the file named by ``BENCHWRIGHT_MODEL_PRICES``)::

    my-org/llama-3.1-70b: {input: 0.59, output: 0.79}
    gpt-4o: {input: 2.5, output: 10}
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from benchwright.agents.model.wire import Usage
from benchwright.dsl._documents import display_path, problems_from, read_document
from benchwright.errors import SpecError

PRICES_ENV = "BENCHWRIGHT_MODEL_PRICES"
"""Names a price file read on top of the built-in table (``--model-prices`` goes last)."""
MILLION = 1_000_000


class Price(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    input: float = Field(ge=0)
    """Per million input (prompt) tokens."""
    output: float = Field(ge=0)
    """Per million output (completion) tokens."""


class _PriceFile(RootModel[dict[str, Price]]):
    pass


# OpenAI list prices, https://platform.openai.com/docs/pricing (gpt-5 family as published
# at its launch, 2025-08-07; o3 after the 2025-06-10 price cut; the rest as listed in 2025).
_OPENAI = {
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-2024-05-13": (5.00, 15.00),  # the first gpt-4o snapshot kept its launch price
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4-turbo": (10.00, 30.00),
    "o1": (15.00, 60.00),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
}
# Anthropic list prices, https://docs.anthropic.com/en/docs/about-claude/pricing (as
# listed in 2025; Claude Sonnet 4.5, Haiku 4.5 and Opus 4.5 at their launch prices of
# 2025-09-29, 2025-10-15 and 2025-11-24).
_ANTHROPIC = {
    "claude-opus-4-5": (5.00, 25.00),
    "claude-opus-4-1": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-opus": (15.00, 75.00),
    "claude-3-haiku": (0.25, 1.25),
}
BUILTIN: Mapping[str, Price] = {
    model: Price(input=i, output=o) for model, (i, o) in {**_OPENAI, **_ANTHROPIC}.items()
}

_SNAPSHOT = re.compile(r"(?:[-@](?:\d{4}-\d{2}-\d{2}|\d{8})|-latest)$")


class PriceTable:
    """Prices by model id (lower-cased); later entries override earlier ones."""

    def __init__(self, prices: Mapping[str, Price] = BUILTIN) -> None:
        self._prices = {model.lower(): price for model, price in prices.items()}

    def extended(self, more: Mapping[str, Price]) -> PriceTable:
        """This table with ``more`` added, ``more`` winning where both price a model."""
        return PriceTable({**self._prices, **more})

    def lookup(self, model: str) -> Price | None:
        """The price of ``model`` (see the module docstring for the matching), or None."""
        key = model.strip().lower()
        if key in self._prices:
            return self._prices[key]
        return self._prices.get(_SNAPSHOT.sub("", key))

    def per_million(self, model: str) -> tuple[float, float] | None:
        """(input, output) USD per million tokens of ``model``, or None: the shape the
        model agent's recorder takes a price in."""
        price = self.lookup(model)
        return None if price is None else (price.input, price.output)

    def cost(self, model: str, usage: Usage) -> float | None:
        """USD for ``usage`` at ``model``'s price; None when the model has no price."""
        price = self.lookup(model)
        if price is None:
            return None
        return (usage.input_tokens * price.input + usage.output_tokens * price.output) / MILLION


def load_prices(path: Path) -> dict[str, Price]:
    """A user's price file: model id → ``{input, output}`` USD per million tokens.

    Raises:
        SpecError: the file is missing or unreadable, or an entry is not two
            non-negative numbers; every problem is named with its model id and field.
    """
    document = read_document(path)
    try:
        entries = _PriceFile.model_validate(document).root
    except ValidationError as exc:
        raise SpecError(display_path(path), problems_from(exc, owner="a price")) from None
    if blank := [model for model in entries if not model.strip()]:
        raise SpecError.single(display_path(path), f"{len(blank)} model id(s) are empty")
    return entries


def price_table(
    path: Path | None = None, environ: Mapping[str, str] = os.environ
) -> PriceTable:  # fmt: skip
    """The built-in table, then the file ``BENCHWRIGHT_MODEL_PRICES`` names, then ``path``."""
    table = PriceTable()
    for extra in (environ.get(PRICES_ENV), path):
        if extra:
            table = table.extended(load_prices(Path(extra)))
    return table
