"""The grammar the Manager writes its program under, made from the skills' own schemas.

Why apart from :mod:`pcagent.agents.program`: the program's types and checks are read far more
often than the JSON schema they are decoded under, and each is long enough alone. The grammars
of one step asked for alone (:mod:`focused_steps`) are cut from the program's here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from pcagent.agents.program import (
    GUI,
    MAX_REQUESTS,
    MAX_STEPS,
    REQUEST_CHARS,
    STEP_ID,
    VALUE_NAME,
    Program,
    ProgramStep,
)
from pcagent.skills import SkillCatalog

_REFERENCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"from": {"type": "string", "pattern": STEP_ID}, "key": {"type": "string"}},
    "required": ["from"],
    "additionalProperties": False,
}


def _argument_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter's schema, or a reference to an earlier step's value."""
    return {"anyOf": [schema, {"$ref": "#/$defs/Reference"}]}


def program_schema(
    catalog: SkillCatalog,
    apps: Sequence[str],
    environments: Sequence[str] = (),
    *,
    requests: bool = False,
) -> dict[str, Any]:
    """The JSON schema of a program over ``catalog`` on a desktop with ``apps``: one branch per
    skill (its own parameter schema, each parameter also taking a reference) and one for GUI
    steps. Constrained decoding keeps a small model inside it. With ``requests`` the reply opens
    with the list of what the instruction asks, written before the steps that do it."""
    definitions: dict[str, Any] = {"Reference": _REFERENCE_SCHEMA}
    branches: list[dict[str, Any]] = []
    for one in catalog:
        parameters = one.parameters.model_json_schema(ref_template="#/$defs/{model}")
        definitions.update(parameters.pop("$defs", {}))
        properties = {
            name: _argument_schema(_bare(value))
            for name, value in parameters.get("properties", {}).items()
        }
        args = {
            "type": "object",
            "properties": properties,
            "required": parameters.get("required", []),
            "additionalProperties": False,
        }
        branches.append(
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "pattern": STEP_ID},
                    "skill": {"const": one.name},
                    "args": args,
                },
                "required": ["id", "skill", "args"],
                "additionalProperties": False,
            }
        )
    branches.append(
        {
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": STEP_ID},
                "skill": {"const": GUI},
                "app": {"enum": list(apps)} if apps else {"type": "string"},
                "task": {"type": "string", "minLength": 1, "maxLength": 400},
                "uses": {"type": "array", "items": {"type": "string", "pattern": STEP_ID}},
                "outputs": {"type": "array", "items": {"type": "string", "pattern": VALUE_NAME}},
                "files": {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1, "maxLength": 400},
                    "maxItems": 20,
                },
            },
            "required": ["id", "skill", "app", "task"],
            "additionalProperties": False,
        }
    )
    if len(environments) > 1:
        for branch in branches:
            branch["properties"]["environment"] = {"enum": list(environments)}
            branch["required"].append("environment")
    steps = {"type": "array", "items": {"anyOf": branches}, "minItems": 1, "maxItems": MAX_STEPS}
    properties: dict[str, Any] = {}
    if requests:
        asked = {"type": "string", "minLength": 1, "maxLength": REQUEST_CHARS}
        properties["requests"] = {
            "type": "array",
            "items": asked,
            "minItems": 1,
            "maxItems": MAX_REQUESTS,
        }
    properties["steps"] = steps
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        "$defs": definitions,
    }


def _bare(schema: dict[str, Any]) -> dict[str, Any]:
    """A property schema without prose (titles, descriptions) or the checks' marks (``given``,
    ``numbers``): the grammar needs none."""
    return {k: v for k, v in schema.items() if k not in _NOT_FOR_GRAMMAR}


_NOT_FOR_GRAMMAR = frozenset(
    {"title", "description", "default", "given", "numbers", "choice", "formats"}
)


def program_reply_type(
    catalog: SkillCatalog,
    apps: Sequence[str],
    environments: Sequence[str] = (),
    *,
    requests: bool = False,
) -> type[Program]:
    """A :class:`Program` subclass whose schema is the grammar for this catalog and desktop."""
    schema = program_schema(catalog, apps, environments, requests=requests)
    return type("ProgramReply", (Program,), {"reply_schema": schema})


def step_reply_type(
    skills: SkillCatalog, apps: Sequence[str], ids: Sequence[str], *, screen: bool = True
) -> type[Program]:
    """A program of one step, with one of ``ids``, calling one of ``skills`` (or, with
    ``screen``, a screen step in one of ``apps``)."""
    schema = program_schema(skills, apps)
    steps: dict[str, Any] = schema["properties"]["steps"]
    steps["maxItems"] = 1
    _branches_with_ids(steps, ids, screen)
    return type("StepReply", (Program,), {"reply_schema": schema})


class _MaybeSteps(Program):
    """A reply of no step, or of up to the steps asked for (the schema bounds how many)."""

    steps: list[ProgramStep] = Field(default_factory=list, max_length=MAX_STEPS)


def maybe_steps_type(skills: SkillCatalog, wanted: Sequence[str]) -> type[Program]:
    """No step, or up to ``len(wanted)`` steps with the ids ``wanted``, each calling one of
    ``skills`` (no screen step)."""
    schema = program_schema(skills, [])
    steps: dict[str, Any] = schema["properties"]["steps"]
    steps["minItems"], steps["maxItems"] = 0, len(wanted)
    _branches_with_ids(steps, wanted, screen=False)
    return type("MaybeStepsReply", (_MaybeSteps,), {"reply_schema": schema})


def _branches_with_ids(steps: dict[str, Any], ids: Sequence[str], screen: bool) -> None:
    """Gives each step branch of the ``steps`` schema the ids ``ids``; drops the screen step's
    branch unless ``screen``."""
    branches = steps["items"]["anyOf"]
    if not screen:
        branches = [b for b in branches if b["properties"]["skill"].get("const") != GUI]
        steps["items"]["anyOf"] = branches
    for branch in branches:
        branch["properties"]["id"] = {"enum": list(ids)}
