"""Which formattings the instruction asks for a call's paragraphs is asked of a model alone,
one at a time, and the call's formattings become those read. The real 1.5B model's readings
are measured in benchmarks/format_readings.py; its quick run in tests/test_benchmarks.py asks
the real tiny model under the reply's grammar."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
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


def test_the_options_come_from_each_formatting_parameters_type() -> None:
    options = format_options(CATALOG, "format_paragraphs")
    assert options["bold"] == ("bold", True)
    assert options["center-aligned"] == ("alignment", "center")
    assert options[LARGER] == ("size_step", "larger")
    assert options["set in N pt"] == ("font_size", "N")
    assert format_options(CATALOG, "open_file") == {}
    assert format_options(CATALOG, "no_such_skill") == {}


def test_a_copied_formatting_becomes_the_one_read() -> None:
    asked: list[str] = []
    program = with_asked_formats_read(
        as_program(OPEN, BOLD), CATALOG, _read({"the title": (LARGER,)}, asked), SAID
    )
    assert asked == ["the title"]
    assert program.steps[0].args == OPEN["args"]
    assert program.steps[1].args == {
        "path": DOC,
        "paragraphs": ["title"],
        "save": True,
        "size_step": "larger",
    }


def test_a_number_read_keeps_the_calls_own_and_one_it_lacks_leaves_the_call() -> None:
    sized = BOLD | {"args": BOLD["args"] | {"font_size": 28}}
    kept = with_asked_formats_read(
        as_program(sized), CATALOG, _read({"the title": ("set in N pt",)}), SAID
    )
    assert kept.steps[0].args == {"path": DOC, "paragraphs": ["title"], "save": True,
                                  "font_size": 28}  # fmt: skip
    lacking = as_program(BOLD)
    spaced = _read({"the title": ("given a line spacing of N",)})
    assert with_asked_formats_read(lacking, CATALOG, spaced, SAID) is lacking


def test_a_call_read_alike_unread_or_sharing_its_paragraphs_stays_as_written() -> None:
    program = as_program(OPEN, BOLD)
    assert (
        with_asked_formats_read(program, CATALOG, _read({"the title": ("bold",)}), SAID) is program
    )
    assert with_asked_formats_read(program, CATALOG, _read({}), SAID) is program
    assert with_asked_formats_read(program, CATALOG, _read({"the title": ()}), SAID) is program
    twice = as_program(BOLD, BOLD | {"id": "s3", "args": BOLD["args"] | {"bold": None,
                                                                          "italic": True}})  # fmt: skip
    read = _read({"the title": (LARGER,)})
    assert with_asked_formats_read(twice, CATALOG, read, SAID) is twice
    odd = as_program(BOLD | {"args": BOLD["args"] | {"paragraphs": [3]}})  # no words for it
    assert with_asked_formats_read(odd, CATALOG, read, SAID) is odd


def test_the_reading_asks_until_nothing_else_and_both_orders_must_agree() -> None:
    models = ScriptedModels(
        format_reading=[
            reply(answer="center-aligned"), reply(answer="center-aligned"),
            reply(answer="bold"), reply(answer="bold"),
            reply(answer=NOTHING_ELSE), reply(answer=NOTHING_ELSE),
            reply(answer="bold"), reply(answer="italic"),
            reply(answer=NOTHING), reply(answer=NOTHING),
        ]
    )  # fmt: skip
    agent = FormatReadingAgent(models.for_role("format_reading"))
    options = tuple(format_options(CATALOG, "format_paragraphs"))
    assert agent.formats(SAID, "the title", options) == ("center-aligned", "bold")
    assert agent.formats(SAID, "the title", options) is None  # the answers differ
    assert agent.formats(SAID, "the title", options) == ()
    prompts = models.prompts("format_reading")
    first, second, third = prompts[:3]
    assert first.index("bold") < first.index(NOTHING) and second.index(NOTHING) < second.index(
        "bold"
    )
    assert "already read for them: none yet" in first
    assert "- center-aligned" not in third and NOTHING_ELSE in third
    assert "already read for them: center-aligned" in third


def test_a_run_asks_each_reading_once_and_plans_the_format_read() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": [OPEN, BOLD]})])
    asked: list[str] = []
    manager = Manager(
        models.for_role("manager"),
        apps={"file_manager": "files", "writer": "documents"},
        skills=CATALOG,
        readings=InstructionReadings(asked_formats=_read({"the title": (LARGER,)}, asked)),
    )
    plan = manager.plan(SAID).plan
    assert plan.subtasks[1].args.get("size_step") == "larger"
    assert "bold" not in plan.subtasks[1].args
    assert asked == ["the title"]
