"""Hidden oracle for edit-06, stamped after the agent ran: CONFIGLOAD_* environment overrides."""

import pytest
from configload.errors import ConfigError
from configload.loader import load_config


def test_environment_overrides_file_and_defaults(tmp_path):
    path = tmp_path / "app.conf"
    path.write_text("host = filehost\nport = 1000\n", encoding="utf-8")
    env = {"CONFIGLOAD_PORT": "9000", "CONFIGLOAD_VERBOSE": "on", "UNRELATED": "x"}
    settings = load_config(path, env=env)
    assert settings["port"] == 9000
    assert settings["verbose"] is True
    assert settings["host"] == "filehost"


def test_environment_applies_without_a_file(tmp_path):
    settings = load_config(tmp_path / "absent.conf", env={"CONFIGLOAD_TIMEOUT": "0.25"})
    assert settings["timeout"] == 0.25


def test_bad_environment_value_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        load_config(tmp_path / "absent.conf", env={"CONFIGLOAD_RETRIES": "many"})


def test_process_environment_is_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFIGLOAD_RETRIES", "7")
    assert load_config(tmp_path / "absent.conf")["retries"] == 7
