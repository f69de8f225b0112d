"""What models read from an instruction once, before its programs are judged: the files and
folders and web sites it names (:mod:`named_files`, :mod:`named_folders`, :mod:`named_sites`),
the applications it asks for
(:mod:`named_apps`), whether it asks to be told a value (:mod:`asked_answer`) and which meaning
of a skill's choice it asks for (:mod:`choice_readings`), which paragraphs it asks each
formatting for (:mod:`format_targets`) and which formattings it asks for some paragraphs
(:mod:`asked_formats`), and what it asks each application to leave done
(:mod:`left_out_effects`).

Why one object: a run plans and re-plans with a new Manager each time, and every program of
each ask is judged against the same readings; each reading is a model call, made once per
instruction, and only when asked for (the files when a program is there to check, the
applications before the first ask, since memory's examples are chosen by them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import JsonValue

from pcagent.agents.asked_formats import ReadsFormats
from pcagent.agents.choice_readings import ChoiceQuestion, ReadsChoice, answered_both_ways
from pcagent.agents.format_targets import Answers, Paragraph, ReadsAnswers, targets_of
from pcagent.agents.left_out_effects import ReadsEnd
from pcagent.agents.named_apps import AskedApp
from pcagent.skills.effects import End


@dataclass
class InstructionReadings:
    """The readings' models, each None where its check is off; each reading is kept per
    instruction."""

    files: Callable[[str], Sequence[str]] | None = None
    folders: Callable[[str], Sequence[str]] | None = None
    sites: Callable[[str], Sequence[str]] | None = None
    apps: Callable[[str], Sequence[AskedApp]] | None = None
    answer: Callable[[str], bool] | None = None
    choices: ReadsChoice | None = None
    formats: ReadsAnswers | None = None
    asked_formats: ReadsFormats | None = None
    ends: ReadsEnd | None = None
    _read: dict[tuple[str, str], Any] = field(default_factory=dict, init=False, repr=False)

    def named_files(self, instruction: str) -> tuple[str, ...]:
        """The file names the instruction writes out (() when not read)."""
        return tuple(self._once(self.files, "files", instruction) or ())

    def named_folders(self, instruction: str) -> tuple[str, ...]:
        """The folders the instruction names (() when not read)."""
        return tuple(self._once(self.folders, "folders", instruction) or ())

    def named_sites(self, instruction: str) -> tuple[str, ...]:
        """The web sites the instruction names (() when not read)."""
        return tuple(self._once(self.sites, "sites", instruction) or ())

    def asked_apps(self, instruction: str) -> tuple[AskedApp, ...]:
        """The applications the instruction asks for, with its words (() when not read)."""
        return tuple(self._once(self.apps, "apps", instruction) or ())

    def asked_answer(self, instruction: str) -> bool:
        """Whether the instruction asks to be told a value (False when not read)."""
        return bool(self._once(self.answer, "answer", instruction))

    def chosen(self, instruction: str, question: ChoiceQuestion) -> JsonValue | None:
        """The value of ``question`` the instruction asks for (None when not read)."""
        choices = self.choices
        if choices is None:
            return None
        which = f"choice {question.skill}.{question.parameter}"
        return self._once(lambda words: choices(words, question), which, instruction)

    def format_targets(self, instruction: str, formatting: str) -> list[Paragraph] | None:
        """The paragraphs the instruction asks ``formatting`` for (None when not read)."""
        return targets_of(self._format_answers(instruction, formatting))

    def targets_read_both_ways(self, instruction: str, formatting: str) -> bool:
        """Whether the question of ``formatting``'s paragraphs got two answers, one for each
        order of the options (False when not read)."""
        return answered_both_ways(*self._format_answers(instruction, formatting))

    def _format_answers(self, instruction: str, formatting: str) -> Answers:
        formats = self.formats
        if formats is None:
            return (None, None)
        which = f"format {formatting}"
        return self._once(lambda words: formats(words, formatting), which, instruction)

    def formats_asked(
        self, instruction: str, paragraphs: str, options: tuple[str, ...]
    ) -> tuple[str, ...] | None:
        """The formattings of ``options`` the instruction asks for ``paragraphs`` (None when
        not read)."""
        asked = self.asked_formats
        if asked is None:
            return None
        which = f"formats of {paragraphs}: {'|'.join(options)}"
        return self._once(lambda words: asked(words, paragraphs, options), which, instruction)

    def asked_end(self, instruction: str, app: str) -> End | None:
        """What the instruction asks ``app`` to leave done (None when not read)."""
        ends = self.ends
        if ends is None:
            return None
        return self._once(lambda words: ends(words, app), f"end {app}", instruction)

    def _once(self, read: Callable[[str], Any] | None, which: str, instruction: str) -> Any:
        """What ``read`` made of ``instruction``, asked the first time only; None without it."""
        if read is None:
            return None
        key = (which, instruction)
        if key not in self._read:
            self._read[key] = read(instruction)
        return self._read[key]
