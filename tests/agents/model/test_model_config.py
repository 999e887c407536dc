"""``--agent model:…`` and ``--model-*``: checked up front, recorded, rebuilt on resume."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from benchwright.agents import build_agent, preflight
from benchwright.agents.model.agent import ModelAgent
from benchwright.agents.model.config import ModelConfig, build_config, parse_model_args
from benchwright.errors import SpecError
from benchwright.execution import plan_resume, plan_run

TURNBENCH = Path(__file__).parents[3] / "suites" / "turnbench"


def test_model_args_read_json_values_and_keep_other_text() -> None:
    args = ["temperature=0", "seed=7", "max_tokens=512", "stop=END", 'logit_bias={"1": 2}']
    assert parse_model_args(args) == {"temperature": 0, "seed": 7, "max_tokens": 512,
                                      "stop": "END", "logit_bias": {"1": 2}}  # fmt: skip
    with pytest.raises(SpecError, match="--model-arg: 'temperature': give KEY=VALUE"):
        parse_model_args(["temperature"])


@pytest.mark.parametrize(("spec", "flags", "message"), [
    ("model:gemini/pro", {}, "unknown model provider 'gemini'; known: openai, anthropic"),
    ("model:openai", {}, "give model:PROVIDER/MODEL"),
    ("model:openai/m", {"tools": "json"}, "--model-tools: 'json': choose native | text | auto"),
    ("model:openai/m", {"base_urls": ["ftp://x"]}, "not an http(s) URL"),
    ("model:openai/m", {"base_urls": ["http://u:sk-1@h/v1"]}, "must not carry credentials"),
    ("model:openai/m", {"max_turns": 0}, "--model-max-turns: must be >= 1"),
])  # fmt: skip
def test_bad_model_settings_are_refused_naming_the_flag(spec, flags, message) -> None:
    with pytest.raises(SpecError) as caught:
        build_config(spec, **flags)
    assert message in str(caught.value)


def test_defaults_come_from_the_providers_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1234/v1")
    config = build_config("model:openai/local")
    assert config.base_urls == ("http://127.0.0.1:1234/v1",)
    assert config.api_key_env == "OPENAI_API_KEY"
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    assert build_config("model:anthropic/c").base_urls == ("https://api.anthropic.com",)
    assert build_config("model:openai/x", api_key_env="none").api_key_env is None


def test_a_missing_key_is_refused_before_any_trial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    agent = build_agent("model:openai/gpt", [])
    assert isinstance(agent, ModelAgent)
    with pytest.raises(SpecError, match=r"OPENAI_API_KEY is not set.*--model-api-key-env none"):
        preflight(agent)
    preflight(build_agent("model:openai/gpt", [], build_config("model:openai/gpt",
                                                               api_key_env="none")))  # fmt: skip


def test_the_config_crosses_processes_and_run_json_without_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_KEY", "sk-never-written")
    config = build_config("model:openai/local", base_urls=["http://127.0.0.1:9/v1"],
                          args=["temperature=0"], api_key_env="MY_KEY", max_cost=2.5)  # fmt: skip
    assert pickle.loads(pickle.dumps(config)) == config
    plan = plan_run(TURNBENCH, config.spec, tasks_glob="nav-01", out=tmp_path, model=config)
    recorded = plan.info["model"]
    assert recorded["api_key_env"] == "MY_KEY" and recorded["params"] == {"temperature": 0}
    assert "sk-never-written" not in (plan.run_dir / "run.json").read_text()
    live = str((plan.run_dir / "live").resolve())
    assert plan.options.model == replace(ModelConfig.from_record(recorded), live_dir=live)
    assert plan.agent.config.live_dir == live  # type: ignore[attr-defined]
    resumed = plan_resume(plan.run_dir)
    assert resumed.options.model == plan.options.model
    assert resumed.agent.spec == "model:openai/local"


def test_cli_refuses_model_flags_without_a_model_agent_and_a_missing_key(cli, tmp_path) -> None:
    done = cli("run", str(TURNBENCH), "--agent", "nop", "--model-arg", "seed=1")
    assert done.returncode == 2 and "--model-* flags need --agent model:" in done.stderr
    runs = tmp_path / "runs"
    done = cli("run", str(TURNBENCH), "--agent", "model:openai/x", "--model-api-key-env",
               "BW_UNSET_KEY", "--out", str(runs), env={"BW_UNSET_KEY": ""})  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: --model-api-key-env: BW_UNSET_KEY is not set: export the key for "
        "model:openai/x (or, for a server that needs none, pass --model-api-key-env none); "
        "no trial was started"
    ]
    assert not runs.exists()
    done = cli("run", str(TURNBENCH), "--agent", "model:mistral/x")
    assert done.returncode == 2 and "unknown model provider 'mistral'" in done.stderr


def test_a_fleet_file_adds_endpoints_each_with_its_own_key_and_preflight_wants_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fleet = tmp_path / "fleet.yaml"
    fleet.write_text("- http://10.0.0.2:1234/v1\n- url: http://10.0.0.3:1234/v1\n"
                     "  key_env: BOX3_KEY\n")  # fmt: skip
    monkeypatch.setenv("BOX3_KEY", "k3")
    monkeypatch.setenv("MAIN_KEY", "k1")
    config = build_config("model:openai/m", base_urls=["http://10.0.0.1:1234/v1"],
                          api_key_env="MAIN_KEY", fleet=str(fleet))  # fmt: skip
    assert config.base_urls[1:] == ("http://10.0.0.2:1234/v1", "http://10.0.0.3:1234/v1")
    assert config.key_names() == ("MAIN_KEY", "MAIN_KEY", "BOX3_KEY")
    assert config.endpoint_keys() == ("k1", "k1", "k3")
    assert "k3" not in str(config.record()) and "k1" not in str(config.record())
    agent = build_agent(config.spec, [], config)
    monkeypatch.delenv("BOX3_KEY")
    with pytest.raises(SpecError, match="BOX3_KEY is not set"):
        preflight(agent)


def test_a_bad_price_file_is_refused_before_any_trial(tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text("my-model: {input: -1, output: 2}\n")
    with pytest.raises(SpecError, match="my-model"):
        build_config("model:openai/m", api_key_env="none", prices=str(prices))
    prices.write_text("my-model: {input: 1, output: 2}\n")
    config = build_config("model:openai/m", api_key_env="none", prices=str(prices))
    assert config.prices_file == str(prices.resolve())
