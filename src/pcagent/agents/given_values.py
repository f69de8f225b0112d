"""Literals a program may only copy, never invent: a web address must be one the instruction
names.

A small planner that does not know where something is writes an address it makes up (a maps
viewer with coordinates, a vendor's home page); the page is missing or wrong, and the run goes
on from nothing. A skill marks such a parameter ``given`` (``json_schema_extra={"given":
True}``); a literal for it must appear in the instruction, or the program is re-asked with the
problem, so the model finds the page another way (a web search) or passes on an address an
earlier step found. This checks the model's output against the text it was given, as a reported
value is checked against what was read: it refuses, it never decides a step.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.program import SLOT, Program
from pcagent.skills import SkillCatalog


def given_parameters(catalog: SkillCatalog, skill: str) -> list[str]:
    """The parameters of ``skill`` whose literals must come from the instruction."""
    if skill not in catalog:
        return []
    fields = catalog.get(skill).parameters.model_fields
    return [
        name
        for name, field in fields.items()
        if isinstance(field.json_schema_extra, dict) and field.json_schema_extra.get("given")
    ]


def address_core(address: str) -> str:
    """An address as a person would write it: no scheme, no "www.", no trailing slash,
    casefolded ("https://www.Example.org/" -> "example.org")."""
    text = address.strip().casefold()
    for prefix in ("https://", "http://"):
        text = text.removeprefix(prefix)
    return text.removeprefix("www.").rstrip("/")


def _named_in(value: str, text: str) -> bool:
    """Whether ``text`` names the address ``value``: its whole core, or, for a page deeper in
    a site, the site (a page of a named site may be found by its path)."""
    core = address_core(value)
    folded = text.casefold()
    return bool(core) and (core in folded or core.split("/", 1)[0] in folded)


def ungiven_literals(program: Program, catalog: SkillCatalog, given: Sequence[str]) -> list[str]:
    """A problem for each literal of a ``given`` parameter that none of ``given`` (the
    instruction, what earlier steps found) names."""
    problems = []
    for step in program.steps:
        for name in given_parameters(catalog, step.skill):
            value = step.args.get(name)
            items = value if isinstance(value, list) else [value]
            for item in items:
                if not isinstance(item, str) or SLOT.search(item):
                    continue  # a reference: found by an earlier step
                if not any(_named_in(item, text) for text in given):
                    problems.append(
                        f"{step.id}: {name}={item!r} is not in the instruction: use an address "
                        "it gives, one an earlier step finds, or search for it first"
                    )
    return problems
