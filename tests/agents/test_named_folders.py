"""A new file written in HOME itself while the folder the instruction names goes unused is a
doubt: a model lists the folders (beside the files), code keeps those that stand in the
instruction and judges the typed program. The real model's reading runs in
tests/test_benchmarks.py (benchmarks/named_files.py, smollm2)."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.named_files import FileNamesAgent, NamedPlaces
from pcagent.agents.named_folders import folders_left_out, kept_folders
from pcagent.agents.program import ProgramStep
from pcagent.skills import default_catalog

SAID = (
    "Look up the heights of three towers, put them into a new spreadsheet with the names in "
    "column A and keep it as towers.xlsx in the Projects/heights folder."
)
CATALOG = default_catalog()


def _sheet(path: str, step: str = "s1") -> dict[str, object]:
    return {
        "id": step,
        "skill": "fill_cells",
        "args": {"path": path, "rows": [["Tower"]]},
    }


def test_only_folders_standing_in_the_instruction_are_kept() -> None:
    listed = [
        "Projects/heights",
        "~/Projects/heights/",  # the same folder again, written another way
        "towers.xlsx",  # a file
        "Downloads",  # made up
        "https://example.test/",
        "",
    ]
    assert kept_folders(listed, SAID) == ("Projects/heights",)


def test_a_new_file_at_home_s_top_while_the_named_folder_is_unused_is_doubted() -> None:
    program = as_program(_sheet("towers.xlsx"))
    (doubt,) = folders_left_out(program, CATALOG, ["Projects/heights"])
    assert doubt.step == "s1" and doubt.own
    assert "write it as Projects/heights/towers.xlsx" in str(doubt)
    # In the folder (any spelling of it), or in a folder inside it: no doubt.
    for path in ("Projects/heights/towers.xlsx", "~/projects/Heights/towers.xlsx"):
        assert folders_left_out(as_program(_sheet(path)), CATALOG, ["Projects/heights"]) == []
    # A file already there is the person's own, worked on where it is.
    there = folders_left_out(program, CATALOG, ["Projects/heights"], is_file=lambda p: True)
    assert there == []
    # No folder named: nothing to judge.
    assert folders_left_out(program, CATALOG, []) == []


def test_a_named_folder_used_by_another_step_or_a_finished_one_answers_it() -> None:
    made = {"id": "s2", "skill": "make_folder", "args": {"path": "Projects/heights"}}
    program = as_program(_sheet("towers.xlsx"), made)
    assert folders_left_out(program, CATALOG, ["Projects/heights"]) == []
    finished = ProgramStep.model_validate(made)
    alone = as_program(_sheet("towers.xlsx", "s2"))
    assert folders_left_out(alone, CATALOG, ["Projects/heights"], [finished]) == []
    screen = as_program(
        {"id": "s1", "skill": "gui", "app": "spreadsheet", "task": "Save it in Projects/heights"}
    )
    assert folders_left_out(screen, CATALOG, ["Projects/heights"]) == []


def test_the_reading_lists_files_and_folders_in_one_ask() -> None:
    models = ScriptedModels(
        named_files=[reply(files=["towers.xlsx"], folders=["Projects/heights", "Music"])]
    )
    agent = FileNamesAgent(models.for_role("named_files"))
    assert agent.places(SAID) == NamedPlaces(("towers.xlsx",), ("Projects/heights",))
    (request,) = models.backends["named_files"].requests
    assert "folders" in request.messages[0].text


def test_the_manager_is_asked_again_and_keeps_the_doubt_if_the_folder_stays_unused() -> None:
    top = {"steps": [_sheet("towers.xlsx")]}
    inside = {"steps": [_sheet("Projects/heights/towers.xlsx")]}
    apps = {"spreadsheet": "workbooks"}
    for later, doubted in (([inside], False), ([top] * (PROGRAM_ATTEMPTS - 1), True)):
        models = ScriptedModels(manager=[json.dumps(p) for p in (top, *later)])
        manager = Manager(
            models.for_role("manager"),
            apps=apps,
            skills=CATALOG,
            readings=InstructionReadings(folders=lambda _said: ("Projects/heights",)),
            is_file=lambda _path: False,
            asks_single_steps=False,
        )
        outcome = manager.plan(SAID)
        again = models.backends["manager"].requests[1].messages[-1].text
        assert "names the folder 'Projects/heights', which no step uses" in again
        (step,) = outcome.plan.subtasks
        assert bool(step.doubt) is doubted, step
