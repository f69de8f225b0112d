"""A file copied from a shown example is mended to the file the instruction names.

Why: memory shows the Manager programs of similar earlier tasks, and the 1.5B model copies their
literals: shown a training program that formats ``Documents/night_market.docx``, it wrote that
path for "test_doc1.docx" and for "test_doc2.docx" three asks in a row, each refused as no file
in HOME, and both runs fell back to one GUI step (pc12r1, pc13r2 on 2026-11-28). Which files the
instruction names is a model's reading (:mod:`named_files`); where a step reads a path that is
no file in HOME, no earlier step writes and the instruction does not name, and the instruction
names exactly one file of that kind which no step uses and which is in HOME, code puts that file
in its place, in every step that names the copied path. Nothing is mended where it is not that
clear: the refusal and the re-ask stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import Any

from pcagent.agents.existing_files import FileCheck, skill_calls
from pcagent.agents.program import (
    Program,
    ProgramStep,
    is_reference,
    literal_texts,
    written_path,
)
from pcagent.skills import SkillCatalog


def with_named_files(
    program: Program, catalog: SkillCatalog, named: Sequence[str], is_file: FileCheck
) -> Program:
    """``program`` with each path it reads that is nowhere replaced by the one file of its
    kind the instruction names (``named``, bare file names) that no step uses and that is in
    HOME; ``program`` itself when there is nothing to mend."""
    if not named:
        return program
    used = {PurePosixPath(text).name.casefold() for s in program.steps for text in _texts(s)}
    unused = [name for name in named if name.casefold() not in used]
    given = {name.casefold() for name in named}
    swaps: dict[str, str] = {}
    written: set[str] = set()
    for _step, one, literal in skill_calls(program, catalog):
        for path in one.read_files(literal):
            if path in swaps or str(written_path(path)) in written or is_file(path):
                continue
            if PurePosixPath(path).name.casefold() in given:  # the instruction's own file
                continue
            there = _named_in_its_place(path, unused, is_file)
            if there is not None:
                swaps[path] = there
        written.update(str(written_path(path)) for path in one.written_files(literal))
    if not swaps:
        return program
    return Program(
        requests=program.requests,
        steps=[
            step.model_copy(update={"args": _swapped(step.args, swaps)}) for step in program.steps
        ],
    )


def _named_in_its_place(path: str, unused: Sequence[str], is_file: FileCheck) -> str | None:
    """The path of the one unused named file of ``path``'s kind, in ``path``'s folder or as
    the instruction writes it, that is in HOME; None when there is not exactly one such file."""
    suffix = PurePosixPath(path).suffix.casefold()
    if not suffix:
        return None
    kind = [name for name in unused if PurePosixPath(name).suffix.casefold() == suffix]
    if len(kind) != 1:
        return None
    folder = PurePosixPath(path).parent
    for candidate in (str(folder / kind[0]), kind[0]):
        if is_file(candidate):
            return candidate
    return None


def _texts(step: ProgramStep) -> list[str]:
    return [*literal_texts(step.args), *step.files, step.task]


def _swapped(value: Any, swaps: dict[str, str]) -> Any:
    if isinstance(value, str):
        return swaps.get(value, value)
    if isinstance(value, list):
        return [_swapped(item, swaps) for item in value]
    if isinstance(value, dict) and not is_reference(value):
        return {key: _swapped(item, swaps) for key, item in value.items()}
    return value
