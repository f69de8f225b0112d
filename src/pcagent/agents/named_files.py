"""Every file the instruction names must be a file the program works on.

Why: a small planner leaves parts of an instruction out, or does them on another file, and each
step it did write checks its own effect, so the run said "finished" (measured 2026-11-27 on
tasks generated from seed 2027: "save it as reminder_card.txt" typed the line and never saved
it; "send garden_tally.xlsx" wrote and sent ``garden_tally.txt``). Which files an instruction
names is for a model to read: it lists them, copied as written; code keeps only names that
stand in the instruction with an ending (a name it made up, a folder or an address is dropped)
and checks that some step reads, writes, moves or sends a file of that name. A named file no
step touches is a doubt: the Manager is asked again, and a program kept with it cannot end the
run "finished".
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Annotated, ClassVar

from pydantic import BaseModel, Field

from pcagent.agents.base import Agent, prompt_messages
from pcagent.agents.named_folders import MAX_FOLDERS, kept_folders, kept_once
from pcagent.agents.named_sites import MAX_SITES, kept_sites
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, is_reference, literal_texts, skill_of
from pcagent.agents.prompting import render
from pcagent.skills import SkillCatalog
from pcagent.skills.common import skills_for_file
from pcagent.text import contains

#: Most file names one instruction is taken to name, and the longest name (a bound of the
#: reply's grammar: a small model that rambles stops there).
MAX_NAMES, NAME_CHARS = 8, 120


class NamedFiles(BaseModel):
    """The model's reply: the file names the instruction writes out, and the folders and web
    sites it names (read in the same ask: :mod:`named_folders` and :mod:`named_sites` judge
    them)."""

    files: list[Annotated[str, Field(max_length=NAME_CHARS)]] = Field(
        default_factory=list, max_length=MAX_NAMES
    )
    folders: list[Annotated[str, Field(max_length=NAME_CHARS)]] = Field(
        default_factory=list, max_length=MAX_FOLDERS
    )
    sites: list[Annotated[str, Field(max_length=NAME_CHARS)]] = Field(
        default_factory=list, max_length=MAX_SITES
    )


@dataclass(frozen=True)
class NamedPlaces:
    """What the instruction names of the disk, files (with an ending) and folders, and of the
    web: sites."""

    files: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()


@dataclass
class FileNamesAgent(Agent):
    """Reads which files an instruction names; asked once per instruction. Its role's model is
    the default profile's unless ``[models.roles]`` names one for ``named_files``."""

    name: ClassVar[str] = "named_files"

    def named(self, instruction: str, step: int | None = 0) -> tuple[str, ...]:
        """The file names (with an ending) the instruction writes, as it writes them; empty
        when the model gives none or no valid reply."""
        return self.places(instruction, step).files

    def places(self, instruction: str, step: int | None = 0) -> NamedPlaces:
        """The files, folders and sites the instruction names, as it writes them (each kept
        only where it stands in the instruction); empty when the model gives no valid reply."""
        system, user = render("named_files", instruction=instruction)
        result = self.ask(prompt_messages(system, user), NamedFiles, step)
        if result.value is None:
            return NamedPlaces()
        return NamedPlaces(
            kept_names(result.value.files, instruction),
            kept_folders(result.value.folders, instruction),
            kept_sites(result.value.sites, instruction),
        )


def kept_names(names: Sequence[str], instruction: str) -> tuple[str, ...]:
    """The names a model listed that are file names standing in ``instruction``: with an
    ending, no address; each once, without the folder a model may have put before it."""
    return kept_once(
        (PurePosixPath(listed.strip().strip("\"'")).name for listed in names),
        lambda name: bool(PurePosixPath(name).suffix) and "@" not in name,
        instruction,
    )


def untouched_files(
    program: Program,
    names: Sequence[str],
    finished: Sequence[ProgramStep] = (),
    catalog: SkillCatalog | None = None,
) -> list[Doubt]:
    """A doubt, on the program's last step, for each named file that no step (of the program
    or ``finished`` before it) names in an argument, among the files of a screen step, or in a
    screen step's task. With ``catalog``, a skill step names a file only by the files its skill
    declares it reads, writes or moves (or an ending it takes): pc19 (2026-12-02) composed a text
    whose request named kth_largest.py, never wrote the file, and the run said "finished"."""
    if not names or not program.steps:
        return []
    texts = [text for step in (*finished, *program.steps) for text in _texts(step, catalog)]
    last = program.steps[-1].id
    return [
        _untouched(last, name) for name in names if not any(_names_file(t, name) for t in texts)
    ]


def _untouched(step: str, name: str) -> Doubt:
    """The doubt names the skills that take a file of the name's kind, if it has a known one."""
    kind, skills = skills_for_file(name)
    taken = f" ({kind}, which {', '.join(skills)} take)" if kind else ""
    return Doubt(
        step,
        f"the instruction names the file {name}, and no step reads, writes, moves or sends "
        f"it: add the step that does what it asks with that file{taken}",
        skills=skills,
    )


def _texts(step: ProgramStep, catalog: SkillCatalog | None) -> Iterator[str]:
    if step.skill == GUI:
        yield step.task
        yield from step.files
    one = skill_of(step, catalog) if catalog is not None else None
    if one is None:
        yield from literal_texts(step.args)
        return
    args = step.args
    literal = {name: value for name, value in args.items() if not is_reference(value)}
    yield from one.read_files(literal)
    yield from one.written_files(literal)
    for old, new in one.moved_files(literal).items():
        yield from (old, new)
    yield from (text for text in literal_texts(args) if _an_ending(text))
    # A web address the program opens: the reading took "arxiv.org" for a file, and the run
    # that opened https://arxiv.org/ was doubted for leaving that file untouched (pc15,
    # 2026-12-03). A name the program uses as an address is used.
    marks = catalog.marked(step.skill, "given").items()
    addresses = [name for name, mark in marks if mark in (True, "address")]
    yield from (str(literal[name]) for name in addresses if isinstance(literal.get(name), str))


def _an_ending(text: str) -> bool:
    """Whether ``text`` is a file ending that takes every file with it (``.txt``)."""
    written = text.strip()
    return written.startswith(".") and written[1:].isalnum()


def _names_file(text: str, name: str) -> bool:
    """Whether ``text`` (a path, a screen step's task, or an ending that takes every file
    with it, such as ``move_files``' ``suffix``) names the file ``name``."""
    written = text.strip().casefold()
    if _an_ending(written):
        return name.casefold().endswith(written)
    return PurePosixPath(written).name == name.casefold() or contains(text, name)
