"""A text to write copied from the instruction's description of it is a doubt: the real
skills' declarations, gold programs of generated tasks, and the evidence's wiring."""

from __future__ import annotations

from tests.agents.program_steps import program

from pcagent.agents.described_texts import described_texts
from pcagent.agents.doubts import Evidence
from pcagent.agents.program import Program
from pcagent.bench.generate import generate_tasks
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    "I need a short document saved as Companies in my Documents folder: one paragraph that "
    "introduces Alibaba and a second one that introduces OpenAI."
)
DESCRIBED = "One paragraph that introduces Alibaba and a second one that introduces OpenAI."


def _written(text: str) -> Program:
    args = {"path": "Documents/Companies.docx", "text": text}
    return program({"skill": "write_document", "args": args})


def test_the_instruction_s_description_written_as_the_text_is_doubted() -> None:
    (doubt,) = described_texts(_written(DESCRIBED), CATALOG, [SAID])
    assert doubt.step == "s1" and doubt.own and doubt.skills == ("compose_text",)
    assert "copies the instruction's words" in doubt.problem
    # Through the evidence every program is judged against.
    doubts = Evidence([SAID]).doubts(_written(DESCRIBED), CATALOG)
    assert any("copies the instruction's words" in d.problem for d in doubts)


def test_a_quoted_text_a_short_one_a_found_one_or_a_composed_one_is_not() -> None:
    quoted = 'Write the sentence "the meeting moves to Friday at noon" into Documents/note.docx.'
    text = "The meeting moves to Friday at noon"
    assert described_texts(_written(text), CATALOG, [quoted]) == []
    assert described_texts(_written("hello there"), CATALOG, ["Type hello there in a doc."]) == []
    found = f"Paragraphs: {DESCRIBED}"  # a value an earlier step found holds it
    assert described_texts(_written(DESCRIBED), CATALOG, [SAID, found]) == []
    assert described_texts(_written("{s1}"), CATALOG, [SAID]) == []


def test_no_gold_program_of_generated_tasks_is_doubted() -> None:
    tasks = [t for t in generate_tasks(300, 31) if t.program]
    quoted = [t for t in tasks if '"' in t.instruction]
    assert len(quoted) > 10  # tried on instructions that quote texts
    for task in tasks:
        steps = Program(steps=list(task.program or ()))
        assert described_texts(steps, CATALOG, [task.instruction]) == [], task.id
