"""Small text helpers."""

from textutils.case import camel_to_snake, snake_to_camel
from textutils.counts import top_words, word_count
from textutils.slug import slugify
from textutils.wrap import indent, wrap_paragraphs, wrap_text

__all__ = [
    "camel_to_snake",
    "indent",
    "slugify",
    "snake_to_camel",
    "top_words",
    "word_count",
    "wrap_paragraphs",
    "wrap_text",
]
