"""A form typed with words nobody gave, after values found that no step uses: each literal
field is asked about (both orders of the options) and takes the value a model names for it in
both. The program is the 1.5B Manager's, as recorded on pc16 (2026-12-06). The reading agent's
real model path is tested in tests/agents/test_choice_readings.py."""

from __future__ import annotations

from pathlib import Path

from tests.agents.program_steps import as_program, gold_programs
from tests.agents.test_choice_readings import read_by_the_tiny_model

from pcagent.agents.choice_readings import ChoiceQuestion
from pcagent.agents.found_fields import NONE, Shown, field_question, with_found_fields_read
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.program import check_program
from pcagent.agents.program_mends import ProgramMends
from pcagent.skills import default_catalog

CATALOG = default_catalog()
SAID = (
    'In the mail client, read the mail "Travel" that I sent to Howie and note the departure '
    "city, the destination and the date of the journey. Then search for a one-way flight for "
    "that journey on booking.com in the browser."
)
MAIL = {"id": "s1", "skill": "read_mail", "args": {"folder": "Inbox", "subject": "Travel"}}
TRIP = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["city", "destination", "date"], "what": "the trip"},
}
SITE = {"id": "s3", "skill": "open_page", "args": {"address": "booking.com"}}


def _form(*fields: tuple[str, object]) -> dict[str, object]:
    listed = [{"label": label, "value": value} for label, value in fields]
    return {"id": "s4", "skill": "fill_form", "args": {"fields": listed}}


RECORDED = _form(("From", "Lisbon"), ("To", "Howie"), ("Date", "2025-09-01"))


class Reads:
    """A reading that answers each field by its label, the same in both orders (or as told
    for the reversed questions), keeping the questions asked."""

    def __init__(self, answers: dict[str, str], reversed_answers: dict[str, str] | None = None):
        self.answers = answers
        self.reversed_answers = answers if reversed_answers is None else reversed_answers
        self.asked: list[ChoiceQuestion] = []

    def __call__(self, instruction: str, question: ChoiceQuestion) -> object:
        assert instruction == SAID
        self.asked.append(question)
        label = question.parameter.split(": ", 1)[1].split("=", 1)[0]
        first = [value for value, _ in question.options]
        second = len(self.asked) % 2 == 0
        answer = (self.reversed_answers if second else self.answers).get(label, NONE)
        return answer if answer in first else NONE


def _fields(program_: object) -> list[object]:
    return program_.steps[3].args["fields"]  # type: ignore[attr-defined]


def test_each_field_takes_the_value_found_that_both_readings_name() -> None:
    read = Reads({"From": "s2.city", "To": "s2.destination", "Date": "s2.date"})
    written = as_program(MAIL, TRIP, SITE, RECORDED)
    mended = with_found_fields_read(written, CATALOG, read, SAID, [SAID])
    assert _fields(mended) == [
        {"label": "From", "value": {"from": "s2", "key": "city"}},
        {"label": "To", "value": {"from": "s2", "key": "destination"}},
        {"label": "Date", "value": {"from": "s2", "key": "date"}},
    ]
    check_program(mended, CATALOG, ["mail", "browser"])
    first, reversed_ = read.asked[:2]
    assert [value for value, _ in first.options] == ["s2.city", "s2.destination", "s2.date", NONE]
    assert [value for value, _ in reversed_.options] == [
        NONE,
        "s2.date",
        "s2.destination",
        "s2.city",
    ]
    assert "'From'" in first.question and "'Lisbon'" in first.question
    assert first.parameter != reversed_.parameter  # read apart, each once per instruction
    # a value an earlier field holds is offered no more: the third field has one left
    assert [value for value, _ in read.asked[4].options] == ["s2.date", NONE]


def test_readings_that_disagree_or_say_none_leave_the_field() -> None:
    written = as_program(MAIL, TRIP, SITE, RECORDED)
    disagreeing = Reads({"From": "s2.city"}, {"From": "s2.destination"})
    assert _fields(with_found_fields_read(written, CATALOG, disagreeing, SAID, [SAID]))[0] == {
        "label": "From",
        "value": "Lisbon",
    }
    assert with_found_fields_read(written, CATALOG, Reads({}), SAID, [SAID]) == written


#: The re-plan of a rewording of pc16 at 561bbf0: the departure city in "To", "Lisbon" (an
#: example's) in "From", and the destination unused.
REPLANNED = _form(
    ("From", "Lisbon"),
    ("To", {"from": "s2", "key": "city"}),
    ("Date", {"from": "s2", "key": "date"}),
)


def test_fields_that_refer_to_a_value_found_are_asked_about_too_among_every_value() -> None:
    read = Reads({"From": "s2.city", "To": "s2.destination", "Date": "s2.date"})
    mended = with_found_fields_read(
        as_program(MAIL, TRIP, SITE, REPLANNED), CATALOG, read, SAID, [SAID]
    )
    assert [field["value"]["key"] for field in _fields(mended)] == ["city", "destination", "date"]
    assert len(read.asked) == 6
    assert [value for value, _ in read.asked[0].options] == [
        "s2.city",
        "s2.destination",
        "s2.date",
        NONE,
    ]
    assert "The form's field 'From' is typed 'Lisbon' as the program" in read.asked[0].question
    to = read.asked[2]  # "From" took the city: "To" is offered the others
    assert "The form's field 'To' holds the value city (found by step s2)" in to.question
    assert [value for value, _ in to.options] == ["s2.destination", "s2.date", NONE]


