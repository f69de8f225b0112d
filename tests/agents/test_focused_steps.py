"""A kept program's step asked for alone: the step of an application the instruction asks for
and the program leaves out (added, under a grammar of that application's skills), and a later
step written again for a value found and unused (under a grammar of the later steps' ids and
skills); each kept only where the program stays usable with fewer doubts. Scripted models: the
orchestration; the real tiny model: the grammar; the 1.5B model's programs: docs/results.md."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agents.program_steps import as_program
from tests.agents.scripted import RecordingMemory, ScriptedModels
from tests.agents.test_search_instead import PLACE, READ, TIME
from tests.support import smollm2_config

from pcagent.agents.focused_steps import MOST_REPAIRS, FocusedSteps
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import PROGRAM_ATTEMPTS, Manager
from pcagent.agents.manager_memory import Example
from pcagent.agents.named_apps import AskedApp
from pcagent.agents.plan import Doubt
from pcagent.agents.program import MAX_STEPS, ProgramStep
from pcagent.agents.step_edits import appended, replaced
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog

SAID = "Write two sentences about tea and keep them as the document tea.docx in Documents."
APPS = {
    "text_editor": "plain text editor",
    "writer": "word processor (documents .docx/.odt)",
}
COMPOSE = {"id": "s1", "skill": "compose_text", "args": {"request": "two sentences about tea"}}
WRITE = {
    "id": "s2",
    "skill": "write_document",
    "args": {"path": "Documents/tea.docx", "text": {"from": "s1"}},
}

WRITER_SKILLS = {"write_document", "read_document", "format_paragraphs"}


def _manager(models: ScriptedModels, **options: bool) -> Manager:
    return Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        readings=InstructionReadings(apps=lambda _: (AskedApp("writer", "the document"),)),
        **options,
    )


def _script(app_step: dict[str, object], asks: int = 1) -> ScriptedModels:
    """The Manager writes the program without the writer (once: a program whose only doubts
    are applications left out is not asked for whole again), then ``app_step``."""
    program = json.dumps({"steps": [COMPOSE]})
    return ScriptedModels(manager=[program] * asks + [json.dumps(app_step)])


def test_the_missing_application_s_step_is_asked_for_alone_and_added() -> None:
    models = _script({"steps": [WRITE]})
    outcome = _manager(models).plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["compose_text", "write_document"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    assert models.backends["manager"].remaining == 0  # one whole ask, then the step alone
    request = models.backends["manager"].requests[1]
    asked = request.messages[-1].text
    assert f"Instruction: {SAID}" in asked
    assert json.dumps(COMPOSE, separators=(",", ":")) in asked  # the program so far
    assert 'asks for the writer ("the document"), and no step uses it' in asked
    assert "Write the step s2 " in asked
    # Only the writer's skills are offered, in the prompt and in the grammar.
    system = request.messages[0].text
    assert "- write_document(" in system and "compose_text(" not in system
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    offered = {b["properties"]["skill"]["const"] for b in branches}
    assert offered == {*WRITER_SKILLS, "gui"}
    (gui,) = [b for b in branches if b["properties"]["skill"]["const"] == "gui"]
    assert gui["properties"]["app"] == {"enum": ["writer"]}
    assert gui["properties"]["id"] == {"enum": ["s2"]}
    assert request.schema["properties"]["steps"]["maxItems"] == 1


def test_a_step_that_is_unusable_or_adds_doubts_is_not_added() -> None:
    dangling = WRITE | {"args": {"path": "Documents/tea.docx", "text": {"from": "s7"}}}
    for reply in ({"steps": [dangling]}, "not json at all"):
        models = ScriptedModels(
            manager=[json.dumps({"steps": [COMPOSE]})]
            + [reply if isinstance(reply, str) else json.dumps(reply)] * 2
        )
        outcome = _manager(models).plan(SAID)
        assert [s.skill for s in outcome.plan.subtasks] == ["compose_text"]
        assert "no step uses it" in outcome.plan.subtasks[-1].doubt
    # A document nobody named: the writer is used, a new doubt comes. (An invented text alone
    # is no longer one: it takes the composed text left unused, agents/made_up_texts.py.)
    invented = WRITE | {"args": {"path": "Documents/coffee.docx", "text": {"from": "s1"}}}
    models = _script({"steps": [invented]})
    outcome = _manager(models).plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["compose_text"]


def test_off_it_asks_nothing_more() -> None:
    # Off, the program is asked for whole each time, and no step alone.
    models = _script({"steps": [WRITE]}, asks=PROGRAM_ATTEMPTS)
    outcome = _manager(models, asks_single_steps=False).plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["compose_text"]
    assert models.backends["manager"].remaining == 1


def test_an_added_step_whose_id_is_taken_gets_the_next_free_one() -> None:
    program = as_program(COMPOSE, WRITE)
    again = ProgramStep.model_validate(WRITE | {"id": "s1"})
    longer = appended(program, [again, ProgramStep.model_validate(WRITE | {"id": "s9"})])
    assert [s.id for s in longer.steps] == ["s1", "s2", "s3", "s9"]
    assert longer.steps[2].args == WRITE["args"]  # references left as written
    assert [s.id for s in program.steps] == ["s1", "s2"]


def test_the_real_model_writes_a_step_of_that_application_alone(tmp_path: Path) -> None:
    """Under the step's grammar even the tiny model writes a step of the missing application:
    one of its skills, or a screen step in it (what it writes is meaningless; its kind is
    what the grammar holds)."""
    program = as_program(COMPOSE)
    doubt = Doubt("s1", "the writer is asked for and not used")
    with ModelRouter(smollm2_config(tmp_path)) as router:
        model = router.for_role("manager")
        ask = FocusedSteps(
            default_catalog(),
            list(APPS),
            lambda messages, reply_type: model.ask(messages, reply_type).value,
            mend=lambda longer: longer,
            problems=lambda _longer: [],
            doubts=lambda _longer: [],
            unused_apps=lambda _program: [AskedApp("writer", "the document")],
        )
        longer, doubts = ask.improved(SAID, program, [doubt])
    assert doubts == [] and longer.steps[0] == program.steps[0]
    added = longer.steps[1:]
    assert added and all(s.skill in WRITER_SKILLS or s.app == "writer" for s in added)


MEETING = "Read Documents/memo.txt, find where I meet Ann, and search the web for the walk there."
START = {"label": "From", "value": "Central Station"}  # nobody gave it either
SEARCH = {"id": "s3", "skill": "web_search", "args": {"query": "walk to the meeting memo.txt"}}


def _meeting_manager(models: ScriptedModels) -> Manager:
    apps = {"text_editor": "plain text editor", "browser": "web pages"}
    return Manager(models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps))


def test_a_later_step_is_written_again_alone_to_use_a_value_found() -> None:
    program = json.dumps({"steps": [READ, PLACE, SEARCH]})
    again = {"id": "s3", "skill": "web_search", "args": {"query": "walk to {s2.place}"}}
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [again]})])
    outcome = _meeting_manager(models).plan(MEETING)
    assert outcome.plan.subtasks[2].args == {"query": "walk to {s2.place}"}
    # The value is used now; only the search left last is doubted (ends_on_reading).
    assert [s.doubt.split(" ends ")[0] for s in outcome.plan.subtasks if s.doubt] == ["s3"]
    request = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    assert "s2 finds place, and no later step uses it" in request.messages[-1].text
    assert "Write again the later step that needs what s2 found" in request.messages[-1].text
    # The reply may only be one of the later steps, calling one of their skills.
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    assert {b["properties"]["skill"]["const"] for b in branches} == {"web_search", "gui"}
    assert all(b["properties"]["id"] == {"enum": ["s3"]} for b in branches)


def test_the_later_step_that_writes_the_value_out_in_words_is_the_one_asked_for() -> None:
    """The map's "To" holds "meeting place" where s2 found the place: that step is asked for,
    not the first later step (an address that needs nothing found). ("Ann's place" would be
    mended into the reference before: tests/agents/test_found_values_named.py; so would "To"
    alone with words nobody gave: tests/agents/test_invented_cells.py. Here "From" has such
    words too, and which field was meant is the model's to say.)"""
    both = {**PLACE, "args": {**PLACE["args"], "names": ["time", "place"]}}  # type: ignore[dict-item]
    site = {"id": "s3", "skill": "open_page", "args": {"address": "maps.example"}}
    # A later step that names the time already used (by reference) is not one to write again.
    late = {"id": "s5", "skill": "tell_user", "args": {"text": "at {s2.time}, the way: {s4}"}}
    form = {
        "id": "s4",
        "skill": "fill_form",
        "args": {"fields": [START, {"label": "To", "value": "meeting place"}]},
    }
    program = json.dumps({"steps": [READ, both, site, form, late]})
    again = {**form, "args": {"fields": [{"label": "To", "value": "{s2.place}"}]}}
    # Then the address nobody gave is asked for alone: the model writes it as it was.
    replies = [program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [again]})]
    models = ScriptedModels(manager=[*replies, json.dumps({"steps": [site]})])
    outcome = _meeting_manager(models).plan(MEETING)
    request = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    assert all(b["properties"]["id"] == {"enum": ["s4"]} for b in branches)
    assert outcome.plan.subtasks[3].args["fields"] == [{"label": "To", "value": "{s2.place}"}]


