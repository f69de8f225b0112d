"""A GUI subtask's ``done`` is checked against what the run saw, never against its words."""

from __future__ import annotations

from pcagent.runtime.loop.done_check import done_problem


def test_missing_values_refuse_done() -> None:
    problem = done_problem(["meeting_time"], True, verified_effect="clock_add_alarm(...)")
    assert problem is not None and "meeting_time" in problem


def test_a_checked_effect_supports_done_even_when_progress_doubts_it() -> None:
    assert done_problem([], False, verified_effect="writer_save(path='a.docx')") is None


def test_progress_saying_incomplete_refuses_an_unchecked_done() -> None:
    problem = done_problem([], False)
    assert problem is not None and "not complete" in problem
    assert done_problem([], True) is None
    assert done_problem([], None) is None
