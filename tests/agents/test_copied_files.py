"""A path copied from a shown example is mended to the one file of its kind the instruction
names, only where that is clear; the Manager then keeps the program without a re-ask."""

from __future__ import annotations

import json

from tests.agents.program_steps import as_program
from tests.agents.scripted import ScriptedModels

from pcagent.agents.copied_files import with_named_files
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.skills import default_catalog

CATALOG = default_catalog()
HOME = {"Documents/test_doc1.docx", "Documents/notes.txt", "Documents/other.docx"}
COPIED = "Documents/night_market.docx"
STEPS = [
    {"id": "s1", "skill": "format_paragraphs", "args": {"path": COPIED, "paragraphs": [0], "bold": True}},
    {"id": "s2", "skill": "send_mail", "args": {"to": ["a@example.test"], "attachments": [COPIED]}},
]  # fmt: skip


def there(path: str) -> bool:
    return path in HOME


def paths(program: object) -> list[object]:
    steps = program.steps  # type: ignore[attr-defined]
    return [steps[0].args["path"], steps[1].args["attachments"]]


def test_a_copied_path_becomes_the_one_named_file_of_its_kind_in_every_step() -> None:
    mended = with_named_files(as_program(*STEPS), CATALOG, ["notes.txt", "test_doc1.docx"], there)
    assert paths(mended) == ["Documents/test_doc1.docx", ["Documents/test_doc1.docx"]]


def test_nothing_is_mended_where_it_is_not_clear() -> None:
    program = as_program(*STEPS)
    for named in (
        [],  # nothing named
        ["test_doc1.docx", "other.docx"],  # two of the kind
        ["missing.docx"],  # named, not in HOME
        ["notes.txt"],  # none of the kind
        ["night_market.docx", "test_doc1.docx"],  # the path read is the instruction's own
    ):
        assert with_named_files(program, CATALOG, named, there) is program, named
    # the named file is used already by a step: the other path is not that file
    uses = as_program(
        *STEPS, {"id": "s3", "skill": "read_document", "args": {"path": "Documents/test_doc1.docx"}}
    )
    assert with_named_files(uses, CATALOG, ["test_doc1.docx"], there) is uses
    # a path that is in HOME, or that an earlier step writes, is no copy
    real = as_program(
        {"id": "s1", "skill": "read_document", "args": {"path": "Documents/other.docx"}}
    )
    assert with_named_files(real, CATALOG, ["test_doc1.docx"], there) is real
    written = as_program(
        {"id": "s1", "skill": "write_document", "args": {"path": COPIED, "text": "x"}},
        {"id": "s2", "skill": "read_document", "args": {"path": COPIED}},
    )
    assert with_named_files(written, CATALOG, ["test_doc1.docx"], there) is written


def test_the_manager_keeps_the_mended_program_without_asking_again() -> None:
    models = ScriptedModels(manager=[json.dumps({"steps": STEPS})])
    manager = Manager(
        models.for_role("manager"),
        apps={"writer": "documents", "mail": "e-mail"},
        skills=CATALOG,
        is_file=there,
        readings=InstructionReadings(files=lambda _said: ("test_doc1.docx",)),
    )
    outcome = manager.plan("Make the title of test_doc1.docx bold and mail it to a@example.test")
    first = outcome.plan.subtasks[0]
    assert first.args["path"] == "Documents/test_doc1.docx" and not first.doubt
    assert len(models.backends["manager"].requests) == 1