def test_a_rewrite_that_still_leaves_the_value_out_is_not_kept() -> None:
    program = json.dumps({"steps": [READ, PLACE, SEARCH]})
    same = {"id": "s3", "skill": "web_search", "args": {"query": "walk to the meeting"}}
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [same]})])
    outcome = _meeting_manager(models).plan(MEETING)
    assert outcome.plan.subtasks[2].args == SEARCH["args"]
    assert "no later step uses it" in outcome.plan.subtasks[1].doubt


def test_the_step_after_a_result_worked_out_last_is_asked_for_and_added() -> None:
    """pc01r2 (2026-11-28): the time an hour before the call worked out last, no alarm set."""
    said = "Read Documents/memo.txt and set an alarm an hour before my call with Ann."
    apps = {"text_editor": "plain text editor", "clock": "alarms"}
    when = {"id": "s2", "skill": "extract_values", "args": {**PLACE["args"], "names": ["time"]}}
    earlier = {
        "id": "s3",
        "skill": "shift_time",
        "args": {"time": {"from": "s2", "key": "time"}, "direction": "before", "hours": 1},
    }
    alarm = {"id": "s4", "skill": "set_alarm", "args": {"time": {"from": "s3"}}}
    program = json.dumps({"steps": [READ, when, earlier]})
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [alarm]})])
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan(said)
    assert [s.skill for s in outcome.plan.subtasks][-2:] == ["shift_time", "set_alarm"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    request = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    assert "works out a value with shift_time last" in request.messages[-1].text
    assert "Write the step s4 that uses the value of s3" in request.messages[-1].text
    # One new step, of a skill that works in an application or tells: no other working out.
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    offered = {b["properties"]["skill"]["const"] for b in branches}
    assert {"set_alarm", "tell_user", "gui"} <= offered
    assert not offered & {"shift_time", "days_between", "pick_extreme", "sort_items"}
    assert all(b["properties"]["id"] == {"enum": ["s4"]} for b in branches)


def test_a_full_program_gets_no_step_added_and_the_plan_stands() -> None:
    """A program of the most steps that leaves the writer out: no step can be added (asked
    for, the step made a program too long to build again, and the error ended a whole
    benchmark run, 2026-12-02); the program is kept with its doubt."""
    # Each text composed from the one before (an unused one would be dropped as a mend).
    full = [
        COMPOSE
        | {
            "id": f"s{n}",
            "args": {"request": f"sentence {n} about tea"}
            | ({"facts": {"from": f"s{n - 1}"}} if n > 1 else {}),
        }
        for n in range(1, MAX_STEPS + 1)
    ]
    models = ScriptedModels(manager=[json.dumps({"steps": full}), json.dumps({"steps": [WRITE]})])
    outcome = _manager(models).plan(SAID)
    assert not outcome.fallback
    assert len(outcome.plan.subtasks) == MAX_STEPS
    assert "no step uses it" in outcome.plan.subtasks[-1].doubt


def test_replaced_puts_a_step_in_the_place_of_its_id() -> None:
    program = as_program(READ, PLACE, SEARCH)
    again = ProgramStep.model_validate(SEARCH | {"args": {"query": "{s2.place}"}})
    changed = replaced(program, [again])
    assert [s.id for s in changed.steps] == ["s1", "s2", "s3"]
    assert changed.steps[2].args == {"query": "{s2.place}"}
    assert replaced(program, [ProgramStep.model_validate(SEARCH | {"id": "s9"})]) == program


def test_an_unusable_program_has_its_faulty_step_written_again_alone() -> None:
    """No ask gave a usable program: its first faulty step is asked for alone, with its
    problems, before the instruction becomes one GUI task."""
    dangling = {"id": "s3", "skill": "web_search", "args": {"query": "walk to {s7.place}"}}
    program = json.dumps({"steps": [READ, PLACE, dangling]})
    fixed = {"id": "s3", "skill": "web_search", "args": {"query": "walk to {s2.place}"}}
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [fixed]})])
    outcome = _meeting_manager(models).plan(MEETING)
    assert not outcome.fallback
    assert [s.args for s in outcome.plan.subtasks][2] == {"query": "walk to {s2.place}"}
    request = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    assert "What is wrong with step s3: s3: " in request.messages[-1].text and "s7" in (
        request.messages[-1].text
    )
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    assert all(b["properties"]["id"] == {"enum": ["s3"]} for b in branches)
    assert len(branches) > 10  # any skill may do the step


