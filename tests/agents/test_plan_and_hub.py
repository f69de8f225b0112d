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


def test_two_subtasks_in_a_row_in_one_application_become_one_visit() -> None:
    from pcagent.agents.plan import Plan, SubtaskSpec, merge_same_app_visits

    plan = Plan(
        subtasks=[
            SubtaskSpec(id="s1", description="Compute 12 * 7 + 5", app="calculator"),
            SubtaskSpec(id="s1b", description="Show the result", app="calculator",
                        outputs=["shown"]),
            SubtaskSpec(id="s2", description="Press equals", app="calculator", outputs=["r"],
                        inputs=["shown"], depends_on=["s1b"]),
            SubtaskSpec(id="s3", description="Note {r}", app="text_editor", inputs=["r"],
                        depends_on=["s2"]),
            SubtaskSpec(id="s4", description="Save it", app="text_editor", depends_on=["s3"]),
            SubtaskSpec(id="s5", description="Mail {r}", app="mail", inputs=["r"], outputs=["x"],
                        depends_on=["s3"]),
            SubtaskSpec(id="s6", description="Send {x}", app="mail", inputs=["x"],
                        depends_on=["s5"]),
        ]
    )  # fmt: skip
    merged = merge_same_app_visits(plan).subtasks
    assert [s.id for s in merged] == ["s1", "s3", "s5", "s6"]
    assert merged[0].description == "Compute 12 * 7 + 5; then Show the result; then Press equals"
    # a value found and used within the one visit is no input of it
    assert merged[0].outputs == ["shown", "r"] and merged[0].inputs == []
    assert merged[1].depends_on == ["s1"]  # was s2, now merged into s1
    assert merged[1].description == "Note {r}; then Save it"
    # s6 needs x, which s5 finds: kept apart, so {x} is filled in from the hub
    check_plan(merge_same_app_visits(plan))
