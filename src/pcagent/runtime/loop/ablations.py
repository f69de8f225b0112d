"""The ablations of the paper's study, named once.

An ablation swaps parts of the step loop (see :func:`pcagent.runtime.loop.parts.build_parts`); the
loop itself never asks which ablation it runs. Everything that accepts an ablation name (the
CLI, the benchmark, the run record) validates it here, before any desktop starts.
"""

from __future__ import annotations

from typing import Literal, cast

from pcagent.errors import ConfigurationError

Ablation = Literal[
    "none",
    "no_perception",
    "no_manager",
    "no_reflection",
    "single_agent",
    "gui_only",
    "no_experience",
    "no_skills",
    "no_memory",
]

ABLATIONS: dict[str, str] = {
    "none": "the full system",
    "no_perception": "screenshot and the plain accessibility tree instead of marks and SoM",
    "no_manager": "the whole instruction as one subtask",
    "no_reflection": "no Reflection agent: every action counts as a success",
    "single_agent": "one Decision agent with every action: no Manager, Progress, Reflection, roles",
    "gui_only": "no application actions: every role works through mouse and keyboard alone",
    "no_experience": "no guidance from a page graph or plans of earlier tasks (see --experience)",
    "no_skills": "no skills: the plan is GUI tasks, the Decision agent chooses every action",
    "no_memory": "the Manager is shown no programs of similar earlier tasks",
}


def check_ablation(name: str) -> Ablation:
    """``name`` as an :data:`Ablation`; :class:`ConfigurationError` listing the valid names."""
    if name not in ABLATIONS:
        valid = ", ".join(ABLATIONS)
        raise ConfigurationError(f"unknown ablation {name!r}; valid ablations: {valid}")
    return cast(Ablation, name)
