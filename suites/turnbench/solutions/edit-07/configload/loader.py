"""Defaults, overridden by a settings file."""

from pathlib import Path

from configload.coerce import coerce
from configload.defaults import DEFAULTS, LOG_LEVELS
from configload.errors import ConfigError, UnknownKeyError
from configload.parse import parse_text


def load_text(text: str) -> dict[str, object]:
    """The defaults with every setting of ``text`` applied."""
    settings = dict(DEFAULTS)
    for key, raw in parse_text(text):
        if key not in DEFAULTS:
            raise UnknownKeyError(f"unknown setting {key!r}")
        settings[key] = coerce(key, raw, DEFAULTS[key])
    level = str(settings["log_level"]).lower()
    if level not in LOG_LEVELS:
        raise ConfigError(f"log_level: expected one of {', '.join(LOG_LEVELS)}, got {level!r}")
    settings["log_level"] = level
    return settings


def load_config(path: str | Path) -> dict[str, object]:
    """Settings from the file at ``path``; the defaults alone when it does not exist."""
    path = Path(path)
    if not path.exists():
        return dict(DEFAULTS)
    return load_text(path.read_text(encoding="utf-8"))
