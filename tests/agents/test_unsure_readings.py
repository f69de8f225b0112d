"""A call whose one check is a reading the model gave both ways (the options in one order, then
the other, got different answers) is doubted where its program is kept, and the Manager is not
asked again; a formatting call doubted so is left out, the person's document untouched. The
programs are the 1.5B Manager's, as recorded on rewordings of pc17 and pc22 at 914764a."""

from __future__ import annotations

import json

from tests.agents.program_steps import program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.choice_readings import ChoiceQuestion
from pcagent.agents.first_or_all import FIRST, WHOLE
from pcagent.agents.format_targets import Answers
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.unsure_readings import unsure_readings
from pcagent.skills import default_catalog

CATALOG = default_catalog()
FILMS = ["Leon: The Professional", "The Shawshank Redemption", "2001: A Space Odyssey"]
RATINGS = (
    f"Look up the IMDb ratings of {', '.join(FILMS)} online and save them in Documents as "
    "ratings.txt, highest rating first."
)
LOOKED = {
    "skill": "web_search_each",
    "args": {"things": FILMS, "search": "IMDb rating", "value": "rating", "numbers": True},
}
PICKED = {"skill": "pick_extreme", "args": {"items": {"from": "s1"}, "which": "largest"}}
WRITTEN = {
    "skill": "write_text_file",
    "args": {"path": "Documents/ratings.txt", "text": {"from": "s2", "key": "value"}},
}
DOC = "Documents/test_doc1.docx"
GROW = "In test_doc1.docx (Documents), grow the title's font by one step in Writer and save it."
OPEN = {"id": "s1", "skill": "open_file", "args": {"path": DOC}}
#: Two formattings in one call on the paragraph after the title (one alone would not be read).
FORMATTED = {
    "id": "s2",
    "skill": "format_paragraphs",
    "args": {"path": DOC, "paragraphs": [1], "size_step": "larger", "bold": True, "save": True},
}


def choices(declared: object, reversed_: object):
    """A reading of whole-or-first that answers ``declared`` with the options in the order the
    question declares and ``reversed_`` the other way round."""

    def read(instruction: str, question: ChoiceQuestion) -> object:
        return reversed_ if question.options[0][0] == FIRST else declared

    return read


def targets(answers: Answers):
    """A reading of paragraphs whose two answers are ``answers`` for every formatting."""
    return lambda instruction, formatting: answers


def test_a_pick_read_both_ways_is_doubted_and_one_read_alike_or_unread_is_not() -> None:
    picked = program(LOOKED, PICKED, WRITTEN)
    both = InstructionReadings(choices=choices(WHOLE, FIRST))
    (doubt,) = unsure_readings(picked, CATALOG, both, RATINGS)
    assert doubt.step == "s2" and "read both ways" in doubt.problem
    assert "the highest first" in doubt.problem
    alike = InstructionReadings(choices=choices(FIRST, FIRST))
    assert unsure_readings(picked, CATALOG, alike, RATINGS) == []
    assert unsure_readings(picked, CATALOG, InstructionReadings(), RATINGS) == []
    no_answer = InstructionReadings(choices=choices(WHOLE, None))
    assert unsure_readings(picked, CATALOG, no_answer, RATINGS) == []


def test_a_pick_used_among_other_words_is_not_asked_about_nor_doubted() -> None:
    among = {**WRITTEN, "args": {**WRITTEN["args"], "text": "The best: {s2.label}"}}
    both = InstructionReadings(choices=choices(WHOLE, FIRST))
    assert unsure_readings(program(LOOKED, PICKED, among), CATALOG, both, RATINGS) == []


def test_a_formatting_whose_paragraphs_were_read_both_ways_is_doubted() -> None:
    formatted = program(OPEN, FORMATTED)
    both = InstructionReadings(
        formats=targets(("the title", "the paragraph right after the title"))
    )
    (doubt,) = unsure_readings(formatted, CATALOG, both, GROW)
    assert doubt.step == "s2" and "which paragraphs" in doubt.problem
    alike = InstructionReadings(formats=targets(("the title", "the title")))
    assert unsure_readings(formatted, CATALOG, alike, GROW) == []
    other = InstructionReadings(formats=targets(("other paragraphs", "other paragraphs")))
    assert unsure_readings(formatted, CATALOG, other, GROW) == []


def test_the_manager_keeps_the_doubt_leaves_the_document_alone_and_asks_once() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [OPEN, FORMATTED]})])
    manager = Manager(
        models.for_role("manager"),
        apps={"file_manager": "files", "writer": "documents"},
        skills=CATALOG,
        readings=InstructionReadings(
            formats=targets(("the title", "the paragraph right after the title"))
        ),
        is_file=lambda path: path == DOC,
    )
    steps = manager.plan(GROW).plan.subtasks
    assert [step.skill for step in steps] == ["open_file"]
    assert "left out" in steps[-1].doubt and "read both ways" in steps[-1].doubt
    assert len(models.backends["manager"].requests) == 1
