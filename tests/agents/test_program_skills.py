"""Which skill a program step calls: one answer for every judgement of a program."""

from __future__ import annotations

from tests.agents.program_steps import FIND_PLACE, READ_MEMO, as_program

from pcagent.agents.program import GUI, parameter_schemas, skill_of, skill_steps
from pcagent.skills import default_catalog

SCREEN = {"id": "s3", "skill": GUI, "app": "text_editor", "task": "look at the note"}


def test_a_gui_step_and_an_unknown_skill_have_no_skill() -> None:
    catalog = default_catalog()
    program = as_program(READ_MEMO, FIND_PLACE, SCREEN)
    assert skill_of(program.steps[0], catalog) is catalog.get("read_text_file")
    assert skill_of(program.steps[2], catalog) is None
    lacking = default_catalog().for_apps({"clock": "alarms"})
    assert "read_text_file" not in lacking
    assert skill_of(program.steps[0], lacking) is None


def test_skill_steps_leaves_out_screen_steps_and_keeps_the_order() -> None:
    catalog = default_catalog()
    program = as_program(READ_MEMO, SCREEN, {**FIND_PLACE, "id": "s2"})
    found = [(step.id, one.name) for step, one in skill_steps(program, catalog)]
    assert found == [("s1", "read_text_file"), ("s2", "extract_values")]


def test_parameter_schemas_are_the_ones_the_model_sees() -> None:
    schemas = parameter_schemas(default_catalog().get("extract_values"))
    assert schemas["names"]["type"] == "array"
    assert "text" in schemas