def test_a_reading_that_fills_one_value_in_two_fields_leaves_the_form_as_written() -> None:
    """ "From" read as the city, and "To", which holds the city, read as keeping it: the form
    would search from and to one place, so it stays as written, with its doubts."""
    read = Reads({"From": "s2.city"})
    written = as_program(MAIL, TRIP, SITE, REPLANNED)
    assert with_found_fields_read(written, CATALOG, read, SAID, [SAID]) == written
    # "To" asked among the values "From" did not take (a "none" needs no second order)
    assert [q.parameter.split("=")[0] for q in read.asked] == ["fields: From"] * 2 + [
        "fields: To",
        "fields: Date",
    ]


#: The re-plan of pc25 at 561bbf0: every field refers to a value found, the destination in
#: "From" and the departure city in "To" (a slot), nothing unused and no word nobody gave.
SWAPPED = _form(
    ("Round trip", "true"),
    ("From", {"from": "s2", "key": "destination"}),
    ("To", "{s2.city}"),
    ("Date", "{s2.date}"),
)


def test_a_slot_for_a_value_found_is_asked_about_as_the_value_it_holds() -> None:
    """A field whose text is one slot refers to the value, as a reference does; a form whose
    fields all refer to values found is not asked about (the 1.5B model named the value each
    held, in both orders, on pc25's re-plan: docs/agents.md)."""
    read = Reads({"From": "s2.city", "To": "s2.destination", "Date": "s2.date"})
    swapped = as_program(MAIL, TRIP, SITE, SWAPPED)
    assert with_found_fields_read(swapped, CATALOG, read, SAID, [SAID]) == swapped
    assert read.asked == []
    typed = _form(("From", "Lisbon"), ("To", "{s2.city}"), ("Date", "{s2.date}"))
    mended = with_found_fields_read(
        as_program(MAIL, TRIP, SITE, typed), CATALOG, read, SAID, [SAID]
    )
    assert _fields(mended) == [
        {"label": "From", "value": {"from": "s2", "key": "city"}},
        {"label": "To", "value": {"from": "s2", "key": "destination"}},
        {"label": "Date", "value": "{s2.date}"},  # read as the value it holds: as written
    ]
    check_program(mended, CATALOG, ["mail", "browser"])
    assert "'To' holds the value city (found by step s2)" in read.asked[2].question
    assert "'Date' holds the value date (found by step s2)" in read.asked[4].question


def test_a_form_of_given_words_or_after_no_unused_value_is_not_asked_about() -> None:
    read = Reads({"From": "s2.city"})
    # every field given by the instruction (a check box's state is the skill's word)
    given = _form(("Round trip", "true"), ("From", "Howie"), ("Date", "the journey"))
    for steps in (
        (MAIL, TRIP, SITE, given),
        # every value found used already
        (MAIL, TRIP, SITE, _form(("From", "Lisbon"), ("To", {"from": "s2"}))),
        # the form before the values are found
        (SITE | {"id": "s1"}, RECORDED | {"id": "s2"}, MAIL | {"id": "s3"}, TRIP | {"id": "s4"}),
    ):
        written = as_program(*steps)
        assert with_found_fields_read(written, CATALOG, read, SAID, [SAID]) == written
    assert read.asked == []
    # a date the instruction writes is given; one nobody wrote is not (the form is asked about)
    dated = _form(("Date", "14 March 2025"))
    said_date = [SAID + " It is on 14 March 2025."]
    assert with_found_fields_read(
        as_program(MAIL, TRIP, SITE, dated), CATALOG, read, SAID, said_date
    ) == as_program(MAIL, TRIP, SITE, dated)
    assert read.asked == []
    with_found_fields_read(as_program(MAIL, TRIP, SITE, dated), CATALOG, read, SAID, [SAID])
    assert len(read.asked) == 1  # "Date" asked, not read as "From": left as written


def test_no_gold_program_is_asked_about() -> None:
    asked: list[ChoiceQuestion] = []

    def read(instruction: str, question: ChoiceQuestion) -> object:
        asked.append(question)
        return None

    golds = list(gold_programs())
    for task, gold in golds:
        assert (
            with_found_fields_read(gold, CATALOG, read, task.instruction, [task.instruction])
            == gold
        )
    assert asked == [] and len(golds) >= 300


def test_the_manager_s_mends_read_the_fields_once_per_instruction() -> None:
    """Through the mends every program of an ask goes through: the readings are kept per
    instruction, so a second program with the same form asks nothing again."""
    read = Reads({"From": "s2.city", "To": "s2.destination", "Date": "s2.date"})
    mends = ProgramMends(
        skills=CATALOG,
        readings=InstructionReadings(choices=read),
        instruction=SAID,
        done=(),
        given=(SAID,),
        examples="",
        is_file=None,
    )
    written = as_program(MAIL, TRIP, SITE, RECORDED)
    assert _fields(mends(written))[0] == {"label": "From", "value": {"from": "s2", "key": "city"}}
    asked = len(read.asked)
    assert asked >= 6
    mends(written)
    assert len(read.asked) == asked


def test_the_real_model_answers_a_value_found_or_none_for_a_field(tmp_path: Path) -> None:
    """Under the reply's grammar the tiny model answers one of the options, the value found
    or "none of them", and the agent makes of it the reference's key or ""."""
    question = field_question(
        "fill_form",
        "Fill a form.",
        "fields",
        "From",
        Shown("'Lisbon'", literal=True),
        [("s2", "city"), ("s2", "date")],
    )
    answers, chosen = read_by_the_tiny_model(tmp_path, SAID, question)
    assert len(answers) == 1 and chosen == question.value_of(answers[0])
    assert chosen in ("s2.city", "s2.date", NONE)
