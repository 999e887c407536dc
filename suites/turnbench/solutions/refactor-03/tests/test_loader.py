import pytest
from configload.errors import ConfigurationError, UnknownKeyError
from configload.loader import load_config, load_text


def test_values_take_the_type_of_their_default():
    settings = load_text("port = 9000\ntimeout = 0.5\nverbose = yes\n")
    assert settings["port"] == 9000
    assert settings["timeout"] == 0.5
    assert settings["verbose"] is True


def test_unknown_key_is_an_error():
    with pytest.raises(UnknownKeyError):
        load_text("colour = blue\n")


def test_bad_number_is_a_config_error():
    with pytest.raises(ConfigurationError):
        load_text("retries = many\n")


def test_missing_file_gives_defaults(tmp_path):
    assert load_config(tmp_path / "absent.conf")["host"] == "localhost"


def test_file_overrides_defaults(tmp_path):
    path = tmp_path / "app.conf"
    path.write_text("host = example.internal\n", encoding="utf-8")
    assert load_config(path)["host"] == "example.internal"