def test_a_program_that_stays_unusable_falls_back_after_two_repairs() -> None:
    dangling = {"id": "s3", "skill": "web_search", "args": {"query": "walk to {s7.place}"}}
    program = json.dumps({"steps": [READ, PLACE, dangling]})
    models = ScriptedModels(manager=[program] * (PROGRAM_ATTEMPTS + MOST_REPAIRS))
    outcome = _meeting_manager(models).plan(MEETING)
    assert outcome.fallback and "s7" in outcome.problem
    assert models.backends["manager"].remaining == 0


def test_a_step_whose_own_values_are_doubted_is_written_again_alone() -> None:
    """An address nobody gave, written in every program: that step is asked for alone, with
    its doubt, and the model's search in its place is kept (no doubt left)."""
    guessed = {"id": "s1", "skill": "open_page", "args": {"address": "maps.example.com/walk"}}
    extract = TIME | {"id": "s2", "args": {**TIME["args"], "text": {"from": "s1"}}}  # type: ignore[dict-item]
    tell = {"id": "s3", "skill": "tell_user", "args": {"text": "{s2.minutes} minutes"}}
    program = json.dumps({"steps": [guessed, extract, tell]})
    search = {"id": "s1", "skill": "web_search", "args": {"query": "walk to the museum"}}
    models = ScriptedModels(
        manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [search]})]
    )
    outcome = _meeting_manager(models).plan("How long is the walk to the museum?")
    assert outcome.plan.subtasks[0].args == search["args"]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    asked = models.backends["manager"].requests[PROGRAM_ATTEMPTS].messages[-1].text
    assert "What is wrong with step s1: address='maps.example.com/walk' is not in" in asked


