"""A failed skill step retried on the screen: its task in words, with the values it was given.

Why: where no re-plan is usable, the failed step is handed to the Decision agent as a screen
step. It used to carry the call's line, whose references read ``<s2.prices>``: the Decision
agent was told to fill cells with values it was never shown, and to do a call it has no action
for. The retry says what the skill was to do (its description, the one the Manager chose it by)
and writes each reference as a slot the run fills with the value found (``{s2.prices}``), each
literal as the call gave it, and what the call met when it failed (a retry of a form's fill
typed into the field the failure had said the page lacks, "Round trip", until the loop check
ended the run: a rewording of pc06 at 914764a, 2026-12-07). Nothing here reads the instruction:
only the typed call and its failure.
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.program import is_reference
from pcagent.skills.catalog import SkillCatalog
from pcagent.text import shortened

#: A subtask's description holds at most this many characters (:class:`SubtaskSpec`).
TASK_CHARACTERS = 400
#: A literal argument is shown up to this many characters (a long text is the call's, not a
#: task's words).
LITERAL_CHARACTERS = 80
#: The failure is shown up to this many characters: what the application said first.
REASON_CHARACTERS = 140


def screen_retry(
    failed: SubtaskSpec, skills: SkillCatalog, step_id: str, reason: str = ""
) -> SubtaskSpec:
    """``failed`` as a screen step numbered ``step_id``: no call, its task in words (``reason``:
    why the call failed)."""
    task = retry_task(failed, skills, reason)
    update = {"id": step_id, "skill": "", "args": {}, "description": task, "failed_before": []}
    return failed.model_copy(update=update)


def retry_task(failed: SubtaskSpec, skills: SkillCatalog, reason: str = "") -> str:
    """What the screen step is to do: the skill's description, the values of its call (the
    check arguments code fills in left out) and what the call met; a step of no known skill
    keeps its words."""
    if not failed.skill or failed.skill not in skills:
        return failed.description
    skill = skills.get(failed.skill)
    given = "; ".join(
        f"{name}: {_shown(value)}" for name, value in skill.written_by_a_model(failed.args).items()
    )
    opening = f"On the screen, do what {failed.skill} was to do "
    given = f", with {given}" if given else ""
    met = " ".join(reason.split())
    met = f". The call failed: {shortened(met, REASON_CHARACTERS)}" if met else ""
    room = TASK_CHARACTERS - len(opening) - len(given) - len(met) - 2
    if room < 20:  # the values alone fill the task: they are what the screen step needs
        return f"{opening}with {given[7:]}"[:TASK_CHARACTERS]
    return f"{opening}({shortened(skill.description.rstrip('. '), room)}){given}{met}"


def screen_cannot_retry(failed: SubtaskSpec, skills: SkillCatalog) -> str:
    """Why the failed step cannot be retried on the screen ("" where it can): a skill that
    works in no application (reading values out of a text, working out a time) has no window
    a screen step could do it in."""
    if not failed.skill or failed.skill not in skills or skills.get(failed.skill).apps:
        return ""
    return (
        f"{failed.id} ({failed.skill}) failed and no other program was usable; "
        f"{failed.skill} works in no application, so there is nothing to retry on the screen"
    )


def _shown(value: JsonValue) -> str:
    """An argument as the screen step reads it: a reference as the slot the run fills with the
    value found, a list item by item, a literal as written (clipped)."""
    if is_reference(value):
        key = value.get("key")  # type: ignore[union-attr]
        return f"{{{value['from']}{'.' + key if key else ''}}}"  # type: ignore[index]
    if isinstance(value, list):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = shortened(text, LITERAL_CHARACTERS)
    return f'"{text}"' if isinstance(value, str) else text
