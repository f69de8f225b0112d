"""A new file written in HOME itself while the folder the instruction puts it in goes unused.

Why: told "... and save it as population in the Documents folder", the 1.5B planner wrote
``population.xlsx`` into HOME, every step checked its own effect, and the run said "finished"
(pc08 at c71e91b and again at 6972689; a rule in the Manager's prompt did not change it). Which
folders an instruction names is a model's reading (the named-files reading lists them beside
the files); code keeps only names that stand in the instruction, and judges the typed program:
a skill step that writes a file new to HOME's top level, while a named folder appears in no
step's path, is a doubt. The Manager is re-asked with it, and a program kept with it cannot
end the run "finished". A screen step that names the folder in its words counts as using it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import PurePosixPath

from pcagent.agents.existing_files import FileCheck, plain_path, skill_calls
from pcagent.agents.plan import Doubt
from pcagent.agents.program import GUI, Program, ProgramStep, literal_texts, written_path
from pcagent.skills import SkillCatalog
from pcagent.text import contains

#: Most folders one instruction is taken to name (a bound of the reply's grammar).
MAX_FOLDERS = 6


def kept_once(
    names: Iterable[str], keep: Callable[[str], bool], instruction: str
) -> tuple[str, ...]:
    """Each of ``names`` that ``keep`` takes and that stands in ``instruction`` (a model lists
    names it saw nowhere), once whatever its case."""
    kept: dict[str, str] = {}  # casefolded -> as first listed
    for name in names:
        if name and keep(name) and contains(instruction, name):
            kept.setdefault(name.casefold(), name)
    return tuple(kept.values())


def kept_folders(names: Sequence[str], instruction: str) -> tuple[str, ...]:
    """The folders a model listed that stand in ``instruction`` as written: no file (a name
    with an ending), no address; each once, without ``~/`` or a closing slash."""
    return kept_once(
        (name.strip().strip("\"'").removeprefix("~/").rstrip("/").strip() for name in names),
        lambda name: not PurePosixPath(name).suffix and "@" not in name and "://" not in name,
        instruction,
    )


def _parts(path: str) -> tuple[str, ...]:
    return tuple(part.casefold() for part in written_path(path).parts if part not in ("/", "."))


def _uses(text: str, folder: tuple[str, ...]) -> bool:
    """Whether ``text``, a literal of a step, is the folder or a path inside it."""
    return _parts(text)[: len(folder)] == folder


def _steps_use(steps: Sequence[ProgramStep], folder: str) -> bool:
    parts = _parts(folder)
    for step in steps:
        if step.skill == GUI and contains(step.task, folder):
            return True
        if any(_uses(text, parts) for text in _step_texts(step)):
            return True
    return False


def _step_texts(step: ProgramStep) -> Iterator[str]:
    if step.skill == GUI:
        yield from step.files
    yield from literal_texts(step.args)


def folders_left_out(
    program: Program,
    catalog: SkillCatalog,
    folders: Sequence[str],
    finished: Sequence[ProgramStep] = (),
    is_file: FileCheck | None = None,
) -> list[Doubt]:
    """A doubt on each skill step of ``program`` that writes a file at HOME's top level that
    is not there yet (``is_file``; unknown: any), when a folder of ``folders`` is in no step's
    path (of the program or the ``finished`` steps before it)."""
    if not folders:
        return []
    steps = [*finished, *program.steps]
    unused = [folder for folder in folders if not _steps_use(steps, folder)]
    if not unused:
        return []
    doubts: list[Doubt] = []
    for step, one, literal in skill_calls(program, catalog):
        for path in map(plain_path, one.written_files(literal)):
            if len(_parts(path)) != 1 or (is_file is not None and is_file(path)):
                continue
            named = " or ".join(repr(folder) for folder in unused)
            doubts.append(
                Doubt(
                    step.id,
                    f"{step.id} writes {path!r} in HOME itself, and the instruction names the "
                    f"folder {named}, which no step uses: if this is the file the instruction "
                    f"puts there, write it as {unused[0]}/{path}",
                    own=True,
                )
            )
            break
    return doubts