def test_the_application_s_step_is_shown_memory_s_program_that_calls_one_of_its_skills() -> None:
    """Asked for the writer's step with only the skills' parameters to go by, the 1.5B model
    filled every one of them; a remembered program shows the few a task sets."""
    example = Example('Put "hi" in a.docx', ({"skill": "write_document"},))
    remembered = 'Instruction: Put "hi" in a.docx\nProgram: {"steps":[{"skill":"write_document"}]}'
    memory = RecordingMemory(reply=[example], first=[example])
    models = _script({"steps": [WRITE]})
    manager = Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=default_catalog().for_apps(APPS),
        readings=InstructionReadings(apps=lambda _: (AskedApp("writer", "the document"),)),
        memory=memory,
    )
    outcome = manager.plan(SAID)
    assert [s.skill for s in outcome.plan.subtasks] == ["compose_text", "write_document"]
    asked = models.backends["manager"].requests[1].messages[-1].text
    assert asked.index(remembered) < asked.index(f"Instruction: {SAID}")
    assert set(memory.asks[-1].using) == WRITER_SKILLS
    # Without memory the step's prompt holds no example.
    models = _script({"steps": [WRITE]})
    _manager(models).plan(SAID)
    assert "similar earlier task" not in models.backends["manager"].requests[1].messages[-1].text


