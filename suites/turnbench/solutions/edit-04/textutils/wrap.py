"""Word wrapping and indentation."""

import textwrap


def wrap_words(text: str, width: int = 72) -> list[str]:
    """Break ``text`` into lines of at most ``width`` characters, between words."""
    if width < 1:
        raise ValueError("width must be at least 1")
    return textwrap.wrap(text, width=width, break_long_words=False)


def wrap_paragraphs(text: str, width: int = 72) -> str:
    """Wrap each blank-line-separated paragraph on its own, keeping the blank lines."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    return "\n\n".join("\n".join(wrap_words(" ".join(p.split()), width)) for p in paragraphs)


def indent(text: str, prefix: str = "    ") -> str:
    """Prefix every non-blank line."""
    return "\n".join(prefix + line if line.strip() else line for line in text.split("\n"))


def truncate(text: str, width: int, suffix: str = "...") -> str:
    """``text`` cut to at most ``width`` characters, ending in ``suffix`` when cut."""
    if width < len(suffix):
        raise ValueError("width is shorter than the suffix")
    if len(text) <= width:
        return text
    return text[: width - len(suffix)].rstrip() + suffix
