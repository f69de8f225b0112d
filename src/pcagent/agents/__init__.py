"""The agents (PC-Agent's hierarchy and COLA's role pool), each a small class around a model.

- :class:`Manager`: instruction -> :class:`Plan` (subtasks with inputs/outputs, a DAG); re-plans.
- :class:`ProgressAgent`: keeps each subtask's account and reports its outputs.
- :class:`DecisionAgent`: reasoning, then one typed action from its role's domain.
- :class:`ReflectionAgent`: success / no_change / unexpected_change after each action, with a
  cheap :func:`screen_diff` first.
- :class:`Scheduler` and :class:`RolePool`: which role does which subtask.
- :class:`CommunicationHub`: values passed between dependent subtasks.

Agents see perception output and emit actions; they never touch X11 or AT-SPI. The run loop that
drives them is :mod:`pcagent.runtime`.
"""

from pcagent.agents.decision import Decision, DecisionAgent, DecisionInput
from pcagent.agents.decision_schema import decision_schema
from pcagent.agents.hub import CommunicationHub
from pcagent.agents.manager import Manager, PlanOutcome
from pcagent.agents.plan import (
    Plan,
    SubtaskSpec,
    check_plan,
    single_subtask_plan,
    topological_order,
)
from pcagent.agents.progress import ProgressAgent, ProgressInput, ProgressReport
from pcagent.agents.reflection import Reflection, ReflectionAgent, ReflectionInput
from pcagent.agents.roles import Role, RolePool, default_pool, generalist
from pcagent.agents.scheduler import Assignment, Scheduler, rule_assignment
from pcagent.agents.screen_diff import ScreenDiff, screen_diff

__all__ = [
    "Assignment",
    "CommunicationHub",
    "Decision",
    "DecisionAgent",
    "DecisionInput",
    "Manager",
    "Plan",
    "PlanOutcome",
    "ProgressAgent",
    "ProgressInput",
    "ProgressReport",
    "Reflection",
    "ReflectionAgent",
    "ReflectionInput",
    "Role",
    "RolePool",
    "Scheduler",
    "ScreenDiff",
    "SubtaskSpec",
    "check_plan",
    "decision_schema",
    "default_pool",
    "generalist",
    "rule_assignment",
    "screen_diff",
    "single_subtask_plan",
    "topological_order",
]
