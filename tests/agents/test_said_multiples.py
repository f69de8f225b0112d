"""A line spacing must be one the instruction says, in digits or in words; a spacing copied from
a remembered example is the step's own doubt."""

from __future__ import annotations

from tests.agents.program_steps import as_program, gold_programs

from pcagent.agents.doubts import Evidence
from pcagent.agents.said_multiples import said_multiples, unsaid_multiples
from pcagent.skills import default_catalog

SAID = "Underline the final paragraph of Documents/a.docx and center its title."


def _doubts(instruction: str, spacing: object, *found: str) -> list[str]:
    step = {
        "id": "s1",
        "skill": "format_paragraphs",
        "args": {"path": "Documents/a.docx", "paragraphs": ["last"], "line_spacing": spacing},
    }
    program = as_program(step)
    return [d.problem for d in unsaid_multiples(program, default_catalog(), [instruction, *found])]


def test_a_spacing_nobody_said_is_the_step_s_own_doubt() -> None:
    """pc13r1 and pc13r2 (2026-12-04): the underline written as double spacing."""
    step = {
        "id": "s2",
        "skill": "format_paragraphs",
        "args": {"path": "Documents/a.docx", "paragraphs": ["last"], "line_spacing": 2.0},
    }
    program = as_program(step)
    (doubt,) = unsaid_multiples(program, default_catalog(), [SAID])
    assert doubt.step == "s2" and doubt.own and "line spacing of 2" in doubt.problem
    assert any(
        "line_spacing=2.0" in str(d) for d in Evidence([SAID]).doubts(program, default_catalog())
    )


def test_spacings_said_in_digits_or_words_pass() -> None:
    assert not _doubts("Set the line spacing of a.docx's first two paragraphs to 1.5.", 1.5)
    assert not _doubts("I want the paragraph after the title double-spaced.", 2.0)
    assert not _doubts("Give the last paragraph one and a half line spacing.", 1.5)
    assert not _doubts("Single spacing for the whole of a.docx, please.", 1)
    assert not _doubts("Space the last paragraph two lines apart.", 2)
    assert _doubts("Set the line spacing of the last paragraph to 1.5.", 2.0)
    assert _doubts("Make the last paragraph double-spaced.", 1.5)
    # A digit of a file's name says no spacing (a rewording of pc13, 2026-12-05).
    assert _doubts("Center the title of test_doc2.docx and underline its last paragraph.", 2.0)
    # A value found may say it too; an unset spacing is never doubted.
    assert not _doubts(SAID, 1.15, "The style guide asks for 1.15 line spacing.")
    assert not _doubts(SAID, None)
    assert said_multiples(["Double or one-and-a-half, not 3.25"]) >= {2.0, 1.5, 3.25, 1.0}


def test_no_gold_program_of_the_generated_tasks_is_doubted() -> None:
    catalog = default_catalog()
    spaced = 0
    for task, program in gold_programs((7, 31, 77, 102, 2041), 200):
        spaced += any("line_spacing" in step.args for step in program.steps)
        assert not unsaid_multiples(program, catalog, [task.instruction]), task.instruction
    assert spaced  # the seeds hold formatting tasks that set a spacing
