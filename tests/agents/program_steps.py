"""Programs for tests, written as the Manager writes them: steps without ids, numbered here."""

from __future__ import annotations

from typing import Any

from pcagent.agents.program import Program, ProgramStep


def numbered(*steps: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps with ids ``s1``, ``s2``, ... in order."""
    return [{"id": f"s{n}", **step} for n, step in enumerate(steps, start=1)]


def program(*steps: dict[str, Any]) -> Program:
    """The steps, numbered, as a checked :class:`Program`."""
    return Program(steps=[ProgramStep.model_validate(step) for step in numbered(*steps)])


def as_program(*steps: dict[str, Any]) -> Program:
    """The steps as written, ids and all, as a checked :class:`Program`."""
    return Program(steps=[ProgramStep.model_validate(step) for step in steps])
