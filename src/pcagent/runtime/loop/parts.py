"""The swappable parts of the step loop, and the one place that chooses them (:func:`build_parts`).

Each part is a small object behind a narrow interface: a planner (Manager, or one subtask), an
assigner (the scheduler over the role pool, or one generalist), a perceiver (marks and Set-of-Mark,
or the plain tree and the screenshot), a reflector (the Reflection agent, or one that trusts every
action) and a progress tracker (the Progress agent, or none). The ablations of the paper's study
are different choices here; the loop never asks which ablation it runs. The planners are in
:mod:`pcagent.runtime.loop.planners`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image

from pcagent.agents.outcome_judge import JudgeAgent, Verdict
from pcagent.agents.plan import SubtaskSpec
from pcagent.agents.progress import ProgressAgent, ProgressInput, ProgressReport
from pcagent.agents.reflection import Reflection, ReflectionAgent, ReflectionInput
from pcagent.agents.roles import RolePool
from pcagent.agents.scheduler import Scheduler
from pcagent.agents.screen_diff import screen_diff
from pcagent.config import RunConfig
from pcagent.env.protocol import Desktops, Environment
from pcagent.models.messages import ImagePart
from pcagent.perception.listing import baseline_listing, element_targets
from pcagent.perception.module import ActivePerception, Perception
from pcagent.runtime.loop.ablations import Ablation
from pcagent.runtime.loop.desktop_state import home_file_check
from pcagent.runtime.loop.planners import (
    AgentModels,
    ExperienceSource,
    ManagerPlanner,
    NoExperience,
    Planner,
    SingleSubtaskPlanner,
    Sink,
)
from pcagent.runtime.record.models import StepResult
from pcagent.skills import SkillCatalog
from pcagent.step_context import StepContext

# --- roles ---------------------------------------------------------------------------------------


class Assigner(Protocol):
    """Names the role for a subtask (never one in ``declined``), with a reason."""

    def assign(
        self, subtask: SubtaskSpec, declined: Collection[str], step: int
    ) -> tuple[str, str]: ...


@dataclass
class SchedulerAssigner:
    models: AgentModels
    sink: Sink
    pool: RolePool

    def assign(self, subtask: SubtaskSpec, declined: Collection[str], step: int) -> tuple[str, str]:
        scheduler = Scheduler(self.models.for_role("scheduler"), self.sink, pool=self.pool)
        assignment = scheduler.assign(subtask, declined, step=step)
        return assignment.role, assignment.reason


@dataclass
class FixedRoleAssigner:
    """Always the same role (the single-agent ablation's generalist)."""

    role: str

    def assign(self, subtask: SubtaskSpec, declined: Collection[str], step: int) -> tuple[str, str]:
        return self.role, "the only role"


# --- perception ----------------------------------------------------------------------------------


@dataclass
class Seen:
    """One look at the screen as a step uses it: the perception (marks, for the guard and
    Reflection), the listing Decision reads, the picture a vision model gets, and the Set-of-Mark
    image kept in the record (None when the run shows none)."""

    perception: Perception
    listing: str
    picture: Image.Image
    recorded_set_of_mark: Image.Image | None
    #: What ``click_element`` may name (label as listed -> the mark's centre); empty when the
    #: listing shows no marks' labels as such (the plain-tree ablation).
    targets: Mapping[str, tuple[int, int]] = field(default_factory=dict)


class Perceiver(Protocol):
    def perceive(self, subtask: str) -> Seen: ...


@dataclass
class MarkPerceiver:
    """The Active Perception Module: numbered marks pruned to the subtask, and Set-of-Mark."""

    environment: Environment
    run: RunConfig

    def look(self, subtask: str) -> Perception:
        return ActivePerception(self.environment).perceive(
            subtask, self.run.listing_limit or None, with_ocr=self.run.with_ocr
        )

    def perceive(self, subtask: str) -> Seen:
        perception = self.look(subtask)
        som = perception.set_of_mark
        targets = {name: mark.center for name, mark in element_targets(perception.shown).items()}
        return Seen(perception, perception.listing, som, som, targets)


@dataclass
class PlainTreePerceiver(MarkPerceiver):
    """The ablation without perception: the plain accessibility tree and the bare screenshot
    (the marks are still found, for the safety guard and Reflection's diff)."""

    def perceive(self, subtask: str) -> Seen:
        perception = self.look(subtask)
        observation = perception.observation
        return Seen(
            perception, baseline_listing(observation.elements), observation.screenshot, None
        )


# --- reflection and progress ---------------------------------------------------------------------


class Reflector(Protocol):
    def reflect(self, data: ReflectionFacts) -> Reflection: ...


@dataclass(frozen=True)
class ReflectionFacts:
    """What a reflector compares: the screen before and after one action of the step
    ``context`` describes."""

    context: StepContext
    thought: str
    action: Any
    before: Seen
    after: Seen
    window_after: str
    app_after: str = ""
    #: What carrying out the action came to (an application action's own check of its effect).
    result: StepResult | None = None


@dataclass
class ModelReflector:
    """The Reflection agent, after the pixel/element diff (identical screens need no model)."""

    models: AgentModels
    sink: Sink
    #: Ask the model also where a check decided (``run.reflection_second_opinion``).
    second_opinion: bool = False

    def reflect(self, data: ReflectionFacts) -> Reflection:
        before, after = data.before.perception, data.after.perception
        diff = screen_diff(before.observation, after.observation, before.marks, after.marks)
        model = self.models.for_role("reflection")
        image = None
        if model.info.vision:
            image = ImagePart.from_image(after.set_of_mark, alt_text="(screenshot after)")
        return ReflectionAgent(model, self.sink, second_opinion=self.second_opinion).reflect(
            ReflectionInput(
                subtask=data.context.subtask,
                thought=data.thought,
                action=data.action,
                diff=diff,
                listing_after=after.listing,
                window_after=data.window_after,
                image_after=image,
                step=data.context.number,
                app_after=data.app_after,
                result_ok=data.result.ok if data.result is not None else None,
                result_verified=data.result.verified if data.result is not None else False,
                result_message=data.result.message if data.result is not None else "",
            )
        )


class TrustingReflector:
    """No Reflection: every action counts as a success."""

    def reflect(self, data: ReflectionFacts) -> Reflection:
        return Reflection("success", "reflection is switched off", False)


class ProgressTracker(Protocol):
    """The new account of a subtask after a step; None keeps the old one."""

    def update(self, data: ProgressInput) -> ProgressReport | None: ...


@dataclass
class AgentProgressTracker:
    models: AgentModels
    sink: Sink

    def update(self, data: ProgressInput) -> ProgressReport | None:
        return ProgressAgent(self.models.for_role("progress"), self.sink).update(data)


class NoProgressTracker:
    def update(self, data: ProgressInput) -> ProgressReport | None:
        return None


# --- the outcome --------------------------------------------------------------------------------


class OutcomeJudge(Protocol):
    """Whether the done steps (as :func:`~pcagent.agents.outcome_judge.step_lines` writes them)
    together do the instruction."""

    def judge(self, instruction: str, steps: Mapping[str, str], step: int) -> Verdict: ...


@dataclass
class ModelJudge:
    """The Judge agent (``run.judge_outcome``)."""

    models: AgentModels
    sink: Sink

    def judge(self, instruction: str, steps: Mapping[str, str], step: int) -> Verdict:
        return JudgeAgent(self.models.for_role("judge"), self.sink).judge(instruction, steps, step)


class NoJudge:
    """No reading of the whole instruction: the steps' own checks decide alone."""

    def judge(self, instruction: str, steps: Mapping[str, str], step: int) -> Verdict:
        return Verdict(True, "", asked_model=False)


# --- choosing the parts --------------------------------------------------------------------------


@dataclass(frozen=True)
class LoopParts:
    planner: Planner
    assigner: Assigner
    perceiver: Perceiver
    reflector: Reflector
    progress: ProgressTracker
    experience: ExperienceSource = field(default_factory=NoExperience)
    judge: OutcomeJudge = field(default_factory=NoJudge)


def build_parts(
    ablation: Ablation,
    *,
    environment: Environment,
    models: AgentModels,
    sink: Sink,
    run: RunConfig,
    pool: RolePool,
    apps: Mapping[str, str],
    generalist: str,
    experience: ExperienceSource | None = None,
    skills: SkillCatalog | None = None,
) -> LoopParts:
    """The parts of the full system, with those an ablation switches off swapped out.
    ``experience`` is the page graph chosen for the run, if any."""
    no_manager = ablation in ("no_manager", "single_agent")
    single = ablation == "single_agent"
    learned: ExperienceSource = (
        NoExperience() if experience is None or ablation == "no_experience" else experience
    )
    desktops = environment.environment_apps() if isinstance(environment, Desktops) else {}
    return LoopParts(
        planner=(
            SingleSubtaskPlanner()
            if no_manager
            else ManagerPlanner(
                models,
                sink,
                apps,
                True,
                learned,
                desktops,
                skills=SkillCatalog(()) if ablation == "no_skills" or skills is None else skills,
                remembers=ablation != "no_memory",
                is_file=None if desktops else home_file_check(environment),
                settings=run,
            )
        ),
        assigner=FixedRoleAssigner(generalist) if single else SchedulerAssigner(models, sink, pool),
        perceiver=(
            PlainTreePerceiver(environment, run)
            if ablation == "no_perception"
            else MarkPerceiver(environment, run)
        ),
        reflector=(
            TrustingReflector()
            if ablation in ("no_reflection", "single_agent")
            else ModelReflector(models, sink, run.reflection_second_opinion)
        ),
        progress=NoProgressTracker() if single else AgentProgressTracker(models, sink),
        experience=learned,
        judge=ModelJudge(models, sink) if run.judge_outcome else NoJudge(),
    )
