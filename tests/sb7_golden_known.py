"""The rows the sb-7 golden does not ace yet, each with why: integration problems between
branches, listed once for the golden tests (tests/suites/sb7/test_sb7_harness_*.py). A
row leaves the list the day the golden aces it (its strict xfail then fails)."""

KNOWN = {
    "a_package_layout": "the check looks for web/*.html at the tree's root; the spec "
    "(suites/sb7/spec.md section 7) and the golden put the four files under app/web/",
    "c_conditional_resync": "the golden stores the collection generation per page, the v3 "
    "docs the latest one: after B5 bumps it, the next restart's sync refetches page 1 and, "
    "cursors carrying the walk's bound, walks the 191 others unconditionally",
}
