"""A whole value passed where a list is wanted: caught before anything runs.

A small planner passes a text on as if it were a list: the file it just read as the items to
sort, a document's paragraphs as the paragraphs to format, an extracted value as the rows of a
sheet. The program validates (a reference may stand for any argument), and the step fails at
run time with a type error the re-plan cannot use. A skill says whether its value is a list
(``gives_list``); a reference to any other skill's value, or to one named value of it, passed
to a parameter that takes only a list, is a problem the Manager is re-asked with, naming what
that step gives. GUI steps' values are not judged (their outputs are whatever was read).
"""

from __future__ import annotations

from typing import Any

from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, is_reference, parameter_schemas, skill_steps
from pcagent.skills import SkillCatalog


def takes_only_lists(schema: dict[str, Any]) -> bool:
    """Whether a parameter's JSON schema takes a list and nothing else (or null)."""
    if schema.get("type") == "array":
        return True
    options = schema.get("anyOf")
    if not options:
        return False
    kinds = [option.get("type") for option in options]
    return "array" in kinds and all(kind in ("array", "null") for kind in kinds)


def one_value_for_a_list(program: Program, catalog: SkillCatalog) -> list[Doubt]:
    """A doubt for each argument that takes a list and is given a reference to one value."""
    gives: dict[str, str] = {}  # step id -> its skill (GUI steps left out)
    problems: list[Doubt] = []
    for step, one in skill_steps(program, catalog):
        properties = parameter_schemas(one)
        for name, value in step.args.items():
            if not is_reference(value) or not takes_only_lists(properties.get(name, {})):
                continue
            source, key = value["from"], value.get("key", "")  # type: ignore[index,union-attr]
            producer = gives.get(source)
            if producer is None:
                continue  # a GUI step, or a step that is not there (named by check_program)
            made = catalog.get(producer)
            if made.gives_list and not key:
                continue
            what = f"{source}.{key}" if key else source
            each = made.for_each if made.for_each in catalog else ""
            problems.append(
                Doubt(
                    step.id,
                    f"{name} takes a list, and {what} is one value ({producer} gives "
                    f"{made.returns or 'one value'}): write the list, each item a literal or a "
                    "reference to one value"
                    + (
                        f"; or, for the same value of each of several things, call {each} "
                        f"instead of {producer} ({each} gives the list)"
                        if each
                        else ""
                    ),
                )
            )
        gives[step.id] = step.skill
    return problems
