"""Which finished step gave the values a failed skill call refused.

Why: a skill refuses values of the wrong kind where an earlier step found the wrong thing, and
the re-plan is shown only the failed step. pc07 at 2e14a63 (2026-12-05) looked up each company's
"stock" (the value's name the 1.5B planner chose), got the companies' names, and ``sort_items``
refused them as "not a number"; the re-plans wrote the same look-up and the same sort again,
each refused as a repeat, until the run failed. The failure says which parameter was refused;
the program says which step gave it; saying so points the re-plan at the step to change.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcagent.agents.plan import SubtaskSpec


def refused_inputs(failed: SubtaskSpec, finished: Sequence[SubtaskSpec], why: str) -> str:
    """A sentence naming the finished steps whose values ``failed`` was given for the
    parameters its failure ``why`` names; "" where none. A skill's refusal names each bad
    field as ``skill: parameter.item.field: message``
    (:meth:`pcagent.skills.base.Skill.validate`)."""
    done = {step.id: step for step in finished}
    sources: dict[str, list[str]] = {}
    for parameter, value in failed.args.items():
        if not isinstance(value, dict) or value.get("from") not in done:
            continue
        if f": {parameter}." in why or f": {parameter}:" in why:
            sources.setdefault(str(value["from"]), []).append(parameter)
    if not sources:
        return ""
    named = "; ".join(
        f"{', '.join(parameters)} came from {source} ({done[source].description})"
        for source, parameters in sources.items()
    )
    return (
        f"The refused values of {named}: that step found other values than this one needs. "
        "Call its skill again as a new step, with arguments that find what is needed (the "
        "value's name saying what it is), and refer to the new step."
    )
