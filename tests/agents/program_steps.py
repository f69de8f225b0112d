"""Programs for tests, written as the Manager writes them: steps without ids, numbered here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pcagent.agents.format_targets import OPTIONS, Answers, ReadsAnswers, ReadsTargets
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.manager import Manager
from pcagent.agents.plan import PlanOutcome
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.program_mends import ProgramMends
from pcagent.bench.generate import generate_tasks
from pcagent.bench.tasks import Task
from pcagent.models import StructuredChatModel
from pcagent.skills import default_catalog

#: A note read, and the meeting's place found in it: the start of many programs under test.
READ_MEMO = {"id": "s1", "skill": "read_text_file", "args": {"path": "Documents/memo.txt"}}
FIND_PLACE = {
    "id": "s2",
    "skill": "extract_values",
    "args": {"text": {"from": "s1"}, "names": ["place"], "what": "where the meeting is"},
}


def agreed_answers(read: ReadsTargets) -> ReadsAnswers:
    """A reading of paragraphs as the two answers it takes: the same option in both orders
    (none where ``read`` gives none)."""

    def answers(instruction: str, formatting: str) -> Answers:
        paragraphs = read(instruction, formatting)
        words = [word for word, named in OPTIONS.items() if list(named) == paragraphs]
        return (words[0], words[0]) if paragraphs and words else (None, None)

    return answers


def numbered(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps with ids ``s1``, ``s2``, ... in order."""
    return [{"id": f"s{n}", **step} for n, step in enumerate(steps, start=1)]


def program(*steps: dict[str, Any]) -> Program:
    """The steps, numbered, as a checked :class:`Program`."""
    return Program(steps=[ProgramStep.model_validate(step) for step in numbered(*steps)])


def as_program(*steps: dict[str, Any]) -> Program:
    """The steps as written, ids and all, as a checked :class:`Program`."""
    return Program(steps=[ProgramStep.model_validate(step) for step in steps])


def gold_programs(
    seeds: tuple[int, ...] = (7, 31, 77), count: int = 120
) -> Iterator[tuple[Task, Program]]:
    """Each generated task of ``seeds`` (``count`` a seed) with its gold program."""
    for seed in seeds:
        for task in generate_tasks(count, seed):
            if task.program:
                yield task, Program(steps=list(task.program))


def mended(program: Program, instruction: str, given: tuple[str, ...] = ()) -> Program:
    """``program`` through every mend the Manager applies to a first program (no readings of
    the instruction, no files)."""
    return ProgramMends(
        skills=default_catalog(),
        readings=InstructionReadings(),
        instruction=instruction,
        done=(),
        given=given,
        examples="",
        is_file=None,
    )(program)


def planned_alone(
    model: StructuredChatModel, apps: dict[str, str], instruction: str
) -> PlanOutcome:
    """The Manager's plan for ``instruction`` with ``model`` and the skills of ``apps``, its
    steps never asked for one by one and no reading of the instruction."""
    return Manager(
        model,
        apps=apps,
        skills=default_catalog().for_apps(list(apps)),
        readings=InstructionReadings(),
        asks_single_steps=False,
    ).plan(instruction)
