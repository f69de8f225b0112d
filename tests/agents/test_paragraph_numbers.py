"""A paragraph's number must be one the instruction says (in digits or words), or the title's or
the first's; the skill's own words stand for the rest."""

from __future__ import annotations

from tests.agents.program_steps import as_program

from pcagent.agents.doubts import Evidence
from pcagent.agents.paragraph_numbers import said_numbers, unsaid_paragraphs
from pcagent.skills import default_catalog

SAID = "Underline the final paragraph of Documents/a.docx and center its title."


def _format(paragraphs: list[object], **change: object) -> dict[str, object]:
    return {
        "id": "s1",
        "skill": "format_paragraphs",
        "args": {"path": "Documents/a.docx", "paragraphs": paragraphs, **change},
    }


def _doubts(instruction: str, paragraphs: list[object], *found: str) -> list[str]:
    program = as_program(_format(paragraphs, underline=True))
    return [d.problem for d in unsaid_paragraphs(program, default_catalog(), [instruction, *found])]


def test_a_paragraph_number_the_instruction_does_not_say_is_the_step_s_own_doubt() -> None:
    """pc13r2 (2026-12-02): underline and centre written as one call on paragraph 3."""
    program = as_program(_format([3], underline=True, alignment="center"))
    (doubt,) = unsaid_paragraphs(program, default_catalog(), [SAID])
    assert doubt.step == "s1" and doubt.own and "paragraph 3" in doubt.problem
    # The evidence of every program holds it.
    assert any("paragraph 3" in str(d) for d in Evidence([SAID]).doubts(program, default_catalog()))
    assert not _doubts(SAID, ["last"]) and not _doubts(SAID, ["title", -1])


def test_numbers_said_in_digits_or_words_and_the_title_and_first_pass() -> None:
    assert not _doubts("Make the first two paragraphs of a.docx bold.", [1, 2])
    assert not _doubts("Double-space the third paragraph of a.docx.", [3])
    assert not _doubts("Bold paragraph 4 of a.docx.", [4])
    assert _doubts("Bold paragraph 4 of a.docx.", [5])
    assert not _doubts("Double-space the paragraph after the title of a.docx.", [0, 1])
    # A re-plan after the document was read may count its paragraphs.
    assert not _doubts(SAID, [3], "Title\nOne.\nTwo.\nThree.")
    assert said_numbers(["Two of the Seventh, 12 and 3.5"]) == {2, 7, 12, 3, 5}
