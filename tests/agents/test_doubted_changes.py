"""A program kept with its doubts leaves out a doubted step that would move or write over a file
that is there, or make a file or folder under a name nobody gave, with the steps that depend on
it: the real skills' declarations, and the Manager's last ask with scripted replies."""

from __future__ import annotations

import json
from typing import Any

from tests.agents.program_steps import numbered, program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.doubted_changes import without_doubted_changes
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.plan import Doubt
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOCUMENT = "Documents/notes_fr.docx"
READ = {"skill": "read_document", "args": {"path": DOCUMENT}}
TRANSLATE = {"skill": "translate_text", "args": {"text": {"from": "s1"}, "language": "English"}}
BELOW = {
    "skill": "write_document",
    "args": {"path": DOCUMENT, "text": {"from": "s2"}, "append": True},
}
FOLDER = {"skill": "make_folder", "args": {"path": "Documents/Keepsakes"}}
MOVE = {"skill": "move_files", "args": {"files": [DOCUMENT], "into": "Documents/Keepsakes"}}
INVENTED = "neither the instruction nor an earlier step names the folder 'Keepsakes'"


def _there(*paths: str) -> Any:
    return lambda path: path in paths


def test_the_program_stops_before_a_doubted_move_of_the_user_s_file() -> None:
    steps = program(READ, TRANSLATE, BELOW, FOLDER, MOVE)
    doubts = [Doubt("s4", INVENTED), Doubt("s5", INVENTED)]
    kept, left = without_doubted_changes(steps, doubts, CATALOG, _there(DOCUMENT))
    # Making a folder changes nothing that is there; the move would.
    assert [s.id for s in kept.steps] == ["s1", "s2", "s3", "s4"]
    assert [d.step for d in left] == ["s4", "s4"]
    assert left[0].problem == INVENTED
    assert "s5 was left out: s5 would change" in left[1].problem
    assert DOCUMENT in left[1].problem and INVENTED in left[1].problem


def test_a_doubted_write_over_a_file_that_is_there_or_was_read_is_cut_a_new_file_is_not() -> None:
    over = {"skill": "write_text_file", "args": {"path": "Documents/memo.txt", "text": "10"}}
    fresh = {"skill": "write_text_file", "args": {"path": "Documents/new.txt", "text": "10"}}
    doubt = [Doubt("s2", "10 is given by nobody")]
    calc = {"skill": "calculate", "args": {"expression": "5 + 5"}}
    there = _there("Documents/memo.txt")
    assert len(without_doubted_changes(program(calc, over), doubt, CATALOG, there)[0].steps) == 1
    assert len(without_doubted_changes(program(calc, fresh), doubt, CATALOG, there)[0].steps) == 2
    # Without a way to ask the desktop, a file an earlier step read counts as there.
    read = {"skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
    assert len(without_doubted_changes(program(read, over), doubt, CATALOG)[0].steps) == 1


def test_nothing_is_cut_without_a_doubt_on_such_a_step() -> None:
    steps = program(READ, TRANSLATE, BELOW, FOLDER, MOVE)
    only_folder = [Doubt("s4", INVENTED)]
    assert without_doubted_changes(steps, only_folder, CATALOG, _there(DOCUMENT)) == (
        steps,
        only_folder,
    )


def test_where_every_step_would_be_left_out_no_step_is_left() -> None:
    """A doubted move first, and a step that works on the moved file after it: nothing is kept
    (until 2026-12-07 the program then ran as written, the move included)."""
    first = program(MOVE, READ)
    kept, left = without_doubted_changes(first, [Doubt("s1", INVENTED)], CATALOG, _there(DOCUMENT))
    assert kept.steps == []
    (note,) = left
    assert note.step == "s1" and "s1 and s2 were left out: s1 would change" in note.problem


def test_a_re_plan_that_would_only_change_the_person_s_files_on_doubts_falls_back() -> None:
    """A rewording of pc11 at 66e0f23 (2026-12-07): a re-plan copied a remembered program
    whole, an example's workbook, then the person's workbook moved into an example's folder;
    each step was doubted and both ran. Now neither is planned: the failed step is retried on
    the screen, as where no program is usable."""
    from pcagent.agents.plan import Replanning, SubtaskSpec

    said = (
        "Look up two films' ratings in the browser and enter them in movie_rate.xlsx in Documents."
    )
    sheet = {
        "skill": "fill_cells",
        "args": {"rows": [["Parcels weighed", 120]], "save_as": "Documents/bin_counts.xlsx"},
    }
    outbox = {
        "skill": "move_files",
        "args": {"files": ["movie_rate.xlsx"], "into": "Documents/Outbox"},
    }
    written = [{"id": f"s{n}", **step} for n, step in enumerate((sheet, outbox), start=3)]
    models = ScriptedModels(manager=[json.dumps({"steps": written})] * PROGRAM_ATTEMPTS)
    apps = {"browser": "web pages", "spreadsheet": "workbooks", "file_manager": "files"}
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=CATALOG.for_apps(apps),
        is_file=_there("Documents/movie_rate.xlsx", "movie_rate.xlsx"),
        asks_single_steps=False,
    )
    failed = SubtaskSpec(id="s2", description="fill the form on the page", app="browser")
    outcome = manager.replan(Replanning(said, [], {}, failed, "the role gave up"))
    assert outcome.fallback
    assert [s.skill for s in outcome.plan.subtasks] == [""]  # the failed step, on the screen
    assert "would change" in outcome.problem


