"""The doubts a program is given once it is kept, never re-asked for: a program written again
cannot answer them. A last step that only reads or opens a page (:mod:`ends_on_reading`: the
re-asked planner wrote other endings as empty), and a call whose one check is a reading the
model gave both ways (:mod:`unsure_readings`: no program makes the reading agree). Each keeps
the run from ending "finished" on what nothing checked."""

from __future__ import annotations

from pcagent.agents.ends_on_reading import ends_on_reading
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program
from pcagent.agents.unsure_readings import unsure_readings
from pcagent.skills import SkillCatalog


def kept_doubts(
    program: Program,
    catalog: SkillCatalog,
    readings: InstructionReadings,
    instruction: str,
    replan: bool,
) -> list[Doubt]:
    """The doubts of ``program`` kept for ``instruction`` (``replan``: a re-plan's program,
    whose last page opened is not judged: the old plan's steps may follow it)."""
    return [
        *ends_on_reading(program, catalog, pages=not replan),
        *unsure_readings(program, catalog, readings, instruction),
    ]
