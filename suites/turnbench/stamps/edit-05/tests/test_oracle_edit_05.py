"""Hidden oracle for edit-05, stamped after the agent ran: slugify(max_length=...)."""

from textutils.slug import slugify


def test_max_length_cuts_the_slug():
    assert slugify("Hello big World", max_length=9) == "hello-big"
    assert slugify("abcdefgh", max_length=3) == "abc"


def test_cut_never_leaves_a_trailing_separator():
    assert slugify("Hello big World", max_length=10) == "hello-big"
    assert slugify("a b c d", sep="_", max_length=4) == "a_b"


def test_without_max_length_nothing_changes():
    assert slugify("Hello big World") == "hello-big-world"
    assert slugify("Hello big World", max_length=100) == "hello-big-world"