def test_a_value_worked_out_last_beside_an_application_left_out_asks_for_that_step() -> None:
    """gen-2041-9: two films' ratings looked up and sorted, and no sheet written; re-asked
    whole, the Manager wrote an example's sheet. The spreadsheet's step is asked for alone and
    takes the sorted rows."""
    said = 'List "Small Hours" and "Dawn" by their ratings, lowest first, in Documents/f.xlsx.'
    looked = {
        "id": "s1",
        "skill": "web_search_each",
        "args": {"things": ["Small Hours", "Dawn"], "search": "imdb rating", "value": "rating"},
    }
    ordered = {
        "id": "s2",
        "skill": "sort_items",
        "args": {"items": {"from": "s1"}, "first": "lowest"},
    }
    sheet = {
        "id": "s3",
        "skill": "fill_cells",
        "args": {"rows": {"from": "s2"}, "save_as": "Documents/f.xlsx"},
    }
    apps = {"browser": "web browser", "spreadsheet": "spreadsheet (workbooks .xlsx)"}
    models = ScriptedModels(
        manager=[json.dumps({"steps": [looked, ordered]}), json.dumps({"steps": [sheet]})]
    )
    manager = Manager(
        models.for_role("manager"),
        apps=apps,
        skills=default_catalog().for_apps(apps),
        readings=InstructionReadings(apps=lambda _: (AskedApp("spreadsheet", "a spreadsheet"),)),
    )
    outcome = manager.plan(said)
    assert [s.skill for s in outcome.plan.subtasks] == [
        "web_search_each",
        "sort_items",
        "fill_cells",
    ]
    assert not any(s.doubt for s in outcome.plan.subtasks)
    assert models.backends["manager"].remaining == 0  # one whole ask, then the step alone
    assert "Write the step s3 " in models.backends["manager"].requests[1].messages[-1].text


def test_a_step_written_again_as_the_step_its_doubt_asks_for_feeds_the_step() -> None:
    """A rewording of pc09 (2026-12-04): the document's text was the instruction's words; asked
    for that step alone, the model wrote the ``compose_text`` its doubt asks for. That step is
    put before the document, whose text takes its value, rather than in the document's place."""
    said = (
        "I need a short document saved as Brief in my Documents folder: one paragraph that "
        "introduces tea and a second one that introduces coffee."
    )
    described = "one paragraph that introduces tea and a second one that introduces coffee"
    copied = {
        "id": "s1",
        "skill": "write_document",
        "args": {"path": "Documents/Brief.docx", "text": described},
    }
    composed = {
        "id": "s1",
        "skill": "compose_text",
        "args": {"request": described, "paragraphs": 2},
    }
    program = json.dumps({"steps": [copied]})
    models = ScriptedModels(
        manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [composed]})]
    )
    outcome = _manager(models).plan(said)
    skills = [(s.skill, s.args) for s in outcome.plan.subtasks]
    assert [skill for skill, _ in skills] == ["compose_text", "write_document"], skills
    compose, write = outcome.plan.subtasks
    assert write.args["path"] == "Documents/Brief.docx"
    assert write.args["text"] == {"from": compose.id}
    assert not any(s.doubt for s in outcome.plan.subtasks)


