"""Hidden oracle for refactor-02, stamped after the agent ran: wrap_words is now wrap_text."""

from textutils import wrap_paragraphs, wrap_text
from textutils.wrap import wrap_text as wrap_text_in_module


def test_exported_under_the_new_name():
    assert wrap_text is wrap_text_in_module


def test_wrap_text_behaves_as_before():
    assert wrap_text("aa bb cc dd", 5) == ["aa bb", "cc dd"]


def test_wrap_paragraphs_still_works():
    assert wrap_paragraphs("aa bb cc\n\ndd", 5) == "aa bb\ncc\n\ndd"
