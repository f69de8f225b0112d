"""The formatting the instruction asks for a call's paragraphs is asked of a model alone, and
added to the call where the paragraphs' reading agrees. The real 1.5B model's readings
are measured in benchmarks/format_readings.py; its quick run in tests/test_benchmarks.py asks
the real tiny model under the reply's grammar."""

from __future__ import annotations

import json

from tests.agents.program_steps import agreed_answers, as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.asked_formats import (
    NOTHING,
    NOTHING_ELSE,
    FormatReadingAgent,
    format_options,
    with_asked_formats_read,
)
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOC = "Documents/test_doc1.docx"
#: A rewording of pc22 (2026-12-03): the planner wrote the title bold.
SAID = "In test_doc1.docx, grow the title's font by one step in Writer, then save the document."
OPEN = {"id": "s1", "skill": "open_file", "args": {"path": DOC}}
BOLD = {
    "id": "s2",
    "skill": "format_paragraphs",
    "args": {"path": DOC, "paragraphs": ["title"], "bold": True, "save": True},
}
LARGER = "given a font one size step larger"


def _read(answers: dict[str, tuple[str, ...] | None], asked: list[str] | None = None):
    def read(instruction: str, paragraphs: str, options: tuple[str, ...]):
        if asked is not None:
            asked.append(paragraphs)
        assert LARGER in options and "bold" in options
        return answers.get(paragraphs)

    return read


def _targets(answers: dict[str, list] | None = None):
    """The paragraphs' reading: every formatting for the title unless told otherwise."""

    def targets(instruction: str, formatting: str):
        return (answers or {}).get(formatting, ["title"])

    return targets


def test_the_options_come_from_each_formatting_parameters_type() -> None:
    options = format_options(CATALOG, "format_paragraphs")
    assert options["bold"] == ("bold", True)
    assert options["center-aligned"] == ("alignment", "center")
    assert options[LARGER] == ("size_step", "larger")
    assert options["set in N pt"] == ("font_size", "N")
    assert format_options(CATALOG, "open_file") == {}
    assert format_options(CATALOG, "no_such_skill") == {}


def test_a_formatting_read_for_the_calls_paragraphs_is_added() -> None:
    asked: list[str] = []
    read = _read({"the title": (LARGER,)}, asked)
    program = with_asked_formats_read(as_program(OPEN, BOLD), CATALOG, read, _targets(), SAID)
    assert asked == ["the title"]
    assert program.steps[0].args == OPEN["args"]
    assert program.steps[1].args == BOLD["args"] | {"size_step": "larger"}
    sized = as_program(BOLD | {"args": BOLD["args"] | {"font_size": 28}})
    stepped = with_asked_formats_read(sized, CATALOG, read, _targets(), SAID)
    assert "font_size" not in stepped.steps[0].args  # a step and a size exclude each other
    centred = as_program(BOLD | {"args": BOLD["args"] | {"alignment": "left"}})
    read = _read({"the title": ("center-aligned",)})
    aligned = with_asked_formats_read(centred, CATALOG, read, _targets(), SAID)
    assert aligned.steps[0].args["alignment"] == "center"  # one alignment a paragraph


def test_a_formatting_the_paragraphs_reading_puts_elsewhere_or_a_number_is_not_set() -> None:
    """Seed 3105: "right-aligned" read for the paragraph after the title, where the
    instruction right-aligns the last one."""
    program = as_program(OPEN, BOLD)
    read = _read({"the title": ("right-aligned",)})
    elsewhere = _targets({"right-aligned": ["last"]})
    assert with_asked_formats_read(program, CATALOG, read, elsewhere, SAID) is program
    unread = _targets({"right-aligned": None})
    assert with_asked_formats_read(program, CATALOG, read, unread, SAID) is program
    spaced = _read({"the title": ("given a line spacing of N",)})
    assert with_asked_formats_read(program, CATALOG, spaced, _targets(), SAID) is program


def test_a_call_read_alike_unread_or_sharing_its_paragraphs_stays_as_written() -> None:
    program = as_program(OPEN, BOLD)
    targets = _targets()
    for answers in ({"the title": ("bold",)}, {}, {"the title": ()}):
        assert with_asked_formats_read(program, CATALOG, _read(answers), targets, SAID) is program
    italic = BOLD | {"id": "s3", "args": BOLD["args"] | {"bold": None, "italic": True}}
    twice = as_program(BOLD, italic)
    read = _read({"the title": (LARGER,)})
    assert with_asked_formats_read(twice, CATALOG, read, targets, SAID) is twice
    odd = as_program(BOLD | {"args": BOLD["args"] | {"paragraphs": [3]}})  # no words for it
    assert with_asked_formats_read(odd, CATALOG, read, targets, SAID) is odd


def test_the_reading_is_one_question_whose_two_orders_must_agree() -> None:
    models = ScriptedModels(
        format_reading=[
            reply(answer="center-aligned"), reply(answer="center-aligned"),
            reply(answer="bold"), reply(answer="italic"),
            reply(answer=NOTHING), reply(answer=NOTHING),
        ]
    )  # fmt: skip
    agent = FormatReadingAgent(models.for_role("format_reading"))
    options = tuple(format_options(CATALOG, "format_paragraphs"))
    assert agent.formats(SAID, "the title", options) == ("center-aligned",)
    assert agent.formats(SAID, "the title", options) is None  # the answers differ
    assert agent.formats(SAID, "the title", options) == ()
    first, second = models.prompts("format_reading")[:2]
    assert first.index("bold") < first.index(NOTHING) and second.index(NOTHING) < second.index(
        "bold"
    )
    assert "already read for them: none yet" in first and NOTHING_ELSE not in first


def test_a_run_asks_each_reading_once_and_plans_the_format_read() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [OPEN, BOLD]})])
    asked: list[str] = []
    manager = Manager(
        models.for_role("manager"),
        apps={"file_manager": "files", "writer": "documents"},
        skills=CATALOG,
        readings=InstructionReadings(
            formats=agreed_answers(_targets()), asked_formats=_read({"the title": (LARGER,)}, asked)
        ),
    )
    plan = manager.plan(SAID).plan
    assert plan.subtasks[1].args.get("size_step") == "larger"
    assert asked == ["the title"]
