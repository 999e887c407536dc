"""Defaults, overridden by a settings file."""

import os
from collections.abc import Mapping
from pathlib import Path

from configload.coerce import coerce
from configload.defaults import DEFAULTS
from configload.errors import UnknownKeyError
from configload.parse import parse_text


def load_text(text: str) -> dict[str, object]:
    """The defaults with every setting of ``text`` applied."""
    settings = dict(DEFAULTS)
    for key, raw in parse_text(text):
        if key not in DEFAULTS:
            raise UnknownKeyError(f"unknown setting {key!r}")
        settings[key] = coerce(key, raw, DEFAULTS[key])
    return settings


ENV_PREFIX = "CONFIGLOAD_"


def load_config(path: str | Path, env: Mapping[str, str] | None = None) -> dict[str, object]:
    """Settings from ``path`` (defaults if absent), then ``CONFIGLOAD_<KEY>`` variables of ``env``.

    ``env`` defaults to the process environment; its values are converted like file values.
    """
    path = Path(path)
    settings = load_text(path.read_text(encoding="utf-8")) if path.exists() else dict(DEFAULTS)
    env = os.environ if env is None else env
    for key, default in DEFAULTS.items():
        raw = env.get(ENV_PREFIX + key.upper())
        if raw is not None:
            settings[key] = coerce(key, raw.strip(), default)
    return settings
