"""Convert raw string values to the type of their default."""

from configload.errors import ConfigurationError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def coerce(key: str, raw: str, default: object) -> object:
    """``raw`` converted to ``type(default)``."""
    if isinstance(default, bool):
        word = raw.lower()
        if word in _TRUE | _FALSE:
            return word in _TRUE
        raise ConfigurationError(f"{key}: expected a boolean, got {raw!r}")
    if isinstance(default, int | float):
        try:
            return type(default)(raw)
        except ValueError:
            raise ConfigurationError(
                f"{key}: expected {type(default).__name__}, got {raw!r}"
            ) from None
    return raw
