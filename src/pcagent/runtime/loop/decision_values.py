"""A Decision agent's skill call may name earlier steps' values instead of copying them.

Why apart from the loop: it is the one place where a GUI step's free choice meets the program's
typed references, and the loop module is kept to its stages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pydantic import JsonValue

from pcagent import actions as act
from pcagent.agents.decision import Decision
from pcagent.agents.filled_values import resolve
from pcagent.agents.program import references
from pcagent.errors import PlanError


def with_values_filled(decision: Decision, values: Mapping[str, JsonValue]) -> Decision:
    """A skill call of the Decision agent with its references (``{"from": "s1"}``) filled in
    from the values found so far, as a program's are: copied by hand, a page of facts cost the
    model 360 tokens (two and a half minutes on two cores). A reference to no value is left for
    the skill's own validation to name."""
    action = decision.action
    if not isinstance(action, act.UseSkill) or not references(action.args):
        return decision
    try:
        args = resolve(action.args, values)
    except PlanError:
        return decision
    filled = ", ".join(sorted(set(references(action.args))))
    return replace(
        decision,
        action=action.model_copy(update={"args": args}),
        reasoning=f"{decision.reasoning} [values of {filled} filled in]".strip(),
    )
