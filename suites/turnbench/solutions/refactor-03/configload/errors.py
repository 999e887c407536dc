"""What can go wrong while loading settings."""


class ConfigurationError(Exception):
    """Base class of every settings error."""


class ParseError(ConfigurationError):
    """A line is not ``key = value``."""

    def __init__(self, line_no: int, line: str) -> None:
        super().__init__(f"line {line_no}: cannot parse {line!r}")
        self.line_no = line_no


class UnknownKeyError(ConfigurationError):
    """A key that has no default."""
