"""The price table: published prices by the server's model id, snapshots matched, never a
guess for a model it does not list; a user's file extends it and bad files are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.agents.model.prices import PRICES_ENV, PriceTable, load_prices, price_table
from benchwright.agents.model.wire import Usage
from benchwright.errors import SpecError

MILLION_EACH = Usage(1_000_000, 1_000_000)


@pytest.mark.parametrize(
    ("model", "usd"),
    [
        ("gpt-4o", 12.50),
        ("gpt-4o-2024-08-06", 12.50),  # a dated snapshot of a listed model
        ("GPT-4o-mini-2024-07-18", 0.75),  # case-insensitive; not gpt-4o's price
        ("gpt-4o-2024-05-13", 20.00),  # listed on its own: the older price
        ("claude-sonnet-4-5-20250929", 18.00),
        ("claude-3-5-sonnet-latest", 18.00),
        ("claude-3-5-sonnet@20240620", 18.00),
        ("claude-3-haiku-20240307", 1.50),
    ],
)
def test_a_listed_model_and_its_snapshots_are_priced(model: str, usd: float) -> None:
    assert PriceTable().cost(model, MILLION_EACH) == pytest.approx(usd)


@pytest.mark.parametrize(
    "model",
    ["scripted-1", "llama3.1:8b", "gpt-4o-realtime-preview", "openai/gpt-4o", "gpt-4o-mini-x", ""],
)
def test_a_model_the_table_does_not_list_has_no_cost(model: str) -> None:
    assert PriceTable().cost(model, MILLION_EACH) is None


def test_the_cost_is_input_and_output_at_their_own_prices() -> None:
    assert PriceTable().cost("gpt-4.1", Usage(250_000, 10_000)) == pytest.approx(0.5 + 0.08)
    assert PriceTable().per_million("gpt-4.1-2025-04-14") == (2.00, 8.00)
    assert PriceTable().per_million("unlisted") is None


def test_a_users_file_adds_models_and_overrides_the_builtin(tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(
        "Qwen2.5-Coder-32B: {input: 0.2, output: 0.6}\ngpt-4o: {input: 1, output: 1}\n"
    )
    table = price_table(prices, environ={})
    assert table.cost("qwen2.5-coder-32b", MILLION_EACH) == pytest.approx(0.8)
    assert table.cost("gpt-4o-2024-08-06", MILLION_EACH) == pytest.approx(2.0)
    assert table.cost("claude-3-haiku", MILLION_EACH) == pytest.approx(1.5)  # the rest stays


def test_the_environment_names_a_file_and_the_flags_file_goes_last(tmp_path: Path) -> None:
    from_env, from_flag = tmp_path / "env.json", tmp_path / "flag.json"
    from_env.write_text(
        '{"local-model": {"input": 1, "output": 1}, "other": {"input": 3, "output": 3}}'
    )
    from_flag.write_text('{"local-model": {"input": 2, "output": 2}}')
    table = price_table(from_flag, environ={PRICES_ENV: str(from_env)})
    assert table.cost("local-model", MILLION_EACH) == pytest.approx(4.0)
    assert table.cost("other", MILLION_EACH) == pytest.approx(6.0)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("m: {input: -1, output: 1}", "m.input"),
        ("m: {input: 1}", "m.output: required"),
        ("m: {input: 1, output: 1, cached: 0.1}", "m.cached: unknown field"),
        ("m: {input: .inf, output: 1}", "m.input"),
        ("- m", "must be an object"),
    ],
)
def test_a_bad_price_file_names_the_model_and_field(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as caught:
        load_prices(path)
    assert problem in str(caught.value) and "prices.yaml" in str(caught.value)


def test_a_missing_price_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"nope\.yaml: file not found"):
        price_table(tmp_path / "nope.yaml", environ={})
