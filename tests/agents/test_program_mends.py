"""The mends as one: what they do together to a program at the limits of a program."""

from __future__ import annotations

from tests.agents.program_steps import as_program, mended

from pcagent.agents.program import MAX_STEPS

SAID = "Read Documents/plan.txt and tell me the price."
READ = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/plan.txt"}}
SAYS = {"id": "s2", "skill": "tell_user", "args": {"text": {"from": "s1", "key": "price"}}}
TELLS = [
    {"id": f"s{number}", "skill": "tell_user", "args": {"text": f"note {number}"}}
    for number in range(3, MAX_STEPS + 1)
]


def test_a_program_the_mends_would_make_too_long_is_kept_as_written() -> None:
    """A rewording of pc16 without memory (2026-12-04): a program of the most steps grew an
    extraction in a mend, and the next mend's validation ended the whole benchmark run."""
    full = as_program(READ, SAYS, *TELLS)
    assert len(full.steps) == MAX_STEPS
    assert mended(full, SAID) == full


def test_with_room_the_extraction_a_key_asks_for_is_put_in() -> None:
    grown = mended(as_program(READ, SAYS, *TELLS[:-1]), SAID)
    assert [step.skill for step in grown.steps[:3]] == [
        "read_text_file",
        "extract_values",
        "tell_user",
    ]
