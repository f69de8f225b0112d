"""A value's name as the key of a reference to a reading becomes an extraction of that value.

A reading (a page of search results, a page opened, a file's, a mail's or a sheet's text) is one
text: it has no fields. The 1.5B Manager, asked where a console was cheapest, searched and then
wrote ``{"from": "s1", "key": "price"}`` into the file to write (a rewording of pc24,
2026-12-03). Such a key was dropped as a slip (:mod:`pcagent.agents.reference_keys`), and the
whole page of results was written into the person's file. The key says what the program
wanted from the text: a value of that name, which is what ``extract_values`` finds and checks
against the text. So an extraction of it is put right after the reading, and every reference to
that key of the reading refers to the extraction's value instead.

A key that names the reading itself (a word of what the skill declares it returns, "text",
"content", "page") is left for :mod:`pcagent.agents.reference_keys` to drop: the whole text was
meant.

Where an earlier step already extracts a value of that name from that reading, the reference is
made to that extraction, not to a second one: pc03 at 2e14a63 (2026-12-05) extracted "time"
from the map's page as s5 and set the alarm at ``{"from": "s4", "key": "time"}``; a new
extraction of "the time" from the page answered "10:15", a time the page does not hold, and
the run failed on it.
"""

from __future__ import annotations

from collections.abc import Collection

from pcagent.agents.program import Program, ProgramStep, reference_values, skill_of
from pcagent.agents.step_ids import changed_step
from pcagent.skills import SkillCatalog

#: Keys that name a reading as a whole, besides the words of what its skill returns.
_WHOLE = frozenset({"text", "texts", "content", "contents", "body", "page", "output", "result"})


def with_keys_of_readings_extracted(
    program: Program, catalog: SkillCatalog, before: Collection[str] = ()
) -> Program:
    """``program`` with an extraction after each reading whose value a later step refers to
    by a name, and those references made to it; else ``program`` itself. ``before``: the
    ids of steps already run, which a new step's id must not repeat."""
    if "extract_values" not in catalog:
        return program
    readings = {step.id: step for step in program.steps if reading(step, catalog)}
    wanted: dict[tuple[str, str], str] = {}  # (reading, key) -> the extraction's id
    taken = {step.id for step in program.steps} | set(before)
    done: dict[tuple[str, str], str] = {}  # (reading, key) -> an earlier step's extraction
    for step in program.steps:
        for reference in reference_values(step.args):
            source, key = str(reference["from"]), str(reference.get("key") or "")
            if (
                source in readings
                and key
                and (source, key) not in wanted
                and not _names_whole(key, readings[source], catalog)
            ):
                if (source, key) in done:
                    wanted[(source, key)] = done[(source, key)]
                    continue
                wanted[(source, key)] = free_step_id(taken)
                taken.add(wanted[(source, key)])
        for key in _extracted_names(step, readings):
            done.setdefault((_text_source(step), key), step.id)
    if not wanted:
        return program

    def change(source: str, key: str) -> tuple[str, str]:
        extraction = wanted.get((source, key))
        return (extraction, key) if extraction is not None else (source, key)

    steps: list[ProgramStep] = []
    for step in program.steps:
        steps.append(changed_step(step, change))
        for (source, key), extraction in wanted.items():
            if source == step.id and extraction not in done.values():
                steps.append(_extraction(extraction, source, key))
    return program.model_copy(update={"steps": steps})


def _text_source(step: ProgramStep) -> str:
    """The step whose whole value ``step`` reads as its text, or "" where none."""
    text = step.args.get("text")
    if isinstance(text, dict) and not text.get("key"):
        return str(text.get("from") or "")
    return ""


def _extracted_names(step: ProgramStep, readings: Collection[str]) -> list[str]:
    """The names ``step`` extracts from a whole reading of ``readings``; none otherwise."""
    names = step.args.get("names")
    if step.skill != "extract_values" or _text_source(step) not in readings:
        return []
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else []


def reading(step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``step``'s value is one text read (a page, a file, mail, a sheet's cells)."""
    one = skill_of(step, catalog)
    if one is None:
        return False
    if one.value_keys or one.keys_argument or one.gives_list or one.needs_language:
        return False
    return one.only_reads or one.page is not None


def _names_whole(key: str, step: ProgramStep, catalog: SkillCatalog) -> bool:
    """Whether ``key`` names the reading itself rather than a value in it."""
    returned = {
        word.strip("'\"").removesuffix("'s") for word in catalog.get(step.skill).returns.split()
    }
    return key.lower() in _WHOLE | returned


def free_step_id(taken: Collection[str]) -> str:
    """The step id after the highest of ``taken`` (``sN``): above every id of the program and
    of a re-plan's finished steps, which a gap's id could repeat."""
    numbers = [int(one[1:]) for one in taken if one[:1] == "s" and one[1:].isdigit()]
    return f"s{max(numbers, default=0) + 1}"


def _extraction(step_id: str, source: str, key: str) -> ProgramStep:
    return ProgramStep(
        id=step_id,
        skill="extract_values",
        args={
            "text": {"from": source},
            "names": [key],
            "what": f"the {key.replace('_', ' ')}",
        },
    )
