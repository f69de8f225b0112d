"""Which skill calls of a plan a model wrote: every call in the Manager's replies, at any
depth (a program, the steps asked for alone), noted through its record sink; a plan's call
that no reply wrote is marked ``mended``. A whole run: tests/runtime/test_program_run.py."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from pcagent.agents.plan import Plan, PlanOutcome, SubtaskSpec
from pcagent.agents.step_origins import WrittenSteps
from pcagent.models.backends.scripted import ScriptedBackend
from pcagent.models.messages import Message
from pcagent.models.structured import StructuredChatModel, StructuredResult


class Step(BaseModel):
    id: str
    skill: str
    args: dict[str, Any]


class Steps(BaseModel):
    steps: list[Step]


class Asked(BaseModel):
    first: Steps
    also: list[Step]


def _subtask(step_id: str, skill: str = "", **args: Any) -> SubtaskSpec:
    return SubtaskSpec(id=step_id, description="d", skill=skill, args=args)


def test_the_calls_of_every_reply_pass_on_to_the_record() -> None:
    written, recorded = WrittenSteps(), list[tuple[str, StructuredResult[Any]]]()
    sink = written.passing_to(lambda agent, result: recorded.append((agent, result)))
    replies = [
        '{"steps": [{"id": "s1", "skill": "read_text_file", "args": {"path": "a.txt"}}]}',
        '{"first": {"steps": [{"id": "s3", "skill": "calculate", "args": {"expression": "2"}}]},'
        ' "also": [{"id": "s4", "skill": "tell_user", "args": {"text": "{s3}"}}]}',
    ]
    model = StructuredChatModel(ScriptedBackend(replies))
    for schema in (Steps, Asked):
        sink("manager", model.ask([Message.user("plan")], schema))
    assert [agent for agent, _ in recorded] == ["manager", "manager"]
    plan = Plan(
        subtasks=[
            _subtask("s1", "read_text_file", path="a.txt"),  # as written
            _subtask("s2", "calculate", expression="1 + 1"),  # changed by code
            _subtask("s5", "calculate", expression="2"),  # written, under another id
            _subtask("s6"),  # a screen step: Decision decides its actions
            # a re-plan's screen retry of a mended call: copied from it, no call of its own
            _subtask("s7").model_copy(update={"mended": True}),
        ]
    )
    marked = written.marked(PlanOutcome(plan, problem="kept"))
    assert [s.mended for s in marked.plan.subtasks] == [False, True, False, False, False]
    assert marked.problem == "kept"


def test_a_plan_whose_calls_were_all_written_is_left_as_it_is() -> None:
    written = WrittenSteps()
    written.note({"steps": [{"id": "s1", "skill": "calculate", "args": {"expression": "2"}}]})
    outcome = PlanOutcome(Plan(subtasks=[_subtask("s1", "calculate", expression="2")]))
    assert written.marked(outcome) is outcome


def test_an_argument_code_fills_in_to_check_a_result_changes_no_decision() -> None:
    """An extraction told where its value goes (``uses``, set by a mend) is the model's call
    still; a changed argument a model writes is not. Without a catalog every argument counts."""
    from pcagent.skills import default_catalog

    wrote = {"text": "memo", "names": ["time"], "what": "the meeting's time"}
    told = {**wrote, "uses": {"time": "set_alarm.time"}}
    reply = {"steps": [{"id": "s2", "skill": "extract_values", "args": wrote}]}
    plan = Plan(
        subtasks=[
            _subtask("s2", "extract_values", **told),
            _subtask("s3", "extract_values", **{**told, "what": "the first time"}),
        ]
    )
    written = WrittenSteps(default_catalog())
    written.note(reply)
    marked = written.marked(PlanOutcome(plan))
    assert [s.mended for s in marked.plan.subtasks] == [False, True]
    every = WrittenSteps()
    every.note(reply)
    assert [s.mended for s in every.marked(PlanOutcome(plan)).plan.subtasks] == [True, True]
