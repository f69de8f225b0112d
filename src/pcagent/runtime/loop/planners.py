"""The planners of the step loop: the Manager (with the run's memory, its view of HOME and its
reading of the files the instruction names), or the whole instruction as one subtask for the
ablations without a Manager; and what a planner is given (each agent's model, the record's sink,
the guidance of earlier runs). Chosen by :func:`pcagent.runtime.loop.parts.build_parts`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import JsonValue

from pcagent.agents.asked_answer import AnswerAskedAgent
from pcagent.agents.asked_formats import FormatReadingAgent
from pcagent.agents.choice_readings import ChoiceQuestion, ChoiceReadingAgent
from pcagent.agents.existing_files import FileCheck
from pcagent.agents.format_targets import Answers, FormatTargetsAgent
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.left_out_effects import EffectReadingAgent
from pcagent.agents.manager import Manager, PlanOutcome, Replanning
from pcagent.agents.manager_memory import Example, Remembers
from pcagent.agents.named_apps import AppNamesAgent, AskedApp
from pcagent.agents.named_files import FileNamesAgent, NamedPlaces
from pcagent.agents.plan import single_subtask_plan
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.search_instead import GuessedAddress, SearchWordsAgent
from pcagent.agents.step_origins import WrittenSteps
from pcagent.config import RunConfig
from pcagent.errors import RunStateError
from pcagent.models.structured import ChatModel, StructuredResult
from pcagent.skills import SkillCatalog
from pcagent.skills.effects import End

Sink = Callable[[str, StructuredResult[Any]], None]


class AgentModels(Protocol):
    """Gives each agent its model (``pcagent.models.ModelRouter`` is one)."""

    def for_role(self, role: str) -> ChatModel: ...


# --- planning ------------------------------------------------------------------------------------


class Planner(Protocol):
    """Turns the instruction into subtasks; ``can_replan`` says whether it can plan again."""

    can_replan: bool

    def plan(self, instruction: str) -> PlanOutcome: ...

    def replan(self, replanning: Replanning, step: int) -> PlanOutcome: ...


class ExperienceSource(Protocol):
    """Guidance learned from earlier runs (:mod:`pcagent.experience`): what was done from a page
    like the current one, and plans of similar instructions. "" where there is nothing."""

    def guidance(self, app: str, window: str, listing: str, subtask: str) -> str: ...

    #: Programs of similar earlier instructions (the Manager's :class:`Remembers`).
    similar_programs: Remembers


class NoExperience:
    """No page graph (none chosen, or the ``no_experience`` ablation)."""

    def guidance(self, app: str, window: str, listing: str, subtask: str) -> str:
        return ""

    def similar_programs(
        self,
        instruction: str,
        k: int = 1,
        using: Collection[str] = (),
        covering: Sequence[Collection[str]] = (),
        avoiding: Collection[str] = (),
        preferring: Callable[[Sequence[ProgramStep]], bool] | None = None,
    ) -> list[Example]:
        return []


@dataclass
class ManagerPlanner:
    """The Manager agent; ``apps`` are the environment's applications (name -> description)."""

    models: AgentModels
    sink: Sink
    apps: Mapping[str, str]
    can_replan: bool = True
    experience: ExperienceSource = field(default_factory=NoExperience)
    #: A run across several desktops: each one's applications (see Manager.environments).
    environments: Mapping[str, Sequence[str]] = field(default_factory=dict)
    #: The skills the program may call (empty: GUI tasks only, the ``no_skills`` ablation).
    skills: SkillCatalog = field(default_factory=lambda: SkillCatalog(()))
    #: Whether the Manager is shown programs of similar earlier tasks (``no_memory``: not).
    remembers: bool = True
    #: Whether a path names a file in the desktop's HOME (None: the run cannot tell).
    is_file: FileCheck | None = None
    #: The run's planning settings (``[run]``: which model readings check a program, how
    #: often the Manager is asked, whether single steps are asked for alone).
    settings: RunConfig = field(default_factory=RunConfig)
    _readings: InstructionReadings | None = field(default=None, init=False, repr=False)
    _places: dict[str, NamedPlaces] = field(default_factory=dict, init=False, repr=False)

    def _manager(self, written: WrittenSteps) -> Manager:
        """A Manager whose replies' calls ``written`` notes (which plan steps code changed)."""
        return Manager(
            self.models.for_role("manager"),
            written.passing_to(self.sink),
            apps=dict(self.apps),
            skills=self.skills,
            memory=self.experience.similar_programs if self.remembers else None,
            environments=dict(self.environments),
            is_file=self.is_file,
            readings=self._instruction_readings(),
            search_words=self._search_words if self.settings.search_guessed_addresses else None,
            program_attempts=self.settings.program_attempts,
            asks_single_steps=self.settings.single_step_asks,
            doubts_screen_steps=self.settings.screen_steps_doubted,
        )

    def _instruction_readings(self) -> InstructionReadings:
        """One set of readings for every Manager of the run: a reading is made once per
        instruction, though each plan and re-plan has a Manager of its own."""
        if self._readings is None:
            # Which applications an instruction asks for is not read across several desktops.
            checks_apps = self.settings.check_named_apps and not self.environments
            self._readings = InstructionReadings(
                files=self._named_files if self.settings.check_named_files else None,
                folders=self._named_folders if self.settings.check_named_files else None,
                sites=self._named_sites if self.settings.check_named_files else None,
                apps=self._named_apps if checks_apps else None,
                answer=self._asked_answer if self.settings.check_asked_answer else None,
                choices=self._choice if self.settings.read_choices else None,
                formats=self._format_targets if self.settings.read_choices else None,
                asked_formats=self._formats_read if self.settings.read_choices else None,
                ends=self._end if self.settings.check_left_out_effects else None,
            )
        return self._readings

    def _named_files(self, instruction: str) -> tuple[str, ...]:
        return self._named_places(instruction).files

    def _named_folders(self, instruction: str) -> tuple[str, ...]:
        return self._named_places(instruction).folders

    def _named_sites(self, instruction: str) -> tuple[str, ...]:
        return self._named_places(instruction).sites

    def _named_places(self, instruction: str) -> NamedPlaces:
        """The files, folders and sites the instruction names: one reading serves all."""
        if instruction not in self._places:
            agent = FileNamesAgent(self.models.for_role(FileNamesAgent.name), self.sink)
            self._places[instruction] = agent.places(instruction)
        return self._places[instruction]

    def _named_apps(self, instruction: str) -> tuple[AskedApp, ...]:
        agent = AppNamesAgent(self.models.for_role(AppNamesAgent.name), self.sink)
        return agent.asked(instruction, self.apps)

    def _asked_answer(self, instruction: str) -> bool:
        agent = AnswerAskedAgent(self.models.for_role(AnswerAskedAgent.name), self.sink)
        return agent.asked(instruction)

    def _choice(self, instruction: str, question: ChoiceQuestion) -> JsonValue | None:
        agent = ChoiceReadingAgent(self.models.for_role(ChoiceReadingAgent.name), self.sink)
        return agent.chosen(instruction, question)

    def _format_targets(self, instruction: str, formatting: str) -> Answers:
        agent = FormatTargetsAgent(self.models.for_role(FormatTargetsAgent.name), self.sink)
        return agent.answers(instruction, formatting)

    def _formats_read(
        self, instruction: str, paragraphs: str, options: tuple[str, ...]
    ) -> tuple[str, ...] | None:
        agent = FormatReadingAgent(self.models.for_role(FormatReadingAgent.name), self.sink)
        return agent.formats(instruction, paragraphs, options)

    def _end(self, instruction: str, app: str) -> End | None:
        agent = EffectReadingAgent(self.models.for_role(EffectReadingAgent.name), self.sink)
        return agent.end(instruction, app)

    def _search_words(self, instruction: str, program: Program, guess: GuessedAddress) -> str:
        agent = SearchWordsAgent(self.models.for_role(SearchWordsAgent.name), self.sink)
        return agent.words(instruction, program, guess)

    def plan(self, instruction: str) -> PlanOutcome:
        written = WrittenSteps(self.skills)
        return written.marked(self._manager(written).plan(instruction, step=0))

    def replan(self, replanning: Replanning, step: int) -> PlanOutcome:
        written = WrittenSteps(self.skills)
        return written.marked(self._manager(written).replan(replanning, step=step))


@dataclass
class SingleSubtaskPlanner:
    """No Manager: the whole instruction is one subtask, and there is nothing to re-plan."""

    can_replan: bool = False

    def plan(self, instruction: str) -> PlanOutcome:
        return PlanOutcome(single_subtask_plan(instruction))

    def replan(self, *_arguments: object, **_keywords: object) -> PlanOutcome:
        raise RunStateError("this run has no Manager to re-plan with")