def test_the_manager_s_last_program_stops_before_the_doubted_folder_and_move() -> None:
    written = numbered(READ, TRANSLATE, BELOW, FOLDER, MOVE)
    models = ScriptedModels(manager=[json.dumps({"steps": written})] * PROGRAM_ATTEMPTS)
    apps = {"writer": "word processor", "file_manager": "files and folders"}
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=CATALOG.for_apps(apps),
        is_file=_there(DOCUMENT),
        asks_single_steps=False,  # tests/agents/test_focused_steps.py
    )
    outcome = manager.plan(f"Add an English translation below the French text of {DOCUMENT}.")
    assert not outcome.fallback
    # The folder nobody named is not made either (its doubt names the path).
    assert [s.skill for s in outcome.plan.subtasks] == [
        "read_document",
        "translate_text",
        "write_document",
    ]
    assert "s4 and s5 were left out" in outcome.plan.subtasks[-1].doubt


def test_a_new_file_or_folder_under_a_name_nobody_gave_is_not_made() -> None:
    """pc11 at 2e14a63: a re-plan copied a remembered program and made an example's file and
    folder; the doubts of the given values name the path, and the program stops before it."""
    from pcagent.agents.given_values import ungiven_literals

    given = ["Look up two films' ratings and fill them into movie_rate.xlsx in Documents."]
    fresh = {"skill": "write_text_file", "args": {"path": "Documents/bin_counts.txt", "text": "9"}}
    calc = {"skill": "calculate", "args": {"expression": "4 + 5"}}
    steps = program(calc, fresh, FOLDER)
    doubts = ungiven_literals(steps, CATALOG, given)
    assert {d.unnamed_path for d in doubts} >= {"Documents/bin_counts.txt", "Documents/Keepsakes"}
    kept, left = without_doubted_changes(steps, doubts, CATALOG, _there())
    assert [s.id for s in kept.steps] == ["s1"]
    assert "s2 and s3 were left out" in left[-1].problem
    assert "Documents/bin_counts.txt" in left[-1].problem
    # A file the instruction names with another ending is doubted, and still named.
    txt = {"skill": "write_text_file", "args": {"path": "Documents/movie_rate.txt", "text": "9"}}
    (ending,) = [d for d in ungiven_literals(program(txt), CATALOG, given) if "path=" in d.problem]
    assert "with .xlsx" in ending.problem and ending.unnamed_path == ""
    # A file the instruction names is made, doubted or not; so is a folder it names.
    named = {"skill": "write_text_file", "args": {"path": "Documents/movie_rate.txt", "text": "9"}}
    steps = program(calc, named)
    kept, _ = without_doubted_changes(steps, [Doubt("s2", "9 is given by nobody")], CATALOG)
    assert len(kept.steps) == 2


def test_a_later_step_that_does_not_depend_on_the_left_out_one_still_runs() -> None:
    # A rewording of pc23 (2026-12-06): the destination written back into the plan, then the
    # days counted on the calculator, which needs nothing of the write.
    plan = "Documents/travel_plan.txt"
    read = {"skill": "read_text_file", "args": {"path": plan}}
    back = {"skill": "write_text_file", "args": {"path": plan, "text": "Tokyo", "append": True}}
    days = {"skill": "calculate", "args": {"expression": "2025-03-03 - 2025-02-18"}}
    told = {"skill": "tell_user", "args": {"text": {"from": "s2"}}}
    reread = {"skill": "read_text_file", "args": {"path": plan}}
    steps = program(read, back, days, told, reread)
    kept, left = without_doubted_changes(steps, [Doubt("s2", "written back")], CATALOG)
    # What used its value (s4) and what reads the path it changed (s5) go with it.
    assert [s.id for s in kept.steps] == ["s1", "s3"]
    (note,) = left
    assert note.step == "s3" and note.problem.startswith("s2, s4 and s5 were left out: s2 would")
    # A screen step after it may rely on what it did: the program is cut there, as before.
    screen = {"skill": "gui", "task": "Check the plan in the editor"}
    kept, _ = without_doubted_changes(
        program(read, back, days, screen), [Doubt("s2", "written back")], CATALOG
    )
    assert [s.id for s in kept.steps] == ["s1"]
