"""The Manager (instruction level): decomposes an instruction into a DAG of subtasks, re-plans.

A plan the model gets wrong (a cycle, an input nothing produces, a subtask that names no
application) is re-asked once with the problem; two subtasks in a row in one application are
merged into one visit (:func:`merge_same_app_visits`); if it is still unusable, the whole instruction
becomes one subtask, so a weak model degrades the run instead of ending it. A subtask still
without an application gets the one its words name (:func:`infer_app`), as does that one
subtask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pcagent.agents.app_inference import app_scores, infer_app, named_apps
from pcagent.agents.base import Agent, bullet_list, value_list
from pcagent.agents.clause_plan import clause_plan
from pcagent.agents.plan import Plan, SubtaskSpec, check_plan, merge_same_app_visits
from pcagent.agents.plan_wording import drop_openings
from pcagent.agents.prompting import render
from pcagent.errors import PlanError
from pcagent.models.messages import Message


@dataclass(frozen=True)
class PlanOutcome:
    """A checked plan; ``fallback`` is True when the model's plans were unusable and the whole
    instruction became one subtask, with ``problem`` saying why."""

    plan: Plan
    fallback: bool = False
    problem: str = ""


def single_subtask_plan(instruction: str, app: str = "") -> Plan:
    """The plan of the ablation without a Manager: the whole instruction as one subtask."""
    return Plan(subtasks=[SubtaskSpec(id="s1", description=instruction.strip(), app=app)])


@dataclass
class Manager(Agent):
    """Plans and re-plans.

    ``apps`` are the applications the environment offers (logical name -> what it is for), in
    the order the prompt lists them; a plan naming any other application has it blanked. There
    is no default: the list comes from the environment, so the plan can only name what exists.
    """

    apps: Mapping[str, str] = field(kw_only=True)
    #: A run across several desktops: each desktop's name and its applications, the first the
    #: default; each subtask names the desktop it works on. Empty (or one): a single desktop.
    environments: Mapping[str, Sequence[str]] = field(default_factory=dict, kw_only=True)
    #: Long-term memory: plans of similar earlier instructions whose runs succeeded, as prompt
    #: lines for an instruction ("" when there are none).
    memory: Callable[[str], str] | None = field(default=None, kw_only=True)
    name: ClassVar[str] = "manager"

    def plan(self, instruction: str, step: int | None = 0) -> PlanOutcome:
        """Decompose ``instruction``. One that names a single application of the desktop outright
        (:func:`named_apps`) is one visit to it, by the Manager's own rule, and needs no model: a
        small model still split "compute it" and "press equals" into two subtasks that fought
        each other. One whose clauses each name their application is planned by its clauses
        (:func:`~pcagent.agents.clause_plan.clause_plan`), also without a model."""
        app = self._the_one_app(instruction)
        if app and not self._several_desktops:
            return PlanOutcome(single_subtask_plan(instruction, app))
        by_clauses = clause_plan(instruction, self.apps) if not self._several_desktops else None
        if by_clauses is not None:
            return PlanOutcome(by_clauses)
        remembered = self.memory(instruction) if self.memory is not None else ""
        context = (
            "Plans of similar earlier tasks that succeeded (their values differ: use this "
            f"instruction's own):\n{remembered}\n"
            if remembered
            else ""
        )
        return self._ask_plan(instruction, context, (), (), step)

    def replan(
        self,
        instruction: str,
        finished: Sequence[SubtaskSpec],
        hub: Mapping[str, str],
        failed: SubtaskSpec,
        reason: str,
        step: int | None = None,
    ) -> PlanOutcome:
        """New subtasks for what remains after ``failed`` failed; finished ones are not redone."""
        context = (
            "Already finished (do not repeat them):\n"
            + bullet_list([f"{s.id}: {s.description}" for s in finished])
            + "\nValues found so far:\n"
            + value_list(dict(hub))
            + f"\nThis subtask failed: {failed.id}: {failed.description}\nWhy: {reason}\n"
            "Plan only the remaining work, another way; new ids must differ from the old ones."
        )
        outcome = self._ask_plan(instruction, context, hub.keys(), [s.id for s in finished], step)
        if outcome.fallback:
            return PlanOutcome(
                Plan(subtasks=[failed.model_copy(update={"id": f"{failed.id}r"})]),
                fallback=True,
                problem=outcome.problem,
            )
        return outcome

    def _ask_plan(
        self,
        instruction: str,
        context: str,
        known_values: object,
        known_ids: Sequence[str],
        step: int | None,
    ) -> PlanOutcome:
        apps = "\n".join(f"- {name}: {text}" for name, text in self.apps.items()) or (
            '- (the desktop names none; leave "app" empty)'
        )
        context = self._desktops_text() + context
        system, user = render("manager", apps=apps, instruction=instruction, context=context)
        messages = [Message.system(system), Message.user(user)]
        problem = ""
        for attempt in range(2):
            result = self.ask(messages, Plan, step)
            if result.value is None:
                problem = result.failure.message if result.failure else "no reply"
                break
            try:
                check_plan(result.value, known_values, known_ids)  # type: ignore[arg-type]
                plan = _known_apps_only(result.value, self.apps)
                if attempt == 0:
                    self._require_apps(plan)
                    self._require_environments(plan)
                return PlanOutcome(self._repaired(self._with_environments(plan), instruction))
            except PlanError as error:
                problem = str(error)
                messages = [
                    *messages,
                    Message.assistant(result.raw_text),
                    Message.user(f"That plan is unusable: {problem}. Write a corrected plan."),
                ]
        # The fallback too works on a desktop of this run: the one the instruction names, else
        # the only one with its application, else the first.
        return PlanOutcome(
            self._with_environments(
                single_subtask_plan(instruction, self._the_one_app(instruction))
            ),
            fallback=True,
            problem=problem,
        )

    @property
    def _several_desktops(self) -> bool:
        return len(self.environments) > 1

    def _desktops_text(self) -> str:
        if not self._several_desktops:
            return ""
        lines = "\n".join(
            f"- {name}: {', '.join(apps) or 'no applications listed'}"
            for name, apps in self.environments.items()
        )
        return (
            "This task spans several desktops. Give every subtask the desktop it works on as "
            f'"environment", one of:\n{lines}\n'
        )

    def _require_environments(self, plan: Plan) -> None:
        """A plan across several desktops whose subtasks name none, or an unknown one, goes back
        once."""
        if not self._several_desktops:
            return
        wrong = [s.id for s in plan.subtasks if s.environment not in self.environments]
        if wrong:
            raise PlanError(
                f"subtasks {', '.join(wrong)} name no desktop this task has; give each subtask "
                f'the "environment" it works on, one of: {", ".join(self.environments)}'
            )

    def _with_environments(self, plan: Plan) -> Plan:
        """Every subtask on a desktop of this run: one it names, else the one its words name,
        else the only desktop with its application, else the first. One desktop: none named."""
        if not self._several_desktops:
            return Plan(subtasks=[s.model_copy(update={"environment": ""}) for s in plan.subtasks])
        return Plan(
            subtasks=[
                s.model_copy(update={"environment": self._desktop_of(s)}) for s in plan.subtasks
            ]
        )

    def _desktop_of(self, subtask: SubtaskSpec) -> str:
        if subtask.environment in self.environments:
            return subtask.environment
        words = set(re.findall(r"[a-z0-9_-]+", subtask.description.lower()))
        named = [name for name in self.environments if name in words]
        if len(named) == 1:
            return named[0]
        having = [name for name, apps in self.environments.items() if subtask.app in apps]
        if len(having) == 1:
            return having[0]
        return next(iter(self.environments))

    def _the_one_app(self, instruction: str) -> str:
        """The one application the instruction names outright; "" when none or several."""
        named = app_scores(instruction, self.apps) if self.apps else {}
        return (
            next(iter(named))
            if len(named) == 1 and named_apps(instruction, self.apps) == set(named)
            else ""
        )

    def _require_apps(self, plan: Plan) -> None:
        """A plan whose subtasks name no application (or one the desktop lacks) goes back once."""
        missing = [s.id for s in plan.subtasks if not s.app]
        if self.apps and missing:
            raise PlanError(
                f"subtasks {', '.join(missing)} name no application; give each subtask the one "
                f"application it works in, one of: {', '.join(self.apps)}"
            )

    def _repaired(self, plan: Plan, instruction: str) -> Plan:
        """Fill a subtask's missing application from its own words, else from the
        instruction's when it names exactly one application; drop what only opens an
        application (the run opens it); then one subtask per visit."""
        if not self.apps:
            return merge_same_app_visits(plan)
        whole = self._the_one_app(instruction)
        filled = Plan(
            subtasks=[
                s
                if s.app
                else s.model_copy(update={"app": infer_app(s.description, self.apps) or whole})
                for s in plan.subtasks
            ]
        )
        return merge_same_app_visits(drop_openings(filled, self.apps))


def _known_apps_only(plan: Plan, apps: Mapping[str, str]) -> Plan:
    """Blank out app names the desktop does not have, rather than reject the plan for them: the
    scheduler then assigns by capability."""
    return Plan(
        subtasks=[s if s.app in apps else s.model_copy(update={"app": ""}) for s in plan.subtasks]
    )
