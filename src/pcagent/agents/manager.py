"""The Manager (instruction level): writes the plan as a typed program of skill calls.

The model reads the instruction and writes a :class:`~pcagent.agents.program.Program` under a
grammar made from the skills' schemas: a skill call per step where a skill fits, a GUI task in
words for the Decision loop where none does, arguments as literals or references to earlier steps.
It is validated before anything runs and re-asked (twice at most) with its problems and doubts; the
usable program with the fewest doubts is kept, a step its doubts ask for is asked for alone; where
none is usable, its faulty steps are asked for alone, then the whole instruction becomes one GUI
task: a weak model degrades the run instead of ending it. Only the model reads the instruction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

from pcagent.agents.adapted_example import adapt_messages
from pcagent.agents.base import Agent
from pcagent.agents.doubted_changes import without_doubted_changes
from pcagent.agents.doubts import Evidence
from pcagent.agents.dropped_steps import Corrections
from pcagent.agents.existing_files import FileCheck
from pcagent.agents.focused_steps import FocusedSteps
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.kept_doubts import kept_doubts
from pcagent.agents.manager_memory import (
    Remembers,
    example_filters,
    examples_text,
    names_given_file,
    reask_text,
    shown_examples,
    with_apps_of_files,
)
from pcagent.agents.manager_prompt import ManagerPrompt
from pcagent.agents.plan import (
    Doubt,
    Plan,
    PlanOutcome,
    Replanning,
    SubtaskSpec,
    fallback_plan,
    with_doubts,
)
from pcagent.agents.program import Program, program_plan
from pcagent.agents.program_grammar import program_reply_type
from pcagent.agents.program_mends import ProgramMends
from pcagent.agents.program_problems import program_problems
from pcagent.agents.prompting import replan_context
from pcagent.agents.refused_values import with_refusals
from pcagent.agents.repeated_steps import finished_calls
from pcagent.agents.screen_retries import screen_cannot_retry, screen_retry
from pcagent.agents.search_instead import GuessedAddress, searched_instead
from pcagent.agents.step_ids import next_step_number
from pcagent.errors import PromptTooLongError
from pcagent.models.messages import Message
from pcagent.skills import SkillCatalog

#: Programs asked for before the whole instruction becomes one GUI task: a small model often
#: fixes the problems one at a time, and a program call costs far less than a GUI run.
PROGRAM_ATTEMPTS = 3
#: Re-asks may be sampled at this (``Manager(reask_temperature=...)``): a greedy model re-asked
#: wrote the same program again. Off: sampled programs were no better (docs/agents.md).
REASK_TEMPERATURE = 0.7


@dataclass
class Manager(Agent):
    """Plans and re-plans. ``apps``: the applications the environment offers (logical name ->
    what it is for); ``skills``: the skills it may call (an empty catalog: GUI tasks only)."""

    apps: Mapping[str, str] = field(kw_only=True)
    skills: SkillCatalog = field(kw_only=True)
    #: A run across several desktops: each desktop's name and its applications, the first the
    #: default; each step names the desktop it works on. Empty (or one): a single desktop.
    environments: Mapping[str, Sequence[str]] = field(default_factory=dict, kw_only=True)
    #: Long-term memory: programs of similar earlier instructions whose runs were verified, as
    #: prompt lines for an instruction ("" when there are none).
    memory: Remembers | None = field(default=None, kw_only=True)
    #: The reply opens with what the instruction asks, one thing each, before the steps.
    lists_requests: bool = field(default=False, kw_only=True)
    #: The prompt's own example stays beside memory's programs (off: only where memory shows
    #: none; as many programs fitted either way on 20 generated tasks: docs/agents.md).
    example_beside_memory: bool = field(default=True, kw_only=True)
    #: Whether a path names a file in HOME (None: the run cannot tell, as on several desktops).
    is_file: FileCheck | None = field(default=None, kw_only=True)
    #: What models read from the instruction, each checked against every program; a reading
    #: with no model is not checked (:mod:`instruction_readings`).
    readings: InstructionReadings = field(default_factory=InstructionReadings, kw_only=True)
    #: What to search for where a program opens an address nobody gave (:mod:`search_instead`);
    #: None: the address is kept with its doubt and the program re-asked.
    search_words: Callable[[str, Program, GuessedAddress], str] | None = field(
        default=None, kw_only=True
    )
    #: Memory's programs using every application asked for come first (:mod:`manager_memory`).
    examples_cover_apps: bool = field(default=True, kw_only=True)
    #: Memory's programs are shown nearest last, next to the instruction (off: nearest first).
    nearest_example_last: bool = field(default=False, kw_only=True)
    #: Of those, the ones that work in no other application alone, where there are any.
    examples_only_asked_apps: bool = field(default=True, kw_only=True)
    #: Of those, for an instruction naming a file that is there, those working on such a file.
    examples_given_files: bool = field(default=True, kw_only=True)
    #: Where the first program has problems or doubts, the second ask shows memory's nearest
    #: program alone, to be changed into this instruction's (:mod:`adapted_example`).
    adapts_nearest: bool = field(default=True, kw_only=True)
    #: Programs asked for before giving up on a usable one (see :data:`PROGRAM_ATTEMPTS`).
    program_attempts: int = field(default=PROGRAM_ATTEMPTS, kw_only=True)
    #: A re-plan is shown memory's programs too (without: GUI steps named after skills).
    examples_in_replans: bool = field(default=True, kw_only=True)
    #: The temperature a greedy model's re-asks are sampled at (None: greedy, as the first).
    reask_temperature: float | None = field(default=None, kw_only=True)
    #: A kept program's doubts that say which step is wanted (an application asked for and
    #: unused, a value found and unused) ask for that step alone, kept where it leaves fewer
    #: doubts; a program never usable has its faulty steps asked for alone before the
    #: instruction becomes one GUI task (:mod:`focused_steps`).
    asks_single_steps: bool = field(default=True, kw_only=True)
    #: A screen step where skills work is a doubt that asks again (:mod:`screen_steps`).
    doubts_screen_steps: bool = field(default=True, kw_only=True)
    name: ClassVar[str] = "manager"
    #: The prompt lists every skill with its parameters; a backend that decodes under the
    #: grammar needs no schema text besides (it would not fit a small model's context).
    describes_reply: ClassVar[bool] = True

    def plan(self, instruction: str, step: int | None = 0) -> PlanOutcome:
        """The program for ``instruction``."""
        examples = self._examples(self.memory, instruction)
        return self._ask(instruction, "", (), step, found=(), examples=examples)

    def replan(self, replanning: Replanning, step: int | None = None) -> PlanOutcome:
        """A program for what remains after the failed subtask (finished steps not redone)."""
        finished, failed = replanning.finished, with_refusals(replanning.failed, replanning.reason)
        first = next_step_number([s.id for s in (*finished, failed)])
        context = replan_context(replanning, first)
        found, instruction = list(replanning.hub.values()), replanning.instruction
        memory = self.memory if self.examples_in_replans else None
        shown = self._examples(memory, instruction)
        outcome = self._ask(
            instruction, context, finished, step, found=found, failed=failed, examples=shown
        )
        if outcome.fallback:
            retry = screen_retry(failed, self.skills, f"s{first}", replanning.reason)
            return PlanOutcome(
                Plan(subtasks=[retry]),
                fallback=True,
                problem=outcome.problem,
                nothing_left=screen_cannot_retry(failed, self.skills),
            )
        return outcome

    # --- asking ---------------------------------------------------------------------------------

    def _ask(
        self,
        instruction: str,
        context: str,
        finished: Sequence[SubtaskSpec],
        step: int | None,
        *,
        found: Sequence[str],
        failed: SubtaskSpec | None = None,
        examples: str = "",
    ) -> PlanOutcome:
        """The program, asked with the full prompt, then with a compact one when the model's
        context cannot hold it; the fallback when neither fits. ``found``: the values earlier
        steps found, which literals may copy as they copy the instruction's; ``finished``: a
        re-plan's steps already done; ``examples``: memory's programs, shown before the
        instruction."""
        problem = ""
        for compact in (False, True):
            try:
                return self._ask_with(
                    instruction,
                    context,
                    finished,
                    step,
                    compact=compact,
                    given=[instruction, *found],
                    failed=failed,
                    examples=examples,
                )
            except PromptTooLongError as error:
                problem = str(error)
                examples = ""  # memory's examples are the first thing to go
        return self._fallback(instruction, problem)

    def _fallback(self, instruction: str, problem: str) -> PlanOutcome:
        """The whole instruction as one GUI step (:func:`fallback_plan`)."""
        first = next(iter(self.environments)) if self._several_desktops else ""
        plan = fallback_plan(instruction, self._default_app(), first)
        return PlanOutcome(plan, fallback=True, problem=problem)

    def _ask_with(
        self,
        instruction: str,
        context: str,
        finished: Sequence[SubtaskSpec],
        step: int | None,
        *,
        compact: bool,
        given: Sequence[str],
        failed: SubtaskSpec | None,
        examples: str,
    ) -> PlanOutcome:
        asking = (instruction, context, examples)
        messages = asked = self._prompt(*asking, compact=compact)
        reply_type = program_reply_type(
            self.skills, list(self.apps), list(self.environments), requests=self.lists_requests
        )
        known, done = list(finished), finished_calls(finished)  # done: not written again
        mended = ProgramMends(
            self.skills, self.readings, instruction, done, given, examples, self.is_file
        )
        problem, replies, corrections = "", set[str](), Corrections(self.skills)
        # A greedy model's re-asks are sampled (it wrote its program again word for word); one
        # not sampled that writes a reply again would write it for every later ask: the last.
        sampled = self.model.info.greedy and self.reask_temperature is not None
        repeats = self.model.info.greedy and not sampled
        best: tuple[Program, list[Doubt]] | None = None  # kept: fewest doubts, first of two alike
        unusable: Program | None = None  # the latest program with problems, to repair
        evidence = Evidence.read(
            self.readings, instruction, given, done, finished, examples, self.is_file
        )
        evidence = replace(evidence, screen_steps=self.doubts_screen_steps)
        filters = self._example_filters(instruction)  # a re-ask's example is picked alike

        def usable(changed: Program) -> bool:
            return not self._problems(changed, known, failed)

        for attempt in range(self.program_attempts):
            heat = self.reask_temperature if sampled and attempt else None
            result = (self.reasked if attempt else self.ask)(messages, reply_type, step, heat)
            if result is None:  # a re-ask too long: what the asks gave is settled (reasked)
                break
            if result.value is None:
                problem = result.failure.message if result.failure else "no reply"
                break
            last = attempt == self.program_attempts - 1 or (repeats and result.raw_text in replies)
            replies.add(result.raw_text)
            program = mended(Program(steps=list(result.value.steps)))
            problems = self._problems(program, known, failed)
            reply = result.raw_text
            words = None if problems else self.search_words
            swapped = searched_instead(program, instruction, given, self.skills, words, usable)
            if swapped is not program:  # the re-ask shows the program the doubts are of
                # Mended again: the search's words are a model's too, and they named the file
                # read before ("memo.txt Documents ... travel time", pc02, 2026-11-29).
                program = mended(swapped)
                reply = program.model_dump_json(exclude_defaults=True)
            doubts = [*evidence.doubts(program, self.skills), *corrections.doubts(program)]
            unusable = program if problems else unusable
            if not problems and (best is None or len(doubts) < len(best[1])):
                best = (program, doubts)
            if not problems and not doubts:
                return self._kept(instruction, program, doubts, replan=bool(failed))
            alone = not problems and self._alone
            if alone and evidence.only_apps_left_out(program, self.skills, doubts):
                break  # each application's step asked for alone (_settled), the rest kept
            # Every problem at once (told only of a file's kind, a small model kept the file).
            problem = "; ".join([*problems, *map(str, doubts)])
            if last:
                break
            adapted = None if attempt else self._adapted(*asking, filters, compact)
            if adapted is None:  # a reply is judged by what it drops of the program shown
                corrections.shown(program, problems, doubts)
            messages = adapted or [  # the latest program alone (all of them filled the context)
                *asked,
                Message.assistant(reply),
                Message.user(reask_text(self.memory, instruction, problem, doubts, filters)),
            ]
        focused = self._focused_steps(mended, (known, failed), step, evidence, filters)
        return self._settled(instruction, best, unusable, focused, problem, replan=bool(failed))

    def _settled(
        self,
        instruction: str,
        best: tuple[Program, list[Doubt]] | None,
        unusable: Program | None,
        focused: FocusedSteps,
        problem: str,
        *,
        replan: bool,
    ) -> PlanOutcome:
        """The plan once the asks ran out: the best program with the steps asked for alone
        (:mod:`focused_steps`), or the unusable one repaired so, or the fallback."""
        single = self._alone
        if best is None and unusable is not None and single:
            fixed = focused.repaired(instruction, unusable)
            best = (fixed, focused.doubts(fixed)) if fixed else None
        if best is None:
            return self._fallback(instruction, problem)
        if best[1] and single:
            best = focused.improved(instruction, *best)
        return self._kept(instruction, *best, replan=replan)

    def _focused_steps(
        self,
        mended: ProgramMends,
        replanned: tuple[Sequence[SubtaskSpec], SubtaskSpec | None],
        step: int | None,
        evidence: Evidence,
        filters: dict[str, Any],
    ) -> FocusedSteps:
        """The single steps' asks of one program ask (``replanned``: a re-plan's finished ids
        and failed step). Where memory's examples were shown, a step asked for alone is shown
        the nearest that calls one of its skills, picked with the examples' ``filters``."""
        instruction, (known, failed) = mended.instruction, replanned
        memory = self.memory if mended.examples else None

        def remembered(wanted: Sequence[str]) -> str:
            return shown_examples(memory(instruction, 1, wanted, **filters)) if memory else ""

        return FocusedSteps(
            self.skills,
            list(self.apps),
            lambda messages, reply_type: self.ask(messages, reply_type, step).value,
            mended,
            lambda program: self._problems(program, known, failed),
            lambda program: evidence.doubts(program, self.skills),
            lambda program: evidence.unused_apps(program, self.skills),
            remembered,
        )

    @property
    def _prompt(self) -> Callable[..., list[Message]]:
        """The prompt's messages (:meth:`ManagerPrompt.messages`)."""
        return ManagerPrompt(
            self.apps, self.skills, self.readings, self.environments,
            self.example_beside_memory, self.lists_requests,
        ).messages  # fmt: skip

    def _adapted(
        self, instruction: str, context: str, examples: str, filters: dict[str, Any], compact: bool
    ) -> list[Message] | None:
        """The second ask's messages, memory's nearest program alone to be changed (None where
        memory showed none or it is off: :mod:`adapted_example`)."""
        if not examples or not self.adapts_nearest:
            return None
        prompt = partial(self._prompt, instruction, context, compact=compact)
        return adapt_messages(self.memory, instruction, filters, prompt)

    def _kept(
        self, instruction: str, program: Program, doubts: list[Doubt], *, replan: bool
    ) -> PlanOutcome:
        """The plan of the program kept, cut before a change it doubts (:func:`kept_doubts`);
        the fallback where every step is such a change."""
        doubts = [*doubts, *kept_doubts(program, self.skills, self.readings, instruction, replan)]
        program, doubts = without_doubted_changes(program, doubts, self.skills, self.is_file)
        if not program.steps:  # every step changes the person's files on a doubt
            return self._fallback(instruction, str(doubts[0]))
        return PlanOutcome(with_doubts(self._plan_of(program), doubts))

    def _examples(self, memory: Remembers | None, instruction: str) -> str:
        filters, last = self._example_filters(instruction), self.nearest_example_last
        return examples_text(memory, instruction, last, **filters)

    def _example_filters(self, instruction: str) -> dict[str, Any]:
        named = self.readings.named_files(instruction)
        asked = self.readings.asked_apps(instruction) if self.examples_cover_apps else ()
        asked = with_apps_of_files(asked, named, self.skills) if asked else asked
        given = names_given_file(named, self.is_file) if self.examples_given_files else False
        return example_filters(
            self.skills, asked, only_asked=self.examples_only_asked_apps, given_file=given
        )

    def _problems(
        self, program: Program, known: Sequence[SubtaskSpec], failed: SubtaskSpec | None
    ) -> list[str]:
        """What makes ``program`` unusable (:func:`program_problems`)."""
        desktops = list(self.environments) if self._several_desktops else ()
        replanned = (known, failed)
        return program_problems(
            program, self.skills, list(self.apps), desktops, replanned, self.is_file
        )

    def _plan_of(self, program: Program) -> Plan:
        """The program's plan, each step on the desktop it names (the first where it names none;
        on a single desktop, none)."""
        default = next(iter(self.environments)) if self._several_desktops else ""
        return Plan(
            subtasks=[
                s if s.environment and default else s.model_copy(update={"environment": default})
                for s in program_plan(program, self.skills).subtasks
            ]
        )

    def _default_app(self) -> str:
        """A fallback GUI task's application: the only one, else none (assigned by capability)."""
        return next(iter(self.apps)) if len(self.apps) == 1 else ""

    @property
    def _several_desktops(self) -> bool:
        return len(self.environments) > 1

    @property
    def _alone(self) -> bool:
        """Whether single steps are asked for alone (:mod:`focused_steps`)."""
        return self.asks_single_steps and not self._several_desktops
