"""A skill's choice between a few meanings is asked of a model alone and set in the
program. The real 1.5B model's readings are
measured in benchmarks/choice_readings.py (its quick run is in tests/test_benchmarks.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels, reply
from tests.support import smollm2_config

from pcagent.agents.choice_readings import (
    ChoiceQuestion,
    ChoiceReadingAgent,
    choice_questions,
    with_choices_read,
)
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.program_grammar import program_reply_type
from pcagent.models import ModelRouter
from pcagent.skills import default_catalog

SAID = "Put the films in order from best rated to worst and save the list as ranking.txt."
ITEMS = [{"label": "Alien", "value": 8.5}, {"label": "Heat", "value": 8.3}]
SORTED = {"id": "s1", "skill": "sort_items", "args": {"items": ITEMS, "first": "lowest"}}
SAVED = {
    "id": "s2",
    "skill": "write_text_file",
    "args": {"path": "Documents/ranking.txt", "text": {"from": "s1"}},
}


def _sort_question() -> ChoiceQuestion:
    (question,) = choice_questions(default_catalog(), "sort_items")
    return question


def test_the_marked_parameters_are_the_questions_and_no_grammar_sees_the_mark() -> None:
    catalog = default_catalog()
    question = _sort_question()
    assert question.parameter == "first"
    assert [v for v, _ in question.options] == ["highest", "lowest"]
    assert question.value_of(question.meaning_of("highest") or "") == "highest"
    (place,) = choice_questions(catalog, "follow_result")  # "the top hit" was followed as 3
    assert (place.parameter, [v for v, _ in place.options]) == ("place", [1, 2, 3, 4, 5])
    assert choice_questions(catalog, "pick_extreme") == []  # measured unreliable alone
    assert choice_questions(catalog, "shift_time") == []  # read wrong alone on pc01r1
    assert choice_questions(catalog, "write_text_file") == []
    assert choice_questions(catalog, "no_such_skill") == []
    grammar = json.dumps(program_reply_type(catalog, ["text_editor"], []).model_json_schema())
    assert '"choice"' not in grammar


def test_a_choice_read_otherwise_is_set_and_one_agreeing_or_unread_leaves_the_program() -> None:
    catalog = default_catalog()
    program = as_program(SORTED, SAVED)
    asked: list[tuple[str, str]] = []

    def reads(answer: object):
        def read(said: str, question: ChoiceQuestion) -> object:
            asked.append((said, question.parameter))
            return answer

        return read

    changed = with_choices_read(program, catalog, reads("highest"), SAID)
    assert changed.steps[0].args == {"items": ITEMS, "first": "highest"}
    assert changed.steps[1] == program.steps[1]
    assert asked == [(SAID, "first")]  # only the marked parameter of the one marked skill
    assert with_choices_read(program, catalog, reads("lowest"), SAID) is program
    assert with_choices_read(program, catalog, reads(None), SAID) is program
    # Left to its default: set where the reading is the other value, kept where it is it.
    unwritten = as_program({**SORTED, "args": {"items": ITEMS}}, SAVED)
    assert with_choices_read(unwritten, catalog, reads("lowest"), SAID) is unwritten
    assert with_choices_read(unwritten, catalog, reads("highest"), SAID).steps[0].args == {
        "items": ITEMS,
        "first": "highest",
    }


def test_two_calls_of_the_skill_or_an_earlier_result_are_not_read() -> None:
    catalog = default_catalog()
    asked: list[str] = []

    def read(said: str, question: ChoiceQuestion) -> object:
        asked.append(question.parameter)
        return "highest"

    twice = as_program(SORTED, {**SORTED, "id": "s2"})
    assert with_choices_read(twice, catalog, read, SAID) is twice
    referred = as_program({**SORTED, "args": {"items": ITEMS, "first": {"from": "s0"}}})
    assert with_choices_read(referred, catalog, read, SAID) is referred
    assert asked == []


def test_the_answer_is_the_value_it_means_and_a_broken_reply_reads_nothing() -> None:
    question = _sort_question()
    highest, lowest = (question.meaning_of(v) for v in ("highest", "lowest"))
    for replies, chosen in (
        ([reply(answer=highest)], "highest"),
        ([reply(answer=lowest)], "lowest"),
        (["no json"] * 2, None),
        ([reply(answer="sideways")] * 2, None),  # no meaning of the choice
    ):
        models = ScriptedModels(choice_reading=replies)
        agent = ChoiceReadingAgent(models.for_role("choice_reading"))
        assert agent.chosen(SAID, question) == chosen, replies
    models = ScriptedModels(choice_reading=[reply(answer=highest)] * 2)
    agent = ChoiceReadingAgent(models.for_role("choice_reading"))
    assert agent.chosen(SAID, question) == agent.chosen(SAID, question, reverse=True)
    first, second = models.prompts("choice_reading")
    assert f"Instruction: {SAID}" in first and "Which comes first" in first
    # The options as the skill declares them; reversed, the other way round.
    assert first.index(str(highest)) < first.index(str(lowest))
    assert second.index(str(lowest)) < second.index(str(highest))


def test_the_manager_s_program_takes_the_choice_read_once_per_instruction() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [SORTED, SAVED]})])
    asked: list[str] = []

    def read(said: str, question: ChoiceQuestion) -> object:
        if question.parameter != "first":  # the list's use is read apart (first_or_all)
            return None
        asked.append(said)
        return "highest"

    manager = Manager(
        models.for_role("manager"),
        apps={"text_editor": "text files"},
        skills=default_catalog(),
        readings=InstructionReadings(choices=read),
    )
    plan = manager.plan(SAID).plan
    assert plan.subtasks[0].args["first"] == "highest"
    assert asked == [SAID]


def test_the_real_model_s_reading_is_a_value_of_the_choice_or_none(tmp_path: Path) -> None:
    """Under the reply's grammar the tiny model answers one of the meanings, and the agent
    makes of it the value it means."""
    question = _sort_question()
    answers, chosen = read_by_the_tiny_model(tmp_path, SAID, question)
    assert len(answers) == 1 and chosen == question.value_of(answers[0])


def read_by_the_tiny_model(
    tmp_path: Path, instruction: str, question: ChoiceQuestion
) -> tuple[list[str], object]:
    """The answers smollm2 gave (the meanings) and the value the agent made of them."""
    answers: list[str] = []
    with ModelRouter(smollm2_config(tmp_path)) as router:
        agent = ChoiceReadingAgent(router.for_role(ChoiceReadingAgent.name))
        agent.on_call = lambda _role, result: answers.append(result.value.answer)
        chosen = agent.chosen(instruction, question)
    return answers, chosen
