"""Hidden oracle for edit-07, stamped after the agent ran: the log_level setting."""

import pytest
from configload import DEFAULTS, ConfigError, load_text


def test_log_level_defaults_to_info():
    assert DEFAULTS["log_level"] == "info"
    assert load_text("")["log_level"] == "info"


def test_log_level_is_case_insensitive_and_stored_lower_case():
    assert load_text("log_level = DEBUG\n")["log_level"] == "debug"
    assert load_text("log_level = Warning\n")["log_level"] == "warning"
    assert load_text("log_level = error\n")["log_level"] == "error"


def test_unknown_log_level_is_rejected():
    with pytest.raises(ConfigError):
        load_text("log_level = loud\n")
