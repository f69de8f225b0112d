"""A named part of something read, copied where a subtask says to write it."""

from __future__ import annotations

from pcagent.agents.sections import copied_part, found_section, section

PAGE = """Teapots Are All You Need
Authors: A. Brewer

Abstract
We show that a teapot
keeps tea warm for 40 minutes.

Download PDF"""


def test_the_part_a_subtask_says_to_write() -> None:
    assert copied_part("write the abstract into it") == "abstract"
    assert copied_part("Copy its summary to the mail") == "summary"
    # writing something new is the Composer's
    assert copied_part("write an English translation of its text below the main text") == ""
    assert copied_part("write what you find into a new document") == ""


def test_a_part_under_its_heading_or_after_its_name() -> None:
    assert section("abstract", PAGE) == "We show that a teapot keeps tea warm for 40 minutes."
    assert section("authors", PAGE) == "A. Brewer"
    assert section("conclusion", PAGE) is None
    values = {"s1_answer": "a URL", "s1_read": PAGE}
    assert (
        found_section("Abstract", values) == "We show that a teapot keeps tea warm for 40 minutes."
    )
