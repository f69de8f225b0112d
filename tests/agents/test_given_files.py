"""Memory's examples for an instruction that names a file the person has: the programs that work
on a file they had (read, change, attach) are shown alone where there are any. Whether the
instruction names such a file is a model's reading of its file names and the run's look at
HOME; which programs work on one is read off each program's typed steps."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from tests.agents.program_steps import FIND_PLACE, READ_MEMO, as_program
from tests.agents.scripted import RecordingMemory, ScriptedModels

from pcagent.agents.existing_files import works_on_given_file
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.manager_memory import Example
from pcagent.agents.program import ProgramStep
from pcagent.skills import default_catalog

CATALOG = default_catalog()
READ, FIND = READ_MEMO, FIND_PLACE
TELL = {"id": "s3", "skill": "tell_user", "args": {"text": {"from": "s2", "key": "place"}}}
WRITE = {"id": "s1", "skill": "write_text_file", "args": {"path": "Documents/new.txt", "text": "x"}}
SAID = "Open memo.txt in the Documents folder with the text editor and tell me where we meet"
APPS = {"text_editor": "plain text files"}


def _given(*steps: dict[str, Any]) -> bool:
    return works_on_given_file(as_program(*steps).steps, CATALOG)


def test_a_program_works_on_a_given_file_where_a_step_reads_one_no_earlier_step_wrote() -> None:
    assert _given(READ, FIND, TELL)
    # A document formatted in place and a report attached were there before the task too.
    assert _given({"id": "s1", "skill": "format_paragraphs", "args": {"path": "a.docx"}})
    attach = {"to": ["a@b.c"], "attachments": ["Documents/report.docx"]}
    assert _given({"id": "s1", "skill": "send_mail", "args": attach})
    # A file the program writes first and reads after is its own, not the person's.
    again = {"id": "s2", "skill": "read_text_file", "args": {"path": "Documents/new.txt"}}
    assert not _given(WRITE, again)
    sent = {"id": "s2", "skill": "send_mail", "args": {**attach, "attachments": ["new.txt"]}}
    write_new = {"id": "s1", "skill": "write_text_file", "args": {"path": "new.txt", "text": "x"}}
    assert not _given(write_new, sent)
    # Nothing read at all, or a path taken by reference: no file the person had.
    assert not _given({"id": "s1", "skill": "calculate", "args": {"expression": "2+2"}})
    by_reference = {"id": "s2", "skill": "read_text_file", "args": {"path": {"from": "s1"}}}
    assert not _given(WRITE, by_reference)


def _plan(
    is_file: Callable[[str], bool] | None, named: str = "memo.txt", **options: bool
) -> list[Callable[[Sequence[ProgramStep]], bool] | None]:
    """Plans SAID with a first program that leaves the named file out (so a re-ask follows)
    and a second that reads it; what each ask of memory preferred."""
    memory = RecordingMemory(reply=[Example("a note read", ())])
    models = ScriptedModels(
        manager=[
            json.dumps({"steps": [TELL | {"id": "s1", "args": {"text": "here"}}]}),
            *[json.dumps({"steps": [READ, FIND, TELL]})] * 2,
        ]
    )
    Manager(
        models.for_role("manager"),
        apps=APPS,
        skills=CATALOG,
        memory=memory,
        is_file=is_file,
        readings=InstructionReadings(files=lambda _said: (named,)),
        asks_single_steps=False,
        **options,
    ).plan(SAID)
    return [ask.preferring for ask in memory.asks]


def test_an_instruction_naming_a_file_that_is_there_prefers_programs_that_work_on_one() -> None:
    preferred = _plan({"memo.txt", "Documents/memo.txt"}.__contains__)
    assert len(preferred) == 2  # the first ask and the re-ask's example, picked alike
    for preferring in preferred:
        assert preferring is not None
        assert preferring(as_program(READ, FIND, TELL).steps)
        assert not preferring(as_program(WRITE).steps)


def test_no_preference_where_the_file_is_not_there_or_the_run_cannot_tell() -> None:
    there = {"memo.txt", "Documents/memo.txt"}.__contains__
    for preferred in (
        _plan(there, "minutes.txt"),  # a file to be made
        _plan(None),  # no HOME on this machine
        _plan(there, examples_given_files=False),
    ):
        assert len(preferred) >= 2 and set(preferred) == {None}
