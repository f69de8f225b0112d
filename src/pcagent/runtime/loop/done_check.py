"""Checking a GUI subtask's ``done`` against what the run saw instead of believing it.

A small model says ``done`` when it has typed something, or when it has given up on a step.
Before a GUI subtask counts as done:

1. every value it must report has been reported (and Progress kept only values the screen or a
   reading supports);
2. when the step before ``done`` was an application action or a skill that read its effect back
   and found it done, that check supports it: the subtask is done, and *verified* unless its
   Progress account says it is not complete (the check showed one effect, not the whole
   subtask);
3. otherwise, when a Progress agent keeps the subtask's account, its judgement must say the
   subtask is complete; the subtask is then done but *unverified*, and a run made of such
   subtasks ends "unverified", not "finished".

Nothing here reads the subtask's words: what a subtask asked for is the Manager's program, and
skills check their own effects.
"""

from __future__ import annotations

from collections.abc import Sequence


def done_problem(
    missing_outputs: Sequence[str],
    progress_completed: bool | None,
    *,
    verified_effect: str = "",
) -> str | None:
    """Why ``done`` is not accepted for a subtask; None to accept it. ``progress_completed`` is
    None without a Progress agent; ``verified_effect`` the verified action just before, if
    any."""
    if missing_outputs:
        return f"report {', '.join(missing_outputs)} with an answer action first"
    if verified_effect:
        return None
    if progress_completed is False:
        return "the account of the subtask says it is not complete; finish what remains"
    return None
