"""Which paragraphs each formatting is for is asked of a model alone, and a formatting call is
split or retargeted to what it lists. The real 1.5B model's readings are measured in
benchmarks/format_targets.py; its quick run in tests/test_benchmarks.py asks the real tiny
model under the reply's grammar."""

from __future__ import annotations

import json

from tests.agents.program_steps import agreed_answers, as_program
from tests.agents.scripted import ScriptedModels, reply

from pcagent.agents.format_targets import (
    FormatTargetsAgent,
    Paragraph,
    formattings,
    with_format_targets_read,
)
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.program_grammar import program_reply_type
from pcagent.skills import default_catalog

CATALOG = default_catalog()
DOC = "Documents/test_doc1.docx"
SAID = (
    "test_doc1.docx in Documents, opened from Thunar: title in bold, 1.5 line spacing for the "
    "first two paragraphs, edited in Writer and saved."
)
OPEN = {"id": "s1", "skill": "open_file", "args": {"path": DOC}}
#: A rewording of pc12 (2026-12-03): both formattings merged in one call on 1 and 2.
MERGED = {
    "id": "s2",
    "skill": "format_paragraphs",
    "args": {"path": DOC, "paragraphs": [1, 2], "bold": True, "line_spacing": 1.5, "save": True},
}
READINGS: dict[str, list[Paragraph]] = {
    "bold": ["title"],
    "given a line spacing of 1.5": [1, 2],
    "underlined": ["last"],
}


def _read(asked: list[str] | None = None, answers: dict[str, list[Paragraph]] = READINGS):
    def read(instruction: str, formatting: str) -> list[Paragraph] | None:
        if asked is not None:
            asked.append(formatting)
        return answers.get(formatting)

    return read


def test_a_merged_call_is_split_by_the_paragraphs_read_for_each_formatting() -> None:
    asked: list[str] = []
    program = with_format_targets_read(as_program(OPEN, MERGED), CATALOG, _read(asked), SAID)
    assert asked == ["bold", "given a line spacing of 1.5"]
    assert [(s.id, s.args) for s in program.steps[1:]] == [
        ("s2", {"path": DOC, "save": True, "paragraphs": ["title"], "bold": True}),
        ("s3", {"path": DOC, "save": True, "paragraphs": [1, 2], "line_spacing": 1.5}),
    ]


def test_a_paragraph_numbered_wrong_takes_the_one_read_and_new_ids_pass_done_ones() -> None:
    """A rewording of pc13: "its last paragraph underlined" written as paragraph 2."""
    underline = {"id": "s3", "skill": "format_paragraphs",
                 "args": {"path": DOC, "paragraphs": [2], "underline": True}}  # fmt: skip
    program = with_format_targets_read(as_program(OPEN, underline), CATALOG, _read(), SAID)
    assert program.steps[1].args["paragraphs"] == ["last"]
    split = with_format_targets_read(as_program(MERGED), CATALOG, _read(), SAID, ran=["s7"])
    assert [step.id for step in split.steps] == ["s2", "s8"]


def test_a_call_read_alike_unread_or_by_text_is_left_as_written() -> None:
    agreeing = {"bold": [2, 1], "given a line spacing of 1.5": [1, 2]}
    same = as_program(MERGED | {"args": MERGED["args"] | {"paragraphs": [2, 1]}})
    assert with_format_targets_read(same, CATALOG, _read(answers={}), SAID) is same
    one_read = {"bold": ["title"]}  # the spacing unread: the call stands
    merged = as_program(MERGED)
    assert with_format_targets_read(merged, CATALOG, _read(answers=one_read), SAID) is merged
    by_text = as_program(MERGED | {"args": MERGED["args"] | {"matching": "Tea"}})
    assert with_format_targets_read(by_text, CATALOG, _read(), SAID) is by_text
    assert formattings(by_text.steps[0], CATALOG) == []
    both = {"bold": [1, 2], "given a line spacing of 1.5": [1, 2]}
    assert with_format_targets_read(merged, CATALOG, _read(answers=both), SAID) is merged
    assert with_format_targets_read(same, CATALOG, _read(answers=agreeing), SAID) is same


def test_one_formatting_on_a_named_paragraph_is_not_asked_about() -> None:
    """A rewording of pc13 (2026-12-06): the title's centring, written on the title, was moved
    to the last paragraph by a reading; one formatting on "title" or "last" is left unread."""
    centred = {"id": "s3", "skill": "format_paragraphs",
               "args": {"path": DOC, "paragraphs": ["title"], "alignment": "center"}}  # fmt: skip
    asked: list[str] = []
    program = as_program(OPEN, centred)
    read = _read(asked, {"center-aligned": ["last"]})
    assert with_format_targets_read(program, CATALOG, read, SAID) is program
    assert asked == []
    # Two formattings on the title, or one on a numbered paragraph, are still read.
    both = as_program({**centred, "args": {**centred["args"], "bold": True}})
    assert with_format_targets_read(both, CATALOG, _read(asked, {}), SAID) is both
    assert asked == ["center-aligned"]


def test_the_mark_stays_out_of_the_grammar_and_each_reading_is_asked_once() -> None:
    grammar = json.dumps(program_reply_type(CATALOG, ["writer"], []).model_json_schema())
    assert '"formats"' not in grammar
    models = ScriptedModels(manager=[json.dumps({"steps": [OPEN, MERGED]})])
    asked: list[str] = []
    manager = Manager(
        models.for_role("manager"),
        apps={"file_manager": "files", "writer": "documents"},
        skills=CATALOG,
        readings=InstructionReadings(formats=agreed_answers(_read(asked))),
    )
    plan = manager.plan(SAID).plan
    assert [s.args.get("paragraphs") for s in plan.subtasks] == [None, ["title"], [1, 2]]
    assert asked == ["bold", "given a line spacing of 1.5"]


def test_a_reading_counts_where_both_orders_of_the_options_agree() -> None:
    last, title = "the last paragraph", "the title"
    models = ScriptedModels(format_targets=[reply(paragraphs=last), reply(paragraphs=last),
                                            reply(paragraphs=last), reply(paragraphs=title)])  # fmt: skip
    agent = FormatTargetsAgent(models.for_role("format_targets"))
    assert agent.targets(SAID, "underlined") == ["last"]
    assert agent.targets(SAID, "underlined") is None  # the answers differ
    first, second = models.prompts("format_targets")[:2]
    assert first.index(title) < first.index(last) and second.index(last) < second.index(title)
