"""Hidden oracle for refactor-03, stamped after the agent ran: ConfigurationError."""

import configload
import pytest
from configload import ConfigurationError, ParseError, UnknownKeyError, load_text


def test_the_hierarchy_is_kept():
    assert issubclass(ParseError, ConfigurationError)
    assert issubclass(UnknownKeyError, ConfigurationError)
    assert "ConfigurationError" in configload.__all__


def test_bad_values_raise_the_renamed_error():
    with pytest.raises(ConfigurationError):
        load_text("retries = many\n")
    with pytest.raises(ConfigurationError):
        load_text("verbose = perhaps\n")
