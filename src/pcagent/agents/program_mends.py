"""What code mends in each program the Manager's model writes, before it is checked: the slips
whose one meaning the program, the skills' declarations, memory's examples and the instruction
readings show (each module says what it mends and where it was seen). What could mean more
than one thing is left to the checks and doubts, and the model is asked again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from pcagent.agents.app_names_in_values import (
    file_names,
    without_app_names_in_searches,
    without_words_in_searches,
)
from pcagent.agents.asked_formats import with_asked_formats_read
from pcagent.agents.choice_readings import with_choices_read
from pcagent.agents.copied_files import with_named_files
from pcagent.agents.example_files import with_example_files_told
from pcagent.agents.existing_files import FileCheck, without_unused_missing_reads
from pcagent.agents.extraction_uses import with_extraction_uses_told
from pcagent.agents.file_kinds import with_kind_twins
from pcagent.agents.first_of_sorted import with_first_of_sorted_picked
from pcagent.agents.first_or_all import with_all_of_picked_read, with_first_or_all_read
from pcagent.agents.format_targets import with_format_targets_read
from pcagent.agents.found_fields import with_found_fields_read
from pcagent.agents.found_values_named import with_found_values_named
from pcagent.agents.instruction_readings import InstructionReadings
from pcagent.agents.invented_cells import (
    with_unused_rows_in_invented_list,
    with_unused_value_in_invented_cell,
    with_unused_value_in_ungiven_field,
    with_unused_values_in_labelled_rows,
)
from pcagent.agents.keys_of_readings import with_keys_of_readings_extracted
from pcagent.agents.lists_not_extracted import with_lists_not_extracted
from pcagent.agents.made_up_dates import with_dates_of_unused_readings
from pcagent.agents.made_up_texts import (
    with_unused_text_in_made_up_text,
    without_unused_texts,
)
from pcagent.agents.numbers_wanted import with_numbers_wanted
from pcagent.agents.one_search_for_many import with_one_search_for_each
from pcagent.agents.program import MAX_STEPS, Program, ProgramStep
from pcagent.agents.reference_keys import with_keys_mended
from pcagent.agents.repeated_steps import without_repeats
from pcagent.agents.skill_named_tasks import with_skill_named_tasks_called
from pcagent.agents.ungiven_names import without_ungiven_names
from pcagent.skills import SkillCatalog


@dataclass(frozen=True)
class ProgramMends:
    """The mends for one instruction's asks. ``done``: a re-plan's finished calls (one written
    again is dropped for it); ``given``: the instruction and the values found; ``examples``:
    memory's programs shown; ``is_file``: whether a path is a file in HOME (None: not known)."""

    skills: SkillCatalog
    readings: InstructionReadings
    instruction: str
    done: Sequence[ProgramStep]
    given: Sequence[str]
    examples: str
    is_file: FileCheck | None

    def __call__(self, written: Program) -> Program:
        """``written`` mended; ``written`` itself where the mends would make it longer than a
        program may be. Why: a 12-step program grew a step in a mend and the next mend's
        validation raised, which ended a whole benchmark run (a rewording of pc16 without
        memory, 2026-12-04); the checks and doubts see the program as written instead."""
        try:
            program = self._mended(written)
        except ValidationError:
            return written
        return program if len(program.steps) <= MAX_STEPS else written

    def _mended(self, written: Program) -> Program:
        skills, instruction = self.skills, self.instruction
        navigating = [one.name for one in skills if one.navigates]
        program = with_skill_named_tasks_called(written, skills)
        program = with_kind_twins(without_repeats(program, self.done, navigating, skills), skills)
        ran = [step.id for step in self.done]
        program = with_keys_of_readings_extracted(program, skills, ran)
        program = with_lists_not_extracted(program, skills)
        chosen = self.readings.chosen if self.readings.choices is not None else None
        program = with_first_of_sorted_picked(program, skills, chosen, instruction)
        program = with_found_values_named(with_keys_mended(program, skills), skills)
        program = with_one_search_for_each(program, skills)
        program = with_unused_value_in_invented_cell(program, skills, self.given)
        program = with_unused_value_in_ungiven_field(program, skills, self.given)
        program = with_unused_rows_in_invented_list(program, skills, self.given)
        program = with_unused_values_in_labelled_rows(program, skills, self.given)
        program = with_unused_text_in_made_up_text(program, skills, self.given)
        program = without_unused_texts(program, skills)
        program = with_dates_of_unused_readings(program, skills, self.given, ran)
        asked = self.readings.asked_apps(instruction)
        program = without_app_names_in_searches(program, asked, skills)
        program = without_ungiven_names(program, skills, self.given)
        apps = [one.app for one in asked]
        program = with_example_files_told(program, skills, self.examples, self.given, apps)
        if self.is_file is not None:  # a file copied from an example: the one named
            named = self.readings.named_files(instruction)
            program = without_words_in_searches(program, file_names(named), skills)
            program = with_named_files(program, skills, named, self.is_file)
            program = without_unused_missing_reads(program, skills, self.is_file)
        if self.readings.choices is not None:
            chosen = self.readings.chosen
            program = with_choices_read(program, skills, chosen, instruction)
            program = with_first_or_all_read(program, skills, chosen, instruction)
            program = with_all_of_picked_read(program, skills, chosen, instruction)
            program = with_found_fields_read(program, skills, chosen, instruction, self.given)
        if self.readings.formats is not None:
            targets = self.readings.format_targets
            program = with_format_targets_read(program, skills, targets, instruction, ran)
        if self.readings.asked_formats is not None and self.readings.formats is not None:
            reads, targets = self.readings.formats_asked, self.readings.format_targets
            program = with_asked_formats_read(program, skills, reads, targets, instruction)
        return with_numbers_wanted(with_extraction_uses_told(program, skills), skills)
