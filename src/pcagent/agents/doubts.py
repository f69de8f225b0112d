"""Everything about a program that only evidence judges, in one place.

An invented address or number, one value where a list is wanted, a whole reading where one value
is wanted, one value found (or a number given once) written for several items of a list, a value
found and never used, a file, a web site or an application the instruction names and no step
uses, a new file written in HOME itself while the folder the instruction names goes unused, a
file read and then written over with something not made from it, or written with nothing but
what was read out of it, a file written in an application not asked for while one asked for is
only read in, a file's path or the instruction's description of a text written as the text, a
time moved by two steps, an application's name typed or searched for as a value, a value copied
from memory's examples, an answer asked for and never told, an end asked of an application that
no step makes, an example's program with a step that leaves something done taken out, a line
spacing nobody said, a site opened and left at once for a search of the whole web, a screen
step where skills do the work (:mod:`screen_steps`): none of these
makes a program invalid (a small model may be right where the check cannot see), so each is a
doubt rather than an error. The Manager re-asks with them; the usable program with the fewest of
them is kept rather than the whole program lost to one GUI task, and its step carries the doubt,
so the run cannot end "finished" on it, and a step that fails on it is re-planned. (A form
filled on a page of search results is no longer one: the skill opens the results until one has
the form.)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from pcagent.agents.app_names_in_values import app_names_as_contents, app_names_in_values
from pcagent.agents.asked_answer import ReportingStep, tells, untold_answer
from pcagent.agents.dates_as_numbers import dates_as_numbers
from pcagent.agents.described_texts import described_texts
from pcagent.agents.example_values import example_values
from pcagent.agents.existing_files import FileCheck
from pcagent.agents.given_once import given_once_in_rows
from pcagent.agents.given_values import ungiven_literals
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.left_out_effects import left_out_effects
from pcagent.agents.left_out_of_examples import steps_left_out_of_examples
from pcagent.agents.moved_twice import moved_twice
from pcagent.agents.named_apps import AskedApp, apps_used, unused_apps
from pcagent.agents.named_files import untouched_files
from pcagent.agents.named_folders import folders_left_out
from pcagent.agents.named_sites import sites_left_out
from pcagent.agents.one_value_twice import one_value_twice
from pcagent.agents.paragraph_numbers import unsaid_paragraphs
from pcagent.agents.paths_as_text import paths_as_text
from pcagent.agents.plan import Doubt
from pcagent.agents.program import Program, ProgramStep
from pcagent.agents.reference_shapes import one_value_for_a_list
from pcagent.agents.repeated_values import one_value_for_several_items
from pcagent.agents.replaced_files import replaced_files
from pcagent.agents.said_multiples import unsaid_multiples
from pcagent.agents.screen_steps import screen_steps_beside_skills
from pcagent.agents.site_left import site_left_for_search
from pcagent.agents.ungiven_names import ungiven_names_in_searches, ungrounded_form_values
from pcagent.agents.unused_values import unused_values
from pcagent.agents.whole_readings import whole_readings
from pcagent.agents.written_back import written_back
from pcagent.agents.written_elsewhere import written_elsewhere
from pcagent.skills import SkillCatalog
from pcagent.skills.effects import End


class AppStep(ReportingStep, Protocol):
    """What the evidence reads of a finished step: its application, and whether it told."""

    app: str


@dataclass(frozen=True)
class Evidence:
    """What a program's doubts are judged against: ``given``, the instruction (first) and the
    values found so far; ``finished``, a re-plan's steps already done; ``named_files``,
    ``asked_apps`` and ``asked_answer``, what the instruction's readings found it names, asks
    for and whether it asks to be told a value; ``apps_used_before``, the applications of the
    finished steps, and ``told_before``, whether one of them told the person something."""

    given: Sequence[str]
    finished: Sequence[ProgramStep] = ()
    named_files: Sequence[str] = ()
    asked_apps: Sequence[AskedApp] = ()
    apps_used_before: Collection[str] = ()
    asked_answer: bool = False
    told_before: bool = False
    #: Memory's programs shown to the Manager (their values are other tasks').
    examples: str = ""
    #: The folders the instruction names, and whether a path is a file in HOME (None: unknown).
    named_folders: Sequence[str] = ()
    is_file: FileCheck | None = None
    #: What the instruction asks an application to leave done (None: not read).
    reads_end: Callable[[str], End | None] | None = None
    #: The web sites the instruction names.
    named_sites: Sequence[str] = ()
    #: Whether a screen step where skills work is doubted (:mod:`screen_steps`).
    screen_steps: bool = True

    @classmethod
    def read(
        cls,
        readings: InstructionReadings,
        instruction: str,
        given: Sequence[str],
        done: Sequence[ProgramStep],
        finished: Sequence[AppStep],
        examples: str = "",
        is_file: FileCheck | None = None,
    ) -> Evidence:
        """The evidence of ``instruction``'s readings, for a program written after the steps
        ``finished`` (of which ``done`` are the skill calls)."""
        return cls(
            given,
            done,
            readings.named_files(instruction),
            readings.asked_apps(instruction),
            {step.app for step in finished if step.app},
            readings.asked_answer(instruction),
            any(tells(step) for step in finished),
            examples,
            readings.named_folders(instruction),
            is_file,
            (lambda app: readings.asked_end(instruction, app)) if readings.ends else None,
            readings.named_sites(instruction),
        )

    def unused_apps(self, program: Program, skills: SkillCatalog) -> list[AskedApp]:
        """The applications asked for that neither the program nor the finished steps use."""
        used = apps_used(program, skills, self.apps_used_before)
        return [use for use in self.asked_apps if use.app not in used]

    def only_apps_left_out(
        self, program: Program, skills: SkillCatalog, doubts: list[Doubt]
    ) -> bool:
        """Whether ``doubts`` are all of applications the instruction asks for and the program
        leaves out. Why: re-asked whole for the step the file manager was asked for, the 1.5B
        Manager wrote an example's program instead (the title made smaller, a spacing nobody
        asked for), which had no doubt and ran, "finished" (a rewording of pc22, 2026-12-02),
        where its first program formatted the title as asked; the step each application is
        asked for alone (:mod:`focused_steps`) leaves the rest as written.

        So is the doubt that the last step works a value out and nothing shows it, beside an
        application left out: the step asked for in that application comes after it and can
        take the value. Re-asked whole for the spreadsheet a sort of two films' ratings was to
        be written into, the same Manager wrote an example's sheet with its numbers instead
        (generated task gen-2041-9, 2026-12-04)."""
        left_out = unused_apps(program, self.asked_apps, skills, self.apps_used_before)
        last = program.steps[-1].id if program.steps else ""
        unshown = [doubt for doubt in unused_values(program, skills) if doubt.step == last]
        return bool(doubts and left_out) and all(d in (*left_out, *unshown) for d in doubts)

    def doubts(self, program: Program, skills: SkillCatalog) -> list[Doubt]:
        """The doubts of ``program``, whose steps call ``skills``."""
        return [
            *_own(ungiven_literals(program, skills, self.given)),
            *_own(ungiven_names_in_searches(program, skills, self.given)),
            *_own(ungrounded_form_values(program, skills, self.given)),
            *_own(example_values(program, self.examples, self.given, skills)),
            *unsaid_paragraphs(program, skills, self.given),
            *unsaid_multiples(program, skills, self.given),
            *described_texts(program, skills, self.given),
            *given_once_in_rows(program, skills, self.given),
            *one_value_for_a_list(program, skills),
            *whole_readings(program, skills),
            *one_value_for_several_items(program),
            *unused_values(program, skills),
            *_own(site_left_for_search(program, skills)),
            *moved_twice(program, skills),
            *one_value_twice(program, skills),
            *dates_as_numbers(program, skills, self.finished),
            *replaced_files(program, skills, self.finished),
            *written_back(program, skills, self.finished),
            *paths_as_text(program, skills),
            *untouched_files(program, self.named_files, self.finished, skills),
            *folders_left_out(program, skills, self.named_folders, self.finished, self.is_file),
            *sites_left_out(program, skills, self.named_sites, self.finished),
            *unused_apps(program, self.asked_apps, skills, self.apps_used_before),
            *written_elsewhere(program, self.asked_apps, skills, self.finished),
            *_own(app_names_in_values(program, self.asked_apps)),
            *app_names_as_contents(program, skills),
            *([] if self.told_before else untold_answer(program, self.asked_answer)),
            *left_out_effects(program, skills, self.reads_end, self.finished),
            *([] if self.finished else steps_left_out_of_examples(program, self.examples)),
            *(screen_steps_beside_skills(program, skills) if self.screen_steps else []),
        ]


def _own(doubts: list[Doubt]) -> list[Doubt]:
    """``doubts`` marked as the doubted step's own (:attr:`Doubt.own`)."""
    return [replace(doubt, own=True) for doubt in doubts]
