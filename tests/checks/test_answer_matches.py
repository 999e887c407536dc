"""answer_matches: the captured final answer states the required facts, line-anchored."""

from __future__ import annotations

import pytest
from builders import make_task

from benchwright.errors import SpecError
from benchwright.model import Status


def check(*all_of: str, **params):
    return {"type": "answer_matches", "all_of": list(all_of), **params}


def test_passes_when_a_line_states_the_fact(grade):
    result = grade(check(r"count: 5"), None, answer="Done.\ncount: 5  \n")
    assert result.status is Status.PASS and result.score == 1.0
    assert result.detail == "answer states all 1 required fact(s)"


def test_fails_the_near_miss_that_only_contains_the_fact(grade):
    result = grade(check(r"count: 5"), None, answer="the count: 50")
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == "answer lacks /count: 5/ (1 of 1 missing)"
    assert result.evidence["missing"] == ["count: 5"]


@pytest.mark.parametrize("answer", ["count: 50", "xcount: 5", "count: 5 apples", "  count: 5"])
def test_anchoring_rejects_a_line_that_merely_contains_the_value(grade, answer):
    assert grade(check(r"count: 5"), None, answer=answer).status is Status.FAIL


def test_unanchored_searches_anywhere(grade):
    assert grade(check(r"count: 5", anchored=False), None, answer="the count: 50").passed


def test_every_all_of_pattern_is_required_and_counted(grade):
    result = grade(check(r"total: \d+", r"file: .*\.py", r"owner: \w+"), None, answer="total: 7")
    assert result.detail == r"answer lacks /file: .*\.py/ (2 of 3 missing)"
    assert result.evidence["missing"] == [r"file: .*\.py", r"owner: \w+"]


def test_a_forbidden_value_fails_even_when_the_facts_are_there(grade):
    result = grade(check(r"count: \d+", none_of=[r"count: 0"]), None, answer="count: 0")
    assert result.status is Status.FAIL
    assert result.detail == "answer contains forbidden /count: 0/"
    assert result.evidence["forbidden"] == ["count: 0"]


def test_an_alternation_is_anchored_as_a_whole(grade):
    # fullmatch anchors "a|b" as (?:a|b), not "a" at the start or "b" at the end.
    assert grade(check(r"yes|no"), None, answer="no").passed
    assert not grade(check(r"yes|no"), None, answer="yes, and no").passed


@pytest.mark.parametrize("answer", [None, "", "  \n\t"])
def test_no_answer_is_not_attempted_not_fail(grade, answer):
    result = grade(check(r"count: 5"), None, answer=answer)
    assert result.status is Status.NOT_ATTEMPTED and result.score == 0.0
    assert result.detail == "no final answer was captured"


def test_the_evidence_keeps_only_the_tail_of_a_long_answer(grade):
    result = grade(check("ok"), None, answer="x" * 5000 + "\nok")
    assert result.passed and len(result.evidence["answer"]) == 2000


def test_an_invalid_regex_is_refused_at_load_time(registry):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.all_of.*invalid regex '\('"):
        make_task([check("(")], registry=registry)


def test_at_least_one_fact_is_required(registry):
    with pytest.raises(SpecError, match=r"all_of"):
        make_task([check()], registry=registry)
