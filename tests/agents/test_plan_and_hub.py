"""Plans as DAGs with named values, and the hub that fills them in."""

from __future__ import annotations

import pytest

from pcagent.agents import CommunicationHub, Plan, SubtaskSpec, check_plan, topological_order
from pcagent.errors import MissingInputError, PlanError


def spec(id: str, description: str = "do it", **fields: object) -> SubtaskSpec:
    return SubtaskSpec(id=id, description=description, **fields)  # type: ignore[arg-type]


def test_a_two_subtask_plan_with_a_value_passes_and_orders() -> None:
    plan = Plan(
        subtasks=[
            spec("s2", "Set an alarm at {time}", inputs=["time"], depends_on=["s1"]),
            spec("s1", "Read the time", outputs=["time"]),
        ]
    )
    check_plan(plan)
    assert topological_order(plan) == ["s1", "s2"]


@pytest.mark.parametrize(
    ("subtasks", "message"),
    [
        ([spec("s1"), spec("s1")], "repeat"),
        ([spec("s1", depends_on=["s9"])], "unknown subtasks"),
        ([spec("s1", depends_on=["s2"]), spec("s2", depends_on=["s1"])], "cycle"),
        ([spec("s1", "at {time}", inputs=["time"])], "no subtask it depends on outputs"),
        ([spec("s1", "at {time}")], "does not list them as inputs"),
        (
            # s2 outputs time, but s3 does not depend on s2: the value is not guaranteed
            [
                spec("s1"),
                spec("s2", outputs=["time"]),
                spec("s3", inputs=["time"], depends_on=["s1"]),
            ],
            "no subtask it depends on outputs",
        ),
    ],
)
def test_unusable_plans_are_refused_with_the_reason(
    subtasks: list[SubtaskSpec], message: str
) -> None:
    with pytest.raises(PlanError, match=message):
        check_plan(Plan(subtasks=subtasks))


def test_transitive_dependencies_and_known_values_count() -> None:
    plan = Plan(
        subtasks=[
            spec("s1", outputs=["a"]),
            spec("s2", depends_on=["s1"]),
            spec("s3", "use {a} and {b}", inputs=["a", "b"], depends_on=["s2", "s0"]),
        ]
    )
    with pytest.raises(PlanError):
        check_plan(plan)
    check_plan(plan, known_values=["b"], known_ids=["s0"])


def test_value_names_must_be_identifiers() -> None:
    with pytest.raises(ValueError, match="not a value name"):
        spec("s1", outputs=["meeting time"])


def test_hub_instantiates_only_when_every_input_exists() -> None:
    subtask = spec("s2", "Alarm at {time} for {name}; {time}!", inputs=["time", "name"])
    hub = CommunicationHub({"time": "14:30"})
    assert not hub.has_inputs(subtask)
    with pytest.raises(MissingInputError, match="name"):
        hub.instantiate(subtask)
    hub.publish({"name": "standup"})
    assert hub.instantiate(subtask) == "Alarm at 14:30 for standup; 14:30!"
    assert hub.as_dict() == {"time": "14:30", "name": "standup"}
