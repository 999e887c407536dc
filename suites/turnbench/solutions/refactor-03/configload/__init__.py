"""Load ``key = value`` settings files over built-in defaults."""

from configload.defaults import DEFAULTS
from configload.errors import ConfigurationError, ParseError, UnknownKeyError
from configload.loader import load_config, load_text

__all__ = [
    "DEFAULTS",
    "ConfigurationError",
    "ParseError",
    "UnknownKeyError",
    "load_config",
    "load_text",
]
