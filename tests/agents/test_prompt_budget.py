"""What the Decision prompt leaves out: marks no offered action can use, and the lines of an
earlier subtask's long reading that do not concern this subtask."""

from __future__ import annotations

from pcagent.agents.prompt_budget import (
    ARGUMENT_CHARACTERS,
    HUB_VALUE_CHARACTERS,
    MARKS_LEFT_OUT,
    fewer_marks,
    reading_once,
    relevant_text,
    relevant_values,
    screen_marks,
    shown_once,
    skill_call_text,
)

LISTING = (
    'marks: number role "label" =value states @x,y (centre, screen pixels)\n'
    '1 menu "File" @19,36\n'
    '2 button "Save" @114,67\n'
    '82 cell "A1" ="Alpha" focused @82,194'
)

PAGE = "\n".join(
    [
        "Offline Search",
        *(
            f"Result {n}: an unrelated line about gardening and weather number {n}"
            for n in range(20)
        ),
        "Kettle Works Ltd (KTL) last closed at $12.50.",
        "Teapot Group (TPG) last closed at $7.25.",
        *(f"Footer {n}: more filler about travel and recipes" for n in range(10)),
    ]
)


def test_marks_are_kept_for_pointing_and_reduced_to_the_focused_ones_otherwise() -> None:
    assert screen_marks(LISTING, pointing=True) == LISTING
    reduced = screen_marks(LISTING, pointing=False)
    assert reduced.splitlines() == [MARKS_LEFT_OUT, '82 cell "A1" ="Alpha" focused @82,194']


def test_a_short_value_is_kept_whole() -> None:
    assert relevant_text("09:30 Standup", "set an alarm") == "09:30 Standup"


def test_a_long_reading_keeps_the_lines_about_the_subtask() -> None:
    assert len(PAGE) > HUB_VALUE_CHARACTERS
    kept = relevant_text(PAGE, "Write the prices of Kettle Works and Teapot Group in a sheet")
    assert "Kettle Works Ltd (KTL) last closed at $12.50." in kept
    assert "Teapot Group (TPG) last closed at $7.25." in kept
    assert "gardening" not in kept and "recipes" not in kept
    assert kept.endswith("characters of it not shown]")


def test_a_long_reading_with_nothing_about_the_subtask_is_clipped() -> None:
    kept = relevant_text(PAGE, "zebra xylophone")
    assert kept.startswith("Offline Search")
    assert len(kept) < HUB_VALUE_CHARACTERS + 60


def test_values_are_each_cut_against_the_subtask_and_task() -> None:
    values = relevant_values({"s1_read": PAGE, "day": "Monday"}, ["prices", "Teapot Group"])
    assert values["day"] == "Monday"
    assert "Teapot Group (TPG)" in values["s1_read"] and "Kettle" not in values["s1_read"]


def test_fewer_marks_keeps_the_header_the_focused_marks_and_the_first_half() -> None:
    header = LISTING.splitlines()[0]
    listing = "\n".join(
        [header, *(f'{n} link "Result {n}" @10,{n}' for n in range(10)), LISTING.splitlines()[3]]
    )
    shorter = fewer_marks(listing).splitlines()
    assert shorter[0] == header
    assert shorter[1:6] == [f'{n} link "Result {n}" @10,{n}' for n in range(5)]
    assert shorter[6] == '82 cell "A1" ="Alpha" focused @82,194'
    assert shorter[7] == "(…5 more marks not shown)"
    assert fewer_marks(header) == header


def test_a_skill_call_shows_each_long_argument_clipped() -> None:
    page = "Title: Labour Day 2025 - Offline Search\n" + "a result line\n" * 400
    text = skill_call_text("days_between", {"start": page, "end": "2025-07-04"}, "Days apart.")
    assert text.startswith("days_between(start='Title: Labour Day 2025")
    assert f"[{len(repr(page))} characters in all]" in text
    assert "end='2025-07-04'): Days apart." in text
    assert len(text) < 2 * ARGUMENT_CHARACTERS


MAIL = (
    "#1 from Howie Chen <howie@example.test>, Subject: Travel\n"
    "you leave New York on 2 May 2025 and fly to London; the return flight is on 9 May 2025."
)


def test_a_long_value_is_shown_once_and_pointed_at_after() -> None:
    values = shown_once({"s1": MAIL, "s5_read": MAIL, "s5": MAIL, "city": "Oslo"}, "Subtask: book")
    assert values["s1"] == MAIL
    assert values["s5_read"] == values["s5"] == "(the same as s1)"
    assert values["city"] == "Oslo"


def test_a_long_value_the_subtask_carries_is_not_shown_again() -> None:
    subtask = f"search a flight for it [s3: {MAIL}]"
    values = shown_once({"s1": MAIL, "other": MAIL.upper(), "n": "3"}, subtask)
    assert values["s1"] == "(shown in the subtask above)"
    assert values["other"] == MAIL.upper()
    assert values["n"] == "3"  # short values are shown as they are, even where repeated


def test_a_reading_the_subtask_carries_is_pointed_at() -> None:
    """pc25 (2026-12-05): the mail handed on in the subtask, read again on the screen."""
    subtask = f"note the dates of the journey [s1: {MAIL}]"
    reading = f"step 5, mail_read: {MAIL}\n"
    assert reading_once(reading, subtask) == (
        "step 5, mail_read: (the same text as in the subtask above)"
    )
    assert reading_once(reading, "note the dates of the journey") == reading
    short = "step 2, calculator_read: 42"  # too short to point at
    assert reading_once(short, f"type 42 {short}") == short
    assert reading_once("", subtask) == ""
