"""Hidden oracle for edit-04, stamped after the agent ran: textutils.truncate."""

import pytest
from textutils import truncate
from textutils.wrap import truncate as truncate_in_wrap


def test_exported_from_the_package_and_defined_in_wrap():
    assert truncate is truncate_in_wrap


def test_long_text_is_cut_to_the_width_including_the_suffix():
    assert truncate("hello world", 8) == "hello..."
    assert truncate("abcdefghij", 6) == "abc..."
    assert len(truncate("x" * 50, 20)) == 20


def test_short_text_is_unchanged():
    assert truncate("short", 10) == "short"
    assert truncate("exactly10!", 10) == "exactly10!"


def test_custom_suffix():
    assert truncate("abcdefghij", 5, suffix="~") == "abcd~"


def test_width_below_the_suffix_is_rejected():
    with pytest.raises(ValueError):
        truncate("abcdefghij", 2)
