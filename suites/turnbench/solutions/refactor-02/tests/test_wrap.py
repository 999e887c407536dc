from textutils.wrap import indent, wrap_paragraphs, wrap_text


def test_wrap_text_respects_width():
    assert wrap_text("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_wrap_paragraphs_keeps_paragraphs_apart():
    text = "one two three\nfour\n\nfive six"
    assert wrap_paragraphs(text, 9) == "one two\nthree\nfour\n\nfive six"


def test_indent_skips_blank_lines():
    assert indent("a\n\nb", "> ") == "> a\n\n> b"