def test_a_step_written_again_never_takes_an_application_s_last_step_away() -> None:
    """pc19 (2026-12-05): the mail's step written again for an address nobody gave came back as
    the file's save once more; the repeat was dropped and the program, sending nothing, had
    fewer doubts. Such a rewrite is not kept: the mail's step stays, with its doubt."""
    said = "Write two sentences about tea into tea.txt in Documents and mail it to Howie."
    write = {
        "id": "s2",
        "skill": "write_text_file",
        "args": {"path": "Documents/tea.txt", "text": {"from": "s1"}},
    }
    mail = {
        "id": "s3",
        "skill": "send_mail",
        "args": {"to": ["anika.roy@example.test"], "attachments": ["Documents/tea.txt"]},
    }
    program = json.dumps({"steps": [COMPOSE, write, mail]})
    again = json.dumps({"steps": [write | {"id": "s3"}]})
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [again])
    apps = {"text_editor": "plain text editor", "mail": "e-mail"}
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan(said)
    assert [s.skill for s in outcome.plan.subtasks] == [
        "compose_text",
        "write_text_file",
        "send_mail",
    ]
    assert "anika.roy@example.test" in outcome.plan.subtasks[2].doubt
    asked = models.backends["manager"].requests[PROGRAM_ATTEMPTS].messages[-1].text
    assert "What is wrong with step s3" in asked


def test_the_step_taking_another_value_of_the_unused_name_is_the_one_asked_for() -> None:
    """The meeting's time is found (s2) and unused; the alarm takes the trip's ``time`` (s4)
    instead. The alarm is the step offered, not the search or the trip's extraction (pc03 at
    27d0e28, 2026-12-07: offered every later step, the model wrote the extraction again)."""
    said = "Read Documents/memo.txt for my meeting and set an alarm for when to leave."
    apps = {"text_editor": "plain text editor", "browser": "web pages", "clock": "alarms"}
    found = {**PLACE, "args": {**PLACE["args"], "names": ["time", "place"]}}  # type: ignore[dict-item]
    search = {"id": "s3", "skill": "web_search", "args": {"query": "trip to {s2.place}"}}
    trip = {
        "id": "s4",
        "skill": "extract_values",
        "args": {"text": {"from": "s3"}, "names": ["time"], "what": "the trip's length"},
    }
    alarm = {"id": "s5", "skill": "set_alarm", "args": {"time": {"from": "s4", "key": "time"}}}
    again = {
        **alarm,
        "args": {"time": {"from": "s2", "key": "time"}, "minutes_before": {"from": "s4"}},
    }
    program = json.dumps({"steps": [READ, found, search, trip, alarm]})
    models = ScriptedModels(manager=[program] * PROGRAM_ATTEMPTS + [json.dumps({"steps": [again]})])
    manager = Manager(
        models.for_role("manager"), apps=apps, skills=default_catalog().for_apps(apps)
    )
    outcome = manager.plan(said)
    request = models.backends["manager"].requests[PROGRAM_ATTEMPTS]
    assert "s2 finds time, and no later step uses it" in request.messages[-1].text
    branches = request.schema["properties"]["steps"]["items"]["anyOf"]
    assert all(b["properties"]["id"] == {"enum": ["s5"]} for b in branches)
    assert {b["properties"]["skill"]["const"] for b in branches} == {"set_alarm", "gui"}
    assert outcome.plan.subtasks[4].args["time"] == {"from": "s2", "key": "time"}
