"""URL-style slugs: lower case ASCII words joined by a separator."""

import re
import unicodedata

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def _ascii(text: str) -> str:
    """Drop accents, then anything that is still not ASCII."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def slugify(text: str, sep: str = "-", max_length: int | None = None) -> str:
    """``"Hello, World!"`` -> ``"hello-world"``; at most ``max_length`` characters if given."""
    slug = _NOT_WORD.sub(sep, _ascii(text).lower()).strip(sep)
    if max_length is not None:
        if max_length < 1:
            raise ValueError("max_length must be at least 1")
        slug = slug[:max_length].rstrip(sep)
    return slug
