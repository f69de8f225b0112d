"""A text made up for a document, where one composed text goes unused, becomes that text;
anything less clear is left to the doubts."""

from __future__ import annotations

import json
from typing import Any

from tests.agents.program_steps import as_program, gold_programs, planned_alone
from tests.agents.scripted import ScriptedModels

from pcagent.agents.made_up_texts import with_unused_text_in_made_up_text, without_unused_texts
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "Create a new document in the word processor. Write two paragraphs, one introducing "
    "Alibaba and one introducing OpenAI, and save the document as TechCompanies in the "
    "Documents folder."
)
COMPOSE = {
    "id": "s1",
    "skill": "compose_text",
    "args": {"request": "one paragraph introducing Alibaba, one OpenAI", "paragraphs": 2},
}


def _write(text: Any, step: str = "s2", path: str = "Documents/TechCompanies.docx") -> dict:
    return {"id": step, "skill": "write_document", "args": {"path": path, "text": text}}


def test_the_one_made_up_text_takes_the_one_unused_composed_text() -> None:
    """pc09 (2026-12-05): an example's line written into the new document, twice re-asked."""
    program = as_program(COMPOSE, _write("Parcels weighed this week: 51"))
    mended = with_unused_text_in_made_up_text(program, CATALOG, [SAID])
    assert mended.steps[1].args["text"] == {"from": "s1"}
    assert mended.steps[1].args["path"] == "Documents/TechCompanies.docx"


def test_what_is_not_plainly_the_composed_text_is_left_as_written() -> None:
    made_up = "Parcels weighed this week: 51"
    # The composed text already used; the text the instruction's own words; two made-up texts;
    # the made-up text before the composing step; no composing step at all.
    used = as_program(COMPOSE, _write({"from": "s1"}), _write(made_up, "s3", "Documents/b.docx"))
    given = as_program(COMPOSE, _write("introducing Alibaba"))
    two = as_program(COMPOSE, _write(made_up), _write("Another line", "s3", "Documents/b.docx"))
    before = as_program(_write(made_up, "s1"), {**COMPOSE, "id": "s2"})
    alone = as_program(_write(made_up, "s1"))
    for program in (used, given, two, before, alone):
        assert with_unused_text_in_made_up_text(program, CATALOG, [SAID]) == program


def test_the_manager_keeps_the_mended_program_without_asking_again() -> None:
    written = {"steps": [COMPOSE, _write("Parcels weighed this week: 51")]}
    models = ScriptedModels(manager=[json.dumps(written)], composer=[])
    outcome = planned_alone(models.for_role("manager"), {"writer": "word processor"}, SAID)
    write = outcome.plan.subtasks[1]
    assert write.args["text"] == {"from": "s1"}
    assert not write.doubt and len(models.backends["manager"].requests) == 1


def test_a_text_written_and_used_by_no_later_step_is_dropped() -> None:
    """A rewording of pc04 (2026-12-05): the destination translated into English and the
    search made with the untranslated value; the translation's failure ended the run."""
    read = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/travel_plan.txt"}}
    find = {
        "id": "s2",
        "skill": "extract_values",
        "args": {"text": {"from": "s1"}, "names": ["destination"], "what": "the destination"},
    }
    translate = {
        "id": "s3",
        "skill": "translate_text",
        "args": {"text": {"from": "s2", "key": "destination"}, "language": "English"},
    }
    search = {"id": "s4", "skill": "web_search", "args": {"query": "traffic {s2.destination}"}}
    program = as_program(read, find, translate, search)
    assert [s.id for s in without_unused_texts(program, CATALOG).steps] == ["s1", "s2", "s4"]
    # Used by a later step (a reference, or a screen step's words), or the last step: kept.
    used = as_program(read, find, translate, {**search, "args": {"query": "{s3} traffic"}})
    told = as_program(
        read,
        find,
        translate,
        {"id": "s4", "skill": "gui", "app": "browser", "task": "search for {s3}"},
    )
    last = as_program(read, find, translate)
    for program in (used, told, last):
        assert without_unused_texts(program, CATALOG) == program


def test_no_gold_program_of_generated_tasks_is_changed() -> None:
    checked = 0
    for task, gold in gold_programs():
        checked += 1
        assert with_unused_text_in_made_up_text(gold, CATALOG, [task.instruction]) == gold
        assert without_unused_texts(gold, CATALOG) == gold
    assert checked >= 300
