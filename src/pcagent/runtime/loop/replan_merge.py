"""A re-plan's steps merged into the run: ids made unique, references kept pointing right.

The Manager re-plans knowing only the finished subtasks and the one that failed, and numbers
its new steps after them, so its ids often repeat those of pending subtasks of the old plan
(`s2`, `s3`, ...). A new step given a fresh id must take every reference to it along (its
successors' ``depends_on``, ``{"from": ...}`` arguments and ``{s2}`` slots), or they wait for
the old subtask of that id, which never runs: "subtasks [...] can never start". The fresh ids
stay in the program's own form (``s`` and a number), which is what slots and references accept.

Old pending subtasks carried over (in an application the new plan does not work in) wait for
the new steps in place of any subtask that will not run any more (the failed one, or a pending
one the new plan replaced); a pending call of no application that a carried one waits for is
carried with it. A carried call that needs the value of one of those is kept: it
fails when its turn comes and is re-planned with the reason, rather than the part of the
instruction it does being dropped without a word.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from pcagent.agents.asked_answer import TELLS
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.step_ids import renamed_args, renamed_line


def renumbered(fresh: Sequence[SubtaskSpec], taken: Collection[str]) -> list[SubtaskSpec]:
    """``fresh`` with each id that ``taken`` holds moved to the next free ``sN``, and every
    reference among ``fresh`` to a moved id moved with it."""
    used = {*taken, *(s.id for s in fresh)}
    next_number = max((_number(i) for i in used), default=0) + 1
    renames: dict[str, str] = {}
    for subtask in fresh:
        if subtask.id in taken:
            renames[subtask.id] = f"s{next_number}"
            next_number += 1
    return [_renamed(s, renames) for s in fresh] if renames else list(fresh)


def carried_over(
    pending: Sequence[SubtaskSpec],
    gone: Collection[str],
    replacements: Sequence[str],
    retried: Mapping[str, str] | None = None,
) -> list[SubtaskSpec]:
    """Old pending subtasks kept after a re-plan, waiting for ``replacements`` instead of the
    subtasks that will not run (``gone``). ``retried``: a failed subtask retried under a new id
    (the GUI retry), or a step left behind whose skill one new step calls, whose value its
    successors now take from that new step."""
    kept = []
    for subtask in pending:
        if retried:
            subtask = _renamed(subtask, retried)
        if any(d in gone for d in subtask.depends_on):
            still = [d for d in subtask.depends_on if d not in gone]
            depends = list(dict.fromkeys([*still, *replacements]))
            subtask = subtask.model_copy(update={"depends_on": depends})
        kept.append(subtask)
    return kept


def carried_and_retried(
    pending: Sequence[SubtaskSpec],
    fresh: Sequence[SubtaskSpec],
    failed: SubtaskSpec,
    fallback: bool,
) -> tuple[list[SubtaskSpec], dict[str, str]]:
    """The old pending subtasks a re-plan carries over, and the steps whose values carried ones
    take from new steps instead (the failed subtask's retry, and each step left behind whose
    skill one new step calls: :func:`_called_anew`; old id -> new id). All pending subtasks are
    carried where the planner fell back to retrying the failed one; otherwise those in an
    application no new step works in, and, where the re-plan calls the failed step's skill again
    (its corrected call), those of no application whose skill no new step calls. Why the last:
    told why a look-up for each destination failed, the 1.5B Manager wrote the corrected look-up
    alone, the pick of the shortest and the telling (no application) were dropped, and the run
    ended with the flight times found and nobody told (a rewording of pc06, 2026-12-05). A step
    that tells the person is carried wherever no new step tells: a re-plan after a screen step
    looped searched the journey again and computed with it, the telling was dropped, and the run
    said "finished" with nobody told (a rewording of pc02 without memory, 2026-12-07; in the
    recorded re-plans of that day and the day before, the three that dropped a telling so were
    all in runs that failed). Carried, it tells what the new steps found, or fails on a value no
    step gives any more and is re-planned with why."""
    retries = [s for s in fresh if failed.skill and s.skill == failed.skill]
    if fallback and len(fresh) == 1:
        retried = {failed.id: fresh[0].id}
    elif not fallback and len(retries) == 1:
        retried = {failed.id: retries[0].id}
    else:
        retried = {}
    covered = {s.app for s in fresh if s.app}
    called = {s.skill for s in fresh if s.skill}
    corrected = bool(retried) and not fallback
    carry = [
        s
        for s in pending
        if fallback
        or (s.app and s.app not in covered)
        or (corrected and not s.app and s.skill and s.skill not in called)
        or (s.skill == TELLS and TELLS not in called)
    ]
    carried = _with_inputs(carry, pending, called, failed.id, retried)
    return carried, {**_called_anew(pending, fresh, {s.id for s in carried}), **retried}


def _called_anew(
    pending: Sequence[SubtaskSpec], fresh: Sequence[SubtaskSpec], carried: Collection[str]
) -> dict[str, str]:
    """Each pending call left behind -> the one new step that calls its skill, whose value a
    carried step takes instead. Why: a re-plan wrote the look-ups and the pick of the quickest
    flight anew, the telling was carried still naming the old pick (``<s9.label>``), which
    would never run, and it failed as having no value (a rewording of pc06 at 0e716b8,
    2026-12-07). A skill two new steps call stands for no one old step."""
    anew: dict[str, str] = {}
    for old in pending:
        if old.id in carried or not old.skill:
            continue
        calls = [new.id for new in fresh if new.skill == old.skill]
        if len(calls) == 1:
            anew[old.id] = calls[0]
    return anew


def _with_inputs(
    carry: Sequence[SubtaskSpec],
    pending: Sequence[SubtaskSpec],
    called: Collection[str],
    failed: str,
    retried: Mapping[str, str],
) -> list[SubtaskSpec]:
    """``carry`` with the pending calls of no application its steps wait for (theirs too, in
    turn), where no new step calls their skill and they do not wait for the failed subtask
    (unless it is retried). Why: a screen step looped, the re-plan wrote one new step in the
    editor, the alarm (in the clock) was carried and the time shift it takes its time from
    (no application) was not; the alarm failed on a value no step would give, and the run
    ended "failed" with the shift never run (a rewording of pc01, 2026-12-07)."""
    by_id = {s.id: s for s in pending}
    chosen = {s.id for s in carry}
    wanted = [d for s in carry for d in s.depends_on]
    while wanted:
        need = by_id.get(wanted.pop())
        if need is None or need.id in chosen or need.app or not need.skill:
            continue
        if need.skill in called or (failed in need.depends_on and failed not in retried):
            continue
        chosen.add(need.id)
        wanted.extend(need.depends_on)
    return [s for s in pending if s.id in chosen]


def _number(subtask_id: str) -> int:
    digits = subtask_id[1:]
    return int(digits) if subtask_id[:1] == "s" and digits.isdigit() else 0


def _renamed(subtask: SubtaskSpec, renames: Mapping[str, str]) -> SubtaskSpec:
    return subtask.model_copy(
        update={
            "id": renames.get(subtask.id, subtask.id),
            "depends_on": [renames.get(d, d) for d in subtask.depends_on],
            "args": renamed_args(subtask.args, renames),
            "description": renamed_line(subtask.description, renames),
        }
    )
