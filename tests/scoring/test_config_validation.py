"""Malformed scorer configs fail at load, naming the file and the field path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.scoring import load_scorer
from scoring.conftest import SCORERS, WriteConfig

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


def _move_weight(doc: dict[str, Any]) -> None:
    doc["tiers"]["T"]["weight"] = 0.10  # 0.04 goes to A: sums still 1.0, T+HARD = 0.30
    doc["tiers"]["A"]["weight"] = 0.10


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (_set("tiers.A.weight", "heavy"), "tiers.A.weight", "must be a number"),
        (_set("tiers.A.weight", 0.07), "components.inner", "tier weights sum to 1.01, not 1.0"),
        (_set("policy", "average"), "policy", "Input should be 'fixed-denominator'"),
        (_set("tiers.T.gamma", 5.0), "tiers.T", "gamma must be in (0, 4.0]"),
        (_set("tiers.A.colour", "red"), "tiers.A.colour", "unknown field"),
        (_set("components.inner.tiers", ["A", "B", "Q"]), "components.inner.tiers[2]",
         "unknown tier 'Q'"),
        (_set("excellence.weight", 0.2), "components", "sum to 1.08, not 1.0"),
        (_move_weight, "constraints[1]", "T + HARD = 0.3, must be >= 0.34"),
        (_set("criticals.checks.0.check", "server_run"), "criticals.checks[0].check",
         "'server_run' is not a check of this scorer"),
        (_set("roots.sync_completeness", ["total_feild"]), "roots.sync_completeness[0]",
         "'total_feild' is not a check"),
        (_set("diagnostics", ["server_runs"]), "diagnostics[0]", "is weight-zero but in a tier"),
        (_set("selftest.typo-class", {"v_styling": 0.5}), "selftest.typo-class",
         "Input should be 'wrong-money'"),
        (_set("excellence.conditions.0", {"check": "j_first_use", "special": "x"}),
         "excellence.conditions[0]", "give exactly one of 'check' or 'special'"),
        (_set("excellence.conditions.0.value", 0.5), "excellence.conditions[0]",
         "'==' is for perfection"),
        (_set("thresholds.sha256", "abc"), "thresholds.sha256", "String should match pattern"),
    ],
)  # fmt: skip
def test_invalid_config_names_the_field(
    write_config: WriteConfig, edit: Edit, field: str, message: str
) -> None:
    path = write_config("sb6", edit)
    with pytest.raises(SpecError) as caught:
        load_scorer(path)
    lines = caught.value.lines()
    assert any(
        line.startswith(f"{caught.value.source}: {field}: ") and message in line for line in lines
    ), lines
    assert caught.value.source.endswith("sb6.yaml")
    assert caught.value.exit_code == 2


def test_every_problem_is_reported_in_one_pass(write_config: WriteConfig) -> None:
    def two_problems(doc: dict[str, Any]) -> None:
        doc["criticals"]["checks"][0]["check"] = "nope"
        doc["roots"]["sync_completeness"] = ["nada"]

    with pytest.raises(SpecError) as caught:
        load_scorer(write_config("sb6", two_problems))
    assert len(caught.value.problems) == 2


def test_a_gamma_at_the_cap_is_accepted(write_config: WriteConfig) -> None:
    scorer = load_scorer(write_config("sb6", _set("tiers.T.gamma", 4.0)))
    assert scorer.gamma("T") == 4.0
    assert scorer.gamma("HARD") == 1.0  # from the thresholds file's gamma_hard


@pytest.mark.parametrize("name", ["ace", "sb52", "sb6", "sb7"])
def test_shipped_configs_load(name: str) -> None:
    rung = "L7_full_platform" if name == "ace" else None
    assert load_scorer(SCORERS / f"{name}.yaml", rung).wanted
